# The clock levers and the ask keys as the hardware gives them: a trace of levers going
# down and coming up and of ask keys touched (simulator/trace.py) played through the
# simulator's HAL, which hands the levers to the same ButtonBank and the same mapping as
# the Pico's HAL (firmware/hal/buttons.py), and the keys as the faces' HT16K33 reports
# them (a press, once, however long). A blind player touches his ask key to feel his time
# (appendix D): on his own turn before moving, after moving, on the opponent's turn, with
# and without automatic penalties; his lever keeps the Laws' meaning - held or tapped
# without a move, it is an illegal press (7.5.3), timed when it went down. Runs in both
# interpreters.
import gc

from firmware.access.numbercode import moves_code, time_code
from firmware.access.player import SEPARATION_MS
from firmware.app.signals import SETTLE_MS
from firmware.app.device import Device
from firmware.board.occupancy import START
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.fakehal import set_square
from tests.firmware.support import lines_of, occ_hex, tmp

TRACE = tmp("test-levers.trace")
PRESETS = tmp("test-levers-presets.json")
MICROPYTHON_HEAP = "384K"  # the whole application, and a trace of three numbers felt


_hex = occ_hex


def _after(occ, frm, to):
    b = bytearray(occ)
    set_square(b, frm, False)
    set_square(b, to, True)
    return b


def _play(lines, until, autopenalty=False, control=None):
    """The trace (its lines after the start position) played in virtual time up to
    `until` ms: (the device's lines, the motor changes as (t, side, duty))."""
    with open(TRACE, "w") as f:
        f.write("0 occ %s\n" % _hex(START))
        for line in lines:
            f.write(line + "\n")
    hal = SimHal(TRACE, virtual=True)
    out = []
    motors = []
    # The clock's status lines (ten a second) are not kept: a long trace's would fill the
    # capped heap, and no test here reads them.
    hal.write = lambda data: None if data.startswith(b"clock ") else out.append(bytes(data))
    hal.read = lambda: None
    hal.motor = lambda side, duty: motors.append((hal.now(), side, duty))
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(b"access blind=wb\n")  # both players feel the clock
    if control:
        dev.receive(b"new tc=" + control.encode() + b"\n")
    if autopenalty:
        dev.config.configure({"autopenalty": True})
    while hal.now() < until:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    lines = lines_of(out)
    return lines, motors, dev


def _switches(motors, side, since=0):
    """(tick on, tick off) of each pulse on side's motor from since."""
    on = [(t, d) for t, s, d in motors if s == side and t >= since]
    return [(a[0], b[0]) for a, b in zip(on[::2], on[1::2]) if a[1] and not b[1]]


def _pulses(motors, side, since=0):
    return [b - a for a, b in _switches(motors, side, since)]


def _code(pulses):
    return [p[0] for p in pulses]


def _signals(motors, side):
    """The motor's pulses cut where the pause is a signal's separation: a list of signals,
    each (its first tick, its pulses' lengths)."""
    out = []
    last_off = None
    for on, off in _switches(motors, side):
        if last_off is None or on - last_off >= SEPARATION_MS:
            out.append((on, []))
        out[-1][1].append(off - on)
        last_off = off
    return out


def test_a_touch_of_his_ask_key_on_his_own_turn_asks_for_his_time():
    # Black's lever starts White's clock (6.6); White touches his ask key to feel his time.
    lines, motors, dev = _play(["100 press black", "1000 button ask-white down", "1040 button ask-white up"], 12000)
    assert "ask w time" in lines
    assert not [l for l in lines if l.startswith("illegal-press")]
    assert dev.match.illegal == [0, 0] and dev.clock.running == 0  # still his turn
    # His time as it was when the answer began, once his touch had settled.
    [(t, answer)] = _signals(motors, WHITE)
    assert t == 1000 + SETTLE_MS and answer == _code(time_code(300000 - (t - 100)))
    assert _pulses(motors, BLACK) == []


def test_his_lever_held_without_a_move_is_an_illegal_press_timed_when_it_went_down():
    # The lever keeps the Laws' meaning: held 1.2 s on his own turn with no move made, it
    # is a press without a move (7.5.3), not a question.
    lines, motors, dev = _play(["100 press black", "1000 lever white down", "2200 lever white up"], 3000)
    assert "illegal-press w 1" in lines and not [l for l in lines if l.startswith("ask ")]
    assert dev.clock.running == 0


def test_asks_never_cost_a_blind_player_the_game_with_automatic_penalties():
    trace = ["100 press black"]
    for k in range(3):  # three asks on his own turn, each answered
        trace += ["%d button ask-white down" % (1000 + 12000 * k), "%d button ask-white up" % (1300 + 12000 * k)]
    lines, motors, dev = _play(trace, 40000, autopenalty=True)
    assert dev.match.outcome is None and dev.match.illegal == [0, 0]
    assert not [l for l in lines if l.startswith("illegal-press") or " penalty " in l]
    assert [l for l in lines if l.startswith("ask w ")] == ["ask w time"] * 3
    assert len(_signals(motors, WHITE)) == 3  # three answers


def test_a_tap_without_a_move_is_an_illegal_press_timed_when_the_lever_went_down():
    lines, motors, dev = _play(["100 press black", "1000 press white"], 3000, autopenalty=True)
    assert "illegal-press w 1" in lines
    assert dev.match.illegal == [1, 0] and dev.clock.running == 0  # the clock did not switch
    penalty = [l for l in lines if " penalty " in l]
    assert penalty and penalty[0].endswith("penalty b 60000")  # blitz: 1 minute (A.3)
    assert not [l for l in lines if l.startswith("ask ")]


def test_a_held_lever_after_moving_completes_the_move_when_it_went_down():
    e4 = _after(START, "e2", "e4")
    lines, motors, dev = _play(["100 press black", "1500 occ %s" % _hex(e4), "2000 lever white down",
                                "3300 lever white up", "3500 button ask-white down"], 14000)
    clk = [l for l in lines if " clk 1 " in l]
    assert clk and clk[0].endswith("clk 1 %d" % (300000 - (2000 - 100) + 2000))
    assert dev.game.ply == 1 and dev.clock.running == 1  # Black's turn
    assert "ask w time" in lines and not [l for l in lines if l.startswith("illegal-press")]
    # His move's signal, then his time (his clock stands: the time after his increment).
    signals = _signals(motors, WHITE)
    assert signals[-1][1] == _code(time_code(300000 - 1900 + 2000))


def test_an_ask_on_the_opponents_turn_changes_nothing():
    e4 = _after(START, "e2", "e4")
    lines, motors, dev = _play(["100 press black", "1500 occ %s" % _hex(e4), "1600 press white",
                                "3000 button ask-white down", "3100 button ask-white up"], 9000)
    assert "ask w time" in lines
    assert dev.clock.running == 1 and dev.match.illegal == [0, 0] and dev.game.ply == 1
    assert not [l for l in lines if l.startswith("illegal-press")]


def _three_moves():
    pos = [START]
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        pos.append(_after(pos[-1], frm, to))
    return ["100 press black", "1000 occ %s" % _hex(pos[1]), "1200 press white",
            "2000 occ %s" % _hex(pos[2]), "2200 press black", "3000 occ %s" % _hex(pos[3]),
            "3200 press white"]


def test_three_quick_touches_give_his_time_the_opponents_and_his_moves_none_dropped():
    # Appendix D: his moves made and the moves left to the time control. 40 moves in 10
    # minutes: after 1. e4 e5 2. Nf3, White has made 2 and has 38 left. Three touches,
    # each within the settling of the one before: three answers, in order, each whole and
    # apart from the next by the separation.
    trace = _three_moves()
    for k in range(3):
        trace += ["%d button ask-white down" % (4000 + 400 * k), "%d button ask-white up" % (4100 + 400 * k)]
    lines, motors, dev = _play(trace, 40000, control="40/600:300")
    assert [l for l in lines if l.startswith("ask w ")] == ["ask w time", "ask w opponent", "ask w move"]
    signals = [s for s in _signals(motors, WHITE) if s[0] >= 4000]
    assert signals[0][1] == [250, 250] and len(signals) == 4  # his move's signal (it waited), then the answers
    (t_time, own), (t_opp, opp), (_, moves) = signals[1:]
    assert own == _code(time_code(dev.clock.time_left(WHITE, t_time)))  # his clock stands: Black's turn
    assert opp == _code(time_code(600000 - 1000 - (t_opp - 3200)))  # Black's runs (he used 1 s on 1...e5)
    assert moves == _code(moves_code(2, 38))
    assert moves != _code(time_code(2 * 60000 + 38000))  # never the time 2:38: the mark opens it


def test_a_touch_while_his_answer_plays_stops_it_and_the_answers_after_it():
    trace = _three_moves() + ["4000 button ask-white down", "4050 button ask-white up",
                              "4400 button ask-white down", "4450 button ask-white up"]
    # Both answers wait for his move's signal and the separation; the first begins (about
    # 6.9 s), and a touch in it stops both.
    lines, motors, dev = _play(trace + ["8000 button ask-white down", "8050 button ask-white up"], 30000,
                               control="40/600:300")
    assert [l for l in lines if l.startswith("ask w ")] == ["ask w time", "ask w opponent", "ask w stop"]
    answer = [(on, off) for on, off in _switches(motors, WHITE) if on >= 5000]
    assert answer and answer[0][0] < 8000 and answer[-1][1] <= 8000  # off at the touch, nothing after
