# A clock face built from two ready-made HT16K33 backpacks of four 14-segment characters
# (e.g. Adafruit's 0.54" quad alphanumeric backpack), no face PCB: the left backpack shows
# characters 0-3 of the face (firmware/hal/face.py), the right one 4-7, each at its own I2C
# address (the backpack's A0/A1 jumpers). A backpack wires character i to COM i and its
# segments to ROW0-14 in the order of Adafruit's LED Backpack library (its alphafonttable):
# the face's order but for the two lower diagonals, which it has the other way round (its
# bit 11 the lower-left, bit 13 the lower-right). It has no indicator lights and no keys:
# the colons show as the points before them, and the keys wire to the Pico instead.
from firmware.hal.face import CHARS, COLON_HM, COLON_MS, DP, render
from firmware.hal.ht16k33 import BRIGHTNESS

HALF = CHARS // 2


def backpack_word(cell):
    """A face character's word (firmware/hal/face.py's bits) as a backpack lights it: the
    lower diagonals swapped, the indicator bit dropped."""
    w = cell & 0x7FFF
    if (w & 0x2800) in (0x0800, 0x2000):  # (bits 11 and 13: one lit, the other not)
        w ^= 0x2800
    return w


class BackpackFace:
    """The face on two backpacks: show(text) as firmware/hal/ht16k33.Face, keys() always 0."""

    def __init__(self, i2c, addrs, brightness=BRIGHTNESS):
        self.i2c = i2c
        self.addrs = addrs  # (the left backpack's address, the right one's)
        self._cells = [0] * CHARS
        self._ram = bytearray(1 + 2 * HALF)
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
        # the colons (indicators 0 and 1, bit 15 of cells 0 and 1) as points before them
        if cells[COLON_HM] & 0x8000:
            cells[3] |= DP
        if cells[COLON_MS] & 0x8000:
            cells[5] |= DP
        ram = self._ram
        for half in range(2):
            for i in range(HALF):
                w = backpack_word(cells[half * HALF + i])
                ram[1 + 2 * i] = w & 0xFF
                ram[2 + 2 * i] = w >> 8
            self.i2c.writeto(self.addrs[half], ram)

    def keys(self):
        return 0

    def signal(self, on):
        pass
