# Tactile and visual signals: distinct patterns, numbers by vibration with exact timings,
# and a player that never lets a number be taken for an event signal.
from firmware.access.numbercode import encode, time_groups, number_groups
from firmware.access.patterns import PATTERNS, rhythm
from firmware.access.player import SignalPlayer, CLEAR_MS


def test_patterns_can_be_told_apart_by_touch():
    rhythms = [rhythm(p) for p in PATTERNS.values()]
    assert len(set(rhythms)) == len(rhythms)  # every event its own rhythm
    for name, p in PATTERNS.items():
        for on, off, level in p:
            assert on >= 100 and level in (1, 2), name  # felt, at most two intensities
        assert p[-1][1] == 0


def test_time_groups():
    assert time_groups(4025000) == [[1], [7], [0, 5]]  # 1:07:05
    assert time_groups(277000) == [[4], [3, 7]]  # 0:04:37
    assert time_groups(9999) == [[0], [0, 9]]  # 0:00:09, never rounded up
    assert number_groups(42) == [[4, 2]]


def test_tactileclock_code_exact_timings():
    # 0:04:37 -> 4 | 3 7: four shorts; group gap; three shorts; digit gap; long, two shorts
    got = encode(time_groups(277000))
    s, l = 100, 500
    want = [(s, 250, 1), (s, 250, 1), (s, 250, 1), (s, 1250, 1),
            (s, 250, 1), (s, 250, 1), (s, 750, 1),
            (l, 250, 1), (s, 250, 1), (s, 0, 1)]
    assert got == want
    # 0:00:09 -> 0 | 0 9: a zero is two longs
    got = encode(time_groups(9000))
    assert got == [(l, 250, 1), (l, 1250, 1), (l, 250, 1), (l, 750, 1),
                   (l, 250, 1), (s, 250, 1), (s, 250, 1), (s, 250, 1), (s, 0, 1)]
    # 1:07:05 -> 1 | 7 | 0 5
    got = encode(time_groups(4025000))
    assert [p[0] for p in got] == [s, l, s, s, l, l, l]
    assert [p[1] for p in got] == [1250, 250, 250, 1250, 250, 750, 0]


def test_taptic_code():
    got = encode(time_groups(277000), "taptic")  # 4 | 37
    assert [p[0] for p in got] == [100] * 4 + [500] * 3 + [100] * 7
    assert encode([[0]], "taptic") == [(1000, 0, 1)]


class Motor:
    def __init__(self):
        self.level = 0

    def __call__(self, level):
        self.level = level


def _run(player, start, end, step=10):
    t = start
    while t <= end:
        player.step(t)
        t += step


def test_player_plays_a_pattern_exactly():
    m = Motor()
    p = SignalPlayer(m, lambda a, b: a - b, [])
    p.event(PATTERNS["move_done"], 0)
    _run(p, 0, 2000)
    assert p.log == [(0, 1), (150, 0), (350, 1), (500, 0)]


def test_a_number_waits_for_events_and_an_event_cuts_it_short():
    m = Motor()
    p = SignalPlayer(m, lambda a, b: a - b, [])
    p.event(PATTERNS["opponent_moved"], 0)
    p.number(encode(time_groups(9000)), 0)
    _run(p, 0, 5000)
    first_number_pulse = p.log[2][0]
    assert p.log[:2] == [(0, 1), (150, 0)]
    assert first_number_pulse - 150 >= CLEAR_MS  # a clear pause first
    p2 = SignalPlayer(Motor(), lambda a, b: a - b, [])
    p2.number(encode(time_groups(277000)), 0)
    _run(p2, 0, 690)
    assert p2.log[-1] == (450, 0)  # the number is under way: two pulses played
    n = len(p2.log)
    p2.event(PATTERNS["illegal"], 695)  # mid-number
    _run(p2, 700, 3000)
    assert p2.log[n:n + 2] == [(700, 2), (850, 0)]  # the strong event at once, the number gone
    assert p2.log[-1][1] == 0 and not p2.busy
    assert len([1 for _, lv in p2.log if lv == 2]) == 3
