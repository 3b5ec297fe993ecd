# Inside micropython (bench/nothing_lost.py runs it): the device's journal on its sectors
# taken from littlefs v2 (firmware/hal/flashsectors.py), the Pico's filesystem mounted on a
# RAM flash with the Pico's geometry (4096-byte erase blocks) that counts what is
# programmed and erased. A game is played through the real Device on a fake board;
# printed: our bytes per move, the flash's programmed bytes and erased blocks per move
# (during the game: while the clock runs), and the time of one journal commit.
import gc
import os
import sys
import time

sys.path.append(".")

from firmware.rules.squares import WHITE, BLACK  # noqa: E402

def main():
    from tests.firmware.flashfakes import NorBlockDevice

    flash = NorBlockDevice(192)  # 768 KB: the part of the Pico's filesystem left free
    os.VfsLfs2.mkfs(flash, progsize=256)
    os.mount(os.VfsLfs2(flash, progsize=256), "/flash")
    from tests.firmware import test_journal as T
    from firmware.app.device import Device
    from firmware.app.journal import Journal
    from firmware.hal.flashsectors import FlashSectors
    from tests.firmware.fakehal import FakeHal, run

    hal = FakeHal()
    journal = Journal(FlashSectors(flash, folder="/flash/journal"), "/flash/journal.games")
    dev = Device(hal, presets_path="/flash/presets.json", journal=journal)
    run(dev, hal, 50)
    hal.send("new tc=5400+30\nstart\n")
    run(dev, hal, 100)
    from firmware.rules.position import is_castling, is_en_passant, move_promotion
    from firmware.rules.uci import uci

    plies = 0
    j = dev.record.journal
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
