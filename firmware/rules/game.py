# A game: a position plus its history, and what the history decides: repetitions
# (art. 9.2), the 50- and 75-move rules (9.3, 9.6.2), fivefold repetition (9.6.1), and the
# outcome of the game as data.
#
# "The same position" (9.2.3) is: same side to move, same pieces on the same squares, same
# castling rights, and an en passant capture possible in both or in neither. Each position
# is summed up in a 34-byte key that says exactly that (no hash, no collisions). Only the
# positions since the last capture or pawn move can repeat, so only their keys are kept:
# a long game costs no more memory than its longest quiet stretch (at most 150 plies).
# A move's key is worked out when it is first needed (the next move, a repetition check),
# not while the move is played: on the board that is in the path of a press's answer.
from firmware.rules import fen as _fen
from firmware.rules.errors import IllegalMoveError
from firmware.rules.position import START_FEN, Position, SHARED_MOVES
from firmware.rules.squares import SQ120, WHITE, BLACK
from firmware.rules import material
from firmware.rules import outcome as _o
from firmware.rules.san import san as _san
from firmware.rules.uci import uci as _uci, parse_uci as _parse_uci


class Game:
    def __init__(self, fen=None, chess960=False, position=None):
        self.position = position if position is not None else Position(fen, chess960)
        self._buf = SHARED_MOVES  # filled and read within one call (position.py)
        self._kbuf = bytearray(34)
        self._started()

    def reset(self, fen=None, chess960=False):
        """Start a new game in place, reusing this game's buffers (the device's way: it
        keeps one Game for its whole life). InvalidFenError leaves the game as it was."""
        _fen.set_fen(self.position, START_FEN if fen is None else fen, chess960)
        self._started()

    def _started(self):
        self.start_fen = self.position.fen()
        self._keys = [self._key()]
        self._key_due = False  # the last key is still to be worked out

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

    def push_legal(self, m):
        """Play m, known to be one of gen_legal's moves of this position (the move
        recogniser's table holds them): the move is not generated again."""
        self._push(m)

    def _push(self, m):
        pos = self.position
        self._keys_now()  # the position before m, while it is still there
        pos.make(m)
        if pos.halfmove_clock == 0:
            self._keys = [None]
        else:
            self._keys.append(None)
        self._key_due = True

    def _keys_now(self):
        """The keys of the positions since the last capture or pawn move, every one."""
        if self._key_due:
            self._keys[-1] = self._key()
            self._key_due = False
        return self._keys

    def push_uci(self, text):
        """Parse and play a UCI move; returns the move. Raises and changes nothing if the
        text is not UCI (InvalidMoveError) or the move is illegal (IllegalMoveError)."""
        m = _parse_uci(self.position, text)
        self._push(m)
        return m

    def parse_uci(self, text):
        return _parse_uci(self.position, text)

    def pop(self):
        """Take back the last move and return it."""
        pos = self.position
        if not pos.ply:
            raise IndexError("no move to take back")
        m = pos.peek()
        pos.unmake(m)
        keys = self._keys
        keys.pop()
        self._key_due = False
        if not keys:
            self._rebuild_keys()
        return m

    def _rebuild_keys(self):
        # The take-back crossed a capture or pawn move: walk back through the quiet moves
        # before it to collect their positions again, then play them forward.
        pos = self.position
        ply = pos.ply
        back = min(pos.halfmove_clock, ply)
        keys = [self._key()]
        # Copy the moves first: working out a key may try moves (en passant), which
        # overwrite the position's stack above the current ply.
        replay = [pos.move_at(i) for i in range(ply - back, ply)]
        for i in range(back - 1, -1, -1):
            pos.unmake(replay[i])
            keys.append(self._key())
        for m in replay:
            pos.make(m)
        keys.reverse()
        self._keys = keys

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
        return self.position.ply

    @property
    def moves(self):
        """The moves of the game so far, as a new list."""
        pos = self.position
        return [pos.move_at(i) for i in range(pos.ply)]

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

    def _count(self, key):
        c = 0
        for k in self._keys_now():
            if k == key:
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
        return self._count(self._keys_now()[-1]) >= count

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
        if self._count(self._keys_now()[-1]) >= 3:
            return True
        pos = self.position
        buf = self._buf
        for i in range(pos.gen_legal(buf, 0)):
            m = buf[i]
            pos.make(m)
            # After a capture or pawn move no earlier position can come again.
            found = pos.halfmove_clock and self._count(self._key()) >= 2
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
