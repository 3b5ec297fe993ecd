# A clock face built from two ready-made HT16K33 backpacks of four 14-segment characters
# (e.g. Adafruit's 0.54" quad alphanumeric backpack), no face PCB: the left backpack shows
# characters 0-3 of the face (firmware/hal/face.py), the right one 4-7, each at its own I2C
# address (firmware/hal/pinmap.py: BACKPACKS_WHITE, BACKPACKS_BLACK, set by the backpack's
# A0-A2 jumpers). The HAL builds this driver only when a face's own board does not answer
# and its backpacks do (firmware/hal/rp2.py: find_face).
#
# A backpack wires character i to COM i and its segments to ROW0-14 in the order of
# Adafruit's LED Backpack library (Adafruit_LEDBackpack.cpp, alphafonttable and
# writeDisplay; github.com/adafruit/Adafruit_LED_Backpack at c4ec132): the face's order but
# for the two lower diagonals, which it has the other way round (its bit 11 the lower-left,
# bit 13 the lower-right). It has no indicator lights: the colons show as the points before
# them, and the lights that only a light says (LOW BAT, MOVE, and a deaf player's SIGNAL)
# as the points of characters 0, 1 and 7. Its keys are the face board's, wired to the left
# backpack's HT16K33 (hardware/README.md): keys() reads its key RAM as the face board's
# driver does (firmware/hal/ht16k33.py).
from firmware.hal.face import CHARS, COLON_HM, COLON_MS, DP, LOW_BATTERY, MOVE, render
from firmware.hal.ht16k33 import BRIGHTNESS

HALF = CHARS // 2
_KEY_RAM = b"\x40"  # the key RAM's first address (as firmware/hal/ht16k33.py)
# The points that stand for the indicator lights: (light, character)
_POINTS = ((COLON_HM, 3), (COLON_MS, 5), (LOW_BATTERY, 0), (MOVE, 1))
SIGNAL_CHAR = 7  # the SIGNAL light: the face's last point (a time never lights it)
_SIGNAL_RAM = 2 * (SIGNAL_CHAR - HALF) + 1  # its RAM byte on the right backpack (ROW8-15)
_SIGNAL_BIT = DP >> 8


def backpack_word(cell):
    """A face character's word (firmware/hal/face.py's bits) as a backpack lights it: the
    lower diagonals swapped, the indicator bit dropped."""
    w = cell & 0x7FFF
    if (w & 0x2800) in (0x0800, 0x2000):  # (bits 11 and 13: one lit, the other not)
        w ^= 0x2800
    return w


class BackpackFace:
    """The face on two backpacks: show(text), keys(), signal(on) as firmware/hal/ht16k33.Face."""

    def __init__(self, i2c, addrs, brightness=BRIGHTNESS):
        self.i2c = i2c
        self.addrs = addrs  # (the left backpack's address, the right one's)
        self._cells = [0] * CHARS
        self._ram = bytearray(1 + 2 * HALF)
        self._one = bytearray(2)
        self._keys = bytearray(6)
        self._signal = 0
        self._own = 0
        self.text = None
        for a in addrs:
            i2c.writeto(a, b"\x21")  # oscillator on
            i2c.writeto(a, b"\x81")  # display on, no blinking
            i2c.writeto(a, self._ram)  # nothing lit
        self.brightness(brightness)

    def brightness(self, level):
        for a in self.addrs:
            self.i2c.writeto(a, bytes((0xE0 | (level & 15),)))

    def blink(self, on):
        for a in self.addrs:
            self.i2c.writeto(a, b"\x85" if on else b"\x81")

    def show(self, text):
        if text == self.text:
            return
        self.text = text
        cells = self._cells
        render(text, cells)
        for light, i in _POINTS:  # the lights (bit 15 of cell `light`) as points
            if cells[light] & 0x8000:
                cells[i] |= DP
        ram = self._ram
        for half in range(2):
            for i in range(HALF):
                w = backpack_word(cells[half * HALF + i])
                ram[1 + 2 * i] = w & 0xFF
                ram[2 + 2 * i] = w >> 8
            if half:
                self._own = ram[1 + _SIGNAL_RAM]  # the text's own byte there (its point, if any)
                ram[1 + _SIGNAL_RAM] |= self._signal
            self.i2c.writeto(self.addrs[half], ram)

    def keys(self):
        """The left backpack's key RAM's first byte (KS0's keys K1-K8), read and so cleared,
        as firmware/hal/ht16k33.Face.keys. Allocates nothing."""
        self.i2c.writeto(self.addrs[0], _KEY_RAM, False)
        self.i2c.readfrom_into(self.addrs[0], self._keys)
        return self._keys[0]

    def signal(self, on):
        """The SIGNAL light as the last character's point: one RAM byte written."""
        bit = _SIGNAL_BIT if on else 0
        if bit == self._signal:
            return
        self._signal = bit
        v = self._own | bit
        self._ram[1 + _SIGNAL_RAM] = v
        one = self._one
        one[0] = _SIGNAL_RAM
        one[1] = v
        self.i2c.writeto(self.addrs[1], one)
