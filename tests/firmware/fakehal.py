# A HAL for tests: a fixed or scripted board, time moved by hand, what the device wrote
# kept as lines, what the host sends queued as bytes. Runs in both interpreters.
from firmware.board.occupancy import START
from firmware.hal.base import Hal
from firmware.rules.squares import parse_square
from tests.firmware.support import tmp


def set_square(occ, name, on):
    """Put a piece on square name of occupancy occ (8 bytes, rank 1 first), or take it off."""
    sq = parse_square(name)
    if on:
        occ[sq >> 3] |= 1 << (sq & 7)
    else:
        occ[sq >> 3] &= ~(1 << (sq & 7)) & 0xFF


class FakeHal(Hal):
    scan_ms = 10

    def __init__(self, occ=START):
        self.t = 0
        self.occ = bytearray(occ)
        self.out = []  # what the device wrote, chunk by chunk (no one growing buffer: see write)
        self.inbox = bytearray()
        self.queue = []
        self.faces = []
        self.leds = {}
        self.signals = []  # (t, side, on) of the SIGNAL lights
        self.fed = 0
        self.motors = []
        self.tones = []
        self.power_state = (None, True, False, None)
        self.lit = bytes(64)

    def now(self):
        return self.t

    def diff(self, a, b):
        return a - b

    def scan(self, out):
        out[:] = self.occ
        return out

    def inputs(self):
        q = self.queue
        self.queue = []
        return q

    def read(self):
        if not self.inbox:
            return None
        data = bytes(self.inbox[:32])
        self.inbox = self.inbox[32:]
        return data

    def write(self, data):
        # Kept as separate chunks: one buffer grown over a long test needs ever larger
        # contiguous blocks, which a fragmented 256K heap cannot always give.
        self.out.append(bytes(data))

    def display(self, white, black):
        self.faces.append((white, black))

    def led(self, name, on):
        self.leds[name] = on

    def signal(self, side, on):
        self.signals.append((self.t, side, on))

    def motor(self, side, duty_percent):
        self.motors.append((self.t, side, duty_percent))

    def buzzer(self, freq):
        self.tones.append((self.t, freq))

    def squares(self, kinds):
        self.lit = bytes(kinds)

    def power(self):
        return self.power_state

    def feed_watchdog(self):
        self.fed += 1

    def restart_to_repl(self):
        self.restarted_to_repl = True

    def restart_to_bootloader(self):
        self.restarted_to_bootloader = True

    # ----- test helpers

    def send(self, text):
        self.inbox += text.encode() if isinstance(text, str) else text

    def lines(self):
        """The complete lines written since the last call (and forgets them)."""
        got, part = [], ""
        for chunk in self.out:
            pieces = (part + chunk.decode()).split("\n")
            part = pieces.pop()
            got.extend(l for l in pieces if l)
        self.out = [part.encode()] if part else []
        return got


def run(dev, hal, ms):
    """Step the device for ms of simulated time."""
    end = hal.t + ms
    while hal.t < end:
        dev.step(hal.t)
        hal.t += hal.scan_ms


def say(dev, hal, text, ms=0):
    """The host sends text; the device is stepped until it has read it, then ms more."""
    hal.send(text)
    while hal.inbox:
        run(dev, hal, 10)
    run(dev, hal, ms)


def hand_move(dev, hal, frm, to, lift_ms=300, place_ms=600):
    """A hand lifts the piece on frm, (lifts what stands on to,) and puts it down on to."""
    set_square(hal.occ, frm, False)
    run(dev, hal, lift_ms)
    set_square(hal.occ, to, True)
    run(dev, hal, place_ms)


def lever(dev, hal, side):
    """side's clock lever pressed now (its interrupt's tick), then 100 ms."""
    hal.queue.append(("press", side, None, hal.t))
    run(dev, hal, 100)


def speak_first(dev, hal):
    """The host's first line, as our relay and tools send it: the board never speaks
    before it is spoken to, and answers hello (then the start's warnings and recovery)."""
    say(dev, hal, "hello\n")


def fresh_device(name, ms=50, speak=True):
    """A Device on a FakeHal as a new board starts: settings files of its own under /tmp
    (chessboard-<name>-presets.json, ...), with no signal or board settings saved yet;
    stepped for ms, and (speak) said hello to. Returns (device, hal)."""
    import os

    from firmware.app.device import Device

    base = tmp(name + "-")
    for kind in ("access", "config"):
        try:
            os.remove(base + kind + ".json")
        except OSError:
            pass
    hal = FakeHal()
    dev = Device(hal, presets_path=base + "presets.json")
    run(dev, hal, ms)
    if speak:
        speak_first(dev, hal)
    return dev, hal
