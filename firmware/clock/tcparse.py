# The parser of time control strings (firmware/clock/timecontrol.py: the grammar, and the
# TimeControl it gives): loaded when a control is read, at a new game, and let go after.
from firmware.clock.timecontrol import (BRONSTEIN, BYOYOMI, CANADIAN, FISCHER, HOURGLASS, UPCOUNT, US_DELAY,
                                        Period, TimeControl, TimeControlError)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


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
