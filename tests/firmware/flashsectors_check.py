# Inside micropython only (tests/firmware/test_flash_sectors.py runs it): the journal's sectors taken
# from littlefs (firmware/hal/flashsectors.py) on a NOR flash in memory, as on the Pico.
# littlefs keeps working around them, its files intact, across remounts; the sectors are
# found again from the map; the journal on them reads back.
import sys
import vfs

sys.path.append(".")

from firmware.app.eventlog import EventLog  # noqa: E402
from firmware.app.journal import Journal  # noqa: E402
from firmware.hal.flashsectors import FlashSectors  # noqa: E402
from tests.firmware.flashfakes import NorBlockDevice  # noqa: E402


def mount(bdev):
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/flash")


def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)


def main():
    bdev = NorBlockDevice(96)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    mount(bdev)
    with open("/flash/keep.txt", "w") as f:
        f.write("the maker's file\n" * 50)
    s = FlashSectors(bdev, count=12, folder="/flash/journal")
    check(s.made and len(set(s.blocks)) == 12, "twelve blocks of their own")
    j = Journal(s, "/flash/journal.games", ahead=3)
    j.load(EventLog())
    while j.prepare():
        pass
    state = list(range(16))
    log = EventLog()
    log.new_game(1, "tc=300+2 fen=x chess960=- white=A black=B", False)
    j.begin(1, log.header, [log.raw(1)], state)
    n = 1
    for i in range(300):  # more than the prepared sectors: some erased on the way
        seq = log.append(1, 0, i + 1, 1234, "")
        j.commit([log.raw(seq)], seq, state)
        n = seq
    # littlefs is untouched: remounted, its file reads, new files can be written (its
    # allocator walks every file, the journal's included).
    vfs.umount("/flash")
    mount(bdev)
    with open("/flash/keep.txt") as f:
        check(f.read() == "the maker's file\n" * 50, "the maker's file intact")
    for k in range(20):
        with open("/flash/new%d.txt" % k, "w") as f:
            f.write("x" * 3000)
    for k in range(20):
        with open("/flash/new%d.txt" % k) as f:
            check(f.read() == "x" * 3000, "new files written around the journal")
    # The sectors come back from the map; the journal reads back.
    s2 = FlashSectors(bdev, count=12, folder="/flash/journal")
    check(not s2.made and s2.blocks == s.blocks, "found again from the map")
    got = EventLog()
    r = Journal(s2, "/flash/journal.games", ahead=3).load(got)
    check(r is not None and r.count == n and got.count == n, "the journal reads back")
    check([got.raw(i) for i in range(1, n + 1)] == [log.raw(i) for i in range(1, n + 1)], "every event")
    # Without the map (or a file), new sectors are made.
    import os

    os.remove("/flash/journal/map")
    s3 = FlashSectors(bdev, count=12, folder="/flash/journal")
    check(s3.made, "made again without the map")
    with open("/flash/keep.txt") as f:
        check(f.read() == "the maker's file\n" * 50, "the maker's file intact at the end")
    print("OK")


main()
