# Plays a trace through the move recogniser, as the device's loop would: a scan every
# scan_ms, the buttons as they come, idle work between scans. Runs under CPython and in
# micropython. Returns the game (its moves are what was recognised) and the events.
import gc

from firmware.board.recognizer import MoveRecognizer
from firmware.board.sink import GameSink
from firmware.rules.san import san
from simulator.trace import parse_line
from firmware.rules.game import Game
from firmware.rules.squares import WHITE, BLACK


class Events(GameSink):
    """The recogniser's sink for tests: plays the moves on the game, and keeps what the
    recogniser told as (kind, a, b) tuples."""

    def __init__(self, game, keep=True):
        GameSink.__init__(self, game)
        self.keep = keep
        self.list = []
        self.moves = 0
        self.takebacks = 0

    def _add(self, kind, a, b):
        if self.keep:
            self.list.append((kind, a, b))

    def make_move(self, m, now):
        self.moves += 1
        self._add("move", m, san(self.game.position, m) if self.keep else None)
        self.game.push(m)

    def take_back(self, ply, now):
        GameSink.take_back(self, ply, now)
        self.takebacks += 1
        self._add("takeback", self.game.ply, None)

    def new_game(self, fen, chess960, now):
        GameSink.new_game(self, fen, chess960, now)
        self._add("new_game", self.game.fen(), None)

    def promotion(self, piece, square):
        self._add("promotion", piece, square)

    def touched(self, square):
        self._add("touched", square, None)

    def attempt(self, frm, to):
        self._add("illegal", frm, to)

    def illegal_completed(self, side, attempt):
        self._add("illegal_completed", side, attempt)

    def differs(self, missing, fixes):
        self._add("differs", missing, fixes)

    def sync(self):
        self._add("sync", None, None)

    def kinds(self):
        return [e[0] for e in self.list]


def replay(lines, fen=None, chess960=False, scan_ms=10, tail_ms=2500, keep=True, rec=None, **kw):
    """Play the trace lines; rec: a recogniser to reuse (its game is reset to fen), as the
    device keeps one for its whole life."""
    if rec is None:
        gc.collect()  # the last replay's recogniser is garbage now: give its blocks back
        game = Game(fen, chess960)
        events = Events(game, keep)
        rec = MoveRecognizer(game, sink=events, **kw)
    else:
        game = rec.game
        game.reset(fen, chess960)
        events = Events(game, keep)
        rec.sink = events
        rec.restart(0)
    occ = bytearray(8)
    now = 0
    last = 0
    for line in lines:
        ev = parse_line(line)
        if ev is None:
            continue
        t, kind, arg = ev
        while now < t:
            rec.scan(occ, now)
            rec.idle()
            now += scan_ms
        if kind == "occ":
            occ[:] = arg
        elif kind == "press":
            rec.press(WHITE if arg == "white" else BLACK, now)
        else:
            rec.button(arg[0], arg[1], now)
        last = t
    end = last + tail_ms
    while now < end:
        rec.scan(occ, now)
        now += scan_ms
    return game, events, rec
