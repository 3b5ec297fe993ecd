# The clock levers as the hardware gives them: a trace of levers going down and coming up
# (simulator/trace.py) played through the simulator's HAL, which hands them to the same
# ButtonBank and the same mapping as the Pico's HAL (firmware/hal/buttons.py). A blind
# player holds his lever to feel his time (appendix D): on his own turn before moving,
# after moving, on the opponent's turn, with and without automatic penalties. A hold is
# a question, never a press without a move (7.5.3); a tap without a move is one, timed
# when the lever went down. Runs in both interpreters.
import gc

from firmware.access.numbercode import encode, number_groups, time_groups
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
        dev.configure({"autopenalty": True})
    while hal.now() < until:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    lines = lines_of(out)
    return lines, motors, dev


def _pulses(motors, side, since=0):
    on = [(t, d) for t, s, d in motors if s == side and t >= since]
    return [b[0] - a[0] for a, b in zip(on[::2], on[1::2]) if a[1] and not b[1]]


def _code(ms):
    return [p[0] for p in encode(time_groups(ms))]


def test_a_hold_on_his_own_turn_before_moving_asks_for_his_time():
    # Black's lever starts White's clock (6.6); White holds his for 1.2 s to feel his time.
    lines, motors, dev = _play(["100 press black", "1000 lever white down", "2200 lever white up"], 8000)
    assert "ask w time" in lines
    assert not [l for l in lines if l.startswith("illegal-press")]
    assert dev.match.illegal == [0, 0] and dev.clock.running == 0  # still his turn
    # His time when the hold became one (800 ms after the lever went down), on his motor.
    assert _pulses(motors, WHITE) == _code(300000 - (1800 - 100))
    assert _pulses(motors, BLACK) == []


def test_holds_never_cost_a_blind_player_the_game_with_automatic_penalties():
    trace = ["100 press black"]
    for k in range(3):  # three asks on his own turn: each would be a second illegal press
        trace += ["%d lever white down" % (1000 + 3000 * k), "%d lever white up" % (2000 + 3000 * k)]
    lines, motors, dev = _play(trace, 11000, autopenalty=True)
    assert dev.match.outcome is None and dev.match.illegal == [0, 0]
    assert not [l for l in lines if l.startswith("illegal-press") or " penalty " in l]
    assert len([l for l in lines if l.startswith("ask w ")]) == 3


def test_a_tap_without_a_move_is_an_illegal_press_timed_when_the_lever_went_down():
    lines, motors, dev = _play(["100 press black", "1000 press white"], 3000, autopenalty=True)
    assert "illegal-press w 1" in lines
    assert dev.match.illegal == [1, 0] and dev.clock.running == 0  # the clock did not switch
    penalty = [l for l in lines if " penalty " in l]
    assert penalty and penalty[0].endswith("penalty b 60000")  # blitz: 1 minute (A.3)
    assert not [l for l in lines if l.startswith("ask ")]


def test_a_hold_after_moving_completes_the_move_at_the_lever_going_down_then_asks():
    e4 = _after(START, "e2", "e4")
    lines, motors, dev = _play(["100 press black", "1500 occ %s" % _hex(e4), "2000 lever white down",
                                "3300 lever white up"], 12000)
    clk = [l for l in lines if " clk 1 " in l]
    assert clk and clk[0].endswith("clk 1 %d" % (300000 - (2000 - 100) + 2000))
    assert dev.game.ply == 1 and dev.clock.running == 1  # Black's turn
    assert "ask w time" in lines
    assert not [l for l in lines if l.startswith("illegal-press")]
    # First the press's own signal, then, from the hold on, his time (his clock stands).
    assert _pulses(motors, WHITE, since=2800) == _code(300000 - 1900 + 2000)


def test_a_hold_on_the_opponents_turn_asks_and_changes_nothing():
    e4 = _after(START, "e2", "e4")
    lines, motors, dev = _play(["100 press black", "1500 occ %s" % _hex(e4), "1600 press white",
                                "3000 lever white down", "4000 lever white up"], 7000)
    assert "ask w time" in lines
    assert dev.clock.running == 1 and dev.match.illegal == [0, 0]
    assert not [l for l in lines if l.startswith("illegal-press")]


def test_a_third_hold_gives_his_moves_and_the_moves_left_to_the_control():
    # Appendix D: not only the move number - his moves made and the moves left to the time
    # control. 40 moves in 10 minutes: after 1. e4 e5 2. Nf3, White has made 2 and has 38
    # left. Three holds within 3 s of each other: time, the opponent's, moves.
    pos = [START]
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        pos.append(_after(pos[-1], frm, to))
    trace = ["100 press black", "1000 occ %s" % _hex(pos[1]), "1200 press white",
             "2000 occ %s" % _hex(pos[2]), "2200 press black", "3000 occ %s" % _hex(pos[3]),
             "3200 press white"]
    for k in range(3):
        trace += ["%d lever white down" % (4000 + 2000 * k), "%d lever white up" % (5000 + 2000 * k)]
    lines, motors, dev = _play(trace, 20000, control="40/600:300")
    asks = [l for l in lines if l.startswith("ask w ")]
    assert asks == ["ask w time", "ask w opponent", "ask w move"]
    assert dev.clock.moves[0] == 2
    want = [p[0] for p in encode(number_groups(2) + number_groups(38))]
    # It follows the opponent's time (a number is never cut by the next one asked).
    assert _pulses(motors, WHITE)[-len(want):] == want
    assert [p[0] for p in encode(number_groups(4))] != want[-4:]  # not the move number
