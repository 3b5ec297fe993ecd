# An illegal move attempt, told apart from a move under way: what the move recogniser
# (firmware/board/recognizer.py) reports when a piece of the side to move stands where
# no legal move goes (art. 7.5: completed only by the press).
from firmware.rules.position import castle_king_cell, CASTLE, EN_PASSANT
from firmware.rules.squares import SQ64, SQ120, KING


def illegal_attempt(key, pos, table, lifts):
    """(from, to) if a piece of the side to move stands where no legal move goes:
    one square emptied and one filled, or a capture with its target lifted. Steps of
    a legal move under way (the king of a castling, an en passant pawn before the
    captured one goes) are not illegal."""
    if key <= 0:
        return None
    v0 = (key & 127) - 1
    v1 = ((key >> 7) & 127) - 1
    f0 = ((key >> 14) & 127) - 1
    f1 = ((key >> 21) & 127) - 1
    if v1 >= 0 or f1 >= 0 or v0 < 0:
        return None
    p = pos.board[SQ120[v0]]
    if not p & pos.turn:
        return None
    if f0 < 0:
        # A capture shape: the target is a lifted square of the opponent.
        for sq in range(64):
            if sq != v0 and lifts.was_lifted(sq):
                q = pos.board[SQ120[sq]]
                if q and not q & pos.turn:
                    return (v0, sq)
        return None
    cur = table
    for i in range(cur.n):
        m = cur.moves[i]
        if SQ64[m & 127] == v0:
            if m & (CASTLE | EN_PASSANT):
                if m & EN_PASSANT and SQ64[(m >> 7) & 127] == f0:
                    return None
                if m & CASTLE and p & 7 == KING:
                    kt = castle_king_cell(m & 127, (m >> 7) & 127)
                    if SQ64[kt] == f0 or SQ64[(m >> 7) & 127] == f0:
                        return None
    return (v0, f0)
