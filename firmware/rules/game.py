# A game: a position plus its history, and what the history decides: repetitions
# (art. 9.2), the 50- and 75-move rules (9.3, 9.6.2), fivefold repetition (9.6.1), and the
# outcome of the game as data.
#
# "The same position" (9.2.3) is: same side to move, same pieces on the same squares, same
# castling rights, and an en passant capture possible in both or in neither. Each position
# of the game is kept as a 34-byte key that says exactly that (no hash, no collisions).
from firmware.rules.errors import IllegalMoveError
from firmware.rules.position import Position
from firmware.rules.squares import SQ120, WHITE, BLACK
from firmware.rules import material
from firmware.rules import outcome as _o
from firmware.rules.san import san as _san
from firmware.rules.uci import uci as _uci, parse_uci as _parse_uci


class Game:
    def __init__(self, fen=None, chess960=False, position=None):
        self.position = position if position is not None else Position(fen, chess960)
        self.start_fen = self.position.fen()
        self.moves = []
        self._buf = [0] * 256
        self._kbuf = bytearray(34)
        self._keys = [self._key()]

    @classmethod
    def from_chess960(cls, number):
        return cls(position=Position.from_chess960(number))

    # ----- moves

    def legal_moves(self):
        return self.position.legal_moves()

    def is_legal(self, m):
        buf = self._buf
        for i in range(self.position.gen_legal(buf, 0)):
            if buf[i] == m:
                return True
        return False

    def push(self, m):
        """Play legal move m. IllegalMoveError (and no change) if it is not legal."""
        if not self.is_legal(m):
            raise IllegalMoveError("illegal move %r in %s" % (m, self.position.fen()))
        self._push(m)

    def _push(self, m):
        self.position.make(m)
        self.moves.append(m)
        self._keys.append(self._key())

    def push_uci(self, text):
        """Parse and play a UCI move; returns the move. Raises and changes nothing if the
        text is not UCI (InvalidMoveError) or the move is illegal (IllegalMoveError)."""
        m = _parse_uci(self.position, text)
        self._push(m)
        return m

    def parse_uci(self, text):
        return _parse_uci(self.position, text)

    def pop(self):
        m = self.moves.pop()
        self._keys.pop()
        self.position.unmake(m)
        return m

    def uci(self, m):
        return _uci(self.position, m)

    def san(self, m, letters=None):
        if letters is None:
            return _san(self.position, m)
        return _san(self.position, m, letters)

    def fen(self, shredder=False):
        return self.position.fen(shredder)

    @property
    def turn(self):
        return self.position.turn

    @property
    def ply(self):
        return len(self.moves)

    # ----- positions as keys

    def _key(self):
        pos = self.position
        b = pos.board
        k = self._kbuf
        for i in range(32):
            p = b[SQ120[2 * i]]
            q = b[SQ120[2 * i + 1]]
            k[i] = ((p & 7) | ((p >> 1) & 8)) | ((q & 7) | ((q >> 1) & 8)) << 4
        k[32] = (0 if pos.turn == WHITE else 1) | pos.castling << 1
        k[33] = pos.ep if pos.ep and pos.has_legal_en_passant() else 0
        return bytes(k)

    def _window(self):
        """First index of the keys that the current position can repeat: none before the
        last capture or pawn move can be the same position."""
        n = len(self._keys) - 1 - self.position.halfmove_clock
        return n if n > 0 else 0

    def _count(self, key, lo):
        keys = self._keys
        c = 0
        for i in range(lo, len(keys)):
            if keys[i] == key:
                c += 1
        return c

    # ----- game end

    def is_check(self):
        return self.position.is_check()

    def is_checkmate(self):
        return self.position.is_check() and not self.position.has_legal_move()

    def is_stalemate(self):
        return not self.position.is_check() and not self.position.has_legal_move()

    def has_insufficient_material(self, color):
        return material.has_insufficient_material(self.position, color)

    def is_insufficient_material(self):
        return material.is_insufficient_material(self.position)

    def is_repetition(self, count=3):
        """The current position has occurred `count` times (this time included)."""
        return self._count(self._keys[-1], self._window()) >= count

    def is_fivefold_repetition(self):
        return self.is_repetition(5)

    def _is_halfmoves(self, n):
        return self.position.halfmove_clock >= n and self.position.has_legal_move()

    def is_fifty_moves(self):
        return self._is_halfmoves(100)

    def is_seventyfive_moves(self):
        return self._is_halfmoves(150)

    def can_claim_fifty_moves(self):
        """Art. 9.3: 50 moves by each side without capture or pawn move, made or about to
        be made with a move the claimant writes down."""
        if self.is_fifty_moves():
            return True
        pos = self.position
        if pos.halfmove_clock >= 99:
            buf = self._buf
            for i in range(pos.gen_legal(buf, 0)):
                m = buf[i]
                pos.make(m)
                ok = pos.halfmove_clock >= 100 and pos.has_legal_move()
                pos.unmake(m)
                if ok:
                    return True
        return False

    def can_claim_threefold_repetition(self):
        """Art. 9.2: the position has occurred three times, or will with a move the
        claimant writes down."""
        lo = self._window()
        if self._count(self._keys[-1], lo) >= 3:
            return True
        pos = self.position
        buf = self._buf
        for i in range(pos.gen_legal(buf, 0)):
            m = buf[i]
            pos.make(m)
            found = pos.halfmove_clock and self._count(self._key(), lo) >= 2
            pos.unmake(m)
            if found:
                return True
        return False

    def can_claim_draw(self):
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, claim_draw=False):
        """The Outcome if the game is over by the rules, else None. Automatic ends come
        first (mate wins even on the 75th move); with claim_draw, also the claimable draws."""
        pos = self.position
        moves = pos.has_legal_move()
        if not moves and pos.is_check():
            return _o.Outcome(_o.CHECKMATE, BLACK if pos.turn == WHITE else WHITE)
        if material.is_insufficient_material(pos):
            return _o.Outcome(_o.INSUFFICIENT_MATERIAL)
        if not moves:
            return _o.Outcome(_o.STALEMATE)
        if pos.halfmove_clock >= 150:
            return _o.Outcome(_o.SEVENTYFIVE_MOVES)
        if self.is_fivefold_repetition():
            return _o.Outcome(_o.FIVEFOLD_REPETITION)
        if claim_draw:
            if self.can_claim_fifty_moves():
                return _o.Outcome(_o.FIFTY_MOVES)
            if self.can_claim_threefold_repetition():
                return _o.Outcome(_o.THREEFOLD_REPETITION)
        return None

    def is_game_over(self, claim_draw=False):
        return self.outcome(claim_draw) is not None
