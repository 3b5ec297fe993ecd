# A power cut in the middle of any flash operation of the journal (firmware/app/journal.py)
# leaves the game as at one of its commits, never less than what was on flash before.
import gc

from firmware.app.eventlog import EventLog
from firmware.app.journal import Journal, JournalError, SECTOR, PAGE
from tests.firmware.flashfakes import MemSectors, RecordingSectors, apply
from tests.firmware import test_journal as T

MICROPYTHON_HEAP = "320K"  # as test_journal.py
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
    raws = [dev.log.raw(s) for s in range(1, dev.log.count + 1)]
    flash.ops.close()
    dev = hal = flash = None
    T._cut()
    image = [bytearray(b"\xff" * SECTOR) for _ in range(SMALL)]
    best = 0  # events the flash holds for certain so far (whole operations)
    ops = 0
    for op in _ops(T.DIR + "/flash.bin.ops"):
        ops += 1
        for upto in (0, 7, 100, PAGE, SECTOR // 2):
            if upto > (PAGE if op[0] == "p" else SECTOR // 2):
                continue
            cut = MemSectors(SMALL, image)
            apply(cut.data, op, upto)
            log = EventLog()
            try:
                r = Journal(cut, T.DIR + "/journal.games").load(log)
            except JournalError:
                r = None
            cut = None
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
                best = Journal(MemSectors(SMALL, image), T.DIR + "/journal.games").load(log).count
            except JournalError:
                pass
    assert best == whole and ops > 20
