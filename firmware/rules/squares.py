# Squares, colours and pieces of the rule checker.
#
# Public squares are 0..63 (a1 = 0, b1 = 1, ..., h8 = 63), as in python-chess and the
# trace format. Inside the checker the board is a 10x12 mailbox (sunfish's shape): two
# padding rows above and below and one padding column each side, so every knight jump
# and ray step from a real square lands on a readable cell and no bounds check is needed.
# a1 is cell 21, h1 cell 28, a8 cell 91, h8 cell 98.
from firmware.const import const


# Colours are bits so that one AND tells own, enemy and off-board cells apart:
# an off-board cell carries both colour bits.
WHITE = const(8)
BLACK = const(16)
OFF = const(24)
EMPTY = const(0)

PAWN = const(1)
KNIGHT = const(2)
BISHOP = const(3)
ROOK = const(4)
QUEEN = const(5)
KING = const(6)

# Tuples of one-character strings, not strings: in MicroPython indexing a string makes a
# new interned string (a qstr) the first time, and a new qstr can need a new qstr pool,
# one block of kilobytes, at a moment when a long game has fragmented the heap. These are
# made once, when the module is loaded.
PIECE_SYMBOLS = (" ", "p", "n", "b", "r", "q", "k")
FILE_NAMES = ("a", "b", "c", "d", "e", "f", "g", "h")
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8")


def find(names, ch):
    """The index of ch in a tuple of names, or -1."""
    for i in range(len(names)):
        if names[i] == ch:
            return i
    return -1

# Cell of each public square, and public square of each cell (255 off the board).
SQ120 = bytes(21 + (s & 7) + (s >> 3) * 10 for s in range(64))
SQ64 = bytearray(b"\xff" * 120)
for _s in range(64):
    SQ64[SQ120[_s]] = _s
del _s


def square(file_index, rank_index):
    return rank_index * 8 + file_index


def square_file(sq):
    return sq & 7


def square_rank(sq):
    return sq >> 3


def square_name(sq):
    return FILE_NAMES[sq & 7] + RANK_NAMES[sq >> 3]


def parse_square(name):
    """'e4' -> 28. Raises ValueError for anything that is not a square name."""
    if len(name) != 2:
        raise ValueError("not a square: %r" % (name,))
    f = find(FILE_NAMES, name[0])
    r = find(RANK_NAMES, name[1])
    if f < 0 or r < 0:
        raise ValueError("not a square: %r" % (name,))
    return r * 8 + f


def other(color):
    return color ^ OFF


def piece_symbol(piece):
    """Piece code (colour | type) -> 'P', 'n', ... ; '.' for an empty cell."""
    if not piece:
        return "."
    s = PIECE_SYMBOLS[piece & 7]
    return s.upper() if piece & WHITE else s


def parse_piece(symbol):
    t = find(PIECE_SYMBOLS, symbol.lower())
    if t <= 0 or len(symbol) != 1:
        raise ValueError("not a piece: %r" % (symbol,))
    return t | (WHITE if symbol.isupper() else BLACK)
