# A whole game as deaf and blind players play it (#13): the levers and pieces as the
# hardware gives them (a trace through the simulator's HAL, in virtual time), the arbiter's
# commands from the host, and every event kind the clock signals - moves, an illegal
# press, an illegal move on the board, a knocked piece, a new period, the arbiter's pause,
# a draw claim, the time thresholds, the last seconds, both flags and the game's end.
# Each player's signal light must show exactly what his motor plays: every pulse whole,
# at the same ticks, pattern after pattern in the order the events came. Runs in both
# interpreters.
import gc
from array import array

from firmware.access.numbercode import encode, number_groups, time_groups
from firmware.access.patterns import PATTERNS
from firmware.app.device import Device
from firmware.app.signals import ASK_AGAIN_MS
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.support import lines_of, tmp
from tests.firmware.tracebuilder import Scenario

TRACE = tmp("test-signals-game.trace")
PRESETS = tmp("test-signals-game-presets.json")
MICROPYTHON_HEAP = "576K"  # the whole application (64-bit objects) and a whole game's timelines and lines


class Timeline:
    """An output's switches as (tick, on), kept compactly in 1 KB blocks (a long game's
    list of tuples would want ever larger blocks of a fragmented heap)."""

    def __init__(self):
        self._blocks = []
        self._n = 0

    def add(self, t, on):
        if self._n % 256 == 0:
            self._blocks.append(array("i", bytes(1024)))
        self._blocks[-1][self._n % 256] = t * 2 + (1 if on else 0)
        self._n += 1

    def items(self):
        for i in range(self._n):
            v = self._blocks[i // 256][i % 256]
            yield v >> 1, bool(v & 1)


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
    # Both players feel and see everything; four thresholds, all within the last period.
    return _run(lines, commands, end, access=b"access blind=wb visual=wb buzzer=off thresholds=14,12,10,8\n",
                control=b"2/20:15")


def _run(trace, commands, end, access, control=None, autopenalty=False, asks=None):
    """The trace through the simulator's HAL in virtual time, the host's commands at their
    times: (the device's lines, each side's light and motor timelines, the event kinds
    each side was given, the device, what each ask queued: (side, pulses, expected))."""
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
    if autopenalty:
        dev.configure({"autopenalty": True})
    names = {WHITE: [], BLACK: []}  # the event kinds each side was given, in order
    event = dev.signals.event

    def spy(side, name, now):
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            names[s].append(name)
        event(side, name, now)

    dev.signals.event = spy
    if asks is not None:
        _spy_asks(dev, asks)
    while hal.now() < end:
        while commands and commands[0][0] <= hal.now():
            dev.receive(commands.pop(0)[1].encode() + b"\n")
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    return lines_of(out), light, motor, names, dev


def _spy_asks(dev, asks):
    """Each ask's number as the player queues it, and the number it must be, worked out
    here from the clock at the ask's instant (appendix D)."""
    signals = dev.signals
    ask = signals.ask
    queued = {}
    for side in (WHITE, BLACK):
        player = signals.players[side]
        number = player.number

        def spy_number(pulses, now, side=side, number=number):
            queued[side] = pulses
            number(pulses, now)

        player.number = spy_number

    def spy_ask(side, t, clock, game):
        what = ask(side, t, clock, game)
        other = BLACK if side == WHITE else WHITE
        i = side >> 4
        if what == "time":
            groups = time_groups(clock.time_left(side, t))
        elif what == "opponent":
            groups = time_groups(clock.time_left(other, t))
        else:
            groups = number_groups(clock.moves[i])
        asks.append((side, t, queued.pop(side), encode(groups, "tactileclock")))
        return what

    signals.ask = spy_ask


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
        assert list(light[side].items()) == list(motor[side].items())
        # Every pattern whole and in order: each pulse as long as the pattern says, each
        # gap within a pattern as long as it says (none shortened, none swallowed).
        want = [p for name in names[side] for p in PATTERNS[name]]
        got = _pulses(light[side])
        assert [on for on, _ in got] == [on for on, _, _ in want]
        for (on, gap), (_, off, _) in zip(got, want):
            if off:
                assert gap == off


def _blind_game(autopenalty):
    """A whole game of 24 plies in which both blind players ask for their time, the
    opponent's and their moves: on their own turn before moving and after moving (the hold
    completing the move), and on the opponent's turn."""
    s = Scenario()
    s.wait(100).press("black")
    moves = [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("f8", "c5"),
             ("b1", "c3"), ("g8", "f6"), ("d2", "d3"), ("d7", "d6"), ("c1", "g5"), ("c8", "g4"),
             ("h2", "h3"), ("g4", "h5"), ("a2", "a3"), ("a7", "a6"), ("b2", "b4"), ("c5", "b6"),
             ("a1", "b1"), ("a8", "b8"), ("c3", "d5"), ("b6", "a7"), ("d5", "f6"), ("g7", "f6")]
    captures = {("d5", "f6"): "f6", ("g7", "f6"): "f6"}
    holds = 0
    for i, (frm, to) in enumerate(moves):
        side = "white" if i % 2 == 0 else "black"
        other = "black" if side == "white" else "white"
        # A blind player feels the whole answer before he goes on (an event would cut it
        # short: firmware/access/player.py): ~9 s after a hold, 16 s after two.
        if i % 6 == 0:  # before moving, on his own turn: time, the opponent's, his moves
            s.wait(300).lever(side, 1200).wait(300).lever(side, 1200).wait(300).lever(side, 1200).wait(20000)
            holds += 3
        elif i % 3 == 0:  # time, then the opponent's
            s.wait(300).lever(side, 1200).wait(300).lever(side, 1200).wait(16000)
            holds += 2
        if i % 4 == 1:  # on the opponent's turn
            s.wait(200).lever(other, 1100).wait(9000)
            holds += 1
        if (frm, to) in captures:
            s.wait(300).lift(captures[(frm, to)])
        s.move(frm, to)
        if i % 5 == 2:  # after moving: the hold completes the move, then asks
            s.lever(side, 1000).wait(9000)
            holds += 1
        else:
            s.press(side)
    s.wait(12000)
    asked = []  # (side, the pulses of the number it queued, the number it should be)
    lines, light, motor, names, dev = _run(s.lines, [], s.t, access=b"access blind=wb\n", control=b"900+0",
                                           autopenalty=autopenalty, asks=asked)
    return lines, motor, dev, holds, len(moves), asked


def _blind_game_check(autopenalty):
    lines, motor, dev, holds, plies, asked = _blind_game(autopenalty)
    assert dev.game.ply == plies and dev.match.outcome is None  # every move made, none lost
    assert not [l for l in lines if l.startswith("illegal-press") or " penalty " in l]
    assert dev.match.illegal == [0, 0]
    assert len([l for l in lines if l.startswith("ask ")]) == holds == len(asked)
    kinds = [l.split()[2] for l in lines if l.startswith("ask ")]
    assert "time" in kinds and "opponent" in kinds and "move" in kinds
    on = {side: [p[0] for p in _pulses(motor[side])] for side in (WHITE, BLACK)}
    for n, (side, t, pulses, want) in enumerate(asked):
        assert list(pulses) == list(want)  # the right number, on the asker's player
        # The last question of a run of holds (each within 3 s of the one before: a newer
        # question replaces one not yet begun) is felt whole on his own motor.
        if any(s == side and t < t2 <= t + ASK_AGAIN_MS for s, t2, _, _ in asked[n + 1:]):
            continue
        code = [p[0] for p in want]
        felt = on[side]
        assert any(felt[k:k + len(code)] == code for k in range(len(felt) - len(code) + 1)), (side, code)


def test_a_whole_game_of_blind_players_asking_at_every_moment():
    _blind_game_check(autopenalty=False)


def test_a_whole_game_of_blind_players_asking_with_automatic_penalties():
    _blind_game_check(autopenalty=True)
