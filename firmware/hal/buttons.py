# Debounced buttons with the tick of each press taken in the pin interrupt (art. 6.2.1: the
# press completes the move, so its time must not wait for the loop). The interrupt handler
# only stores (button, tick) in a preallocated ring. events() then decides, outside the
# interrupt: a falling edge is a press only when the button had settled up; a release
# counts once the button has read up for DEBOUNCE_MS (the bounce of a release is no press),
# and a button let go before it was held says so ("up"); a button held LONG_MS gives a
# long press ("long", while it is still held). device_inputs() turns these into the
# device's inputs, the same for the Pico's HAL and the simulator's.
from array import array

from firmware.rules.squares import WHITE, BLACK

DEBOUNCE_MS = 40
LONG_MS = 800
_RING = 16
LEVERS = {"white": WHITE, "black": BLACK}  # the clock levers among the buttons
_UP = 0
_DOWN = 1
_LONG = 2


class ButtonBank:
    def __init__(self, names, is_down, diff):
        """names: button names in order; is_down(i) -> bool reads button i now;
        diff: ticks_diff."""
        self.names = names
        self.is_down = is_down
        self.diff = diff
        n = len(names)
        self._ring_b = bytearray(_RING)
        self._ring_t = array("i", bytes(4 * _RING))
        self._head = 0
        self._tail = 0
        self._state = bytearray(n)
        self._changed = array("i", bytes(4 * n))  # tick of the last press or release
        self._up_seen = array("i", bytes(4 * n))  # first tick seen up while still DOWN
        self._up_pending = bytearray(n)
        self._fresh = bytearray(b"\x01" * n)  # up since power-on: no release to wait out
        self.on_down = None  # called from the interrupt after each edge is stored
        self._events = []  # events() fills it for inputs(), which empties it

    def irq(self, i, tick):
        """From the pin interrupt: button i went down at tick. Allocates nothing."""
        h = self._head
        nxt = (h + 1) % _RING
        if nxt == self._tail:
            return  # the ring is full of bounces: the press is in it already
        self._ring_b[h] = i
        self._ring_t[h] = tick
        self._head = nxt
        wake = self.on_down
        if wake is not None:
            wake()

    def events(self, now, out):
        """Append (name, "down", "long" or "up", tick) to out; returns out."""
        while self._tail != self._head:
            t = self._tail
            i = self._ring_b[t]
            tick = self._ring_t[t]
            self._tail = (t + 1) % _RING
            if self._state[i] == _UP and (self._fresh[i] or self.diff(tick, self._changed[i]) >= DEBOUNCE_MS):
                self._fresh[i] = 0
                self._state[i] = _DOWN
                self._changed[i] = tick
                self._up_pending[i] = 0
                out.append((self.names[i], "down", tick))
        for i in range(len(self.names)):
            st = self._state[i]
            if st == _UP:
                continue
            if self.is_down(i):
                self._up_pending[i] = 0
                if st == _DOWN and self.diff(now, self._changed[i]) >= LONG_MS:
                    self._state[i] = _LONG
                    out.append((self.names[i], "long", now))
            elif not self._up_pending[i]:
                self._up_pending[i] = 1
                self._up_seen[i] = now
            elif self.diff(now, self._up_seen[i]) >= DEBOUNCE_MS:
                if st == _DOWN:
                    out.append((self.names[i], "up", self._up_seen[i]))
                self._state[i] = _UP
                self._changed[i] = now
                self._up_pending[i] = 0
        return out

    def inputs(self, now):
        """The device's inputs since the last call (device_inputs), () if there are none:
        nothing is allocated in a step without a lever or a button."""
        ev = self.events(now, self._events)
        if not ev:
            return ()
        out = device_inputs(ev, LEVERS, [])
        del ev[:]
        return out


def device_inputs(events, sides, out):
    """ButtonBank events as the device's inputs (firmware/app/device.py), appended to out:
    a clock lever (sides: name -> side) going down is ("press", side, None, tick), and
    nothing else of it (held or let go, the press was all: the Laws' meaning); another
    button is ("button", name, True, tick) and, held, "<name>-long"."""
    for name, kind, tick in events:
        side = sides.get(name)
        if side is not None:
            if kind == "down":
                out.append(("press", side, None, tick))
        elif kind != "up":
            out.append(("button", name if kind == "down" else name + "-long", True, tick))
    return out
