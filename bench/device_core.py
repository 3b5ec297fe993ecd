# The firmware side of bench/device.py (inside micropython).
#   latency TRACE   virtual time: per move, the virtual ms from the final physical change
#                   of the move to its move line, the real CPU us from the start of the
#                   step to the line, and the peak live heap (after a collection) per move
#   rate TRACE SECS real time: the asyncio loop of the chip (firmware/app/main.py) runs
#                   the trace; scans counted each second
import gc
import sys
from array import array
from time import ticks_us, ticks_diff

sys.path.append(".")

from firmware.app.device import Device  # noqa: E402
from simulator.hal import SimHal  # noqa: E402


class Watch:
    """An output that notes each move line: the virtual ms since the last board change
    before its step, and the CPU us from the start of the step. Preallocated arrays: a
    list grown over a long game needs ever larger blocks of a fragmented heap."""

    def __init__(self, hal, most=2000):
        self.hal = hal
        self.n = 0
        self.delay = array("i", bytes(4 * most))
        self.to_line = array("i", bytes(4 * most))
        self.step_start = 0
        self.last_change = 0

    def write(self, data):
        if b" move " in data and self.n < len(self.delay):
            self.delay[self.n] = self.hal.now() - self.last_change
            self.to_line[self.n] = ticks_diff(ticks_us(), self.step_start)
            self.n += 1


def latency(trace):
    hal = SimHal(trace, virtual=True, outputs=None)
    watch = Watch(hal)
    hal.write = watch.write
    hal.read = lambda: None
    dev = Device(hal, presets_path="/tmp/chessboard-bench-presets.json")
    prev = bytearray(hal.occ)
    peak = 0
    while True:
        now = hal.now()
        before = watch.n
        watch.step_start = ticks_us()
        dev.step(now)
        if hal.occ != prev:
            prev[:] = hal.occ
            watch.last_change = now
        if watch.n != before:
            gc.collect()  # the live heap, not garbage waiting for a collection
            a = gc.mem_alloc()
            if a > peak:
                peak = a
        if hal.trace_done and now > watch.last_change + 3000:
            break
        hal.advance(hal.scan_ms)
    n = watch.n
    settle = dev.recognizer.settle_ms
    dev = hal = None
    gc.collect()
    delays = sorted(watch.delay[:n])
    step_us = sorted(watch.to_line[:n])
    print("moves %d settle_ms %d" % (n, settle))
    print("delay_ms median %d worst %d" % (delays[n // 2], delays[-1]))
    print("step_us median %d worst %d" % (step_us[n // 2], step_us[-1]))
    print("peak_heap_bytes %d" % peak)


def rate(trace, secs):
    import asyncio
    from firmware.app import main as app

    hal = SimHal(trace, virtual=False, outputs=None)
    hal.write = lambda data: None
    dev = Device(hal, presets_path="/tmp/chessboard-bench-presets.json")
    counts = []

    async def sample():
        last = dev.progress[0]
        for _ in range(secs):
            await asyncio.sleep_ms(1000)
            now = dev.progress[0]
            counts.append(now - last)
            last = now

    async def go():
        asyncio.create_task(app._every(app.SCAN_MS, dev.scan_step, hal, app._collector(dev, hal)))
        asyncio.create_task(app._every(app.CLOCK_MS, dev.clock_step, hal))
        asyncio.create_task(app._every(app.PROTOCOL_MS, dev.protocol_step, hal))
        asyncio.create_task(app._idle(dev))
        await sample()

    asyncio.run(go())
    s = sorted(counts)
    print("scans_per_s min %d median %d max %d moves %d" % (s[0], s[len(s) // 2], s[-1], dev.game.ply))


if sys.argv[1] == "latency":
    latency(sys.argv[2])
else:
    rate(sys.argv[2], int(sys.argv[3]))
