# A chess position on a 10x12 mailbox, with make/unmake in place and legal move generation.
#
# Moves are small integers (always below 2**20, so never a heap object on the RP2040):
#   bits 0-6   from cell (10x12 index)
#   bits 7-13  to cell; for castling the cell of the castling rook ("king takes rook"),
#              which serves standard chess and Chess960 alike
#   bits 14-16 promotion piece type (0 = none)
#   bit 17 castling, bit 18 en passant, bit 19 double pawn push
#
# Legal generation writes into a caller's list and allocates nothing: pins and checks are
# found first by walking the eight rays from the king; a move is tested by make/unmake only
# when it can matter (the side is in check, the piece is pinned, en passant, king moves).
from array import array

from firmware.chunks import new_chunk
from firmware.const import const
from firmware.rules import fen as _fen
from firmware.rules.chess960 import start_fen
from firmware.rules.squares import SQ120, SQ64, WHITE

_WHITE = const(8)
_BLACK = const(16)
_OFF = const(24)
_PAWN = const(1)
_KNIGHT = const(2)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)

CASTLE = const(0x20000)
EN_PASSANT = const(0x40000)
DOUBLE_PUSH = const(0x80000)
_SPECIAL = const(0xE0000)

# Castling right bits: white h-side, white a-side, black h-side, black a-side.
_WK = const(1)
_WQ = const(2)
_BK = const(4)
_BQ = const(8)

_KNIGHT_STEPS = (-21, -19, -12, -8, 8, 12, 19, 21)
_ROOK_DIRS = (-10, -1, 1, 10)
_BISHOP_DIRS = (-11, -9, 9, 11)
_KING_DIRS = (-11, -10, -9, -1, 1, 9, 10, 11)
# Ray directions by piece type (bishop, rook, queen: the king's eight directions).
_DIRS = (None, None, None, _BISHOP_DIRS, _ROOK_DIRS, _KING_DIRS)
_PROMOS = (_QUEEN, _ROOK, _BISHOP, _KNIGHT)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MAX_MOVES = const(218)  # the most legal moves any chess position has


def new_move_buffer(plies=1):
    """A buffer for gen_legal: room for `plies` plies of moves, 4 bytes a move."""
    return array("I", bytes(4 * (MAX_MOVES + 2) * plies))


# One ply of legal moves shared by the callers that fill it and read it within one call,
# never while another of them is under way: Game's legality and claim checks, parse_uci,
# SAN's disambiguation (880 bytes of heap, once instead of once each). Position's own
# look-ahead (has_legal_move, inside those loops) has its buffer, _scratch.
SHARED_MOVES = new_move_buffer()


class Position:
    """The state of a game at one moment: pieces, side to move, castling rights,
    en passant cell, move counters. Build it with Position() (the standard start),
    Position(fen), Position(fen, chess960=True) or Position.from_chess960(n)."""

    def __init__(self, fen=None, chess960=False):
        self.board = bytearray(120)
        self.turn = WHITE
        self.castling = 0
        self.castle_rooks = bytearray(4)  # cell of the rook of each castling right
        self.rights_mask = bytearray(b"\x0f" * 120)
        self.ep = 0  # cell a pawn skipped with its last double push, else 0
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self.kings = bytearray(2)  # king cell of white (0) and black (1)
        self.chess960 = chess960
        # The moves made since the position was set up, each with what it needs to be
        # taken back (2 words a ply), in chunks of 64 plies: a long game grows the stack
        # 512 bytes at a time and never needs a large free block on a fragmented heap.
        self._chunks = [new_chunk("I")]  # a chunk: 64 plies of (move, undo) words
        self.ply = 0
        self._pin = bytearray(120)
        self._stamp = 0
        self._scratch = new_move_buffer()  # one ply of moves for internal look-ahead
        _fen.set_fen(self, START_FEN if fen is None else fen, chess960)

    @classmethod
    def from_chess960(cls, number):
        return cls(start_fen(number), True)

    def copy(self):
        """An independent position equal to this one (without its move history)."""
        return Position(self.fen(), self.chess960)

    def fen(self, shredder=False):
        return _fen.fen(self, shredder)

    # ----- queries on public squares (0..63)

    def piece_at(self, sq):
        """Piece code (colour | type) on square sq, 0 if empty."""
        return self.board[SQ120[sq]]

    def king(self, color):
        return SQ64[self.kings[color >> 4]]

    def is_check(self):
        us = self.turn
        return self.attacked(self.kings[us >> 4], us ^ _OFF)

    def is_attacked_by(self, color, sq):
        return self.attacked(SQ120[sq], color)

    def occupancy(self, out):
        """Write the occupied squares into out (8 bytes, rank 1 first, bit i = file i):
        the shape the reed-switch scanner reports. No integer above 8 bits is made."""
        b = self.board
        for r in range(8):
            x = 0
            c = 21 + r * 10
            for f in range(8):
                if b[c + f]:
                    x |= 1 << f
            out[r] = x
        return out

    # ----- attacks

    def attacked(self, cell, by):
        """True if a piece of colour `by` attacks the cell (pieces as they stand)."""
        b = self.board
        if by == _WHITE:
            if b[cell - 9] == _WHITE | _PAWN or b[cell - 11] == _WHITE | _PAWN:
                return True
        elif b[cell + 9] == _BLACK | _PAWN or b[cell + 11] == _BLACK | _PAWN:
            return True
        p = by | _KNIGHT
        for d in _KNIGHT_STEPS:
            if b[cell + d] == p:
                return True
        p = by | _KING
        for d in _KING_DIRS:
            if b[cell + d] == p:
                return True
        r = by | _ROOK
        q = by | _QUEEN
        for d in _ROOK_DIRS:
            t = cell + d
            p = b[t]
            while p == 0:
                t += d
                p = b[t]
            if p == r or p == q:
                return True
        r = by | _BISHOP
        for d in _BISHOP_DIRS:
            t = cell + d
            p = b[t]
            while p == 0:
                t += d
                p = b[t]
            if p == r or p == q:
                return True
        return False

    # ----- make / unmake

    def make(self, m):
        """Play move m (which must come from gen_legal of this position) in place."""
        b = self.board
        fr = m & 127
        to = (m >> 7) & 127
        us = self.turn
        ply = self.ply
        chunks = self._chunks
        if ply >> 6 >= len(chunks):
            chunks.append(new_chunk("I"))
        c = chunks[ply >> 6]
        i = (ply & 63) << 1
        cap = b[to]
        c[i] = m
        c[i + 1] = cap | self.castling << 5 | self.ep << 9 | self.halfmove_clock << 16
        self.ply = ply + 1
        p = b[fr]
        self.ep = 0
        self.halfmove_clock += 1
        if not m & _SPECIAL:
            pt = m >> 14
            if pt:  # promotion
                b[to] = us | pt
                self.halfmove_clock = 0
            else:
                b[to] = p
                if p & 7 == _PAWN or cap:
                    self.halfmove_clock = 0
                if p & 7 == _KING:
                    self.kings[us >> 4] = to
            b[fr] = 0
        elif m & CASTLE:
            kt = castle_king_cell(fr, to)
            b[fr] = 0
            b[to] = 0
            b[kt] = us | _KING
            b[castle_rook_cell(fr, to)] = us | _ROOK
            self.kings[us >> 4] = kt
        elif m & EN_PASSANT:
            b[to] = p
            b[fr] = 0
            b[to - 10 if us == _WHITE else to + 10] = 0
            self.halfmove_clock = 0
        else:  # double push
            b[to] = p
            b[fr] = 0
            self.ep = (fr + to) >> 1
            self.halfmove_clock = 0
        rm = self.rights_mask
        self.castling &= rm[fr] & rm[to]
        if us == _BLACK:
            self.fullmove_number += 1
        self.turn = us ^ _OFF

    def unmake(self, m):
        """Take back move m, the last one made."""
        b = self.board
        fr = m & 127
        to = (m >> 7) & 127
        us = self.turn ^ _OFF
        self.turn = us
        ply = self.ply - 1
        self.ply = ply
        x = self._chunks[ply >> 6][((ply & 63) << 1) + 1]
        self.castling = (x >> 5) & 15
        self.ep = (x >> 9) & 127
        self.halfmove_clock = x >> 16
        if us == _BLACK:
            self.fullmove_number -= 1
        if not m & _SPECIAL:
            if m >> 14:
                b[fr] = us | _PAWN
            else:
                p = b[to]
                b[fr] = p
                if p & 7 == _KING:
                    self.kings[us >> 4] = fr
            b[to] = x & 31
        elif m & CASTLE:
            b[castle_king_cell(fr, to)] = 0
            b[castle_rook_cell(fr, to)] = 0
            b[fr] = us | _KING
            b[to] = us | _ROOK
            self.kings[us >> 4] = fr
        elif m & EN_PASSANT:
            b[fr] = b[to]
            b[to] = 0
            b[to - 10 if us == _WHITE else to + 10] = us ^ _OFF | _PAWN
        else:
            b[fr] = b[to]
            b[to] = 0

    def peek(self):
        """The last move made (0 if none)."""
        return self.move_at(self.ply - 1) if self.ply else 0

    def move_at(self, i):
        """The i-th move made since the position was set up (0-based)."""
        if not 0 <= i < self.ply:
            raise IndexError("no move %d" % i)
        return self._chunks[i >> 6][(i & 63) << 1]

    def _safe(self, m):
        """Does move m leave the mover's own king unattacked? (make, look, unmake)"""
        us = self.turn
        self.make(m)
        ok = not self.attacked(self.kings[us >> 4], us ^ _OFF)
        self.unmake(m)
        return ok

    # ----- legal move generation

    def _king_rays(self, ksq, dirs, slider, queen, us, stamp):
        """Walk the rays dirs out of the king on ksq: the number of checks by slider or
        queen, and the pins they make (the pinned piece's cell marked with stamp in
        self._pin). One walk serves the rook and the bishop directions."""
        b = self.board
        pin = self._pin
        checks = 0
        for d in dirs:
            t = ksq + d
            p = b[t]
            while p == 0:
                t += d
                p = b[t]
            if p == slider or p == queen:
                checks += 1
            elif p & us and p != _OFF:
                t2 = t + d
                p = b[t2]
                while p == 0:
                    t2 += d
                    p = b[t2]
                if p == slider or p == queen:
                    pin[t] = stamp
        return checks

    def gen_legal(self, buf, n=0):
        """Write the legal moves into buf[n:], return the new end index.
        buf (see new_move_buffer) must have room for MAX_MOVES more entries."""
        b = self.board
        us = self.turn
        them = us ^ _OFF
        ksq = self.kings[us >> 4]

        # Checks and pins: walk the rays out of the king.
        stamp = self._stamp + 1
        pin = self._pin
        if stamp > 255:
            for i in range(120):
                pin[i] = 0
            stamp = 1
        self._stamp = stamp
        checks = 0
        if us == _WHITE:
            if b[ksq + 9] == _BLACK | _PAWN:
                checks += 1
            if b[ksq + 11] == _BLACK | _PAWN:
                checks += 1
        else:
            if b[ksq - 9] == _WHITE | _PAWN:
                checks += 1
            if b[ksq - 11] == _WHITE | _PAWN:
                checks += 1
        p = them | _KNIGHT
        for d in _KNIGHT_STEPS:
            if b[ksq + d] == p:
                checks += 1
        q = them | _QUEEN
        checks += self._king_rays(ksq, _ROOK_DIRS, them | _ROOK, q, us, stamp)
        checks += self._king_rays(ksq, _BISHOP_DIRS, them | _BISHOP, q, us, stamp)

        if checks < 2:
            if us == _WHITE:
                fwd = 10
                promo_lo = 91
                promo_hi = 98
                start_lo = 31
            else:
                fwd = -10
                promo_lo = 21
                promo_hi = 28
                start_lo = 81
            ep = self.ep
            for s in SQ120:  # the 64 squares' cells (bytes: no copy of them on the heap)
                p = b[s]
                if not p & us:
                    continue
                pt = p & 7
                if pt == _KING:
                    continue
                n0 = n
                if pt == _PAWN:
                    t = s + fwd
                    if b[t] == 0:
                        if promo_lo <= t <= promo_hi:
                            for pp in _PROMOS:
                                buf[n] = s | t << 7 | pp << 14
                                n += 1
                        else:
                            buf[n] = s | t << 7
                            n += 1
                            if start_lo <= s < start_lo + 8 and b[t + fwd] == 0:
                                buf[n] = s | (t + fwd) << 7 | DOUBLE_PUSH
                                n += 1
                    for c in range(t - 1, t + 2, 2):  # no tuple: allocation-free
                        x = b[c]
                        if x & them and not x & us:
                            if promo_lo <= c <= promo_hi:
                                for pp in _PROMOS:
                                    buf[n] = s | c << 7 | pp << 14
                                    n += 1
                            else:
                                buf[n] = s | c << 7
                                n += 1
                        elif c == ep:
                            m = s | c << 7 | EN_PASSANT
                            if self._safe(m):
                                buf[n] = m
                                n += 1
                elif pt == _KNIGHT:
                    for d in _KNIGHT_STEPS:
                        t = s + d
                        if not b[t] & us:
                            buf[n] = s | t << 7
                            n += 1
                else:
                    for d in _DIRS[pt]:
                        t = s + d
                        x = b[t]
                        while x == 0:
                            buf[n] = s | t << 7
                            n += 1
                            t += d
                            x = b[t]
                        if not x & us:
                            buf[n] = s | t << 7
                            n += 1
                if checks or pin[s] == stamp:
                    # Keep only the moves that leave the king safe.
                    j = n0
                    for i in range(n0, n):
                        m = buf[i]
                        if self._safe(m):
                            buf[j] = m
                            j += 1
                    n = j

        # King steps: the king is lifted so that it does not hide the squares behind it.
        b[ksq] = 0
        for d in _KING_DIRS:
            t = ksq + d
            if not b[t] & us and not self.attacked(t, them):
                buf[n] = ksq | t << 7
                n += 1
        b[ksq] = us | _KING

        # Castling (standard and Chess960): FIDE art. 3.8.2 and Guidelines II.
        cr = self.castling
        if cr and not checks:
            if us == _WHITE:
                bits = cr & 3
                i0 = 0
            else:
                bits = (cr >> 2) & 3
                i0 = 2
            while bits:
                if bits & 1:
                    rf = self.castle_rooks[i0]
                    if self._can_castle(ksq, rf, castle_king_cell(ksq, rf), castle_rook_cell(ksq, rf), them):
                        buf[n] = ksq | rf << 7 | CASTLE
                        n += 1
                bits >>= 1
                i0 += 1
        return n

    def _can_castle(self, kf, rf, kt, rt, them):
        b = self.board
        king = b[kf]
        rook = b[rf]
        b[kf] = 0
        b[rf] = 0
        lo = min(kf, rf, kt, rt)
        hi = max(kf, rf, kt, rt)
        ok = True
        for s in range(lo, hi + 1):
            if b[s]:
                ok = False
                break
        if ok:
            for s in range(min(kf, kt), max(kf, kt) + 1):
                if self.attacked(s, them):
                    ok = False
                    break
        b[kf] = king
        b[rf] = rook
        return ok

    def legal_moves(self):
        """A new list of the legal moves (allocates: not for hot loops)."""
        buf = self._scratch
        return [buf[i] for i in range(self.gen_legal(buf, 0))]

    def has_legal_move(self):
        return self.gen_legal(self._scratch, 0) > 0

    def has_legal_en_passant(self):
        ep = self.ep
        if not ep:
            return False
        b = self.board
        us = self.turn
        pawn = us | _PAWN
        behind = -10 if us == _WHITE else 10
        for s in range(ep + behind - 1, ep + behind + 2, 2):
            if b[s] == pawn and self._safe(s | ep << 7 | EN_PASSANT):
                return True
        return False

    # ----- perft (the standard move-generator test)

    def perft(self, depth, buf=None, n=0):
        if buf is None:
            buf = new_move_buffer(depth + 1)
        end = self.gen_legal(buf, n)
        if depth <= 1:
            return end - n if depth == 1 else 1
        total = 0
        for i in range(n, end):
            m = buf[i]
            self.make(m)
            total += self.perft(depth - 1, buf, end)
            self.unmake(m)
        return total


def castle_king_cell(king, rook):
    """The cell the king ends on when it castles with the rook on cell rook (FIDE 3.8.2,
    Chess960 Guidelines II): the g-file towards the h-side, the c-file towards the a-side,
    on its own back rank. The one place of this arithmetic (with castle_rook_cell)."""
    base = 21 if king < 60 else 91
    return base + 6 if rook > king else base + 2


def castle_rook_cell(king, rook):
    """The cell the rook ends on: the f-file towards the h-side, the d-file towards the a-side."""
    base = 21 if king < 60 else 91
    return base + 5 if rook > king else base + 3


def move_from(m):
    """Public square a move starts from."""
    return SQ64[m & 127]


def move_to(m):
    """Public square a move ends on (for castling: the king's destination square)."""
    if m & CASTLE:
        return SQ64[castle_king_cell(m & 127, (m >> 7) & 127)]
    return SQ64[(m >> 7) & 127]


def move_promotion(m):
    """Piece type a pawn promotes to (KNIGHT..QUEEN), 0 if none."""
    return 0 if m & _SPECIAL else m >> 14


def is_castling(m):
    return bool(m & CASTLE)


def is_en_passant(m):
    return bool(m & EN_PASSANT)
