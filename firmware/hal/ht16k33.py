# A clock face: an HT16K33 driving a 4-digit 7-segment display with a colon (large
# 1.2" digits are legible from well over 3 m, C.02). The bus is passed in: anything with
# writeto(addr, bytes).
#   "1:29" (h:mm), "4:37" (m:ss), "19.7" (s.t), "----"; a trailing "<" is not shown here
#   (the side LEDs show which clock runs).
_DIGITS = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D, "7": 0x07,
    "8": 0x7F, "9": 0x6F, "-": 0x40, " ": 0x00, "F": 0x71, "P": 0x73, "b": 0x7C, "d": 0x5E,
    # the files, for a move to carry out ("e2e4")
    "a": 0x77, "c": 0x58, "e": 0x79, "f": 0x71, "g": 0x6F, "h": 0x74,
}
_POS = (0, 2, 6, 8)  # display RAM address of each digit; the colon is at 4
_DOT = 0x80


class SevenSegment:
    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(17)
        self.text = None
        i2c.writeto(addr, b"\x21")  # oscillator on
        i2c.writeto(addr, b"\x81")  # display on, no blinking
        self.brightness(15)

    def brightness(self, level):
        self.i2c.writeto(self.addr, bytes((0xE0 | (level & 15),)))

    def blink(self, on):
        self.i2c.writeto(self.addr, b"\x85" if on else b"\x81")

    def show(self, text):
        """Show up to four characters with ':' and '.' where the clock formats put them."""
        if text == self.text:
            return
        self.text = text
        buf = self._buf
        for i in range(17):
            buf[i] = 0
        digits = []
        colon = False
        for ch in text:
            if ch == ":":
                colon = True
            elif ch == "." and digits:
                digits[-1] |= _DOT
            elif ch in _DIGITS:
                digits.append(_DIGITS[ch])
        digits = digits[-4:]
        digits = [0] * (4 - len(digits)) + digits
        for i in range(4):
            buf[1 + _POS[i]] = digits[i]
        if colon:
            buf[1 + 4] = 0x02
        self.i2c.writeto(self.addr, buf)


def face_text(clock_text):
    """The clock's display text (1:29:43, 4:37, 19.7) as four digits: an hour or more
    shows h:mm, under an hour m:ss (or mm:ss), under 20 s seconds and tenths."""
    t = clock_text.split()[0] if clock_text else "----"
    if t.count(":") == 2:
        h, m, _ = t.split(":")
        return "%s:%s" % (h, m)
    return t
