"""The faces on backpacks (hardware/README.md, step 2C) held to the backpack's own open design,
not to the library the firmware's word order was taken from: Adafruit's 0.54" quad
alphanumeric backpack (adafruit/Adafruit-LED-Backpacks at a58b392, "Adafruit 0.54
Alphanumeric STEMMA QT.sch", and its "v0.1" schematic, wired the same) puts each pin of its
two Luckylight KWA-541CBB displays on an HT16K33 row, and its display symbol
(SEGMENT_STARBURST_DUAL_COMMONCATHODE) names the segment under each pin. A word the firmware
sends (firmware/hal/backpack.py) must light, through those two tables, the segments the
face's own bits (firmware/hal/face.py) name."""
from firmware.hal import face as F
from firmware.hal.backpack import backpack_word

# The schematic's nets: display pin -> the HT16K33 row it is on (both displays alike).
ROW_OF_PIN = {"12": 0, "10": 1, "9": 2, "7": 3, "1": 4, "18": 5, "13": 6, "6": 7, "17": 8, "15": 9, "14": 10,
              "2": 11, "4": 12, "5": 13, "8": 14}
# The symbol's labels: display pin -> segment, in the display maker's letters (its L the
# lower-left diagonal, N the lower-right: the firmware's the other way round).
SEGMENT_OF_PIN = {"12": "A", "10": "B", "9": "C", "7": "D", "1": "E", "18": "F", "13": "G1", "6": "G2", "17": "H",
                  "15": "J", "14": "K", "2": "L", "4": "M", "5": "N", "8": "DP"}
THEIRS_TO_OURS = {"L": "N", "N": "L"}
# The firmware's segments by its own names (face.py's drawing).
BITS = {"A": F._A, "B": F._B, "C": F._C, "D": F._D, "E": F._E, "F": F._F, "G1": F._G1, "G2": F._G2, "H": F._H,
        "J": F._J, "K": F._K, "L": F._L, "M": F._M, "N": F._N, "DP": F.DP}


def lit(word):
    """The segments (the firmware's names) a backpack lights for a word written to its
    character's RAM (bit r = ROW r), through the schematic's nets and the symbol's labels."""
    pins = [pin for pin, row in ROW_OF_PIN.items() if word >> row & 1]
    return {THEIRS_TO_OURS.get(SEGMENT_OF_PIN[pin], SEGMENT_OF_PIN[pin]) for pin in pins}


def faults(convert):
    """The segments that convert (a face word -> the word sent to a backpack) lights wrongly."""
    return sorted(name for name, bit in BITS.items() if lit(convert(bit)) != {name})


def test_each_segment_the_face_names_is_the_one_the_backpack_lights():
    assert faults(backpack_word) == []
    # Whole characters too: every glyph's segments, and with its point.
    for code in range(32, 91):
        word = F.glyph(chr(code))
        want = {name for name, bit in BITS.items() if word & bit}
        assert lit(backpack_word(word)) == want, chr(code)
        assert lit(backpack_word(word | F.DP)) == want | {"DP"}, chr(code)


def test_the_check_finds_the_lower_diagonals_sent_unswapped():
    # Sent as the face board's bits (no swap), the two lower diagonals come out the wrong way.
    assert faults(lambda w: w) == ["L", "N"]
