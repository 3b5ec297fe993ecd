# The faces on ready-made HT16K33 backpacks (firmware/hal/backpack.py), held to Adafruit's
# LED Backpack library, which drives those backpacks (github.com/adafruit/Adafruit_LED_Backpack,
# commit c4ec1328, Adafruit_LEDBackpack.cpp): its alphafonttable's words for the characters
# drawn with the same strokes here (this font's "1" has its flag, Adafruit's not), and its
# writeDisplay's layout (character i on COM i, two bytes each, little end first), read back
# from what the driver sends; and the HAL finding, on the bus, how each face is built
# (firmware/hal/rp2.py: find_face), with a fake bus that answers only at the addresses of
# the chips on it, as the rp2's I2C raises OSError(EIO) for an address nobody acknowledges.
from firmware.hal import face as F
from firmware.hal import pinmap as P
from firmware.hal.backpack import BackpackFace, backpack_word

# alphafonttable (Adafruit_LEDBackpack.cpp, lines 154-250 at c4ec1328): characters drawn
# with the same strokes as this project's font, the diagonals among them, as that library
# lights them on a backpack (bit 0 segment A ... bit 13, bit 14 the point).
ADAFRUIT = {
    "/": 0b0000110000000000,
    "(": 0b0010010000000000,
    ")": 0b0000100100000000,
    "*": 0b0011111111000000,
    "+": 0b0001001011000000,
    "-": 0b0000000011000000,
    "0": 0b0000110000111111,
    "3": 0b0000000010001111,
    "5": 0b0010000001101001,
    "7": 0b0000000000000111,
    "8": 0b0000000011111111,
    "A": 0b0000000011110111,
    "C": 0b0000000000111001,
    "K": 0b0010010001110000,
    "M": 0b0000010100110110,
    "N": 0b0010000100110110,
    "V": 0b0000110000110000,
    "W": 0b0010100000110110,
    "X": 0b0010110100000000,
    "Y": 0b0001010100000000,
    "Z": 0b0000110000001001,
}
DP = 1 << 14  # writeDigitAscii(n, a, true): the point, bit 14


class FakeBus:
    """An I2C bus with HT16K33s at some addresses: what is written to each, each chip's key
    RAM (a press's bit set until the RAM is read), OSError(EIO) for an address no chip on the
    bus acknowledges."""

    def __init__(self, *addrs):
        self.present = set(addrs)
        self.writes = []
        self.keys = {}
        self._pointer = {}

    def writeto(self, addr, data, stop=True):
        if addr not in self.present:
            raise OSError(5)
        self.writes.append((addr, bytes(data)))
        self._pointer[addr] = data[0]

    def readfrom_into(self, addr, buf):
        if addr not in self.present:
            raise OSError(5)
        assert self._pointer.get(addr) == 0x40  # the key RAM, from its start (datasheet)
        buf[:] = self.keys.get(addr, bytearray(6))
        self.keys[addr] = bytearray(6)

    def words(self, addr):
        """The four characters' words the last full write to addr lit."""
        data = [d for a, d in self.writes if a == addr and len(d) == 9][-1]
        assert data[0] == 0
        return [data[1 + 2 * i] | data[2 + 2 * i] << 8 for i in range(4)]


def test_the_characters_light_as_adafruits_library_lights_them():
    for ch, word in ADAFRUIT.items():
        assert backpack_word(F.glyph(ch)) == word, ch
        assert backpack_word(F.glyph(ch) | F.DP) == word | DP, ch


def test_a_time_goes_to_both_backpacks_in_their_order():
    bus = FakeBus(0x72, 0x73)
    face = BackpackFace(bus, (0x72, 0x73))
    bus.writes.clear()
    face.show("1:29:43")
    assert [a for a, _ in bus.writes] == [0x72, 0x73]
    want = [0, 0, 0, backpack_word(F.glyph("1")), backpack_word(F.glyph("2")), backpack_word(F.glyph("9")),
            backpack_word(F.glyph("4")), ADAFRUIT["3"]]
    want[3] |= DP  # the colons as the points before them
    want[5] |= DP
    assert bus.words(0x72) + bus.words(0x73) == want
    face.show("19.7")
    assert bus.words(0x73) == [0, backpack_word(F.glyph("1")), backpack_word(F.glyph("9")) | DP,
                               ADAFRUIT["7"]]


def test_the_lights_only_a_light_says_show_as_points():
    bus = FakeBus(0x74, 0x75)
    face = BackpackFace(bus, (0x74, 0x75))
    face.show("1:29:43 L")  # low battery: the first character's point
    assert bus.words(0x74)[0] == DP and bus.words(0x74)[1] == 0
    face.show("W MOVES < M")  # a move to carry out: the second's
    assert bus.words(0x74)[1] & DP and not bus.words(0x74)[0] & DP
    # A deaf player's SIGNAL: the last character's point, one byte; kept when the text changes.
    n = len(bus.writes)
    face.signal(True)
    assert bus.writes[n:] == [(0x75, bytes((7, DP >> 8)))]
    face.signal(True)
    assert len(bus.writes) == n + 1
    face.show("4:36")
    assert bus.words(0x75)[3] == backpack_word(F.glyph("6")) | DP
    face.signal(False)
    assert bus.writes[-1] == (0x75, bytes((7, backpack_word(F.glyph("6")) >> 8)))
    face.show("4:35")
    assert not bus.words(0x75)[3] & DP
    face.show("ABCDEFGH.")  # a text's own point on the last character stays when the light goes off
    face.signal(True)
    face.signal(False)
    assert bus.writes[-1][1][1] & (DP >> 8)


def test_the_keys_are_read_from_the_left_backpack():
    bus = FakeBus(0x72, 0x73)
    face = BackpackFace(bus, (0x72, 0x73))
    bus.keys[0x72] = bytearray(((1 << P.ASK_KEY_BIT) | (1 << P.DRAW_KEY_BIT), 0, 0, 0, 0, 0))
    assert face.keys() == 3
    assert face.keys() == 0  # read, and so cleared


def test_the_hal_takes_each_face_as_it_is_built():
    from firmware.hal.ht16k33 import Face
    from firmware.hal.rp2 import find_face

    # The face boards (0x70, 0x71), backpacks on both faces, one of each, and none.
    pcb = FakeBus(P.DISPLAY_WHITE, P.DISPLAY_BLACK)
    assert isinstance(find_face(pcb, P.DISPLAY_WHITE, P.BACKPACKS_WHITE), Face)
    assert isinstance(find_face(pcb, P.DISPLAY_BLACK, P.BACKPACKS_BLACK), Face)
    backpacks = FakeBus(*(P.BACKPACKS_WHITE + P.BACKPACKS_BLACK))
    white = find_face(backpacks, P.DISPLAY_WHITE, P.BACKPACKS_WHITE)
    black = find_face(backpacks, P.DISPLAY_BLACK, P.BACKPACKS_BLACK)
    assert isinstance(white, BackpackFace) and white.addrs == P.BACKPACKS_WHITE
    assert isinstance(black, BackpackFace) and black.addrs == P.BACKPACKS_BLACK
    mixed = FakeBus(P.DISPLAY_WHITE, *P.BACKPACKS_BLACK)
    assert isinstance(find_face(mixed, P.DISPLAY_WHITE, P.BACKPACKS_WHITE), Face)
    assert isinstance(find_face(mixed, P.DISPLAY_BLACK, P.BACKPACKS_BLACK), BackpackFace)
    assert find_face(FakeBus(), P.DISPLAY_WHITE, P.BACKPACKS_WHITE) is None
    half = FakeBus(P.BACKPACKS_WHITE[0])  # the right backpack's jumpers not soldered
    assert find_face(half, P.DISPLAY_WHITE, P.BACKPACKS_WHITE) is None
    # Every address apart: the faces' boards, the backpacks, the voice's bridge.
    every = [P.DISPLAY_WHITE, P.DISPLAY_BLACK, P.AUDIO_BRIDGE] + list(P.BACKPACKS_WHITE + P.BACKPACKS_BLACK)
    assert len(set(every)) == len(every)


def test_a_board_with_backpacks_shows_both_faces_and_reads_their_keys():
    from firmware.hal.rp2 import Rp2Hal
    from firmware.rules.squares import BLACK

    bus = FakeBus(*(P.BACKPACKS_WHITE + P.BACKPACKS_BLACK))
    t = [1000]
    hal = Rp2Hal((), lambda: 0, None, lambda i: False, lambda: t[0], lambda a, b: a - b, i2c=bus)
    hal.display("4:37 <", "1:29:43")
    assert [a for a, _ in bus.writes[-4:]] == [0x72, 0x73, 0x74, 0x75]
    hal.signal(BLACK, True)
    assert bus.writes[-1][0] == 0x75
    bus.keys[P.BACKPACKS_BLACK[0]] = bytearray(((1 << P.ASK_KEY_BIT), 0, 0, 0, 0, 0))
    t[0] = 1040
    assert hal.inputs() == [("button", "ask-black", True, 1040)]
    # One face missing: the other still shows and is read.
    bus = FakeBus(*P.BACKPACKS_BLACK)
    hal = Rp2Hal((), lambda: 0, None, lambda i: False, lambda: t[0], lambda a, b: a - b, i2c=bus)
    assert hal.faces[0] is None
    hal.display("4:37", "1:29:43")
    bus.keys[P.BACKPACKS_BLACK[0]] = bytearray(((1 << P.DRAW_KEY_BIT), 0, 0, 0, 0, 0))
    t[0] = 1080
    assert hal.inputs() == [("button", "draw-black", True, 1080)]
