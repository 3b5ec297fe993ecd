# The faces on ready-made HT16K33 backpacks (firmware/hal/backpack.py), held to Adafruit's
# LED Backpack library, which drives those backpacks: its alphafonttable's words for the
# characters drawn with the same strokes here (this font's "1" has its flag, Adafruit's not),
# and its layout (character i on COM i, two
# bytes each, little end first), read back from what the driver sends.
from firmware.hal import face as F
from firmware.hal.backpack import BackpackFace, backpack_word

# Adafruit_LEDBackpack.cpp, alphafonttable: characters drawn with the same strokes as this
# project's font (the diagonals among them), as that library lights them on a backpack.
ADAFRUIT = {
    "/": 0b0000110000000000,
    "(": 0b0010010000000000,
    ")": 0b0000100100000000,
    "*": 0b0011111111000000,
    "+": 0b0001001011000000,
    "-": 0b0000000011000000,
    "0": 0b0000110000111111,
    "3": 0b0000000010001111,
    "7": 0b0000000000000111,
    "8": 0b0000000011111111,
    "A": 0b0000000011110111,
    "C": 0b0000000000111001,
}


class FakeI2C:
    def __init__(self):
        self.writes = []

    def writeto(self, addr, data):
        self.writes.append((addr, bytes(data)))


def test_the_characters_light_as_adafruits_library_lights_them():
    for ch, word in ADAFRUIT.items():
        assert backpack_word(F.glyph(ch)) == word, ch


def test_a_time_goes_to_both_backpacks_in_their_order():
    bus = FakeI2C()
    face = BackpackFace(bus, (0x72, 0x73))
    bus.writes.clear()
    face.show("1:29:43")
    (a1, left), (a2, right) = bus.writes
    assert (a1, a2) == (0x72, 0x73) and left[0] == 0 and right[0] == 0
    words = [left[1 + 2 * i] | left[2 + 2 * i] << 8 for i in range(4)] + \
            [right[1 + 2 * i] | right[2 + 2 * i] << 8 for i in range(4)]
    want = [0, 0, 0, backpack_word(F.glyph("1")), backpack_word(F.glyph("2")), backpack_word(F.glyph("9")),
            backpack_word(F.glyph("4")), ADAFRUIT["3"]]
    want[3] |= F.DP  # the colons as the points before them
    want[5] |= F.DP
    assert words == want
    assert face.keys() == 0
