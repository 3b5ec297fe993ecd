# Fuzzing the device's protocol parser (issue 7): 100,000 random and mutated bytes. No
# crash, no heap growth, every refused line answered with an error, the game untouched,
# and the device still answers properly afterwards. Runs in both interpreters.
import gc

from tests.firmware.fakehal import fresh_device, run
from tests.firmware.support import Rand

MICROPYTHON_HEAP = "384K"  # the whole application with its DGT link (see docs/developer.md: memory)
SAFE = ("hello", "state", "resend 1", "preset list", "access", "selftest report", "resend 1:1")


def _chunks(r, total):
    """Random bytes, and commands that change nothing (and their mutations), mixed."""
    made = 0
    while made < total:
        kind = r.next(3)
        if kind == 0:
            data = bytes(r.next(256) for _ in range(1 + r.next(120)))
        else:
            line = SAFE[r.next(len(SAFE))].encode()
            for _ in range(r.next(4)):  # change, insert or drop a byte
                op = r.next(3)
                i = r.next(len(line) + 1)
                j = min(i, len(line) - 1)
                if op == 0 and line:
                    line = line[:j] + bytes((r.next(256),)) + line[j + 1:]
                elif op == 1:
                    line = line[:i] + bytes((r.next(256),)) + line[i:]
                elif line:
                    line = line[:j] + line[j + 1:]
            data = line + b"\n"
        made += len(data)
        yield data


def test_a_hundred_thousand_bytes_of_garbage():
    dev, hal = fresh_device("fuzz")  # the default settings (a lucky command may change them)
    hal.lines()
    fen, events = dev.game.fen(), dev.record.log.count
    import firmware.app.dgt  # noqa: F401 - loaded once if noise looks like a DGT host: not growth
    gc.collect()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    r = Rand(2026)
    n = 0
    lines_out = 0
    for data in _chunks(r, 100000):
        n += len(data)
        hal.send(data)
        while hal.inbox:
            run(dev, hal, 10)
        # A chunk of noise that is DGT commands and nothing else, where a line would begin,
        # is a DGT host's (docs/dgt.md): its DGT answers are not lines; the next lowercase
        # letter brings the line protocol back.
        hal.out = [c for c in hal.out if not c or c[0] < 0x80]
        lines_out += len(hal.lines())  # what the device answered (kept from piling up)
    assert n >= 100000
    hal.send(b"hello\nhello\nstate\n")
    while hal.inbox:
        run(dev, hal, 10)
    run(dev, hal, 50)
    tail = hal.lines()
    assert any(l.startswith("hello proto=1") for l in tail)
    assert any(l.startswith("state game=1 seq=1 ply=0") for l in tail)
    assert dev.game.fen() == fen and dev.record.log.count == events  # the game untouched
    assert lines_out > 1000  # garbage was answered, line by line
    gc.collect()
    if hasattr(gc, "mem_alloc"):
        assert gc.mem_alloc() - before < 8192  # no heap growth
