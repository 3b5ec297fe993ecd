# Tactile and visual signals: distinct patterns, numbers by vibration with exact timings,
# and a player that keeps every signal whole and apart: the pause between two signals a
# second longer than any pause inside one, no event that reads as a digit, answers that
# wait for nothing but the flag and the last ten seconds, and a cut felt as one.
from firmware.access.numbercode import (GROUP_MS, LONG_MS, MARK_MS, MAX_PAUSE_MS, SHORT_MS, ZERO_MS, encode,
                                        moves_code, number_groups, time_code, time_groups)
from firmware.access import patterns as P
from firmware.access.patterns import CUT, EVENTS, URGENT, rhythm
from firmware.access.player import SEPARATION_MS, SignalPlayer


def test_patterns_can_be_told_apart_by_touch_and_from_any_digit():
    rhythms = [rhythm(p) for _, p in EVENTS]
    assert len(set(rhythms)) == len(rhythms)  # every event its own rhythm, on the motor
    light = [r.lower() for r in rhythms]  # a deaf player's light shows no strength
    assert len(set(light)) == len(light)
    assert len(set(name for name, _ in EVENTS)) == len(EVENTS)
    # Every pattern the module defines is in EVENTS: none left out of the docs or the practice.
    defined = [v for k, v in P.__dict__.items() if k.isupper() and isinstance(v, tuple) and v
               and isinstance(v[0], tuple) and k not in ("CUT", "URGENT", "THRESHOLDS", "EVENTS")]
    assert all(any(d is p for _, p in EVENTS) for d in defined) and len(defined) == len(EVENTS)
    digits = (SHORT_MS, LONG_MS, ZERO_MS, MARK_MS)  # every pulse the number code plays
    for name, p in EVENTS:
        for on, off, level in p:
            assert on >= 250 and level in (1, 2), name  # felt, at most two intensities
            assert on in (P.SHORT, P.LONG, P.TICK), name  # one vocabulary of pulse lengths
            assert on not in digits, name  # no event pulse is a digit's: none reads as a number
            assert off <= MAX_PAUSE_MS, name
        assert p[-1][1] == 0
    # The rattle is like nothing else, and long enough for the coin motor to start (patterns.py).
    assert all(on == P.RATTLE and on not in digits and on < P.SHORT and level == 2 for on, _, level in CUT)
    assert P.RATTLE >= 150 and rhythm(CUT) == "RRRR"
    assert len(P.THRESHOLDS) == 4 and URGENT == (P.YOUR_FLAG, P.OPPONENT_FLAG, P.THRESHOLD_4)


def test_the_pause_between_signals_is_a_second_longer_than_any_inside_one():
    assert SEPARATION_MS >= MAX_PAUSE_MS + 1000
    for ms in (277000, 4025000, 9000, 36000000 - 1000):
        for code in ("tactileclock", "taptic"):
            assert max(off for _, off, _ in time_code(ms, code)) <= MAX_PAUSE_MS
    assert max(off for _, off, _ in moves_code(38, 2)) <= MAX_PAUSE_MS


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


def test_hours_are_told_by_a_mark_and_a_moves_answer_opens_with_one():
    mark = (MARK_MS, GROUP_MS, 2)
    # 1:00:00 is 1, the mark, 0 | 0 0; 0:10:00 is 1 0 | 0 0: no pause's length decides.
    one_hour, ten_minutes = time_code(3600000), time_code(600000)
    assert one_hour[1] == mark and mark not in ten_minutes
    assert [p[0] for p in one_hour] == [100, MARK_MS, 500, 500, 500, 500, 500, 500]
    # 0:15:07 and 1:05:07 no longer differ by one pause only.
    assert [p[0] for p in time_code(907000)][:2] == [100, 500] and time_code(3907000)[1] == mark
    # His moves (2) and those left to the control (38): the mark first, never the time 2:38.
    assert moves_code(2, 38) == [mark] + encode(number_groups(2) + number_groups(38))
    assert moves_code(2, 38)[1:] == time_code(158000) and moves_code(2, 38) != time_code(158000)
    assert moves_code(7, None) == [mark] + encode(number_groups(7))


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


def _player(answers=None):
    """A player whose answers are the pulses given by name (answers[kind])."""
    return SignalPlayer(Motor(), lambda a, b: a - b, [], compose=lambda kind, now: answers[kind])


def test_player_plays_a_pattern_exactly():
    p = _player()
    p.event(P.MOVE_DONE, 0)
    _run(p, 0, 2000)
    assert p.log == [(0, 1), (250, 0), (450, 1), (700, 0)]


def test_two_events_are_apart_by_the_separation():
    p = _player()
    p.event(P.PERIOD, 0)  # s l: 250 + 200 + 750 ms
    p.event(P.MOVE_DONE, 10)  # 10 ms later: it waits, and is felt apart
    _run(p, 0, 6000)
    ends = [t for t, lv in p.log if lv == 0]
    starts = [t for t, lv in p.log if lv]
    assert starts[2] - ends[1] == SEPARATION_MS
    # The latest turn's signal only: a second one waiting replaces the first.
    q = _player()
    q.event(P.THRESHOLD_1, 0)
    q.event(P.OPPONENT_MOVED, 100)
    q.event(P.MOVE_DONE, 200)
    _run(q, 0, 8000)
    assert [t for t, lv in q.log if lv] == [0, 750 + SEPARATION_MS, 750 + SEPARATION_MS + 450]


def test_an_answer_plays_whole_and_an_event_waits_for_its_end():
    nine = time_code(9000)
    p = _player({"time": nine})
    p.event(P.OPPONENT_MOVED, 0)
    p.answer("time", 0)
    _run(p, 0, 1000)
    assert p.log == [(0, 1), (250, 0)]  # the answer waits for the separation
    _run(p, 1010, 4000)
    first = p.log[2][0]
    assert first - 250 == SEPARATION_MS and p.answering
    p.event(P.ILLEGAL, 4000)  # the opponent's illegal press, mid-answer: it waits
    _run(p, 4010, 20000)
    pulses = [(b[0] - a[0]) for a, b in zip(p.log[2::2], p.log[3::2])]
    assert pulses[:len(nine)] == [on for on, _, _ in nine]  # the answer whole
    assert pulses[len(nine):] == [250, 250, 250] and p.answered == 1 and p.cuts == 0
    answer_end = p.log[2 + 2 * len(nine) - 1][0]
    assert p.log[2 + 2 * len(nine)][0] - answer_end == SEPARATION_MS


def test_the_flag_cuts_an_answer_short_and_the_cut_is_felt():
    p = _player({"time": time_code(277000)})
    p.answer("time", 0)
    _run(p, 0, 690)
    assert p.log[-1] == (450, 0)  # the answer is under way: two pulses played
    n = len(p.log)
    assert P.YOUR_FLAG in URGENT and P.ILLEGAL not in URGENT
    p.event(P.YOUR_FLAG, 700, urgent=True)
    _run(p, 700, 8000)
    got = p.log[n:]
    rattle = [(b[0] - a[0]) for a, b in zip(got[0:8:2], got[1:8:2])]
    assert rattle == [P.RATTLE] * 4 and got[0][0] == 700 and all(lv == 2 for _, lv in got[0:8:2])
    flag = got[8:]
    assert flag[0][0] - got[7][0] == SEPARATION_MS  # then the pause, then the flag
    assert [(b[0] - a[0]) for a, b in zip(flag[0::2], flag[1::2])] == [750, 750, 750]
    assert p.cuts == 1 and p.answered == 0 and not p.busy


def test_a_touch_stops_an_answer_and_those_after_it():
    p = _player({"time": time_code(277000), "opponent": time_code(120000)})
    p.answer("time", 0)
    p.answer("opponent", 0)
    _run(p, 0, 690)
    assert p.answering and p.stop(695)  # between two pulses: the motor is off already
    _run(p, 700, 10000)
    assert p.log[-1] == (450, 0) and not p.busy  # nothing after the touch
    q = _player({"time": time_code(277000)})
    q.answer("time", 0)
    _run(q, 0, 50)
    assert q.stop(55)  # mid-pulse: off at the touch
    _run(q, 60, 10000)
    assert q.log == [(0, 1), (55, 0)]


def test_the_last_seconds_tick_as_a_countdown():
    p = _player()
    for k in range(5):
        p.event(P.TICK_PATTERN, 1000 * k)
        _run(p, 1000 * k, 1000 * k + 990)
    assert [t for t, lv in p.log if lv] == [0, 1000, 2000, 3000, 4000]


def test_every_event_a_player_is_told_has_its_own_method():
    # #49: one method per event, as a ClockSink has: a mistyped name fails when it is
    # called (AttributeError), never as a pattern looked up by a string at the event.
    from firmware.app.signals import Signals

    own = [name for name, _ in EVENTS if not name.startswith("threshold_")
           and name not in ("tick", "your_flag", "opponent_flag", "menu", "right", "wrong")]
    assert own and all(callable(getattr(Signals, name, None)) for name in own)
    assert callable(Signals.flag)  # your flag and the opponent's, together
    assert not hasattr(Signals, "event")  # no event by name
