# The optional chain of WS2812 LEDs, one under each square (hardware/README.md), for the
# last move and for "put this piece here" when the board differs from the game. The chain
# runs a1..h1, then h2..a2, a3..h3, ... (a snake, as it is easiest to wire); `strip` is any
# object with __setitem__ and write() - MicroPython's neopixel.NeoPixel on the Pico.
FROM = (0, 24, 48)  # the last move: its from-square, soft blue
TO = (0, 64, 96)  # and its to-square
FIX = (96, 48, 0)  # squares the board asks a player to put right: amber
SHOW_FROM = (0, 40, 0)  # a move to carry out (an engine's, an opponent's online): green
SHOW_TO = (0, 112, 0)
HINT_FROM = (32, 0, 48)  # a move suggested for one's own turn (an engine's hint): violet
HINT_TO = (80, 0, 112)
OFF = (0, 0, 0)


_COLOURS = (OFF, FROM, TO, FIX, SHOW_FROM, SHOW_TO, HINT_FROM, HINT_TO)


def index(sq):
    """The chain position of square sq (0 = a1, file = sq & 7, rank = sq >> 3)."""
    r = sq >> 3
    f = sq & 7
    return r * 8 + (f if r % 2 == 0 else 7 - f)


class SquareLeds:
    def __init__(self, strip):
        self.strip = strip
        self._shown = bytearray(64)  # what each LED shows: as kinds below

    def show(self, kinds):
        """kinds: 64 bytes, one per square: 0 off, 1 from, 2 to, 3 to put right, 4 and 5
        a move to carry out, from and to, 6 and 7 a hint, from and to
        (firmware/app/faces.py). Writes the chain only if something changed."""
        colours = _COLOURS
        n = len(colours)
        changed = False
        for sq in range(64):
            k = kinds[sq]
            if k != self._shown[sq]:
                self._shown[sq] = k
                self.strip[index(sq)] = colours[k if k < n else 0]
                changed = True
        if changed:
            self.strip.write()
        return changed
