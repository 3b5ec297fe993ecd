# A clock face's driver: the HT16K33 that multiplexes its eight 14-segment characters and
# eight indicator lights (the face itself: firmware/hal/face.py). The bus is passed in:
# anything with writeto(addr, buf).
#
# The display RAM holds two bytes per COM line (ROW0-7, then ROW8-15): character i's word
# (firmware/hal/face.py) goes to addresses 2i and 2i+1, little end first.
from firmware.hal.face import CHARS, SIGNAL, render

_KEY_RAM = b"\x40"  # the key RAM's first address (six bytes: KS0-KS2, K1-K13)
BRIGHTNESS = 4  # of 15 (5/16 of full): what hardware/power.py sizes the battery for


class Face:
    def __init__(self, i2c, addr, brightness=BRIGHTNESS):
        self.i2c = i2c
        self.addr = addr
        self._cells = [0] * CHARS
        self._ram = bytearray(1 + 2 * CHARS)  # the RAM address (0), then the RAM
        self._one = bytearray(2)
        self._keys = bytearray(6)  # the key RAM, read whole as the datasheet asks
        self.text = None
        i2c.writeto(addr, b"\x21")  # oscillator on
        i2c.writeto(addr, b"\x81")  # display on, no blinking
        self.brightness(brightness)
        i2c.writeto(addr, self._ram)  # nothing lit

    def brightness(self, level):
        self.i2c.writeto(self.addr, bytes((0xE0 | (level & 15),)))

    def blink(self, on):
        self.i2c.writeto(self.addr, b"\x85" if on else b"\x81")

    def show(self, text):
        """The text on the face (firmware/hal/face.py says how); the SIGNAL light stays
        as it is."""
        if text == self.text:
            return
        self.text = text
        cells = self._cells
        render(text, cells)
        ram = self._ram
        sig = ram[2 + 2 * SIGNAL] & 0x80
        for i in range(CHARS):
            ram[1 + 2 * i] = cells[i] & 0xFF
            ram[2 + 2 * i] = cells[i] >> 8
        ram[2 + 2 * SIGNAL] |= sig
        self.i2c.writeto(self.addr, ram)

    def keys(self):
        """The key RAM's first byte (KS0's keys K1-K8), read and so cleared: a key's bit is
        set once for each press since the last read, however long it was held (the chip
        debounces it over two of its scans). Allocates nothing."""
        self.i2c.writeto(self.addr, _KEY_RAM, False)
        self.i2c.readfrom_into(self.addr, self._keys)
        return self._keys[0]

    def signal(self, on):
        """The SIGNAL light (a deaf player's): one RAM byte written."""
        ram = self._ram
        hi = 2 + 2 * SIGNAL
        v = (ram[hi] | 0x80) if on else (ram[hi] & 0x7F)
        if v == ram[hi]:
            return
        ram[hi] = v
        one = self._one
        one[0] = hi - 1
        one[1] = v
        self.i2c.writeto(self.addr, one)
