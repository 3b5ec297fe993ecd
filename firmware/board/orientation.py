# Which way round the board stands. At the start (ranks 1, 2, 7, 8 full) it looks the
# same either way round: it is decided by the first legal move of White's that the board
# shows, read the normal way round if both readings are legal. From any other position,
# the way round that matches the game.
from firmware.board.movekeys import delta
from firmware.board.occupancy import REVERSED, START

_TURNED = bytearray(8)  # a reading turned 180 degrees (made once)


def turn(raw, out):
    """raw (8 bytes, rank 1 first) as seen from the other side, into out."""
    for r in range(8):
        out[r] = REVERSED[raw[7 - r]]
    return out


def facing(raw, expected, index, want=0):
    """None (not known yet), False (White's side as rank 1) or True (turned 180
    degrees), for the scan raw of a board whose position has occupancy expected and the
    legal moves' keys index (firmware/board/movekeys.py); want: the key of the only move
    that may decide it (the host's expect: another is no move here), or 0."""
    turned = turn(raw, _TURNED)
    if expected == START:
        k = delta(raw, expected)
        if k > 0 and k in index and (not want or k == want):
            return False
        k = delta(turned, expected)
        if k > 0 and k in index and (not want or k == want):
            return True
        return None
    if raw == expected:
        return False
    if turned == expected:
        return True
    return None
