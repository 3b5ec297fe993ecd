# Insufficient material: "this side cannot checkmate by any series of legal moves".
# The clock needs it per colour (art. 6.9: a flag is a draw if the opponent cannot mate;
# art. 5.1.2 and 7.5.5 likewise), and both colours at once make a dead position (5.2.2).
#
# It never calls a winnable position dead. It looks only at material and at the colour of
# the bishops' squares, and covers exactly what python-chess's has_insufficient_material
# covers; positions with pawns or fortresses are left to the players and the arbiter.
from firmware.rules.squares import SQ120, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN

_LIGHT_BISHOPS = 7  # index in a census, beside the counts of piece types 1..6


def _census(pos):
    """Per colour: counts of each piece type (index 1..6) and of bishops on light squares."""
    w = bytearray(8)
    b = bytearray(8)
    board = pos.board
    for s in range(64):
        p = board[SQ120[s]]
        if p:
            c = w if p & WHITE else b
            t = p & 7
            c[t] += 1
            if t == BISHOP and ((s & 7) + (s >> 3)) & 1:  # a1 is dark
                c[_LIGHT_BISHOPS] += 1
    return w, b


def _cannot_mate(us, them):
    if us[PAWN] or us[ROOK] or us[QUEEN]:
        return False
    if us[KNIGHT]:
        # King and one knight, and the opponent has nothing to block his own king with
        # (pawns, knights, bishops or rooks would allow a self-block mate).
        return (us[KNIGHT] == 1 and not us[BISHOP]
                and not (them[PAWN] or them[KNIGHT] or them[BISHOP] or them[ROOK]))
    if us[BISHOP]:
        # Every bishop on the board on one colour, and no pawn or knight to block with.
        light = us[_LIGHT_BISHOPS] + them[_LIGHT_BISHOPS]
        same_colour = light == 0 or light == us[BISHOP] + them[BISHOP]
        return same_colour and not them[PAWN] and not them[KNIGHT]
    return True


def has_insufficient_material(pos, color):
    """True if `color` cannot checkmate by any legal sequence of moves."""
    w, b = _census(pos)
    return _cannot_mate(w, b) if color == WHITE else _cannot_mate(b, w)


def is_insufficient_material(pos):
    """Neither side can checkmate: a dead position by material alone."""
    w, b = _census(pos)
    return _cannot_mate(w, b) and _cannot_mate(b, w)
