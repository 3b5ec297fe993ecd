# A power cut in the middle of any flash operation of the journal (firmware/app/journal.py)
# leaves the game as at one of its commits, never less than what was on flash before.
import gc

from firmware.app.eventlog import EventLog
from firmware.app.journal import Journal, JournalError, SECTOR, PAGE
from tests.firmware.flashfakes import MemSectors, RecordingSectors, apply
from tests.firmware import test_journal as T

MICROPYTHON_HEAP = "416K"  # test_journal.py's, and room for the recorded flash and its two images:
# at 320K this test had under 1 KB to spare (it failed on the length of its module paths)
SMALL = 4  # sectors: what the game needs, and small enough to copy for every cut


def _ops(path):
    with open(path, "rb") as f:
        while True:
            b = f.read(3 + PAGE)
            if len(b) < 3 + PAGE:
                return
            yield (chr(b[0]), b[1], b[2] << 8, b[3:])


def test_a_power_cut_in_any_flash_operation_gives_a_committed_prefix():
    # The game written onto recorded flash; then, for every program and erase, the
    # power cut before it, in its middle and after it: what is read back is always the
    # game as at one of its commits, never less than the commit before the cut.
    T._clean("every_cut")
    flash = RecordingSectors(T.DIR + "/flash.bin", SMALL)
    dev, hal = T._device(journal=Journal(flash, T.DIR + "/journal.games"))
    hal.send("start\n")
    T.run(dev, hal, 50)
    T._play(dev, hal, T.GAME)
    whole = len(T._events(dev))
    raws = [dev.record.log.raw(s) for s in range(1, dev.record.log.count + 1)]
    flash.ops.close()
    dev = hal = flash = None
    T._cut()
    image = [bytearray(b"\xff" * SECTOR) for _ in range(SMALL)]
    best = 0  # events the flash holds for certain so far (whole operations)
    ops = 0
    # One flash for every cut, filled again each time: a new 16 KB of sectors per cut
    # would need ever new 4 KB blocks of a fragmented 320 KB heap.
    cut = MemSectors(SMALL)
    for op in _ops(T.DIR + "/flash.bin.ops"):
        ops += 1
        for upto in (0, 7, 100, PAGE, SECTOR // 2):
            if upto > (PAGE if op[0] == "p" else SECTOR // 2):
                continue
            for i in range(SMALL):
                cut.data[i][:] = image[i]
            del cut.ops[:]
            apply(cut.data, op, upto)
            log = EventLog()
            try:
                r = Journal(cut, T.DIR + "/journal.games").load(log)
            except JournalError:
                r = None
            if r is None:
                # Only before the first commit is there no game to read.
                assert best == 0, (ops, upto)
                continue
            assert r.count == log.count >= best, (ops, upto, r.count, best)
            ref = EventLog()
            for s in range(1, r.count + 1):
                ref.append_raw(raws[s - 1])
            assert [log.line(s, str) for s in range(1, r.count + 1)] == \
                [ref.line(s, str) for s in range(1, r.count + 1)]
            log = ref = None
            gc.collect()
        apply(image, op, SECTOR)
        if op[0] == "p":
            log = EventLog()
            try:
                for i in range(SMALL):
                    cut.data[i][:] = image[i]
                best = Journal(cut, T.DIR + "/journal.games").load(log).count
            except JournalError:
                pass
    assert best == whole and ops > 20
