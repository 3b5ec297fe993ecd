# UCI move strings in and out: 'e2e4', 'e7e8n'; castling as 'e1g1' in standard chess and
# as king-takes-rook ('e1h1', 'b1a1') in Chess960, where the king may not move at all.
from firmware.rules.errors import IllegalMoveError, InvalidMoveError
from firmware.rules.position import SHARED_MOVES, CASTLE, move_from, move_to, move_promotion
from firmware.rules.squares import SQ64, PIECE_SYMBOLS, square_name, parse_square

_BUF = SHARED_MOVES  # legal moves, read within one call (the position's own scratch is not ours)


def uci(pos, m):
    """UCI text of move m of position pos."""
    return move_uci(m, pos.chess960)


def move_uci(m, chess960):
    """UCI text of move m in a game of standard chess or (chess960) Chess960."""
    if m & CASTLE and chess960:
        return square_name(move_from(m)) + square_name(SQ64[(m >> 7) & 127])
    s = square_name(move_from(m)) + square_name(move_to(m))
    pt = move_promotion(m)
    return s + PIECE_SYMBOLS[pt] if pt else s


def parse_uci(pos, text):
    """The legal move of pos that `text` names. InvalidMoveError if text is not UCI,
    IllegalMoveError if it is but no legal move matches. pos is not changed."""
    if not isinstance(text, str) or len(text) not in (4, 5):
        raise InvalidMoveError("not a UCI move: %r" % (text,))
    try:
        fr = parse_square(text[0:2])
        to = parse_square(text[2:4])
    except ValueError:
        raise InvalidMoveError("not a UCI move: %r" % (text,))
    promo = 0
    if len(text) == 5:
        promo = "nbrq".find(text[4]) + 2
        if promo < 2:
            raise InvalidMoveError("bad promotion piece in UCI move %r" % (text,))
    buf = _BUF
    for i in range(pos.gen_legal(buf, 0)):
        m = buf[i]
        if move_from(m) != fr or move_promotion(m) != promo:
            continue
        if m & CASTLE:
            rook = SQ64[(m >> 7) & 127]
            if to == rook or (not pos.chess960 and to == move_to(m)):
                return m
        elif move_to(m) == to:
            return m
    raise IllegalMoveError("illegal move %s in %s" % (text, pos.fen()))
