# A whole game as deaf and blind players play it (#13): the levers and pieces as the
# hardware gives them (a trace through the simulator's HAL, in virtual time), the arbiter's
# commands from the host, and every event kind the clock signals - moves, an illegal
# press, an illegal move on the board, a knocked piece, a new period, the arbiter's pause,
# a draw claim, the time thresholds, the last seconds, both flags and the game's end.
# Each player's signal light must show exactly what his motor plays: every pulse whole,
# at the same ticks, pattern after pattern in the order the events came. Runs in both
# interpreters.
import gc

from firmware.access.patterns import PATTERNS
from firmware.app.device import Device
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.support import tmp
from tests.firmware.tracebuilder import Scenario

TRACE = tmp("test-signals-game.trace")
PRESETS = tmp("test-signals-game-presets.json")
MICROPYTHON_HEAP = "320K"  # the whole application and the game's signal timelines


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
    s.wait(40000)  # Black thinks until his flag falls
    return s.lines, commands, s.t


def _play():
    lines, commands, end = _game()
    with open(TRACE, "w") as f:
        for line in lines:
            f.write(line + "\n")
    hal = SimHal(TRACE, virtual=True)
    hal.read = lambda: None
    out = []
    hal.write = lambda data: None if data.startswith(b"clock ") else out.append(bytes(data))
    light = {WHITE: [], BLACK: []}
    motor = {WHITE: [], BLACK: []}
    hal.signal = lambda side, on: light[side].append((hal.now(), on))
    hal.motor = lambda side, duty: motor[side].append((hal.now(), duty > 0))
    dev = Device(hal, presets_path=PRESETS)
    # Both players feel and see everything; four thresholds, all within the last period.
    dev.receive(b"access blind=wb visual=wb buzzer=off thresholds=14,12,10,8\n")
    dev.receive(b"new tc=2/20:15\n")
    names = {WHITE: [], BLACK: []}  # the event kinds each side was given, in order
    event = dev.signals.event

    def spy(side, name, now):
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            names[s].append(name)
        event(side, name, now)

    dev.signals.event = spy
    while hal.now() < end:
        while commands and commands[0][0] <= hal.now():
            dev.receive(commands.pop(0)[1].encode() + b"\n")
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    text = b"".join(out).decode()
    return [l for l in text.split("\n") if l], light, motor, names, dev


def _pulses(timeline):
    """(on ms, off ms after) of each pulse; the last one's off is None."""
    ons = [t for t, on in timeline if on]
    offs = [t for t, on in timeline if not on]
    assert len(ons) == len(offs)  # every pulse ends
    return [(off - on, (ons[i + 1] - off) if i + 1 < len(ons) else None)
            for i, (on, off) in enumerate(zip(ons, offs))]


def test_a_whole_game_every_signal_on_the_light_as_on_the_motor():
    lines, light, motor, names, dev = _play()
    # The game went as played: the illegal press, the attempt, the knock, the claim, the
    # pause, both periods and Black's flag all happened.
    assert "illegal-press w 1" in lines
    assert [l for l in lines if l.startswith("attempt ")]
    assert [l for l in lines if l.startswith("board differs")]
    assert "claim b incorrect" in lines
    assert [l for l in lines if l.endswith(" pause")] and [l for l in lines if l.endswith(" resume")]
    assert [l for l in lines if " period w " in l] and [l for l in lines if " period b " in l]
    assert [l for l in lines if " result 1-0 time_forfeit" in l]
    # Every event kind came, to one side or both.
    assert set(names[WHITE]) | set(names[BLACK]) == set(PATTERNS)
    for side in (WHITE, BLACK):
        # The light switched exactly when and as the motor did.
        assert light[side] == motor[side]
        # Every pattern whole and in order: each pulse as long as the pattern says, each
        # gap within a pattern as long as it says (none shortened, none swallowed).
        want = [p for name in names[side] for p in PATTERNS[name]]
        got = _pulses(light[side])
        assert [on for on, _ in got] == [on for on, _, _ in want]
        for (on, gap), (_, off, _) in zip(got, want):
            if off:
                assert gap == off
