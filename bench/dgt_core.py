# The firmware side of bench/dgt.py (inside micropython): a DGT host has put the board in
# update-board mode; for every field update the board writes, the virtual ms since the
# last physical change of the pieces before it, and the CPU us of the step that wrote it.
import sys
from array import array
from time import ticks_us, ticks_diff

sys.path.append(".")

from firmware.app.device import Device  # noqa: E402
from simulator.hal import SimHal  # noqa: E402


def main(trace):
    hal = SimHal(trace, virtual=True, outputs=None)
    delay = array("i", bytes(4 * 4000))
    cpu = array("i", bytes(4 * 4000))
    at = [0, 0, 0]  # updates so far, the last change, the start of the step

    def write(data):
        if data and data[0] == 0x8E and at[0] < len(delay):
            delay[at[0]] = hal.now() - at[1]
            cpu[at[0]] = ticks_diff(ticks_us(), at[2])
            at[0] += 1
    hal.write = write
    hal.read = lambda: None
    dev = Device(hal, presets_path="/tmp/chessboard-bench-dgt-presets.json")
    dev.receive(bytes((0x40, 0x44)))  # reset, update board: a DGT host attached
    prev = bytearray(hal.occ)
    while True:
        now = hal.now()
        at[2] = ticks_us()
        dev.step(now)
        if hal.occ != prev:
            prev[:] = hal.occ
            at[1] = now
        if hal.trace_done and now > at[1] + 3000:
            break
        hal.advance(hal.scan_ms)
    n = at[0]
    d = sorted(delay[:n])
    c = sorted(cpu[:n])
    print("updates %d plies %d" % (n, dev.game.ply))
    late = sum(1 for x in d if x > 100)
    print("delay_ms median %d p95 %d worst %d late %d" % (d[n // 2], d[n * 95 // 100], d[-1], late))
    print("step_us median %d worst %d" % (c[n // 2], c[-1]))


main(sys.argv[1])
