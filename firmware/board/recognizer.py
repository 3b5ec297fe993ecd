# The move recogniser: reed-switch occupancy in, moves out.
#
# Reed switches say only "occupied" or "empty". The recogniser knows the game, so for the
# position on the board it prepares, while the player thinks, the change each legal move
# would make (firmware/board/movekeys.py). A scan that did not change costs one 8-byte
# comparison (firmware/board/debounce.py); a new stable board costs a few bit operations
# and a dict lookup. Its parts: the lifts seen since the board was last in order
# (lifts.py: a capture's evidence), the positions of the game (history.py: take-backs),
# what the stable board shows (reading.py: a candidate move, a take-back, an attempt),
# and its one outlet, a GameSink (sink.py).
#
# The rules it follows (docs/firmware.md, "The move recogniser"):
# - a change counts only when it has been stable for debounce_ms (reed bounce);
# - a move is committed when the board equals the position after exactly one legal move
#   and stays so for settle_ms, or at once when the mover presses his clock;
# - a capture needs evidence: its target square must have been seen empty since the board
#   was last in order (a lifted piece alone looks exactly like a capture). If the target
#   emptied only after the capturing piece was lifted - which is also what brushing that
#   piece with the capturing piece in hand looks like - the press or hold_ms commits it;
# - a move that is also the king's or the rook's half of an available castling waits
#   hold_ms (or the press) for the other half;
# - promotion waits for the press, with the piece chosen by the menu buttons (queen first),
#   unless the piece chosen ends the game (a mating queen): then hold_ms commits it, as the
#   game ends there and no press comes (6.2.1.1), or unless no press comes on this board
#   (no_press: one of a pair whose clock is the other board's): then hold_ms after the
#   piece was last chosen;
# - until the mover presses, his move may still be replaced by another legal move from the
#   same position (a slow slide, a rook-first castling): a take-back and the new move;
# - the board back at an earlier position of the game is a take-back; the start position
#   set up is a new game; anything else is a move in progress, an illegal move attempt (a
#   piece of the side to move put where no legal move goes), or, once it has lasted
#   differs_ms, a board that differs from the game, with the steps that put it right;
# - a blind player feels the pieces (appendix D.2.3: he may touch them without having to
#   move them): for a side in press_only, his move is taken only by his press, his lifts
#   and touches are no touched piece (4.3), no attempt and no "differs" until he presses,
#   and his own pieces held up on the opponent's turn are not told either. The sighted
#   side's moves follow the rules above (D.2.5).
from firmware.board import fix
from firmware.board.debounce import Debouncer, NEW, SAME
from firmware.board.history import PositionHistory
from firmware.board.lifts import Lifts
from firmware.board.movekeys import MoveTable, move_key
from firmware.board.occupancy import START
from firmware.board.orientation import facing, turn
from firmware.board.reading import (
    BoardReading, PROMOTIONS, SYNC, MOVING, CANDIDATE, DIFFERS, ILLEGAL, MOVE, REVISE, TAKEBACK,
)
from firmware.board.sink import GameSink
from firmware.rules.squares import SQ64, WHITE, BLACK
from firmware.ticks import ticks_diff

AUTO = None  # orientation decided from the first move
# Measured on the chip (bench/chip.py): with these, a move's line is out ~140 ms after the
# last change; a slid piece rests < 70 ms on a square it passes (tracegen's slides), so it
# never stands long enough there to count.
SETTLE_MS = 80
DEBOUNCE_MS = 20
# A take-back or a new game (the board back at an earlier position, or at the start)
# waits longer: putting pieces back passes through earlier positions of the game, and
# nothing hurries it.
BACK_MS = 250
_NO_MOVE = -1  # expected after the result: no move is


class MoveRecognizer(BoardReading):
    def __init__(self, game, sink=None, settle_ms=SETTLE_MS, debounce_ms=DEBOUNCE_MS,
                 hold_ms=1000, differs_ms=1500, orientation=AUTO, diff=ticks_diff):
        self.game = game
        self.sink = sink if sink is not None else GameSink(game)
        self.settle_ms = settle_ms
        self._debounce = Debouncer(debounce_ms, diff)
        self.back_ms = BACK_MS
        self.hold_ms = hold_ms
        self.differs_ms = differs_ms
        self.orientation = orientation  # None (auto), False (normal), True (turned 180)
        self._fixed_orientation = orientation
        self._diff = diff
        self.next_fen = None  # the start of the next game set up on the board
        self.next_chess960 = False

        self._board = bytearray(8)  # the stable board, White's side as rank 1
        self._lifts = Lifts()
        self._before = bytearray(8)  # the stable board before the present one
        self._cur = MoveTable()
        self._prev = MoveTable()
        self._history = PositionHistory()
        self.positions = 0  # positions prepared for so far (a new one: a new count)
        self.status = SYNC
        self._since = 0  # when the stable board took its present state
        self._kind = 0  # candidate kind
        self._cand = 0  # candidate move index, or ply for a take-back
        self._cand_count = 0  # 4 for a promotion (the four pieces)
        self._ending = 0  # of a promotion: bit i, PROMOTIONS[i] ends the game
        self._need = 0  # how long the candidate must stay
        self.promotion = 0  # index into PROMOTIONS while a promotion waits
        self._illegal = (0, 0)
        self._illegal_told = False
        self._differs_told = False
        self._told = False  # "differs" or "illegal" was reported and not yet put right
        self._revisable = False  # the last move was recognised here and not yet pressed
        self.expected = 0  # the move the host shows and waits for (expect): no other is taken
        self._setting_up = False  # a new game's position is being set up on the board
        self.press_only = 0  # sides (WHITE | BLACK) whose moves only their press takes: blind players
        # No press comes on this board (one of a pair whose clock is the other's): a
        # promotion is taken hold_ms after its piece was last chosen.
        self.no_press = False
        self._changed(0)
        self._board[:] = self._cur.occ

    # ----- the position changed: prepare for the next move

    def _changed(self, now):
        # Only the new position's occupancy now: the table of its legal moves (the costly
        # part) is built in an idle step once the mover has pressed his clock, or when the
        # board first changes, so that the line of the move just made and the press's
        # answer go out first (_ensure, idle).
        self.positions += 1
        cur = self._cur
        self.game.position.occupancy(cur.occ)
        cur.valid = False
        cur.n = 0
        self._history.record(self.game.ply, cur.occ)
        self._lifts.clear()

    def _ensure(self):
        """The table of the position's legal moves, built if it is not yet."""
        cur = self._cur
        if not cur.valid:
            cur.build(self.game.position)

    def idle(self):
        """Work done while the player thinks: the table of the position's legal moves.
        Returns True if it did some. The device calls it when the loop has time."""
        if self._cur.valid or self._revisable:
            # (The mover's press is due any moment: it is answered first, and the table,
            # the longest step of all, is built after it, or when the board changes.)
            return False
        self._ensure()
        return True

    def legal_moves(self):
        """(moves, n): the position's legal moves once the table is built, else (None, 0)."""
        cur = self._cur
        return (cur.moves, cur.n) if cur.valid else (None, 0)

    # ----- input

    def scan(self, occ, now):
        """One scan of the matrix (8 bytes, rank 1 first, as the switches are wired)."""
        got = self._debounce.scan(occ, now)
        if got == NEW:
            self._take(now)
        elif got == SAME:
            self._tick(now)

    def _take(self, now):
        self._ensure()
        raw = self._debounce.raw
        b = self._board
        self._before[:] = b
        if self.orientation is None:
            e = self.expected
            want = move_key(e, self.game.position.board) if e > 0 else 0
            self.orientation = facing(raw, self._cur.occ, self._cur.index, want)
            if self.orientation and self._cur.occ == START:
                self._lifts.clear()  # they were read the other way round
        if self.orientation:
            turn(raw, b)
        else:
            b[:] = raw
        self._since = now
        self._classify(now)

    def press(self, side, now):
        """A clock button: it completes the mover's move at once (art. 6.2.1), and tells
        a completed illegal move. Call before the clock's own press."""
        if self._debounce.flush():
            self._take(now)  # the hand has left the board: the last scan is the board
        if self.status == CANDIDATE and self._kind in (MOVE, REVISE) and self._mover() == side:
            self._commit(now, True)
        elif self.status == ILLEGAL and side == self.game.turn:
            self.sink.illegal_completed(side, self._illegal)
        if self.game.turn != side:
            self._revisable = False  # his move is completed: no more revising it

    def expect(self, m):
        """Only m, a legal move of the side to move (0: any move), is taken as the next
        move: the move of a player who is not at the board (an engine, an opponent
        online), which the player at the board carries out. Any other move the board shows
        is an attempt, reported as an illegal one is. The expectation ends when the
        position changes (a move, a take-back, a new game)."""
        self.expected = m
        if m:
            pt = (m >> 14) & 7
            if pt:
                self.promotion = PROMOTIONS.index(pt)
        self._classify(self._since)

    def promotion_pending(self):
        return self.status == CANDIDATE and self._cand_count == 4

    def button(self, name, down, now):
        """A menu button. While a promotion waits, plus/minus choose the piece."""
        if not down or self.status != CANDIDATE or self._cand_count != 4:
            return
        if name == "plus":
            self.promotion = (self.promotion + 1) % 4
        elif name == "minus":
            self.promotion = (self.promotion + 3) % 4
        else:
            return
        self._since = now  # a choice that ends the game is taken hold_ms after it is made
        self.sink.promotion(PROMOTIONS[self.promotion], SQ64[(self._cur.moves[self._cand] >> 7) & 127])

    def restart(self, now):
        """The game was reset from outside (a new game from the host or the menu): prepare
        for its position, forgetting the old game's history."""
        if self._fixed_orientation is None:
            self.orientation = None
        self._prev.valid = False
        self._revisable = False
        self._told = False
        self._lifts.clear()
        self._after(now)
        # Pieces moved to set up its position are no touched pieces (4.3).
        self._setting_up = self.status != SYNC

    def game_over(self):
        """The game has ended: no move is taken any more; one shown on the board is an
        attempt, told once (until the position changes: a take-back, a new game)."""
        self.expected = _NO_MOVE

    def stable(self):
        """The stable board (occupancy, White's side as rank 1): not to be changed."""
        return self._board

    def was_lifted(self, sq):
        """Whether square sq has been seen empty since the board was last in order."""
        return self._lifts.was_lifted(sq)

    def filled_after_lifting(self, sq, frm):
        """Whether square sq was filled again after the piece on frm was lifted (what a
        capture from frm to sq does; a piece brushed and put back before is not that)."""
        lifts = self._lifts
        return lifts.was_lifted(frm) and lifts.refill[sq] > lifts.order[frm]

    def set_orientation(self, orientation):
        """None: found from where White's pieces stand at each new game (auto); False:
        White's side as rank 1; True: the board turned 180 degrees."""
        self.orientation = self._fixed_orientation = orientation

    def set_next_start(self, fen=None, chess960=False):
        """The position the next new game starts from when the start position is set up
        (a Chess960 start looks like the normal one to reed switches)."""
        self.next_fen = fen
        self.next_chess960 = chess960

    # ----- time passes with the board unchanged

    def _tick(self, now):
        st = self.status
        feeling = self.press_only & self.game.turn  # the blind player's turn: only his press counts
        if st == CANDIDATE:
            if self._kind in (MOVE, REVISE) and self.press_only & self._mover():
                return  # a blind player's move: taken by his press (D.2.3)
            if self._cand_count == 4 and not (self._ending >> self.promotion) & 1 and not self.no_press:
                return  # a promotion waits for the press, with the piece chosen
            if self._diff(now, self._since) >= (self.hold_ms if self._cand_count == 4 else self._need):
                self._commit(now, False)
        elif st == ILLEGAL:
            if feeling:
                return  # told if he presses: then it is a completed illegal move
            waited = self._diff(now, self._since)
            if not self._illegal_told and waited >= self.settle_ms:
                self._illegal_told = True
                self._told = True
                self.sink.attempt(self._illegal[0], self._illegal[1])
            elif waited >= self.differs_ms and not self._differs_told:
                self._tell_differs()
        elif st == MOVING:
            if self._diff(now, self._since) >= self.differs_ms:
                if self._felt(feeling):
                    self._since = now  # a blind player feeling the pieces: looked at again in differs_ms
                else:
                    self.status = DIFFERS
                    self._tell_differs()

    def _felt(self, own_turn):
        """Pieces are off the board and nothing else is amiss, and they are pieces a blind
        player may be feeling: on his turn any (he may lift any to feel it), on the
        opponent's his own. Nobody is told of it."""
        if not self.press_only:
            return False
        colours = (WHITE | BLACK) if own_turn else self.press_only
        board, occ = self._board, self._cur.occ
        pos = self.game.position
        for r in range(8):
            if board[r] & ~occ[r]:
                return False  # a piece where none should be
            gone = occ[r] & ~board[r]
            for f in range(8):
                if gone >> f & 1 and not colours & pos.piece_at(r * 8 + f):
                    return False
        return True

    def _tell_differs(self):
        self._differs_told = True
        self._told = True
        missing, extra = fix.differences(self._cur.occ, self._board)
        self.sink.differs(missing, fix.suggest(missing, extra))

    # ----- commits

    def _commit(self, now, pressed):
        """pressed: by the mover's press (else the board stood long enough)."""
        kind = self._kind
        if kind == MOVE:
            self._commit_move(self._cand, now, pressed)
        elif kind == REVISE:
            self.sink.take_back(self.game.ply - 1, now)
            self._cur, self._prev = self._prev, self._cur
            self._prev.valid = False
            self._commit_move(self._cand, now, pressed)
        elif kind == TAKEBACK:
            self.sink.take_back(self._cand, now)
            self._prev.valid = False
            self._revisable = False
            self._after(now)
        else:
            if self._fixed_orientation is None:
                self.orientation = None
            self.sink.new_game(self.next_fen, self.next_chess960, now)
            self._prev.valid = False
            self._revisable = False
            self._after(now)

    def _commit_move(self, i, now, pressed):
        cur = self._cur
        m = cur.moves[i]
        if self._cand_count == 4:
            want = PROMOTIONS[self.promotion]
            for j in range(i, i + 4):
                if (cur.moves[j] >> 14) & 7 == want:
                    m = cur.moves[j]
                    i = j
                    break
        made = self.expected != 0 and m == self.expected
        self.sink.make_move(m, now)
        self._cur, self._prev = self._prev, self._cur
        self._revisable = True
        self._after(now)
        if made and not pressed:
            self.sink.expected_made(now)

    def _after(self, now):
        self.expected = 0  # a new position: what was expected is no more
        self._changed(now)
        self.status = SYNC
        self._cand_count = 0
        self._classify(now)
