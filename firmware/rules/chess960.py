# Chess960 start positions by their standard number 0..959 (518 is the normal start).
#
# The number n gives, in turn: the light-squared bishop (n % 4 -> file b, d, f or h), the
# dark-squared bishop ((n // 4) % 4 -> file a, c, e or g), the queen ((n // 16) % 6 -> the
# n-th free file), the two knights ((n // 96) -> one of the ten ways to place them on the
# five files left), and finally rook, king, rook on the three files still free.
from firmware.rules.errors import InvalidFenError

_KNIGHT_PAIRS = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))


def back_rank(number):
    """The white pieces of start position `number` from the a-file to the h-file: 'RNBQKBNR'."""
    if not isinstance(number, int) or not 0 <= number <= 959:
        raise InvalidFenError("a Chess960 start number is 0..959, got %r" % (number,))
    rank = [""] * 8
    n, light = divmod(number, 4)
    rank[light * 2 + 1] = "B"
    n, dark = divmod(n, 4)
    rank[dark * 2] = "B"
    n, queen = divmod(n, 6)
    free = [f for f in range(8) if not rank[f]]
    rank[free[queen]] = "Q"
    free = [f for f in range(8) if not rank[f]]
    a, b = _KNIGHT_PAIRS[n]
    rank[free[a]] = "N"
    rank[free[b]] = "N"
    free = [f for f in range(8) if not rank[f]]
    rank[free[0]] = "R"
    rank[free[1]] = "K"
    rank[free[2]] = "R"
    return "".join(rank)


def start_fen(number):
    white = back_rank(number)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (white.lower(), white)


def number_of(board_rank):
    """The start number of a back rank such as 'RNBQKBNR' (the inverse of back_rank),
    or None if it is no Chess960 start."""
    if not isinstance(board_rank, str) or len(board_rank) != 8:
        return None
    for piece, count in (("B", 2), ("N", 2), ("Q", 1), ("R", 2), ("K", 1)):
        if board_rank.count(piece) != count:
            return None
    b1 = board_rank.index("B")
    b2 = board_rank.rindex("B")
    light, dark = (b1, b2) if b1 & 1 else (b2, b1)
    if not light & 1 or dark & 1:
        return None  # both bishops on one colour
    free = [f for f in range(8) if f != light and f != dark]
    queen = free.index(board_rank.index("Q"))
    free.remove(board_rank.index("Q"))
    knights = (free.index(board_rank.index("N")), free.index(board_rank.rindex("N")))
    rest = [board_rank[f] for f in free if board_rank[f] != "N"]
    if rest != ["R", "K", "R"]:
        return None
    return light // 2 + 4 * (dark // 2) + 16 * queen + 96 * _KNIGHT_PAIRS.index(knights)
