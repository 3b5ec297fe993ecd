# What the move recogniser's stable board shows (firmware/board/recognizer.py: the state
# machine around it): the game's position, a candidate - a legal move, a move revised, a
# take-back, the start of a new game - that must stand for its time, an illegal attempt,
# or something in progress. The classification is here; when to commit, and what time
# passing does, are the recogniser's.
from firmware.board.attempts import illegal_attempt
from firmware.board.movekeys import delta
from firmware.board.occupancy import START
from firmware.const import const
from firmware.rules.squares import SQ64, KNIGHT, BISHOP, ROOK, QUEEN

# What the board is doing.
SYNC = const(0)  # it shows the game's position
MOVING = const(1)  # something is in hand or under way
CANDIDATE = const(2)  # it shows what a legal move (or take-back, new game) would give
DIFFERS = const(3)  # it has shown something else for differs_ms: "board differs"
ILLEGAL = const(4)  # a piece of the side to move stands where no legal move goes

# Candidate kinds.
MOVE = const(1)
REVISE = const(2)
TAKEBACK = const(3)
NEW_GAME = const(4)

PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)  # the order the menu buttons cycle through


class BoardReading:
    """The recogniser's reading of its stable board (a base of MoveRecognizer, whose
    fields it uses)."""

    def _mover(self):
        t = self.game.turn
        return t if self._kind == MOVE else t ^ 24

    def _candidate(self, kind, index, count, need):
        if self.status == CANDIDATE and self._kind == kind and self._cand == index:
            return  # the same candidate, still settling
        self.status = CANDIDATE
        self._kind = kind
        self._cand = index
        self._cand_count = count
        self._need = need
        if count == 4:
            self.promotion = 0
            self._ending = self._promotions_ending(index)
            self.sink.promotion(QUEEN, SQ64[(self._cur.moves[index] >> 7) & 127])

    def _promotions_ending(self, index):
        """Which of the four promotions from index end the game (mate, stalemate, a dead
        position, ...): bit i for PROMOTIONS[i]."""
        game = self.game
        moves = self._cur.moves
        out = 0
        for j in range(index, index + 4):
            m = moves[j]
            game.push(m)
            if game.is_game_over():
                out |= 1 << PROMOTIONS.index((m >> 14) & 7)
            game.pop()
        return out

    def _classify(self, now):
        cur = self._cur
        self._lifts.note(self._board, cur.occ, self._before)
        key = delta(self._board, cur.occ)
        was = self.status
        if key != 0:
            self._ensure()
        if key == 0:
            # (Right after a move no square is lifted: the table may wait.)
            if cur.valid and cur.swap >= 0 and self._swap_lifted(cur) and \
                    (not self.expected or cur.moves[cur.swap] == self.expected):
                self._candidate(MOVE, cur.swap, 1, self.settle_ms)
                return
            if self._told:
                self._told = False
                self.sink.sync()  # what was reported is put right
            elif self._setting_up:
                pass
            elif was != SYNC or self._lifts.count:
                feeling = self.press_only
                own_turn = feeling & self.game.turn
                pos = self.game.position
                for sq in range(64):
                    # A blind player's touches are his way of seeing (D.2.3): on his turn
                    # all of them, on the opponent's his own pieces.
                    if self._lifts.was_lifted(sq) and not own_turn and not (feeling & pos.piece_at(sq)):
                        self.sink.touched(sq)
            self._setting_up = False
            self.status = SYNC
            self._lifts.clear()
            return
        if key > 0:
            i, count, late = cur.find(key, self._lifts)
            need = self.hold_ms if late else self.settle_ms
            if i >= 0 and (count == 1 or count == 4):
                if not self.expected:
                    self._candidate(MOVE, i, count, need)
                    return
                j = self._expected_among(cur, i, count)
                if j >= 0:
                    self._candidate(MOVE, j, 1, need)  # its promotion piece is known
                else:
                    m = cur.moves[i]
                    self._attempt((SQ64[m & 127], SQ64[(m >> 7) & 127]), was)
                return
        if self._revisable and self._prev.valid:
            k2 = delta(self._board, self._prev.occ)
            if k2 > 0:
                i, count, late = self._prev.find(k2, self._lifts)
                need = self.hold_ms if late else self.settle_ms
                if i >= 0 and count == 1:
                    self._candidate(REVISE, i, count, need)
                    return
        # Back at an earlier position: a take-back. The start position set up is a new
        # game, unless it is the position of one of the last two plies (taking back one
        # move each; in Chess960 castling keeps the start's occupancy mid-game).
        p = self._history.latest(self._board, self.game.ply)
        if self._board == START and self.game.ply and p < self.game.ply - 2:
            self._candidate(NEW_GAME, 0, 0, self.back_ms)
            return
        if p >= 0:
            self._candidate(TAKEBACK, p, 0, self.back_ms)
            return
        ill = illegal_attempt(key, self.game.position, cur, self._lifts)
        if ill:
            self._attempt(ill, was)
            return
        if was != DIFFERS:
            self.status = MOVING

    def _attempt(self, ill, was):
        # Reported once it has stood for settle_ms (a hand passing over is no attempt).
        if was != ILLEGAL or self._illegal != ill:
            self._illegal = ill
            self._illegal_told = False
            self._differs_told = False
        self.status = ILLEGAL

    def _expected_among(self, table, i, count):
        """The index of the expected move among the count moves from i, or -1."""
        e = self.expected
        for j in range(i, i + count):
            if table.moves[j] == e:
                return j
        return -1

    def _swap_lifted(self, cur):
        m = cur.moves[cur.swap]
        return self._lifts.was_lifted(SQ64[m & 127]) and self._lifts.was_lifted(SQ64[(m >> 7) & 127])
