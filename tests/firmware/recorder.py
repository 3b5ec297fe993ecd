# A clock's and a match's sink for the firmware tests (both interpreters): it keeps what
# it was told. Apart from support.py, so that a test of the board alone does not load the
# clock and the match into micropython's capped heap.
from firmware.match import MatchSink


class Recorder(MatchSink):
    """A clock's and a match's sink that keeps what it was told, as (kind, side, value)
    tuples: ("flag", WHITE, 1), ("outcome", Outcome, None), ..."""

    def __init__(self):
        self.events = []

    def _keep(self, kind, a, b):
        self.events.append((kind, a, b))

    def started(self, side, ms):
        self._keep("start", side, ms)

    def pressed(self, side, ms):
        self._keep("press", side, ms)

    def period(self, side, k):
        self._keep("period", side, k)

    def flag(self, side, n):
        self._keep("flag", side, n)

    def frozen(self, side):
        self._keep("freeze", side, 0)

    def paused(self, side, ms):
        self._keep("pause", side, ms)

    def resumed(self, side, ms):
        self._keep("resume", side, ms)

    def stopped(self):
        self._keep("stop", None, 0)

    def time_set(self, side, ms):
        self._keep("set_time", side, ms)

    def moves_set(self, side, n):
        self._keep("set_moves", side, n)

    def period_set(self, side, k):
        self._keep("set_period", side, k)

    def time_added(self, side, ms):
        self._keep("add_time", side, ms)

    def quickplay(self, ms):
        self._keep("quickplay", None, ms)

    def played(self, ply, m):
        self._keep("move", ply, m)

    def completed(self, side, ply):
        self._keep("completed", side, ply)

    def illegal_press(self, side, n):
        self._keep("illegal_press", side, n)

    def illegal_move(self, side, n):
        self._keep("illegal_move", side, n)

    def penalty(self, side, ms):
        self._keep("penalty", side, ms)

    def claim(self, side, correct):
        self._keep("claim", side, correct)

    def outcome(self, o):
        self._keep("outcome", o, None)

    def kinds(self):
        return [e[0] for e in self.events]
