# The move recogniser: reed-switch occupancy in, moves out.
#
# Reed switches say only "occupied" or "empty". The recogniser knows the game, so for the
# position on the board it prepares, while the player thinks, the change each legal move
# would make: the squares it empties and the squares it fills (at most two of each, for
# castling and en passant), packed into one small integer, and a dict from that key to the
# move. A scan that did not change costs one 8-byte comparison; a new stable board costs a
# few bit operations and a dict lookup.
#
# The rules it follows (see README, "The move recogniser"):
# - a change counts only when it has been stable for debounce_ms (reed bounce);
# - a move is committed when the board equals the position after exactly one legal move
#   and stays so for settle_ms, or at once when the mover presses his clock;
# - a capture needs evidence: its target square must have been seen empty since the board
#   was last in order (a lifted piece alone looks exactly like a capture). If the target
#   emptied only after the capturing piece was lifted - which is also what brushing that
#   piece with the capturing piece in hand looks like - the press or hold_ms commits it;
# - a move that is also the king's or the rook's half of an available castling waits
#   hold_ms (or the press) for the other half;
# - promotion waits for the press, with the piece chosen by the menu buttons (queen first);
# - until the mover presses, his move may still be replaced by another legal move from the
#   same position (a slow slide, a rook-first castling): a take-back and the new move;
# - the board back at an earlier position of the game is a take-back; the start position
#   set up is a new game; anything else is a move in progress, an illegal move attempt (a
#   piece of the side to move put where no legal move goes), or, once it has lasted
#   differs_ms, a board that differs from the game, with the steps that put it right.
from array import array

from firmware.board import fix
from firmware.board.occupancy import REVERSED, START
from firmware.rules.position import (
    new_move_buffer, castle_king_cell, castle_rook_cell, CASTLE, EN_PASSANT, MAX_MOVES,
)
from firmware.rules.san import san as _san
from firmware.rules.squares import SQ64, SQ120, KNIGHT, BISHOP, ROOK, QUEEN, KING
from firmware.ticks import ticks_diff

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


# What the board is doing.
SYNC = const(0)  # it shows the game's position
MOVING = const(1)  # something is in hand or under way
CANDIDATE = const(2)  # it shows what a legal move (or take-back, new game) would give
DIFFERS = const(3)  # it has shown something else for differs_ms: "board differs"
ILLEGAL = const(4)  # a piece of the side to move stands where no legal move goes

# Candidate kinds.
_MOVE = const(1)
_REVISE = const(2)
_TAKEBACK = const(3)
_NEW_GAME = const(4)

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
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)  # the order the menu buttons cycle through


class GameSink:
    """The recogniser's one outlet: where what it recognises and sees on the board goes.
    This one plays the moves on a rules Game and lets the reports go; the device gives
    its own (firmware/app/events.py) with the same methods."""

    def __init__(self, game):
        self.game = game

    # What the players did: the game follows.
    def make_move(self, m, now, san):
        """m, a legal move of the side to move (san: its SAN), was made on the board."""
        self.game.push(m)

    def take_back(self, ply, now):
        """The board is back at the position after ply plies: the moves after it go."""
        while self.game.ply > ply:
            self.game.pop()

    def new_game(self, fen, chess960, now):
        """The start position was set up: a new game from fen (None: the normal start)."""
        self.game.reset(fen, chess960)

    # What the board shows: reports.
    def promotion(self, piece, square):
        """A pawn waits on square; piece is the promotion the buttons chose so far."""

    def touched(self, square):
        """A piece of the side to move was lifted and put back (art. 4.3)."""

    def attempt(self, frm, to):
        """An illegal move stands on the board (from, to; either may be None)."""

    def illegal_completed(self, side, attempt):
        """side pressed the clock with the illegal attempt on the board (7.5.1); the clock
        counts the press as one without a legal move."""

    def differs(self, missing, fixes):
        """The board is not the game's position: the squares missing a piece, and the
        (from, to) moves that would put it right."""

    def sync(self):
        """The board is the game's position again."""


_ZEROS = bytes(64)  # clears the lift records in one copy


class _Table:
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
            k = _move_key(m, b)
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


def _move_key(m, b):
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


def _is_capture_key(k):
    return k < 128


class MoveRecognizer:
    def __init__(self, game, sink=None, settle_ms=SETTLE_MS, debounce_ms=DEBOUNCE_MS,
                 hold_ms=1000, differs_ms=1500, orientation=AUTO, diff=ticks_diff):
        self.game = game
        self.sink = sink if sink is not None else GameSink(game)
        self.settle_ms = settle_ms
        self.debounce_ms = debounce_ms
        self.back_ms = BACK_MS
        self.hold_ms = hold_ms
        self.differs_ms = differs_ms
        self.orientation = orientation  # None (auto), False (normal), True (turned 180)
        self._fixed_orientation = orientation
        self._diff = diff
        self.next_fen = None  # the start of the next game set up on the board
        self.next_chess960 = False

        self._raw = bytearray(8)  # the last scan as the switches gave it
        self._raw_since = 0
        self._raw_done = True  # the last scan has been taken in as the stable board
        self._board = bytearray(8)  # the stable board, White's side as rank 1
        self._lifted = bytearray(8)  # squares seen empty since the board was last in order
        self._order = bytearray(64)  # when each of those squares was first lifted...
        self._refill = bytearray(64)  # ...and when it was last filled again (a sequence)
        self._lifts = 0
        self._before = bytearray(8)  # the stable board before the present one
        self._cur = _Table()
        self._prev = _Table()
        self._sans = []  # SAN of each legal move, worked out while the player thinks
        self._san_next = 0
        self._hist = [bytearray(512)]  # occupancy of every position of the game (8 B each)
        self._hsum = [array("H", bytes(128))]
        self.status = SYNC
        self._since = 0  # when the stable board took its present state
        self._kind = 0  # candidate kind
        self._cand = 0  # candidate move index, or ply for a take-back
        self._cand_count = 0  # 4 for a promotion (the four pieces)
        self._need = 0  # how long the candidate must stay
        self.promotion = 0  # index into PROMOTIONS while a promotion waits
        self._illegal = (0, 0)
        self._illegal_told = False
        self._differs_told = False
        self._told = False  # "differs" or "illegal" was reported and not yet put right
        self._revisable = False  # the last move was recognised here and not yet pressed
        self.expected = 0  # the move the host shows and waits for (expect): no other is taken
        self.expected_made = False  # it was made: the device completes it for its side
        self._setting_up = False  # a new game's position is being set up on the board
        self._changed(0)
        self._board[:] = self._cur.occ

    # ----- the position changed: prepare for the next move

    def _changed(self, now):
        # Only the new position's occupancy now: the table of its legal moves (the costly
        # part) is built in an idle step once the mover has pressed his clock, or when the
        # board first changes, so that the line of the move just made and the press's
        # answer go out first (_ensure, idle).
        pos = self.game.position
        cur = self._cur
        pos.occupancy(cur.occ)
        cur.valid = False
        cur.n = 0
        ply = self.game.ply
        h = self._hist
        while ply >> 6 >= len(h):
            h.append(bytearray(512))
            self._hsum.append(array("H", bytes(128)))
        chunk = h[ply >> 6]
        o = (ply & 63) << 3
        s = 0
        for r in range(8):
            chunk[o + r] = cur.occ[r]
            s += cur.occ[r] * (r + 1)
        self._hsum[ply >> 6][ply & 63] = s
        self._sans = []
        self._san_next = 0
        self._clear_lifts()

    def _ensure(self):
        """The table of the position's legal moves, built if it is not yet."""
        cur = self._cur
        if not cur.valid:
            cur.build(self.game.position)
            self._sans = [None] * cur.n  # small: sized to this position, never a large block
            self._san_next = 0

    def _clear_lifts(self):
        for r in range(8):
            self._lifted[r] = 0
        if self._lifts:
            self._order[:] = _ZEROS
            self._refill[:] = _ZEROS
            self._lifts = 0

    def idle(self):
        """Work done while the player thinks: the SAN of one more legal move. Returns True
        while there is more to do. The device calls it when the loop has time."""
        cur = self._cur
        if not cur.valid:
            if self._revisable:
                # The mover's press is due any moment: it is answered first, and the
                # table (the longest step of all) is built after it, or when the board
                # changes.
                return False
            self._ensure()
            return True
        i = self._san_next
        if i >= cur.n:
            return False
        if self._sans[i] is None:
            self._sans[i] = _san(self.game.position, cur.moves[i])
        self._san_next = i + 1
        return True

    # ----- input

    def scan(self, occ, now):
        """One scan of the matrix (8 bytes, rank 1 first, as the switches are wired)."""
        raw = self._raw
        if occ != raw:
            raw[:] = occ
            self._raw_since = now
            self._raw_done = False
            return
        if not self._raw_done:
            if self._diff(now, self._raw_since) < self.debounce_ms:
                return
            self._raw_done = True
            self._take(now)
            return
        self._tick(now)

    def _take(self, now):
        self._ensure()
        raw = self._raw
        b = self._board
        self._before[:] = b
        if self.orientation is None:
            self._decide_orientation()
        if self.orientation:
            for r in range(8):
                b[r] = REVERSED[raw[7 - r]]
        else:
            b[:] = raw
        self._since = now
        self._classify(now)

    def _decide_orientation(self):
        # At the start (ranks 1, 2, 7, 8 full) the board looks the same either way round:
        # it is decided by the first legal move of White's that the board shows, read
        # the normal way round if both readings are legal. From any other position, the
        # way round that matches the game.
        raw = self._raw
        exp = self._cur.occ
        if exp == START:
            b = self._board
            b[:] = raw
            k = self._delta(exp)
            if k > 0 and k in self._cur.index:
                self.orientation = False
                return
            for r in range(8):
                b[r] = REVERSED[raw[7 - r]]
            k = self._delta(exp)
            if k > 0 and k in self._cur.index:
                self.orientation = True
                self._clear_lifts()  # they were read the other way round
            return
        if raw == exp:
            self.orientation = False
            return
        for r in range(8):
            if REVERSED[raw[7 - r]] != exp[r]:
                return
        self.orientation = True

    def press(self, side, now):
        """A clock button: it completes the mover's move at once (art. 6.2.1), and tells
        a completed illegal move. Call before the clock's own press."""
        if not self._raw_done:
            # The hand has left the board: the last scan is the board, bounce or not.
            self._raw_done = True
            self._take(now)
        if self.status == CANDIDATE and self._kind in (_MOVE, _REVISE) and self._mover() == side:
            self._commit(now)
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
        self.expected_made = False
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
        self.sink.promotion(PROMOTIONS[self.promotion], SQ64[(self._cur.moves[self._cand] >> 7) & 127])

    def restart(self, now):
        """The game was reset from outside (a new game from the host or the menu): prepare
        for its position, forgetting the old game's history."""
        if self._fixed_orientation is None:
            self.orientation = None
        self._prev.valid = False
        self._revisable = False
        self._told = False
        self._clear_lifts()
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
        return self._lifted_sq(sq)

    def set_orientation(self, orientation):
        """None: found from where White's pieces stand at each new game (auto); False:
        White's side as rank 1; True: the board turned 180 degrees."""
        self.orientation = self._fixed_orientation = orientation

    def set_next_start(self, fen=None, chess960=False):
        """The position the next new game starts from when the start position is set up
        (a Chess960 start looks like the normal one to reed switches)."""
        self.next_fen = fen
        self.next_chess960 = chess960

    # ----- what the stable board shows

    def _mover(self):
        t = self.game.turn
        return t if self._kind == _MOVE else t ^ 24

    def _delta(self, exp):
        """Emptied and filled squares of the stable board against exp, packed as a move
        key; -1 if more than two of either. Records lifts against the current position."""
        b = self._board
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

    def _note_lifts(self):
        # Squares of the position that went empty (first time: their lift order), and
        # lifted squares filled again (their refill order): a capture's target is filled
        # after the capturing piece was lifted; a piece merely brushed is back before.
        b = self._board
        exp = self._cur.occ
        lifted = self._lifted
        before = self._before
        # Refills first: seen in one update with a lift, a refill cannot be the landing
        # of the piece lifted (that comes strictly later), so it counts as earlier.
        for r in range(8):
            back = lifted[r] & b[r] & ~before[r]
            if back:
                if self._lifts < 255:
                    self._lifts += 1
                for f in range(8):
                    if (back >> f) & 1:
                        self._refill[r * 8 + f] = self._lifts
        for r in range(8):
            gone = exp[r] & ~b[r] & ~lifted[r]
            if gone:
                lifted[r] |= gone
                if self._lifts < 255:
                    self._lifts += 1
                for f in range(8):
                    if (gone >> f) & 1:
                        self._order[r * 8 + f] = self._lifts

    def _lifted_sq(self, sq):
        return (self._lifted[sq >> 3] >> (sq & 7)) & 1

    def _find(self, table, key):
        """(index, count, need) of the legal moves of table that the board shows."""
        i = table.index.get(key, -1)
        if i < 0:
            return -1, 0, 0
        keys = table.keys
        n = table.n
        if not _is_capture_key(key):
            j = table.castling_alt.get(key, -1)
            if j >= 0:
                m = table.moves[j]
                if self._lifted_sq(SQ64[m & 127]) and self._lifted_sq(SQ64[(m >> 7) & 127]):
                    return j, 1, self.settle_ms  # king and rook both were in hand
            if table.moves[i] & CASTLE:
                return i, 1, self.settle_ms
            j = i  # promotions: four in a row; a castling with this key was seen to above
            while j < n and keys[j] == key and not table.moves[j] & CASTLE:
                j += 1
            return i, j - i, self.hold_ms if key in table.halves else self.settle_ms
        # A capture: the target must have been seen empty. Several targets lifted at
        # once is no move yet.
        # A piece's moves are generated together, its captures among its quiet moves.
        first = -1
        count = 0
        cell = table.moves[i] & 127
        lift = self._order[SQ64[cell]]
        for j in range(i, n):
            if table.moves[j] & 127 != cell:
                break
            if keys[j] != key:
                continue
            to = SQ64[(table.moves[j] >> 7) & 127]
            if self._lifted_sq(to) and self._refill[to] > lift:
                if first < 0:
                    first = j
                elif SQ64[(table.moves[first] >> 7) & 127] != to:
                    return -1, 0, 0
                count += 1
        if first < 0:
            return -1, 0, 0
        fr = SQ64[table.moves[first] & 127]
        to = SQ64[(table.moves[first] >> 7) & 127]
        later = self._order[to] > self._order[fr]
        return first, count, self.hold_ms if later else self.settle_ms

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
            self.sink.promotion(QUEEN, SQ64[(self._cur.moves[index] >> 7) & 127])

    def _classify(self, now):
        cur = self._cur
        self._note_lifts()
        key = self._delta(cur.occ)
        was = self.status
        if key != 0:
            self._ensure()
        if key == 0:
            # (Right after a move no square is lifted: the table may wait.)
            if cur.valid and cur.swap >= 0 and self._swap_lifted(cur) and \
                    (not self.expected or cur.moves[cur.swap] == self.expected):
                self._candidate(_MOVE, cur.swap, 1, self.settle_ms)
                return
            if self._told:
                self._told = False
                self.sink.sync()  # what was reported is put right
            elif self._setting_up:
                pass
            elif was != SYNC or self._lifts:
                for sq in range(64):
                    if self._lifted_sq(sq):
                        self.sink.touched(sq)
            self._setting_up = False
            self.status = SYNC
            self._clear_lifts()
            return
        if key > 0:
            i, count, need = self._find(cur, key)
            if i >= 0 and (count == 1 or count == 4):
                if not self.expected:
                    self._candidate(_MOVE, i, count, need)
                    return
                j = self._expected_among(cur, i, count)
                if j >= 0:
                    self._candidate(_MOVE, j, 1, need)  # its promotion piece is known
                else:
                    m = cur.moves[i]
                    self._attempt((SQ64[m & 127], SQ64[(m >> 7) & 127]), was)
                return
        if self._revisable and self._prev.valid:
            k2 = self._delta(self._prev.occ)
            if k2 > 0:
                i, count, need = self._find(self._prev, k2)
                if i >= 0 and count == 1:
                    self._candidate(_REVISE, i, count, need)
                    return
        # Back at an earlier position: a take-back. The start position set up is a new
        # game, unless it is the position of one of the last two plies (taking back one
        # move each; in Chess960 castling keeps the start's occupancy mid-game).
        p = self._earlier_position()
        if self._board == START and self.game.ply and p < self.game.ply - 2:
            self._candidate(_NEW_GAME, 0, 0, self.back_ms)
            return
        if p >= 0:
            self._candidate(_TAKEBACK, p, 0, self.back_ms)
            return
        ill = self._illegal_attempt(key)
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
        return self._lifted_sq(SQ64[m & 127]) and self._lifted_sq(SQ64[(m >> 7) & 127])

    def _earlier_position(self):
        """The latest earlier ply whose position the board shows, or -1."""
        b = self._board
        s = 0
        for r in range(8):
            s += b[r] * (r + 1)
        for p in range(self.game.ply - 1, -1, -1):
            if self._hsum[p >> 6][p & 63] != s:
                continue
            chunk = self._hist[p >> 6]
            o = (p & 63) << 3
            same = True
            for r in range(8):
                if chunk[o + r] != b[r]:
                    same = False
                    break
            if same:
                return p
        return -1

    def _illegal_attempt(self, key):
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
        pos = self.game.position
        p = pos.board[SQ120[v0]]
        if not p & pos.turn:
            return None
        if f0 < 0:
            # A capture shape: the target is a lifted square of the opponent.
            for sq in range(64):
                if sq != v0 and self._lifted_sq(sq):
                    q = pos.board[SQ120[sq]]
                    if q and not q & pos.turn:
                        return (v0, sq)
            return None
        cur = self._cur
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

    # ----- time passes with the board unchanged

    def _tick(self, now):
        st = self.status
        if st == CANDIDATE:
            if self._cand_count == 4:
                return  # a promotion waits for the press, with the piece chosen
            if self._diff(now, self._since) >= self._need:
                self._commit(now)
        elif st == ILLEGAL:
            waited = self._diff(now, self._since)
            if not self._illegal_told and waited >= self.settle_ms:
                self._illegal_told = True
                self._told = True
                self.sink.attempt(self._illegal[0], self._illegal[1])
            elif waited >= self.differs_ms and not self._differs_told:
                self._tell_differs()
        elif st == MOVING:
            if self._diff(now, self._since) >= self.differs_ms:
                self.status = DIFFERS
                self._tell_differs()

    def _tell_differs(self):
        self._differs_told = True
        self._told = True
        missing, extra = fix.differences(self._cur.occ, self._board)
        self.sink.differs(missing, fix.suggest(missing, extra))

    # ----- commits

    def _commit(self, now):
        kind = self._kind
        if kind == _MOVE:
            self._commit_move(self._cand, now)
        elif kind == _REVISE:
            self.sink.take_back(self.game.ply - 1, now)
            self._cur, self._prev = self._prev, self._cur
            self._prev.valid = False
            self._changed_keep_table()
            self._commit_move(self._cand, now)
        elif kind == _TAKEBACK:
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

    def _changed_keep_table(self):
        # After a revision's take-back the tables of the position are already there;
        # only the SANs are unknown.
        self._sans = [None] * self._cur.n
        self._san_next = 0

    def _commit_move(self, i, now):
        cur = self._cur
        m = cur.moves[i]
        if self._cand_count == 4:
            want = PROMOTIONS[self.promotion]
            for j in range(i, i + 4):
                if (cur.moves[j] >> 14) & 7 == want:
                    m = cur.moves[j]
                    i = j
                    break
        san = self._sans[i]
        if san is None:
            san = _san(self.game.position, m)
        made = self.expected != 0 and m == self.expected
        self.sink.make_move(m, now, san)
        self.expected_made = made
        self._cur, self._prev = self._prev, self._cur
        self._revisable = True
        self._after(now)

    def _after(self, now):
        self.expected = 0  # a new position: what was expected is no more
        self._changed(now)
        self.status = SYNC
        self._cand_count = 0
        self._classify(now)
