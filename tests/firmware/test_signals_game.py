# Whole games as deaf and blind players play them (#13, #34): the levers and pieces as the
# hardware gives them (a trace through the simulator's HAL, in virtual time), the arbiter's
# commands from the host, and every event kind the clock signals - moves, an illegal
# press, an illegal move on the board, a knocked piece, a new period, the arbiter's pause,
# a draw claim, the time thresholds, the last seconds, both flags and the game's end.
# Each player's signal light must show exactly what his motor plays, every signal whole
# and apart from the next by the separation. (Two blind players asking at every moment
# of a whole game: test_blind_game.py.) Runs in both interpreters.
import gc

from firmware.access.patterns import EVENTS, TICK_PATTERN
from firmware.access.player import SEPARATION_MS
from firmware.app.device import Device
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.blindgame import Timeline
from tests.firmware.support import lines_of, tmp
from tests.firmware.tracebuilder import Scenario

TRACE = tmp("test-signals-game.trace")
PRESETS = tmp("test-signals-game-presets.json")
PATTERNS = dict(EVENTS)
# The events this game has no cause for: time given by a penalty, a draw offer, the
# arbiter's message (test_device_protocol.py has them), the menu's and the practice's own.
NOT_HERE = ("time_added", "draw_offer", "message", "menu", "right", "wrong")
MICROPYTHON_HEAP = "576K"  # the whole application (64-bit objects) and a whole game's timelines and lines


def _game():
    """The physical game, and the host's commands as (ms, line)."""
    s = Scenario()
    s.wait(100).press("black")  # White's clock starts (6.6)
    s.move("e2", "e4").press("white")
    s.move("e7", "e5").press("black")
    s.wait(300).press("white")  # a tap with no move: an illegal press (7.5.3)
    s.move("g1", "f3").press("white")  # two moves: White's next period
    commands = [(s.t + 500, "pause"), (s.t + 2500, "resume"), (s.t + 3000, "claim b")]
    s.wait(3500)
    s.move("b8", "c6").press("black")  # Black's next period
    s.wait(500).lift("a7").place("a6")  # Black's pawn knocked aside on White's turn
    s.wait(2500).lift("a6").place("a7")  # and put back
    s.wait(500).lift("f3").place("f5")  # no knight move goes there: an illegal move shown
    s.wait(1000).lift("f5").place("f3")  # taken back
    s.move("d2", "d4").press("white")
    # Paired for a moment with a sighted player's board, whose player touches his knight
    # there (D.2.10): Black feels it.
    commands += [(s.t + 3000, "pair w here"), (s.t + 3100, "touched g1"), (s.t + 3200, "pair -")]
    s.wait(70000)  # Black thinks until his flag falls
    return s.lines, commands, s.t


def _play():
    lines, commands, end = _game()
    # Both players feel and see everything; four thresholds, all within the last period,
    # far enough apart for each to be felt whole and apart, then the last seconds' ticks.
    return _run(lines, commands, end, access=b"access blind=wb visual=wb buzzer=off thresholds=36,27,18,9\n",
                control=b"2/20:40")


def _run(trace, commands, end, access, control=None):
    """The trace through the simulator's HAL in virtual time, the host's commands at their
    times: (the device's lines, each side's light and motor timelines, the event kinds
    each side was given, the device)."""
    with open(TRACE, "w") as f:
        for line in trace:
            f.write(line + "\n")
    hal = SimHal(TRACE, virtual=True)
    hal.read = lambda: None
    out = []
    hal.write = lambda data: None if data.startswith(b"clock ") else out.append(bytes(data))
    light = {WHITE: Timeline(), BLACK: Timeline()}
    motor = {WHITE: Timeline(), BLACK: Timeline()}
    hal.signal = lambda side, on: light[side].add(hal.now(), on)
    hal.motor = lambda side, duty: motor[side].add(hal.now(), duty > 0)
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(access)
    if control:
        dev.receive(b"new tc=" + control + b"\n")
    names = {WHITE: [], BLACK: []}  # the event kinds each side was given, in order
    event = dev.events.signals._event
    by_pattern = [(p, name) for name, p in EVENTS]

    def spy(side, pattern, now):
        name = [n for p, n in by_pattern if p is pattern][0]
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            names[s].append(name)
        event(side, pattern, now)

    dev.events.signals._event = spy
    while hal.now() < end:
        while commands and commands[0][0] <= hal.now():
            dev.receive(commands.pop(0)[1].encode() + b"\n")
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    return lines_of(out), light, motor, names, dev


def _pulses(timeline):
    """(on ms, off ms after) of each pulse; the last one's off is None."""
    ons = [t for t, on in timeline.items() if on]
    offs = [t for t, on in timeline.items() if not on]
    assert len(ons) == len(offs)  # every pulse ends
    return [(off - on, (ons[i + 1] - off) if i + 1 < len(ons) else None)
            for i, (on, off) in enumerate(zip(ons, offs))]


def test_a_whole_game_every_signal_on_the_light_as_on_the_motor():
    lines, light, motor, names, dev = _play()
    # The game went as played: the illegal press, the attempt, the knock, the claim, the
    # pause, both periods and Black's flag all happened.
    assert "illegal-press w 1" in lines
    # Both players blind: White's knight shown on f5 and taken back on his own turn is his
    # feeling the pieces (D.2.3): no attempt is told; Black's pawn knocked aside on White's
    # turn (a piece where none should be) differs.
    assert not [l for l in lines if l.startswith("attempt ")]
    assert [l for l in lines if l.startswith("board differs")]
    assert "claim b incorrect" in lines
    assert [l for l in lines if l.endswith(" pause")] and [l for l in lines if l.endswith(" resume")]
    assert [l for l in lines if " period w " in l] and [l for l in lines if " period b " in l]
    assert [l for l in lines if " result 1-0 time_forfeit" in l]
    # Every event kind came, to one side or both.
    assert set(names[WHITE]) | set(names[BLACK]) == set(PATTERNS) - set(NOT_HERE)
    patterns = {tuple(on for on, _, _ in p): name for name, p in PATTERNS.items()}
    for side in (WHITE, BLACK):
        # The light switched exactly when and as the motor did.
        assert list(light[side].items()) == list(motor[side].items())
        # Every signal whole and apart: cut where the pause is the separation, each piece
        # is one pattern, pulse for pulse (the last seconds' ticks are one countdown, a
        # tick a second; a turn's signal may be replaced by the newer one).
        played = []
        tick = TICK_PATTERN[0][0]
        for group in _signals(_pulses(light[side])):
            while group and group[0][0] == tick:  # the countdown, a tick a second; the flag may end it
                assert group[0][1] is None or group[0][1] >= 1000 - tick - 10
                played.append("tick")
                group = group[1:]
            if not group:
                continue
            ons = [on for on, _ in group]
            assert tuple(ons) in patterns, (side, ons)
            name = patterns[tuple(ons)]
            for (on, gap), (_, off, _) in zip(group, PATTERNS[name]):
                if off:
                    assert gap == off, (name, gap, off)
            played.append(name)
        given = [n for n in names[side] if n not in ("tick", "opponent_moved", "move_done")]
        assert [n for n in played if n not in ("tick", "opponent_moved", "move_done")] == given
        assert "tick" in played or side == WHITE


def _signals(pulses):
    """Pulses (on, off after) cut into signals where the pause is the separation or more."""
    out = [[]]
    for on, gap in pulses:
        out[-1].append((on, gap))
        if gap is None or gap >= SEPARATION_MS:
            out.append([])
    return [g for g in out if g]
