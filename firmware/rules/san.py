# Standard algebraic notation out (FIDE appendix C), for the display and announcements.
from firmware.rules.position import SHARED_MOVES, CASTLE, EN_PASSANT, move_from, move_to, move_promotion
from firmware.rules.squares import SQ64, PAWN, KING, PIECE_SYMBOLS, FILE_NAMES, RANK_NAMES, square_name

# Letters of the pieces by type, in English (the default) and other FIDE languages.
# (Tuples: firmware/rules/squares.py says why.)
LETTERS_EN = (" ", "P", "N", "B", "R", "Q", "K")
LETTERS_IT = (" ", "P", "C", "A", "T", "D", "R")
LETTERS_DE = (" ", "B", "S", "L", "T", "D", "K")

_BUF = SHARED_MOVES  # legal moves, read within one call (the position's own scratch is not ours)


def san(pos, m, letters=LETTERS_EN):
    """SAN of legal move m in pos: 'Nbd7', 'exd6', 'e8=N+', 'O-O-O#'."""
    b = pos.board
    fr = m & 127
    to = (m >> 7) & 127
    if m & CASTLE:
        text = "O-O" if to > fr else "O-O-O"
    else:
        pt = b[fr] & 7
        capture = b[to] != 0 or m & EN_PASSANT
        sf = move_from(m)
        if pt == PAWN:
            text = FILE_NAMES[sf & 7] if capture else ""
        else:
            text = letters[pt]
            if pt != KING:
                text += _disambiguation(pos, m, pt, sf)
        if capture:
            text += "x"
        text += square_name(move_to(m))
        promo = move_promotion(m)
        if promo:
            text += "=" + letters[promo]
    pos.make(m)
    if pos.is_check():
        text += "+" if pos.has_legal_move() else "#"
    pos.unmake(m)
    return text


def _disambiguation(pos, m, pt, sf):
    b = pos.board
    to = (m >> 7) & 127
    buf = _BUF
    same_file = same_rank = False
    other = False
    for i in range(pos.gen_legal(buf, 0)):
        x = buf[i]
        if x == m or x & CASTLE or (x >> 7) & 127 != to:
            continue
        xf = x & 127
        if b[xf] & 7 != pt:
            continue
        other = True
        s = SQ64[xf]
        if s & 7 == sf & 7:
            same_file = True
        if s >> 3 == sf >> 3:
            same_rank = True
    if not other:
        return ""
    if not same_file:
        return FILE_NAMES[sf & 7]
    if not same_rank:
        return RANK_NAMES[sf >> 3]
    return square_name(sf)
