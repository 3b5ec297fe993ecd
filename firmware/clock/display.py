# What the clock shows, as text: the formats players expect from a digital clock.
#   1:29:43   an hour or more (h:mm:ss)
#   4:37      under an hour (m:ss)
#   19.7      under the tenths threshold (20 s by default): seconds and tenths
# Times are never rounded up: a clock that shows 0:01 still has at least one second.
from firmware.clock.timecontrol import BYOYOMI, UPCOUNT

TENTHS_BELOW_MS = 20000


def format_time(ms, tenths_below=TENTHS_BELOW_MS):
    if ms < 0:
        ms = 0
    if ms < tenths_below:
        return "%d.%d" % (ms // 1000, (ms % 1000) // 100)
    s = ms // 1000
    h = s // 3600
    m = (s // 60) % 60
    if h:
        return "%d:%02d:%02d" % (h, m, s % 60)
    return "%d:%02d" % (m, s % 60)


def side_text(clock, side, now):
    """One side of the display: the time, then signs: '<' running, 'F1'/'F2' the flag that
    fell first/second (C.02), 'P2' the period in force from the second one on, 'B3' byo-yomi
    periods left, 'D4' US delay seconds still to run."""
    i = side >> 4
    t = clock.time_left(side, now)
    up = clock.control.method == UPCOUNT  # counting up: no tenths
    parts = [format_time(t, 0 if up else TENTHS_BELOW_MS)]
    if clock.running == i and not clock.paused:
        parts.append("<")
        d = clock.delay_left(now)
        if d:
            parts.append("D%d" % ((d + 999) // 1000))
    if clock.flags[i]:
        parts.append("F%d" % clock.flags[i])
    if clock.period[i]:
        parts.append("P%d" % (clock.period[i] + 1))
    if clock.in_overtime[i] and clock.control.periods[clock.period[i]].method == BYOYOMI:
        parts.append("B%d" % clock.overtime[i])
    return " ".join(parts)
