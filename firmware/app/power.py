# The board's power: the battery's level every half minute (a `power` line to the host, the
# level in the clock's menu, C.02's low-battery sign on the faces), the heap for a maker
# (`memory`), and the restarts: into MicroPython's prompt (`repl`), into the RP2040's USB
# bootloader for a new UF2 (`bootloader`, the arbiter's menu's UPDATE: `update`).
import gc

from firmware.app import protocol as P

POWER_EVERY_MS = 30000


class Power:
    def __init__(self, hal, record, clock, controls, faces, now):
        self.hal = hal
        self.record = record
        self.clock = clock
        self.controls = controls
        self.faces = faces
        self._at = now - POWER_EVERY_MS
        self._restart = None  # the HAL's restart, once the game and the answer are out

    def step(self, now):
        if self._restart is not None:  # the step that asked has committed the game and its line
            restart, self._restart = self._restart, None
            restart()
        if self.hal.diff(now, self._at) < POWER_EVERY_MS:
            return
        self._at = now
        mv, usb, low, level = self.hal.power()
        if mv is not None:
            self.record.write("power %d %s %s" % (mv, "usb" if usb else "battery", "low" if low else "ok"))
        self.controls.show_battery("USB" if usb else "--" if level is None else "%d%%" % level)
        self.faces.show_low_battery(low)

    # ----- the host's commands (firmware/app/commands.py)

    def memory(self, now):
        """The heap after a full collection, and its largest free block (bench/chip.py; a
        maker's check). -1: this interpreter cannot tell."""
        gc.collect()
        free = gc.mem_free() if hasattr(gc, "mem_free") else -1
        used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else -1
        return ("memory", "free=%d" % free, "used=%d" % used, "largest=%d" % _largest(free))

    def repl(self, now):
        """For a developer: the board restarts into MicroPython's prompt, without the
        application (and so without its watchdog), until the next reset. Not while a clock
        runs. The game stays on flash, as after a power cut: the restart comes at the next
        clock step, after the commit of the step that answered."""
        self._not_while_running()
        self.record.write("ok repl")
        self._restart = self.hal.restart_to_repl
        return ()

    def bootloader(self, now):
        """For `update`: the board restarts into the RP2040's USB bootloader (the RPI-RP2
        drive) to be given a new UF2, which keeps the flash's game and settings. Not while
        a clock runs; the restart as for `repl`."""
        self._not_while_running()
        self.record.write("ok bootloader")
        self.update(now)
        return ()

    def update(self, now):
        """The arbiter's menu's UPDATE (its last ok), or `bootloader`: into the USB
        bootloader at the next clock step, once the game is on flash."""
        self._restart = self.hal.restart_to_bootloader

    def _not_while_running(self):
        c = self.clock
        if c.running >= 0 and not c.paused and not c.stopped:
            raise P.NotNow("a clock is running: pause it first")


def _largest(free):
    # The largest block the heap can give now, to 16 bytes (MicroPython's block): found
    # by asking for blocks of halving sizes (a refusal costs a collection: a few tens of
    # milliseconds on the chip, for a command a person or a benchmark sends).
    if free < 0:
        return -1
    lo, hi = 0, free // 16
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            b = bytearray(mid * 16)  # its header is a block of its own, anywhere
            b = None
            lo = mid
        except MemoryError:
            hi = mid - 1
    return lo * 16
