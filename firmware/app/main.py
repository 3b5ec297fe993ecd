# The device's main loop: asyncio tasks around the Device's parts, so that scanning and
# the clock keep their rate while the rule checker works (its work for the next move runs
# in small idle steps), and the hardware watchdog is fed only while the scan, clock and
# protocol tasks all make progress: a task that hangs resets the board. A press wakes
# the loop from its interrupt and is answered before the next scan is due. Each task keeps
# its period from a deadline (its work does not stretch it); the garbage collector runs
# right after a press has been answered, when the opponent has only begun to think, so
# that a collection never stands between a move and its line.
import asyncio
import gc
import sys

import micropython

from firmware.app.device import Device
from firmware.app.journal import Journal
from firmware.app.protocol import encode
from firmware.hal import rp2
from firmware.ticks import ticks_add, ticks_diff

SCAN_MS = 10
CLOCK_MS = 20
PROTOCOL_MS = 10
WATCHDOG_MS = 500


async def _every(ms, fn, hal, after=None):
    due = hal.now()
    while True:
        fn(hal.now())
        if after is not None:
            after()
        due = ticks_add(due, ms)
        wait = ticks_diff(due, hal.now())
        if wait < 0:  # late (a long step): on at once, and the period counts from now
            due = hal.now()
            wait = 0
        await asyncio.sleep_ms(wait)


def _collector(dev, hal):
    # After the scan that answered a press, one more scan first: the collection then
    # stands alone between two scans (the press's own work came before). A HAL that
    # scans from a timer (firmware/hal/scanner.py) is let make its next scan first, so
    # that the collection (~25 ms on the chip, the timer held back) starts right after it.
    # A quiet moment: the device counts them (a press answered, a game set up).
    due = [False, dev.progress[3]]
    scanner = getattr(hal, "scanner", None)

    def collect():
        if due[0]:
            due[0] = False
            if scanner is not None:
                scanner.after_next_scan(gc.collect)
            else:
                gc.collect()
        elif dev.progress[3] != due[1]:
            due[1] = dev.progress[3]
            due[0] = True

    return collect


async def _presses(dev, hal, flag):
    # A lever's interrupt sets the flag: the press is answered as soon as the task under
    # way yields, not at the next scan step (its time was taken in the interrupt).
    while True:
        await flag.wait()
        dev.scan_step(hal.now())


async def _idle(dev):
    while True:
        more = dev.idle_step()
        await asyncio.sleep_ms(0 if more else 20)


async def _watchdog(dev, hal):
    last = list(dev.progress)
    while True:
        await asyncio.sleep_ms(WATCHDOG_MS)
        now = dev.progress
        if now[0] != last[0] and now[1] != last[1] and now[2] != last[2]:
            hal.feed_watchdog()
        last[:] = now


def _handler(dev):
    def handle(loop, context):
        # A bug in a task: tell the host what it was. The task has ended, so the watchdog
        # is no longer fed: the board resets and comes back from its journal (a step cut
        # off halfway is never trusted to go on).
        e = context.get("exception")
        try:
            dev.record.write("err internal " + (repr(e) if e else "?").replace(" ", "%20"))
            sys.print_exception(e)
        except Exception:
            pass

    return handle


async def _main(dev, hal):
    asyncio.get_event_loop().set_exception_handler(_handler(dev))
    asyncio.create_task(_every(SCAN_MS, dev.scan_step, hal, _collector(dev, hal)))
    if hasattr(hal, "on_press"):
        flag = asyncio.ThreadSafeFlag()
        hal.on_press(flag.set)
        asyncio.create_task(_presses(dev, hal, flag))
    asyncio.create_task(_every(CLOCK_MS, dev.clock_step, hal))
    asyncio.create_task(_every(PROTOCOL_MS, dev.protocol_step, hal))
    asyncio.create_task(_idle(dev))
    await _watchdog(dev, hal)


def run_loop(dev, hal):
    if hasattr(micropython, "alloc_emergency_exception_buf"):  # the chip has it, not the unix port
        micropython.alloc_emergency_exception_buf(128)
    micropython.kbd_intr(-1)  # data bytes (0x03) must never interrupt the program
    try:
        asyncio.run(_main(dev, hal))
    finally:
        micropython.kbd_intr(3)


def run():
    """The device on a Raspberry Pi Pico: main.py calls this."""
    why = rp2.maintenance()
    if why is not None:
        # Left at MicroPython's prompt, watchdog off, for mpremote (deploy): the next
        # reset starts the application again.
        print("chessboard: not started (%s); MicroPython's prompt until the next reset" % why)
        return
    # The current game on flash (firmware/app/journal.py): a power cut, a reset by the
    # watchdog or a crash brings the board back with it.
    sectors, problem = rp2.journal_sectors()
    hal = rp2.create()
    dev = Device(hal, board_id=hal.board_id,
                 journal=Journal(sectors, "/journal.games") if sectors else None)
    if problem:
        dev.record.write("warning " + encode(problem))
    run_loop(dev, hal)
