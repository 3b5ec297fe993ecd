# Insufficient material per colour (art. 6.9, 5.1.2) and for the position (5.2.2).
from firmware.rules.position import Position
from firmware.rules.material import has_insufficient_material, is_insufficient_material
from firmware.rules.squares import WHITE, BLACK

# (FEN, white cannot mate, black cannot mate), as python-chess decides.
CASES = (
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True, True),
    ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", True, True),
    ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", True, True),
    ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", False, False),  # bishops on opposite colours
    ("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", True, True),  # same colour (f1, g8 both light)
    ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", False, True),  # two knights: a mate exists
    ("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1", False, False),  # knight vs pawn: self-block mate
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", False, True),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False, True),
    ("4kq2/8/8/8/8/8/8/4KN2 w - - 0 1", True, False),  # knight vs queen: no self-block
    ("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", False, False),
)


def test_per_colour_and_position():
    for fen, white, black in CASES:
        p = Position(fen)
        assert has_insufficient_material(p, WHITE) == white, fen
        assert has_insufficient_material(p, BLACK) == black, fen
        assert is_insufficient_material(p) == (white and black), fen
