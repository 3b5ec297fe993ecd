# A whole game as two blind players play it on the real firmware (#34): Kasparov-Topalov,
# Wijk aan Zee 1999, 44 moves, at 40/5400+30:1800+30 (White reaches the second period),
# the pieces and levers as the hardware gives them (a trace through the simulator's HAL,
# in virtual time), and the players' ask keys touched at every moment: before moving (one
# touch, or three for time, the opponent's time and the moves), with the press that
# completes a move, and on the opponent's turn - as a blind player does, waiting for each
# answer before touching again. Every answer is recorded as it begins (its pulses and its
# tick) for the test (tests/firmware/test_signals_game.py) and bench/access.py to hold
# against what the motor and the light did. Runs in CPython and in micropython.
import gc
from array import array

from firmware.access.player import SEPARATION_MS
from firmware.app.device import Device
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.support import tmp
from tests.firmware.tracebuilder import Scenario

TRACE = tmp("blind-game.trace")
PRESETS = tmp("blind-game-presets.json")
CONTROL = b"40/5400+30:1800+30"
GAME = ("e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 c1e3 f8g7 d1d2 c7c6 f2f3 b7b5 g1e2 b8d7 e3h6 g7h6 d2h6 c8b7 "
        "a2a3 e7e5 e1c1 d8e7 c1b1 a7a6 e2c1 e8c8 c1b3 e5d4 d1d4 c6c5 d4d1 d7b6 g2g3 c8b8 b3a5 b7a8 "
        "f1h3 d6d5 h6f4 b8a7 h1e1 d5d4 c3d5 b6d5 e4d5 e7d6 d1d4 c5d4 e1e7 a7b6 f4d4 b6a5 b2b4 a5a4 "
        "d4c3 d6d5 e7a7 a8b7 a7b7 d5c4 c3f6 a4a3 f6a6 a3b4 c2c3 b4c3 a6a1 c3d2 a1b2 d2d1 h3f1 d8d2 "
        "b7d7 d2d7 f1c4 b5c4 b2h8 d7d3 h8a8 c4c3 a8a4 d1e1 f3f4 f7f5 b1c1 d3d2 a4a7").split()
ANSWER_MS = 16000  # what a player waits for an answer before he goes on (the longest, 1:29:43, takes 15 s)
# Castling as the king's move: the rook's squares (the king's are in the move).
ROOKS = {"e1g1": ("h1", "f1"), "e1c1": ("a1", "d1"), "e8g8": ("h8", "f8"), "e8c8": ("a8", "d8")}


class Ints:
    """Whole numbers kept in 1 KB blocks: a whole game's records grow by a block at a time
    (a list would want ever larger blocks of a heap its growth fragments)."""

    def __init__(self):
        self._blocks = []
        self._n = 0

    def add(self, *values):
        for v in values:
            if self._n % 256 == 0:
                self._blocks.append(array("i", bytes(1024)))
            self._blocks[-1][self._n % 256] = v
            self._n += 1

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        return self._blocks[i // 256][i % 256]


class Timeline:
    """An output's switches as (tick, on)."""

    def __init__(self):
        self._ints = Ints()

    def add(self, t, on):
        self._ints.add(t * 2 + (1 if on else 0))

    def __len__(self):
        return len(self._ints)

    def get(self, i):
        v = self._ints[i]
        return v >> 1, bool(v & 1)

    def last(self):
        return self.get(len(self._ints) - 1) if len(self._ints) else None

    def items(self):
        for i in range(len(self._ints)):
            yield self.get(i)


class Answers:
    """Each answer as it began: its side, tick and pulses (on, off, on, off, ...)."""

    def __init__(self):
        self._heads = Ints()  # side, tick, first pulse's place, pulses
        self._pulses = Ints()

    def add(self, side, tick, pulses):
        self._heads.add(side, tick, len(self._pulses), len(pulses))
        for on, off, _ in pulses:
            self._pulses.add(on, off)

    def __len__(self):
        return len(self._heads) // 4

    def __iter__(self):
        h, p = self._heads, self._pulses
        for i in range(0, len(h), 4):
            yield h[i], h[i + 1], [p[h[i + 2] + 2 * k + j] for k in range(h[i + 3]) for j in (0, 1)]


class SameAs:
    """A light that must switch as a motor does, at the same ticks (the device sets the
    motor, then the light, for each pulse): kept as a count of switches and of those that
    differed, not as a timeline of its own (a whole game's would not fit the capped heap)."""

    def __init__(self, motor):
        self.motor = motor
        self.switches = 0
        self.differed = 0

    def add(self, t, on):
        self.switches += 1
        if self.motor.last() != (t, on):
            self.differed += 1


def scenario(answer_ms=ANSWER_MS):
    """The trace's lines, its end, and the touches it holds (tick, side as 0 or 1, each);
    answer_ms: what a player waits for each answer he asked for."""
    s = Scenario()
    occupied = set()
    for f in "abcdefgh":
        for r in "1278":
            occupied.add(f + r)
    touches = Ints()  # tick, side (0 White, 1 Black) of each touch

    def touch(side, n=1):
        for _ in range(n):
            touches.add(s.t, 0 if side == "white" else 1)
            s.button("ask-" + side)

    s.wait(100).press("black")  # White's clock starts (6.6)
    for i, uci in enumerate(GAME):
        side = "white" if i % 2 == 0 else "black"
        other = "black" if side == "white" else "white"
        s.wait(500)
        if i % 2 == 1:  # on the opponent's turn: his time, the opponent's, ...
            touch(other)
        n = 3 if i % 3 == 0 else 1  # before moving: his time, or all three answers
        touch(side, n)
        s.wait(answer_ms * n)
        frm, to = uci[:2], uci[2:4]
        if to in occupied:  # a capture: the captured piece off first
            s.lift(to)
        s.move(frm, to)
        occupied.discard(frm)
        occupied.add(to)
        if uci in ROOKS and (side == "white") == (uci[1] == "1"):
            rf, rt = ROOKS[uci]
            s.move(rf, rt, think=100)
            occupied.discard(rf)
            occupied.add(rt)
        s.press(side)
        if i % 4 == 2:  # with the press that completes the move
            s.wait(30)
            touch(side)
            s.wait(answer_ms)
    s.wait(answer_ms * 2)
    return s.lines, s.t, touches


def play(access=b"access blind=wb visual=wb\n", autopenalty=True, answer_ms=ANSWER_MS):
    """The game through the real firmware: (what the device said, counted: "ask time",
    "ask opponent", "ask move", "ask stop", "illegal" for an illegal press or a penalty;
    each side's light (SameAs its motor) and motor timeline; the answers (Answers); the
    touches (tick, side as 0 or 1, each); the device)."""
    trace, end, touches = scenario(answer_ms)
    with open(TRACE, "w") as f:
        for line in trace:
            f.write(line + "\n")
    del trace
    gc.collect()
    hal = SimHal(TRACE, virtual=True)
    hal.read = lambda: None
    counts = {}  # what the device said that the test reads, counted as it comes (a line at a time)

    def write(data):
        words = data.split()
        if data.startswith(b"ask "):
            key = "ask " + words[2].decode()
        elif data.startswith(b"illegal-press") or b" penalty " in data:
            key = "illegal"
        else:
            return
        counts[key] = counts.get(key, 0) + 1

    hal.write = write
    motor = {WHITE: Timeline(), BLACK: Timeline()}
    light = {WHITE: SameAs(motor[WHITE]), BLACK: SameAs(motor[BLACK])}
    hal.signal = lambda side, on: light[side].add(hal.now(), on)
    hal.motor = lambda side, duty: motor[side].add(hal.now(), duty > 0)
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(access)
    dev.receive(b"new tc=" + CONTROL + b"\n")
    if autopenalty:
        dev.config.configure({"autopenalty": True})
    answers = Answers()
    for side in (WHITE, BLACK):
        player = dev.events.signals.players[side]
        compose = player.compose

        def spy(kind, now, side=side, compose=compose):
            pulses = compose(kind, now)
            answers.add(side, now, pulses)
            return pulses

        player.compose = spy
    while hal.now() < end:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    gc.collect()
    return counts, light, motor, answers, touches, dev


def switches(flat, start):
    """The (tick, on) switches a signal's pulses (on, off, on, off, ...) make from start."""
    out = []
    t = start
    for k in range(0, len(flat), 2):
        out.append((t, True))
        t += flat[k]
        out.append((t, False))
        t += flat[k + 1]
    return out


def judge(timeline, answers, side):
    """Each answer of side (its pulses as on, off, on, off, ...) against the timeline:
    (whole, separated, end tick) for each, in order. Whole: every pulse switched on and off
    at its ticks, nothing between; separated: the timeline quiet for SEPARATION_MS before
    it and after it. Walks the timeline once (a whole game's, as a list, would not fit the
    capped heap)."""
    out = []
    n = len(timeline)
    k = 0
    for s, start, flat in answers:
        if s != side:
            continue
        while k < n and timeline.get(k)[0] < start:
            k += 1
        want = switches(flat, start)
        whole = k + len(want) <= n and all(timeline.get(k + j) == w for j, w in enumerate(want))
        before = timeline.get(k - 1)[0] if k else None
        after = timeline.get(k + len(want))[0] if k + len(want) < n else None
        end = want[-1][0]
        separated = whole and (before is None or start - before >= SEPARATION_MS) and \
            (after is None or after - end >= SEPARATION_MS)
        out.append((whole, separated, end))
    return out
