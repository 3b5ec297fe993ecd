# Inside micropython (bench/nothing_lost.py runs it): the device's journal on littlefs v2,
# the Pico's filesystem, mounted on a RAM flash with the Pico's geometry (4096-byte erase
# blocks) that counts what the filesystem programs and erases. A game is played through
# the real Device on a fake board; printed: our bytes per move, the flash's programmed
# bytes and erased blocks per move, and the time of one journal commit.
import gc
import os
import sys
import time

sys.path.append(".")

from firmware.rules.squares import WHITE, BLACK  # noqa: E402

BLOCK = 4096


class CountingFlash:
    def __init__(self, blocks):
        self.data = bytearray(blocks * BLOCK)
        self.blocks = blocks
        self.programmed = 0
        self.erased = 0

    def readblocks(self, n, buf, off=0):
        a = n * BLOCK + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # a whole-block write: erase, then program
            self.erased += len(buf) // BLOCK
            off = 0
        a = n * BLOCK + off
        self.data[a:a + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase a block
            self.erased += 1
            a = arg * BLOCK
            self.data[a:a + BLOCK] = b"\xff" * BLOCK
            return 0
        return 0


def main():
    flash = CountingFlash(256)  # 1 MB of the Pico's 2 MB is the filesystem
    os.VfsLfs2.mkfs(flash)
    os.mount(os.VfsLfs2(flash), "/flash")
    from tests.firmware import test_journal as T
    from firmware.app.device import Device
    from tests.firmware.fakehal import FakeHal, run

    hal = FakeHal()
    dev = Device(hal, presets_path="/flash/presets.json", journal_path="/flash/journal.bin")
    run(dev, hal, 50)
    hal.send("new tc=5400+30\nstart\n")
    run(dev, hal, 100)
    from firmware.rules.position import is_castling, is_en_passant, move_promotion
    from firmware.rules.uci import uci

    plies = 0
    j = dev.journal
    b0, p0, e0 = j.bytes_written, flash.programmed, flash.erased
    times = []
    commit = j.commit

    def timed(events, count, state):
        t = time.ticks_us()
        commit(events, count, state)
        times.append(time.ticks_diff(time.ticks_us(), t))

    j.commit = timed
    side = WHITE
    seed = 12345
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    while plies < want and dev.match.outcome is None:
        # A random game of plain moves and captures (what the fake board's hand can do).
        g = dev.game
        plain = []
        for m in g.legal_moves():
            if move_promotion(m) or is_castling(m) or is_en_passant(m):
                continue  # more than the fake hand does
            plain.append(uci(g.position, m))
        if not plain:
            break
        seed = (seed * 1103515245 + 12345) & 0x3FFFFFFF
        T._move(dev, hal, plain[seed % len(plain)], think=1000)
        T._press(dev, hal, side)
        side = BLACK if side == WHITE else WHITE
        plies += 1
        hal.lines()
    times.sort()
    print("plies", plies)
    print("journal_bytes_per_move", (j.bytes_written - b0) // plies)
    print("flash_programmed_per_move", (flash.programmed - p0) // plies)
    print("flash_erased_blocks_per_move", "%.2f" % ((flash.erased - e0) / plies))
    print("commit_us_median", times[len(times) // 2])
    print("commit_us_max", times[-1])
    print("commits", len(times))
    gc.collect()


main()
