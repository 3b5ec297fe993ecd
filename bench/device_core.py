# The firmware side of bench/device.py (inside micropython).
#   latency TRACE   virtual time: per move, the virtual ms from the final physical change
#                   of the move to its move line, the real CPU us from the start of the
#                   step to the line, and the peak live heap (after a collection) per move
#   rate TRACE SECS real time: the asyncio loop of the chip (firmware/app/main.py) runs
#                   the trace; scans counted each second
import gc
import sys
from time import ticks_us, ticks_diff

sys.path.append(".")

from firmware.app.device import Device  # noqa: E402
from simulator.hal import SimHal  # noqa: E402


class Watch:
    """An output that notes when move lines are written, and how long into the step."""

    def __init__(self, hal):
        self.hal = hal
        self.moves = []
        self.step_start = 0
        self.to_line = []

    def write(self, data):
        if b" move " in data:
            self.moves.append(self.hal.now())
            self.to_line.append(ticks_diff(ticks_us(), self.step_start))


def latency(trace):
    hal = SimHal(trace, virtual=True, outputs=None)
    watch = Watch(hal)
    hal.write = watch.write
    hal.read = lambda: None
    dev = Device(hal, presets_path="/tmp/chessboard-bench-presets.json")
    last_change = []
    prev = bytearray(hal.occ)
    peak = 0
    step_us = []
    n = 0
    while True:
        now = hal.now()
        before = len(watch.moves)
        watch.step_start = ticks_us()
        dev.step(now)
        if len(watch.moves) != before:
            step_us.append(watch.to_line[-1])
        if hal.occ != prev:
            prev[:] = hal.occ
            last_change.append(now)
        n += 1
        if len(watch.moves) != before:
            gc.collect()  # the live heap, not garbage waiting for a collection
            a = gc.mem_alloc()
            if a > peak:
                peak = a
        if hal.trace_done and now > (last_change[-1] if last_change else 0) + 3000:
            break
        hal.advance(hal.scan_ms)
    # Each move line is preceded by the last board change before it.
    delays = []
    for t in watch.moves:
        last = max(c for c in last_change if c <= t)
        delays.append(t - last)
    delays.sort()
    step_us.sort()
    print("moves %d settle_ms %d" % (len(watch.moves), dev.rec.settle_ms))
    print("delay_ms median %d worst %d" % (delays[len(delays) // 2], delays[-1]))
    print("step_us median %d worst %d" % (step_us[len(step_us) // 2], step_us[-1]))
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
        asyncio.create_task(app._every(app.SCAN_MS, dev.scan_step, hal))
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
