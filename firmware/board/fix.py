# "The board differs from the game": which squares, and how to put it right. Each missing
# piece is paired with the nearest extra square (a piece that went astray); what is left
# over is a piece to put back from off the board, or one to take away.
from firmware.board.occupancy import occupied


def differences(expected, actual):
    """(missing, extra): squares that should hold a piece and are empty, and squares that
    hold a piece and should be empty."""
    missing = []
    extra = []
    for sq in range(64):
        e = occupied(expected, sq)
        a = occupied(actual, sq)
        if e and not a:
            missing.append(sq)
        elif a and not e:
            extra.append(sq)
    return missing, extra


def _distance(a, b):
    df = (a & 7) - (b & 7)
    dr = (a >> 3) - (b >> 3)
    return (df if df > 0 else -df) + (dr if dr > 0 else -dr)


def suggest(missing, extra):
    """A list of (from, to) steps: (extra, missing) move that piece back; (None, missing)
    put the missing piece back on the board; (extra, None) take that piece away. Pairs
    are made greedily, nearest first."""
    pairs = []
    for m in missing:
        for x in extra:
            pairs.append((_distance(m, x), x, m))
    pairs.sort()
    used_x = []
    used_m = []
    steps = []
    for d, x, m in pairs:
        if x in used_x or m in used_m:
            continue
        used_x.append(x)
        used_m.append(m)
        steps.append((x, m))
    for m in missing:
        if m not in used_m:
            steps.append((None, m))
    for x in extra:
        if x not in used_x:
            steps.append((x, None))
    return steps
