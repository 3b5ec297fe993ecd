# The dual clock (FIDE art. 6, guidelines III, Handbook C.02).
#
# Time is integer milliseconds from an injected tick source. Each side's time is kept as
# what it had when its turn began; during a turn the time shown is computed from the
# turn's elapsed milliseconds (ticks_diff of two ticks), so nothing is ever accumulated and
# no rounding can creep in over an eight-hour game. A deadline (turn milliseconds at which
# the running side's flag falls or its overtime begins) makes the per-tick check one
# ticks_diff and one comparison, and the flag's exact tick is computed, not observed, so a
# late check or a press that comes after the flag still sees the flag at the right time.
#
# Sides are the rule checker's colours, WHITE (8) and BLACK (16). What happens goes to an
# injected sink, a ClockSink: one method per event.
from collections import namedtuple

from firmware.clock.timecontrol import (
    parse,
    FISCHER,
    US_DELAY,
    BRONSTEIN,
    BYOYOMI,
    CANADIAN,
    HOURGLASS,
    UPCOUNT,
)
from firmware.rules.squares import WHITE, BLACK
from firmware.ticks import ticks_diff, ticks_add

_NEVER = 0x3FFFFFFF  # a deadline that never comes (upcount)

# Everything the clock knows, for the device's journal (state() and restore()): per side
# (white, black) the time left at the start of the turn, the period, the moves made in all
# and in the period, the overtime counter and the flag (0 none, 1 first, 2 second); the
# frozen/started/paused/stopped bits with overtime and dead per side; the quickplay bonus;
# the running side (0, 1, or -1) and how long its turn has run.
ClockState = namedtuple("ClockState", (
    "left_w", "left_b", "period_w", "period_b", "moves_w", "moves_b", "period_moves_w",
    "period_moves_b", "overtime_w", "overtime_b", "flag_w", "flag_b", "bits", "bonus_ms",
    "running", "turn_ms"))
QUICKPLAY_MS = 5000  # guidelines III.4: 5 s a move for both


def _side(i):
    return WHITE if i == 0 else BLACK


class ClockError(ValueError):
    """A clock command that cannot be done now or with these values."""


class ClockSink:
    """Where the clock's events go, one method each (side: WHITE or BLACK). This one lets
    them go; the device's (firmware/app/events.py) records and signals them."""

    def started(self, side, ms):
        """The clock was started, side's running with ms left."""

    def pressed(self, side, ms):
        """side pressed: ms is his time after the press."""

    def period(self, side, k):
        """side entered period k (0-based)."""

    def flag(self, side, n):
        """side's flag fell: n is 1 if it fell first, 2 second."""

    def frozen(self, side):
        """Both clocks stopped by side's flag (C.02)."""

    def paused(self, side, ms):
        """The arbiter paused the clock; side's was running, with ms shown."""

    def resumed(self, side, ms):
        """The clock runs again."""

    def stopped(self):
        """The game's end stopped the clock."""

    def time_set(self, side, ms):
        """The arbiter set side's time."""

    def moves_set(self, side, n):
        """The arbiter set side's move count."""

    def period_set(self, side, k):
        """The arbiter set side's period."""

    def time_added(self, side, ms):
        """ms were added to side's time (a penalty's minutes)."""

    def quickplay(self, ms):
        """A quickplay finish: ms a move for both from now on (III.4)."""

    def synced(self):
        """Both times were set as a clock kept elsewhere says (sync): no event."""


_QUIET = ClockSink()


class ChessClock:
    def __init__(self, control, sink=None, freeze_on_flag=None, diff=ticks_diff, add=ticks_add):
        """control: a time control string ("40/5400+30:1800+30") or a parsed TimeControl.
        freeze_on_flag: stop both clocks at the first flag; by default in the modes with
        increment or delay (C.02), while sudden death runs on. sink: a ClockSink. diff/add:
        tick arithmetic."""
        self.sink = sink or _QUIET
        self._diff = diff
        self._add = add
        self.set_control(control, freeze_on_flag)

    def set_control(self, control, freeze_on_flag=None):
        """A new game's control (a string or a TimeControl): the clock starts over."""
        if isinstance(control, str):
            control = parse(control)
        self.control = control
        self.freeze_on_flag = control.has_increment() if freeze_on_flag is None else freeze_on_flag
        self.reset()

    def reset(self):
        """Both clocks back to the start of the control, stopped."""
        base = 0 if self.control.method == UPCOUNT else self.control.periods[0].base_ms
        self.left = [base, base]  # ms at the start of the side's turn (upcount: ms used)
        self.period = [0, 0]  # index of the period in force for each side
        self.moves = [0, 0]  # moves completed by each side
        self.period_moves = [0, 0]  # moves completed in the current period
        self.overtime = [0, 0]  # byo-yomi periods left / Canadian moves left, once in overtime
        self.in_overtime = [False, False]
        self.flags = [0, 0]  # the C.02 sign: 1 if this side's flag fell first, 2 second
        self.flag_ticks = [0, 0]  # the exact tick each flag fell
        self.dead = [False, False]  # out of time in a control that adds nothing more
        self.frozen = False  # both clocks stopped by a flag (C.02); the arbiter decides
        self.bonus_ms = 0  # quickplay finish increment, added to every press from then on
        self.running = -1  # index of the running side, -1 if none
        self.started = False
        self.paused = False
        self.stopped = False
        self._start = 0  # tick the running stretch of the current turn began
        self._turn = 0  # ms of the current turn before that stretch (there were pauses)
        self._deadline = _NEVER

    # ----- what the clock shows

    def _elapsed(self, now):
        if self.running < 0 or self.paused:
            return self._turn
        return self._turn + self._diff(now, self._start)

    def _period(self, i):
        return self.control.periods[self.period[i]]

    def _shown(self, i, e):
        """Time side i shows after e ms of its turn (main time, or the overtime period)."""
        L = self.left[i]
        if self.dead[i]:
            return 0
        p = self._period(i)
        m = p.method if self.control.method == FISCHER else self.control.method
        if m == UPCOUNT:
            return L + e
        if m == US_DELAY:
            t = L - (e - p.extra_ms if e > p.extra_ms else 0)
        elif m == BYOYOMI:
            if not self.in_overtime[i]:
                if L > e:
                    return L - e
                over = e - L
                n = p.count
            else:
                over = e
                n = self.overtime[i]
            if over // p.overtime_ms >= n:
                return 0
            return p.overtime_ms - over % p.overtime_ms
        elif m == CANADIAN and not self.in_overtime[i]:
            t = L - e if L > e else p.overtime_ms - (e - L)
        else:
            t = L - e
        return t if t > 0 else 0

    def time_left(self, side, now):
        """Milliseconds side shows now (for upcount: ms used)."""
        i = side >> 4
        return self._shown(i, self._elapsed(now) if i == self.running else 0)

    def delay_left(self, now):
        """US delay still to run in the current turn, ms (0 in other modes)."""
        i = self.running
        if i < 0:
            return 0
        p = self._period(i)
        if self.control.method != FISCHER or p.method != US_DELAY:
            return 0
        d = p.extra_ms - self._elapsed(now)
        return d if d > 0 else 0

    def running_side(self):
        return None if self.running < 0 else _side(self.running)

    def first_flag(self):
        """The side whose flag fell first (the C.02 sign), or None."""
        for i in (0, 1):
            if self.flags[i] == 1:
                return _side(i)
        return None

    def snapshot(self, now):
        """The whole state for the display and the protocol, sent on every change and
        periodically: (white ms, black ms, running side or None, paused, white period,
        black period, white moves, black moves, white flag, black flag), flags 0/1/2."""
        return (self.time_left(WHITE, now), self.time_left(BLACK, now), self.running_side(),
                self.paused, self.period[0], self.period[1], self.moves[0], self.moves[1],
                self.flags[0], self.flags[1])

    def state(self, now):
        """Everything the clock knows, as a ClockState (16 ints), for the device's journal."""
        bits = 0
        for k, on in enumerate((self.in_overtime[0], self.in_overtime[1], self.dead[0],
                                self.dead[1], self.frozen, self.started, self.paused,
                                self.stopped)):
            if on:
                bits |= 1 << k
        return ClockState(self.left[0], self.left[1], self.period[0], self.period[1], self.moves[0],
                self.moves[1], self.period_moves[0], self.period_moves[1], self.overtime[0],
                self.overtime[1], self.flags[0], self.flags[1], bits, self.bonus_ms,
                self.running, self._elapsed(now))

    def restore(self, state, now, turn_ms=None):
        """The clock as state() gave it (a ClockState, or its 16 numbers as the journal
        keeps them: a recovery after a power cut); the running turn goes on from turn_ms
        (default: as it was) when resumed. ValueError for a state this control cannot have."""
        if len(state) != 16:
            raise ValueError("a clock state is 16 numbers")
        (l0, l1, p0, p1, m0, m1, pm0, pm1, o0, o1, f0, f1, bits, bonus, run, turn) = state
        n = len(self.control.periods)
        if not (0 <= p0 < n and 0 <= p1 < n and -1 <= run <= 1 and min(m0, m1, pm0, pm1) >= 0
                and 0 <= f0 <= 2 and 0 <= f1 <= 2 and 0 <= turn and 0 <= bonus):
            raise ValueError("a clock state out of range")
        self.left = [l0, l1]
        self.period = [p0, p1]
        self.moves = [m0, m1]
        self.period_moves = [pm0, pm1]
        self.overtime = [o0, o1]
        self.flags = [f0, f1]
        self.flag_ticks = [now, now]
        on = [bool(bits & (1 << k)) for k in range(8)]
        self.in_overtime = on[0:2]
        self.dead = on[2:4]
        self.frozen, self.started, self.paused, self.stopped = on[4:8]
        self.bonus_ms = bonus
        self.running = run
        self._turn = turn if turn_ms is None else turn_ms
        self._start = now
        self._set_deadline()

    # ----- the running turn

    def _set_deadline(self):
        i = self.running
        if i < 0 or self.dead[i]:
            self._deadline = _NEVER
            return
        L = self.left[i]
        p = self._period(i)
        m = p.method if self.control.method == FISCHER else self.control.method
        if m == UPCOUNT:
            d = _NEVER
        elif m == US_DELAY:
            d = L + p.extra_ms
        elif m == BYOYOMI:
            d = (L + p.count * p.overtime_ms) if not self.in_overtime[i] else self.overtime[i] * p.overtime_ms
        elif m == CANADIAN and not self.in_overtime[i]:
            d = L + p.overtime_ms
        else:
            d = L
        self._deadline = d

    def _begin_turn(self, i, now):
        self.running = i
        self._start = now
        self._turn = 0
        self._set_deadline()

    def check(self, now):
        """The polling loop's call: let a flag fall if its time has come. Returns True if
        a flag fell. Cheap when nothing happens: one ticks_diff and one comparison."""
        if self.running < 0 or self.paused:
            return False
        if self._turn + self._diff(now, self._start) < self._deadline:
            return False
        self._flag(self.running)
        return True

    def _flag(self, i):
        at = self._add(self._start, self._deadline - self._turn)
        self.flags[i] = 2 if self.flags[1 - i] else 1
        self.flag_ticks[i] = at
        self.sink.flag(_side(i), self.flags[i])
        p = self._period(i)
        periods = self.control.periods
        if self.control.method == FISCHER and not p.moves and self.period[i] + 1 < len(periods):
            # A period without a move count ends at its flag: the next period's time is
            # added there and then (as the DGT 3000 does); the flag sign stays.
            self.period[i] += 1
            self.period_moves[i] = 0
            self.left[i] = periods[self.period[i]].base_ms
            self._start = at
            self._turn = 0
            self.sink.period(_side(i), self.period[i])
            self._set_deadline()
            return
        self.left[i] = 0
        self.dead[i] = True
        if self.freeze_on_flag:
            # Both clocks stop where they are; the arbiter (or the game) decides.
            self._turn = self._deadline
            self._deadline = _NEVER
            self.paused = True
            self.frozen = True
            self.sink.frozen(_side(i))
        else:
            self._deadline = _NEVER  # it runs on at zero; the other side's flag may fall too

    # ----- commands

    def start(self, now, side=WHITE):
        """Start the clock of the side to move: White's at the start of a game (art. 6.6);
        the other side's button does it too (press)."""
        if self.started:
            raise ClockError("the clock has already been started")
        self.started = True
        i = side >> 4
        self.sink.started(side, self.left[i])
        self._begin_turn(i, now)

    def press(self, side, now):
        """The player `side` presses his clock: his move is completed, his clock stops and
        the opponent's starts. Returns True if that happened; a press on a clock that is not
        running (the opponent's turn, paused, stopped) changes nothing and returns False.
        Before the start, Black's press starts White's clock (as on DGT clocks)."""
        i = side >> 4
        if not self.started:
            if i == 1:
                self.start(now)
                return True
            return False
        if self.paused or self.stopped or self.running != i:
            return False
        if self.check(now) and self.paused:
            return False  # the flag fell before the press: the clocks froze there
        e = self._elapsed(now)
        new = self._after_move(i, e)
        self.moves[i] += 1
        self.period_moves[i] += 1
        p = self._period(i)
        if p.moves and self.period_moves[i] >= p.moves and not self.dead[i]:
            nxt = self.period[i] + 1
            if nxt >= len(self.control.periods):
                nxt = self.period[i]  # a last period with a move count repeats
            self.period[i] = nxt
            self.period_moves[i] = 0
            new += self.control.periods[nxt].base_ms
            self.sink.period(side, nxt)
        self.left[i] = new
        self.sink.pressed(side, new)
        self._begin_turn(1 - i, now)
        return True

    def _after_move(self, i, e):
        """The time side i has after completing a move that took e ms."""
        L = self.left[i]
        if self.dead[i]:
            return 0  # out of time: no increment brings the time back
        p = self._period(i)
        cm = self.control.method
        bonus = self.bonus_ms
        if cm == UPCOUNT:
            return L + e
        if cm == HOURGLASS:
            self.left[1 - i] += e
            return L - e
        m = p.method
        if m == FISCHER:
            return L - e + p.extra_ms + bonus
        if m == US_DELAY:
            return L - (e - p.extra_ms if e > p.extra_ms else 0) + bonus
        if m == BRONSTEIN:
            return L - e + (e if e < p.extra_ms else p.extra_ms) + bonus
        S = p.overtime_ms
        if m == BYOYOMI:
            if not self.in_overtime[i]:
                if L > e:
                    return L - e + bonus
                self.in_overtime[i] = True
                self.overtime[i] = p.count - (e - L) // S
            else:
                self.overtime[i] -= e // S
            return S
        # Canadian byo-yomi: M moves in S, again and again.
        if not self.in_overtime[i]:
            if L > e:
                return L - e + bonus
            self.in_overtime[i] = True
            self.overtime[i] = p.count
            t = S - (e - L)
        else:
            t = L - e
        self.overtime[i] -= 1
        if self.overtime[i] <= 0:
            self.overtime[i] = p.count
            return S
        return t

    def pause(self, now):
        """Stop the running clock (the arbiter's pause); the turn's time is kept."""
        if self.paused or self.running < 0:
            raise ClockError("no clock is running")
        if self.check(now) and self.paused:
            return  # a flag froze the clocks at its own tick
        self._turn += self._diff(now, self._start)
        self.paused = True
        self.sink.paused(_side(self.running), self._shown(self.running, self._turn))

    def resume(self, now):
        if not self.paused:
            raise ClockError("the clock is not paused")
        if self.dead[self.running] and self.frozen:
            raise ClockError("a flag is down: set the time or end the game")
        self.paused = False
        self.frozen = False
        self._start = now
        self.sink.resumed(_side(self.running), self._shown(self.running, self._turn))

    def stop(self, now):
        """The game is over (mate, stalemate, a result): both clocks stop where they are,
        with no increment (art. 6.2.1: a move that ends the game needs no press)."""
        if self.stopped:
            return
        i = self.running
        if i >= 0:
            if not self.paused:
                self.check(now)
            self.left[i] = self._shown(i, self._elapsed(now))
        self.running = -1
        self.stopped = True
        self.paused = False
        self._turn = 0
        self.sink.stopped()

    def quickplay_finish(self):
        """Guidelines III.4: from now on both players get 5 s for every move."""
        if self.bonus_ms:
            raise ClockError("quickplay finish is already in force")
        self.bonus_ms = QUICKPLAY_MS
        self.sink.quickplay(QUICKPLAY_MS)

    # ----- arbiter corrections (C.02: both times, both move counts, the period)

    def _need_pause(self):
        if self.running >= 0 and not self.paused:
            raise ClockError("pause the clock first")

    def set_time(self, side, ms):
        """Set the time side shows (for upcount: the time used). Only in pause or before
        the start; a running turn starts counting again from this time on resume."""
        self._need_pause()
        if not isinstance(ms, int) or not 0 <= ms <= 360000000:
            raise ClockError("a time is 0 to 100 hours in ms, got %r" % (ms,))
        i = side >> 4
        self.left[i] = ms
        self.in_overtime[i] = False
        if ms > 0:
            self.dead[i] = False  # the flag sign stays: it says what happened
        if i == self.running:
            self._turn = 0
        self._set_deadline()
        self.sink.time_set(side, ms)

    def sync(self, white_ms, black_ms, now):
        """Both times as a clock kept elsewhere says (a game on lichess), at once, running
        or not: the running side counts down from now. No event: nothing was corrected."""
        for ms in (white_ms, black_ms):
            if not isinstance(ms, int) or not 0 <= ms <= 360000000:
                raise ClockError("a time is 0 to 100 hours in ms, got %r" % (ms,))
        for i, ms in ((0, white_ms), (1, black_ms)):
            self.left[i] = ms
            self.in_overtime[i] = False
            if ms > 0:
                self.dead[i] = False
        if self.running >= 0:
            self._turn = 0
            self._start = now
        self._set_deadline()
        self.sink.synced()

    def set_moves(self, side, n):
        """Set side's completed moves; the period in force follows from them."""
        self._need_pause()
        if not isinstance(n, int) or not 0 <= n <= 9999:
            raise ClockError("a move count is 0 to 9999, got %r" % (n,))
        i = side >> 4
        self.moves[i] = n
        k = 0
        rest = n
        periods = self.control.periods
        while periods[k].moves and rest >= periods[k].moves:
            rest -= periods[k].moves
            if k + 1 < len(periods):
                k += 1
        self.period[i] = k
        self.period_moves[i] = rest
        self._set_deadline()
        self.sink.moves_set(side, n)

    def set_period(self, side, k):
        self._need_pause()
        if not isinstance(k, int) or not 0 <= k < len(self.control.periods):
            raise ClockError("period must be 0..%d, got %r" % (len(self.control.periods) - 1, k))
        i = side >> 4
        self.period[i] = k
        self.period_moves[i] = 0
        self._set_deadline()
        self.sink.period_set(side, k)

    def add_time(self, side, ms, now):
        """Give side ms more (a penalty in the opponent's favour, art. 7.5.5, 9.5.3). Works
        while the clock runs: the extra time is there at once."""
        if not isinstance(ms, int) or not 0 < ms <= 3600000:
            raise ClockError("extra time is 1 ms to 1 hour, got %r" % (ms,))
        i = side >> 4
        if i == self.running and not self.paused:
            self.check(now)
        if self.dead[i]:
            # Out of time, yet given time: the arbiter lets the game go on. The flag sign
            # stays (C.02); the time starts again from what was added.
            self.dead[i] = False
            if i == self.running:
                self._turn = 0
                self._start = now
        self.left[i] += ms
        self._set_deadline()
        self.sink.time_added(side, ms)
