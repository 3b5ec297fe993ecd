# Time controls as strings: the PGN TimeControl tag's syntax, extended for the timing
# methods of the DGT 3000 and more. All times in the string are whole seconds.
#
#   control := "-"                          untimed (upcount from zero, no flag)
#            | "up"                         upcount (training): counts up, no flag
#            | "*" S                        hourglass (PGN "sandclock"): S each; the time one
#                                           uses is given to the other
#            | period (":" period)*        one period or more, in order
#   period  := [M "/"] S [timing]          M moves in S seconds (no M: the rest of the game)
#   timing  := "+" I                        Fischer increment, added when a move is completed
#            | "d" D                        US (simple) delay: the time only starts falling
#                                           after D seconds of each move (art. 6.3.2)
#            | "b" D                        Bronstein delay: after the move, the time used is
#                                           given back, up to D seconds
#            | "y" N "x" S2                 byo-yomi after the main time: N periods of S2
#                                           seconds; a move within a period keeps it, an
#                                           overrun uses it up
#            | "c" M2 "/" S2                Canadian byo-yomi after the main time: M2 moves in
#                                           S2 seconds, again and again
#
# Examples: "300+2" (5 min + 2 s), "40/5400+30:1800+30" (FIDE standard), "5400+30",
# "900d5", "600b5", "*180", "3600y5x30", "3600c25/600", "40/7200:1800".
#
# A period with a move count gives each player the next period's time when that player
# completes the count (at his 40th move). A last period with a move count repeats (40/7200
# again and again). A period without a count that is not the last adds the next one's time
# when its flag falls, as the DGT 3000 does.
from firmware.const import const


FISCHER = const(0)  # also plain sudden death, with increment 0
US_DELAY = const(1)
BRONSTEIN = const(2)
BYOYOMI = const(3)
CANADIAN = const(4)
HOURGLASS = const(5)
UPCOUNT = const(6)

METHOD_NAMES = ("fischer", "us_delay", "bronstein", "byoyomi", "canadian", "hourglass", "upcount")

STANDARD = "standard"
RAPID = "rapid"
BLITZ = "blitz"

class TimeControlError(ValueError):
    """A time control string that this clock cannot play, with the reason."""


class Period:
    """One period: `moves` moves (0 = the rest of the game) in `base_ms`, by `method` with
    its parameter `extra_ms` (increment or delay), and for byo-yomi and Canadian the
    overtime: `count` periods or moves of `overtime_ms`."""

    def __init__(self, moves, base_ms, method=FISCHER, extra_ms=0, count=0, overtime_ms=0):
        self.moves = moves
        self.base_ms = base_ms
        self.method = method
        self.extra_ms = extra_ms
        self.count = count
        self.overtime_ms = overtime_ms

    def __eq__(self, other):
        return (self.moves, self.base_ms, self.method, self.extra_ms, self.count, self.overtime_ms) == (
            other.moves, other.base_ms, other.method, other.extra_ms, other.count, other.overtime_ms)

    def text(self):
        s = ("%d/" % self.moves if self.moves else "") + "%d" % (self.base_ms // 1000)
        m = self.method
        if m == FISCHER:
            return s + ("+%d" % (self.extra_ms // 1000) if self.extra_ms else "")
        if m == US_DELAY:
            return s + "d%d" % (self.extra_ms // 1000)
        if m == BRONSTEIN:
            return s + "b%d" % (self.extra_ms // 1000)
        if m == BYOYOMI:
            return s + "y%dx%d" % (self.count, self.overtime_ms // 1000)
        return s + "c%d/%d" % (self.count, self.overtime_ms // 1000)


class TimeControl:
    """A parsed time control: a list of periods, or hourglass / upcount."""

    def __init__(self, periods, method=FISCHER):
        self.periods = periods
        self.method = method  # HOURGLASS or UPCOUNT for those; else FISCHER (see periods)

    def text(self):
        if self.method == UPCOUNT:
            return "up"
        if self.method == HOURGLASS:
            return "*%d" % (self.periods[0].base_ms // 1000)
        return ":".join(p.text() for p in self.periods)

    def has_flag(self):
        return self.method != UPCOUNT

    def has_increment(self):
        """Increment or delay in any period: the modes where the other clock freezes when
        a flag falls (C.02)."""
        for p in self.periods:
            if p.method in (FISCHER, US_DELAY, BRONSTEIN) and p.extra_ms:
                return True
        return False

    def ms_for_60_moves(self):
        """Base time plus 60 x increment (or delay) for one player, counting every period
        that begins within his first 60 moves (FIDE appendices A.1, B.1)."""
        if self.method == UPCOUNT:
            return 0
        total = 0
        moves = 0
        for p in self.periods:
            total += p.base_ms
            if not p.moves:
                break
            moves += p.moves
            if moves >= 60:
                break
        first = self.periods[0]
        if first.method in (BYOYOMI, CANADIAN):
            total += first.count * first.overtime_ms if first.method == BYOYOMI else first.overtime_ms
        else:
            total += 60 * first.extra_ms
        return total

    def classification(self):
        """BLITZ (10 minutes or less), RAPID (more than 10, less than 60) or STANDARD
        (60 or more), by ms_for_60_moves. Upcount counts as standard (no penalties in
        minutes are ever due there)."""
        if self.method == UPCOUNT:
            return STANDARD
        t = self.ms_for_60_moves()
        if t <= 10 * 60000:
            return BLITZ
        if t < 60 * 60000:
            return RAPID
        return STANDARD


# ----- the parser of time control strings (the grammar: the top of this file)

_MAX_SECONDS = const(100 * 3600)  # 100 hours: far above any real control, far below 2**29 ms


def _int(text, what, whole):
    if not text or not text.isdigit():
        raise TimeControlError("%s must be a whole number in %r" % (what, whole))
    v = int(text)
    if v > _MAX_SECONDS:
        raise TimeControlError("%s %d is too large in %r" % (what, v, whole))
    return v


def _split(text, sep):
    i = text.find(sep)
    return (text, None) if i < 0 else (text[:i], text[i + 1:])


# The overtime forms: method, separator, and what to say about each part.
_OVERTIME = {
    "y": (BYOYOMI, "x", "byo-yomi is written MAINyNxSECONDS, e.g. 3600y5x30",
          "the number of byo-yomi periods", "the byo-yomi period",
          "byo-yomi needs at least one period of at least 1 s"),
    "c": (CANADIAN, "/", "Canadian byo-yomi is written MAINcMOVES/SECONDS, e.g. 3600c25/600",
          "the Canadian move count", "the Canadian period",
          "Canadian byo-yomi needs at least 1 move in at least 1 s"),
}


def _period(text, whole):
    moves = 0
    head, rest = _split(text, "/")
    if rest is not None and head.isdigit():  # not the "/" of a Canadian "c25/600"
        moves = _int(head, "the move count", whole)
        if moves == 0:
            raise TimeControlError("a move count must be at least 1 in %r" % whole)
        text = rest
    for sign in "+dbyc":
        i = text.find(sign)
        if i >= 0:
            base = _int(text[:i], "the time", whole)
            arg = text[i + 1:]
            if sign in _OVERTIME:
                method, sep, written, count, period, least = _OVERTIME[sign]
                n, s = _split(arg, sep)
                if s is None:
                    raise TimeControlError("%s, not %r" % (written, whole))
                n = _int(n, count, whole)
                s = _int(s, period, whole)
                if not n or not s:
                    raise TimeControlError("%s in %r" % (least, whole))
                return Period(moves, base * 1000, method, 0, n, s * 1000)
            extra = _int(arg, "the increment" if sign == "+" else "the delay", whole)
            method = FISCHER if sign == "+" else US_DELAY if sign == "d" else BRONSTEIN
            return Period(moves, base * 1000, method, extra * 1000)
    return Period(moves, _int(text, "the time", whole) * 1000)


def parse(text):
    """Parse a time control string (firmware/clock/timecontrol.py's grammar): a
    TimeControl; TimeControlError says what is wrong."""
    if not isinstance(text, str):
        raise TimeControlError("a time control is a string such as '300+2'")
    t = text.strip()
    if not t:
        raise TimeControlError("empty time control")
    if t in ("-", "up"):
        return TimeControl([Period(0, 0)], UPCOUNT)
    if t[0] == "*":
        s = _int(t[1:], "the hourglass time", text)
        if not s:
            raise TimeControlError("an hourglass needs some time in %r" % text)
        return TimeControl([Period(0, s * 1000)], HOURGLASS)
    if t == "?":
        raise TimeControlError("'?' (unknown) is no time control the clock can play")
    periods = [_period(p, text) for p in t.split(":")]
    for p in periods:
        if p.base_ms == 0 and not (p.extra_ms or p.count):
            raise TimeControlError("a period with no time and no increment in %r" % text)
    for p in periods[:-1]:
        if p.method in (BYOYOMI, CANADIAN):
            raise TimeControlError("byo-yomi can only be the last period in %r" % text)
    return TimeControl(periods)
