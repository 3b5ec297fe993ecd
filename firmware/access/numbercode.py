# Numbers by vibration, played on demand: the player's remaining time, the opponent's, or
# the move number. Two codes:
#
# "tactileclock" (default; the TactileClock scheme): each digit 1-4 is that many short
#   pulses, 5 a long one, 6-9 a long one and 1-4 shorts, 0 two longs. Short 100 ms, long
#   500 ms; 250 ms between the pulses of a digit, 750 ms between digits, 1250 ms between
#   groups.
# "taptic" (after Apple Watch's Taptic Time): each group's value as tens (long pulses) then
#   ones (short pulses); a zero group is one very long pulse (1 s).
#
# A time is played as groups: hours (only from one hour), minutes, seconds (two digits).
#   1:07:05 -> 1 H 7 | 0 5      0:04:37 -> 4 | 3 7      0:00:09 -> 0 | 0 9
# The minutes keep no leading zero (the group gap says where the seconds begin). The hours
# are told by the MARK after them (H), never by a pause's length: 1:00:00 is 1 H 0 | 0 0,
# 0:10:00 is 1 0 | 0 0. A moves answer opens with the MARK: M 2 | 38 (his moves, and those
# left to the control) is never the time 2:38. The MARK is a pulse no digit uses (a strong
# 1.5 s), and no event signal uses a digit's pulse either (firmware/access/patterns.py).
SHORT_MS = 100
LONG_MS = 500
ZERO_MS = 1000  # taptic: a group that is zero
MARK_MS = 1500
IN_DIGIT_MS = 250
DIGIT_MS = 750
GROUP_MS = 1250
MAX_PAUSE_MS = GROUP_MS  # the longest pause inside any signal (firmware/access/player.py)


def time_groups(ms):
    """[[digits of hours], [digits of minutes], [two digits of seconds]]; no hours group
    under an hour. Never rounded up."""
    s = (ms if ms > 0 else 0) // 1000
    h, m, sec = s // 3600, (s // 60) % 60, s % 60
    groups = []
    if h:
        groups.append([int(c) for c in str(h)])
    groups.append([int(c) for c in str(m)])
    groups.append([sec // 10, sec % 10])
    return groups


def number_groups(n):
    return [[int(c) for c in str(n)]]


def _digit(d):
    if d == 0:
        return [LONG_MS, LONG_MS]
    out = [LONG_MS] if d >= 5 else []
    return out + [SHORT_MS] * (d % 5)


def tactileclock(groups):
    """Pulses (on_ms, off_ms_after, level) for the groups of digits."""
    out = []
    for gi, group in enumerate(groups):
        for di, d in enumerate(group):
            pulses = _digit(d)
            for pi, on in enumerate(pulses):
                if pi < len(pulses) - 1:
                    gap = IN_DIGIT_MS
                elif di < len(group) - 1:
                    gap = DIGIT_MS
                elif gi < len(groups) - 1:
                    gap = GROUP_MS
                else:
                    gap = 0
                out.append((on, gap, 1))
    return out


def taptic(groups):
    """Each group's value as tens (long) then ones (short); a zero group one 1 s pulse."""
    out = []
    for gi, group in enumerate(groups):
        v = 0
        for d in group:
            v = v * 10 + d
        pulses = [LONG_MS] * (v // 10) + [SHORT_MS] * (v % 10) or [ZERO_MS]
        for pi, on in enumerate(pulses):
            last = pi == len(pulses) - 1
            out.append((on, (GROUP_MS if gi < len(groups) - 1 else 0) if last else IN_DIGIT_MS, 1))
    return out


CODES = {"tactileclock": tactileclock, "taptic": taptic}
_MARK = (MARK_MS, GROUP_MS, 2)


def encode(groups, code="tactileclock"):
    if code not in CODES:
        raise ValueError("a number code is tactileclock or taptic, not %r" % (code,))
    return CODES[code](groups)


def time_code(ms, code="tactileclock"):
    """A time's pulses: its hours and the MARK (from one hour), minutes, seconds."""
    groups = time_groups(ms)
    if len(groups) < 3:
        return encode(groups, code)
    hours = encode(groups[:1], code)
    return hours[:-1] + [_hold(hours[-1]), _MARK] + encode(groups[1:], code)


def _hold(pulse):
    """A group's last pulse, followed by a group pause."""
    return (pulse[0], GROUP_MS, pulse[2])


def moves_code(made, left, code="tactileclock"):
    """A moves answer's pulses: the MARK, his moves made, and the moves left to the control
    (left None: none is due)."""
    groups = number_groups(made) + (number_groups(left) if left is not None else [])
    return [_MARK] + encode(groups, code)
