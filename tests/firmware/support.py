# Helpers for firmware tests. These tests run under CPython (pytest) and inside the
# `micropython` interpreter (tests/firmware/runner.py), so they use only what both have.


def _unique():
    try:
        import os

        return "%s-%d" % ("cpython", os.getpid())
    except (ImportError, AttributeError):  # the micropython unix port: one process a test
        import random

        return "%s-%d" % ("micropython", random.getrandbits(24))


_RUN = _unique()


def tmp(name):
    """A path under /tmp for name that no other test process uses at the same time (the
    suite runs tests in parallel, each module in both interpreters)."""
    return "/tmp/chessboard-%s-%s" % (_RUN, name)


def lines_of(chunks):
    """The text lines of what a device wrote (a list of bytes), chunk by chunk: one joined
    text would need a large free block of the capped heap."""
    lines, part = [], ""
    for chunk in chunks:
        pieces = (part + chunk.decode()).split("\n")
        part = pieces.pop()
        lines.extend(l for l in pieces if l)
    return lines


def occ_hex(occ):
    """An occupancy (8 bytes, a1 first) as a trace line's hex."""
    return "%016x" % int.from_bytes(bytes(occ), "little")


def ee_records(data):
    """A DGT board's store (docs/dgt.md) as records: ("f", field, piece), ("t", left,
    seconds) for a halted clock (left: White's), or a one-byte tag."""
    out = []
    i = 0
    while i < len(data):
        b = data[i]
        if 0x40 <= b <= 0x5F:
            out.append(("f", data[i + 1], b & 0x0F))
            i += 2
        elif 0x60 <= b <= 0x69 or 0x70 <= b <= 0x79:
            m, s = data[i + 1], data[i + 2]
            secs = (b & 0x0F) * 3600 + ((m >> 4) * 10 + (m & 15)) * 60 + (s >> 4) * 10 + (s & 15)
            out.append(("t", bool(b & 0x10), secs))
            i += 3
        else:
            out.append(b)
            i += 1
    return out


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail unless it is an exc_type."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


# The perft table of the reference (Chess Programming Wiki), nodes at depth 1..4.
PERFT = (
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", (20, 400, 8902, 197281)),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039, 97862, 4085603)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467, 422333)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379, 2103487)),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", (46, 2079, 89890, 3894594)),
)


class FakeTicks:
    """A tick source like the RP2040's time.ticks_ms: milliseconds that wrap at 2**30.
    Pass its diff and add to the code under test, and move time with advance()."""

    PERIOD = 0x40000000

    def __init__(self, start=0):
        self.t = start % self.PERIOD

    def now(self):
        return self.t

    def advance(self, ms):
        self.t = (self.t + ms) % self.PERIOD
        return self.t

    def diff(self, a, b):
        d = (a - b) % self.PERIOD
        return d - self.PERIOD if d >= self.PERIOD // 2 else d

    def add(self, t, ms):
        return (t + ms) % self.PERIOD


class Rand:
    """Pseudo-random numbers that are the same in both interpreters."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.s >> 7) % n
