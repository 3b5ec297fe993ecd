# Plays signals on one player's outputs (his vibration motor, and his side's LED for deaf
# players) without blocking: step(now) switches them at the right ticks. The rules, the
# same on the motor and on the light:
#   - two signals are always apart by SEPARATION_MS, a second longer than any pause inside
#     a signal (the pause between groups of a number), so that no two run together;
#   - an answer the player asked for (his time, the opponent's, his moves) plays whole:
#     an event that comes meanwhile waits for its end, except the flag and the last ten
#     seconds (patterns.URGENT), which cut it - felt as cut, by a rattle (patterns.CUT),
#     then the pause, then the event;
#   - answers queue (at most MAX_ANSWERS) and each is made when it begins (its time is the
#     time then); the asker's touches settle first (not_before), and his touch while an
#     answer plays stops it and the answers after it;
#   - the last five seconds' ticks are one countdown: a tick a second, played at once when
#     nothing else plays, waits or ended within the separation (dropped, being late, when
#     one does); the flag ends the countdown, a tick's second after its last tick;
#   - whose turn it is ("your clock runs", "your move was completed") is told by the latest
#     such signal only: one still waiting is replaced by the newer (in quick play a queue of
#     them would tell an old turn seconds late).
from firmware.access.numbercode import MAX_PAUSE_MS
from firmware.access.patterns import CUT, MOVE_DONE, OPPONENT_MOVED, TICK_PATTERN

SEPARATION_MS = MAX_PAUSE_MS + 1000
MAX_ANSWERS = 3
_TICK = TICK_PATTERN
_TURNS = (OPPONENT_MOVED, MOVE_DONE)
_NONE = 0
_EVENT = 1
_ANSWER = 2
_CUT = 3
_COUNTDOWN = 4


class SignalPlayer:
    def __init__(self, set_output, diff, log=None, compose=None):
        """set_output(level): 0 off, 1 normal, 2 strong; diff: ticks_diff; compose(kind,
        now): an answer's pulses, made as it begins; log: a list to record every switch in
        as (tick, level), for tests (none on the board: a long game would fill the heap)."""
        self.set_output = set_output
        self.diff = diff
        self.compose = compose
        self._events = []  # patterns waiting
        self._answers = []  # kinds of answers waiting
        self._not_before = None  # answers wait until this tick (the asker's touches)
        self._pulses = None  # what plays now
        self._kind = _NONE
        self._i = 0
        self._on = False
        self._at = 0  # tick the current step began
        self._quiet_since = None  # when the last signal ended
        self._last = _NONE  # what it was
        self._urgent = None  # the urgent pattern waiting (it may follow a countdown's tick)
        self.log = log
        self.cuts = 0  # answers cut short by an urgent event
        self.answered = 0  # answers played whole

    @property
    def busy(self):
        return self._pulses is not None or bool(self._events) or bool(self._answers)

    @property
    def answering(self):
        """An answer is playing (not merely waiting)."""
        return self._pulses is not None and self._kind == _ANSWER

    def event(self, pattern, now, urgent=False):
        """An event's pattern: played after what plays now and the pause; urgent, it cuts
        an answer short. A countdown tick plays at once or not at all; a turn's signal
        replaces one still waiting."""
        if pattern is _TICK:
            if self._pulses is None and not self._events and (
                    self._quiet_since is None or self._last == _COUNTDOWN
                    or self.diff(now, self._quiet_since) >= SEPARATION_MS):
                self._start(pattern, _COUNTDOWN, now)
            return
        if urgent and self.answering:
            self._off(now)
            self.cuts += 1
            self._events.insert(0, pattern)
            self._start(CUT, _CUT, now)
            return
        if urgent:
            self._urgent = pattern
        if pattern in _TURNS:
            for i in range(len(self._events)):
                if self._events[i] in _TURNS:
                    del self._events[i]
                    break
        self._events.append(pattern)

    def answer(self, kind, not_before):
        """An answer the player asked for, after the pause and not before not_before.
        False when MAX_ANSWERS wait already."""
        self._not_before = not_before
        if len(self._answers) >= MAX_ANSWERS:
            return False
        self._answers.append(kind)
        return True

    @property
    def asking(self):
        """Answers wait, none has begun: a touch now adds to the question."""
        return bool(self._answers) and not self.answering

    def stop(self, now):
        """The asker's touch while his answer plays: it stops, and the answers after it go."""
        self._answers = []
        if self.answering:
            self._off(now)
            self._ended(now)
            return True
        return False

    def clear(self, now):
        """Everything playing or waiting goes (the menu's player stepped on): what comes
        next begins after the pause, counted from now."""
        self._events = []
        self._answers = []
        self._urgent = None
        if self._pulses is not None:
            self._off(now)
            self._ended(now)

    def _set(self, level, now):
        self.set_output(level)
        if self.log is not None:
            self.log.append((now, level))

    def _off(self, now):
        if self._on:
            self._set(0, now)
            self._on = False

    def step(self, now):
        if self._pulses is None:
            if self._quiet_since is not None and self.diff(now, self._quiet_since) < SEPARATION_MS and not (
                    self._last == _COUNTDOWN and self._events and self._events[0] is self._urgent):
                return
            if self._events:
                pattern = self._events.pop(0)
                if pattern is self._urgent:
                    self._urgent = None
                self._start(pattern, _EVENT, now)
            elif self._answers and (self._not_before is None or self.diff(now, self._not_before) >= 0):
                kind = self._answers.pop(0)
                pulses = self.compose(kind, now) if self.compose is not None else kind
                self._start(pulses, _ANSWER, now)
            return
        on, off, level = self._pulses[self._i]
        if self._on:
            if self.diff(now, self._at) >= on:
                self._set(0, now)
                self._on = False
                self._at = now
                if off == 0:
                    self._next(now)
        elif self.diff(now, self._at) >= off:
            self._next(now)

    def _start(self, pulses, kind, now):
        self._pulses = pulses
        self._kind = kind
        self._i = 0
        self._pulse(now)

    def _pulse(self, now):
        self._set(self._pulses[self._i][2], now)
        self._on = True
        self._at = now

    def _next(self, now):
        self._i += 1
        if self._i >= len(self._pulses):
            if self._kind == _ANSWER:
                self.answered += 1
            self._ended(now)
            return
        self._pulse(now)

    def _ended(self, now):
        """What played is over (whole, or stopped): the pause counts from now."""
        self._quiet_since = now
        self._last = self._kind
        self._pulses = None
        self._kind = _NONE
