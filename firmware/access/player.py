# Plays signals on one player's outputs (his vibration motor, and his side's LED for deaf
# players) without blocking: step(now) switches them at the right ticks. Event signals
# come first: an on-demand number (the time asked for) is only ever started with no event
# signal playing or due, with a clear pause before it, and an event cuts it short, so a
# number can never be taken for an event signal or the other way round.
CLEAR_MS = 1200  # silence before a number, and after a cut-short one


class SignalPlayer:
    def __init__(self, set_output, diff, log=None):
        """set_output(level): 0 off, 1 normal, 2 strong; diff: ticks_diff; log: a list to
        record every switch in as (tick, level), for tests (none on the board: a long game
        would fill the heap with them)."""
        self.set_output = set_output
        self.diff = diff
        self._events = []  # patterns waiting
        self._number = None  # pulses of a number waiting or playing
        self._pulses = None  # what plays now
        self._is_number = False
        self._i = 0
        self._on = False
        self._at = 0  # tick the current step began
        self._quiet_since = None
        self.log = log

    @property
    def busy(self):
        return self._pulses is not None or bool(self._events)

    def event(self, pattern, now):
        if self._is_number and self._pulses is not None:
            self._stop(now)  # an event signal cuts a number short
            self._number = None
        self._events.append(pattern)

    def number(self, pulses, now):
        """A number on demand: played when no event signal is playing or waiting."""
        self._number = pulses

    def _set(self, level, now):
        self.set_output(level)
        if self.log is not None:
            self.log.append((now, level))

    def _stop(self, now):
        if self._on:
            self._set(0, now)
        self._pulses = None
        self._on = False
        self._quiet_since = now

    def step(self, now):
        if self._pulses is None:
            if self._events:
                self._start(self._events.pop(0), False, now)
            elif self._number is not None and (
                    self._quiet_since is None or self.diff(now, self._quiet_since) >= CLEAR_MS):
                pulses, self._number = self._number, None
                self._start(pulses, True, now)
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

    def _start(self, pulses, is_number, now):
        self._pulses = pulses
        self._is_number = is_number
        self._i = 0
        self._pulse(now)

    def _pulse(self, now):
        self._set(self._pulses[self._i][2], now)
        self._on = True
        self._at = now

    def _next(self, now):
        self._i += 1
        if self._i >= len(self._pulses):
            self._pulses = None
            self._quiet_since = now
            return
        self._pulse(now)
