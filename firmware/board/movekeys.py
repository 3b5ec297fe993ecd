# The legal moves of a position, each with the change it makes to the reed switches'
# occupancy: the squares it empties and the squares it fills (at most two of each, for
# castling and en passant), packed into one small integer (its key), and a dict from key
# to move. The move recogniser (firmware/board/recognizer.py) builds one while the player
# thinks, so that a new stable board costs a few bit operations and a dict lookup.
from array import array

from firmware.rules.position import new_move_buffer, castle_king_cell, castle_rook_cell, CASTLE, EN_PASSANT, MAX_MOVES
from firmware.rules.squares import SQ64


class MoveTable:
    """The legal moves of one position with the occupancy change each one makes."""

    def __init__(self):
        self.moves = new_move_buffer()
        self.keys = array("I", bytes(4 * (MAX_MOVES + 2)))
        self.n = 0
        self.index = {}  # key -> first move with it (a piece's moves are consecutive)
        self.swap = -1  # a castling move that changes no square (Chess960 king/rook swap)
        # Keys of the king's or the rook's half of an available castling: a move that
        # looks like one may be a castling under way, so it waits longer.
        self.halves = []
        self.castling_alt = {}  # key -> castling move that changes what a plain move does
        self.occ = bytearray(8)  # occupancy of the position itself
        self.valid = False

    def build(self, pos):
        self.valid = True
        pos.occupancy(self.occ)
        n = pos.gen_legal(self.moves, 0)
        self.n = n
        index = self.index
        index.clear()
        self.swap = -1
        halves = self.halves
        del halves[:]
        alt = self.castling_alt
        alt.clear()
        b = pos.board
        for i in range(n):
            m = self.moves[i]
            k = move_key(m, b)
            self.keys[i] = k
            if k == 0:
                self.swap = i
            elif m & CASTLE:
                # Castling comes last; in Chess960 it may change the same squares as a
                # plain rook or king move (the lifted squares tell them apart).
                if k in index:
                    alt[k] = i
                else:
                    index[k] = i
            elif k not in index:
                index[k] = i
            if m & CASTLE:
                fr = m & 127
                to = (m >> 7) & 127
                kt = castle_king_cell(fr, to)
                rt = castle_rook_cell(fr, to)
                for a, z in ((fr, kt), (to, rt)):
                    if z != fr and z != to and a != kt and a != rt:
                        halves.append((SQ64[a] + 1) | (SQ64[z] + 1) << 14)
    def find(self, key, lifts):
        """(index, count, late) of the legal moves that the board shows as key (-1, 0, 0:
        none), given the lifts seen (firmware/board/lifts.py): count is 4 for a
        promotion; late, that it may still be something else under way (a castling's
        half, a capture whose target was lifted after the capturer), so it waits longer."""
        table = self
        i = table.index.get(key, -1)
        if i < 0:
            return -1, 0, False
        keys = table.keys
        n = table.n
        if not is_capture_key(key):
            j = table.castling_alt.get(key, -1)
            if j >= 0:
                m = table.moves[j]
                if lifts.was_lifted(SQ64[m & 127]) and lifts.was_lifted(SQ64[(m >> 7) & 127]):
                    return j, 1, False  # king and rook both were in hand
            if table.moves[i] & CASTLE:
                return i, 1, False
            j = i  # promotions: four in a row; a castling with this key was seen to above
            while j < n and keys[j] == key and not table.moves[j] & CASTLE:
                j += 1
            return i, j - i, key in table.halves
        # A capture: the target must have been seen empty. Several targets lifted at
        # once is no move yet.
        # A piece's moves are generated together, its captures among its quiet moves.
        first = -1
        count = 0
        cell = table.moves[i] & 127
        lift = lifts.order[SQ64[cell]]
        for j in range(i, n):
            if table.moves[j] & 127 != cell:
                break
            if keys[j] != key:
                continue
            to = SQ64[(table.moves[j] >> 7) & 127]
            if lifts.was_lifted(to) and lifts.refill[to] > lift:
                if first < 0:
                    first = j
                elif SQ64[(table.moves[first] >> 7) & 127] != to:
                    return -1, 0, False
                count += 1
        if first < 0:
            return -1, 0, False
        fr = SQ64[table.moves[first] & 127]
        to = SQ64[(table.moves[first] >> 7) & 127]
        later = lifts.order[to] > lifts.order[fr]
        return first, count, later


def move_key(m, b):
    """The occupancy change of move m: emptied squares v0 < v1 and filled ones f0 < f1,
    each as square + 1 (0 = none), packed as v0 | v1 << 7 | f0 << 14 | f1 << 21."""
    fr = m & 127
    to = (m >> 7) & 127
    s_fr = SQ64[fr]
    s_to = SQ64[to]
    if m & CASTLE:
        kt = castle_king_cell(fr, to)
        rt = castle_rook_cell(fr, to)
        vac = []
        fill = []
        for c in (fr, to):
            if c != kt and c != rt:
                vac.append(SQ64[c])
        for c in (kt, rt):
            if c != fr and c != to:
                fill.append(SQ64[c])
        vac.sort()
        fill.sort()
        k = 0
        for i in range(len(vac)):
            k |= (vac[i] + 1) << (7 * i)
        for i in range(len(fill)):
            k |= (fill[i] + 1) << (14 + 7 * i)
        return k
    if m & EN_PASSANT:
        cap = SQ64[to - 10 if to > fr else to + 10]
        lo, hi = (s_fr, cap) if s_fr < cap else (cap, s_fr)
        return (lo + 1) | (hi + 1) << 7 | (s_to + 1) << 14
    if b[to]:  # a capture empties only the capturer's square
        return s_fr + 1
    return (s_fr + 1) | (s_to + 1) << 14


def is_capture_key(k):
    return k < 128


def delta(b, exp):
    """Emptied and filled squares of board b against exp (occupancies), packed as a
    move key; -1 if more than two of either."""
    key = 0
    nv = 0
    nf = 0
    for r in range(8):
        x = b[r] ^ exp[r]
        if not x:
            continue
        for f in range(8):
            if (x >> f) & 1:
                sq = r * 8 + f + 1
                if (exp[r] >> f) & 1:
                    if nv == 2:
                        return -1
                    key |= sq << (7 * nv)
                    nv += 1
                else:
                    if nf == 2:
                        return -1
                    key |= sq << (14 + 7 * nf)
                    nf += 1
    return key
