"""Physical traces of chess games, for the move recogniser's tests, the simulator and the
benchmarks: what the reed switches and buttons of a real board would report while people
play a game (trace format: simulator/trace.py).

Human habits, each chosen at random per move: thinking times; captures with the capturing
piece lifted first or the captured piece removed first; castling king first (the rule) or
rook first; en passant in any order; slides across intermediate squares; reed bounce;
hovering (a piece lifted and put back); brushing a neighbouring piece while reaching for
one's own; promotions with the piece chosen by the menu buttons; clock presses, sometimes
faster than the settle window. Adversarial extras: knocked-over pieces put back later, an
illegal move then corrected, an illegal move completed with the clock, take-backs.
"""
import random

import chess

PROMOTION_ORDER = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class Trace:
    def __init__(self, board, rng, bounce=0.4, t0=0):
        self.rng = rng
        self.t = t0
        self.bounce = bounce
        self.occ = set(board.piece_map())
        self.lines = []
        self.occ_line()

    def occ_line(self):
        v = 0
        for sq in self.occ:
            v |= 1 << sq
        self.lines.append(f"{self.t} occ {v:016x}")

    def wait(self, lo, hi):
        self.t += self.rng.randint(lo, hi)

    def set(self, sq, on):
        """A square changes, maybe with reed bounce (a few toggles within ms)."""
        if self.rng.random() < self.bounce:
            for _ in range(self.rng.randint(1, 3)):
                self._put(sq, on)
                self.t += self.rng.randint(1, 4)
                self._put(sq, not on)
                self.t += self.rng.randint(1, 4)
        self._put(sq, on)

    def _put(self, sq, on):
        (self.occ.add if on else self.occ.discard)(sq)
        self.occ_line()

    def lift(self, sq):
        self.set(sq, False)

    def place(self, sq):
        self.set(sq, True)

    def press(self, color):
        self.lines.append(f"{self.t} press {'white' if color == chess.WHITE else 'black'}")

    def button(self, name):
        self.lines.append(f"{self.t} button {name} down")
        self.t += self.rng.randint(60, 150)
        self.lines.append(f"{self.t} button {name} up")

    def text(self):
        return "\n".join(self.lines) + "\n"


def _path(frm, to):
    """Squares a slid piece crosses between frm and to (none for a knight's jump)."""
    df = chess.square_file(to) - chess.square_file(frm)
    dr = chess.square_rank(to) - chess.square_rank(frm)
    if df and dr and abs(df) != abs(dr):
        return []
    n = max(abs(df), abs(dr))
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    return [chess.square(chess.square_file(frm) + sf * k, chess.square_rank(frm) + sr * k) for k in range(1, n)]


def _slide(tr, frm, to, slow=False):
    """Drag a piece over the empty squares between frm and to (it is already lifted)."""
    for sq in _path(frm, to):
        if sq in tr.occ:
            break
        tr.place(sq)
        tr.wait(20, 70)
        tr.lift(sq)
        tr.wait(5, 20)


def play_move(tr, board, move, rng, press=True):
    """The physical actions of one move (board is before the move)."""
    color = board.turn
    frm, to = move.from_square, move.to_square
    tr.wait(250, 1800)  # thinking
    own = [sq for sq, p in board.piece_map().items() if p.color == color and sq != frm]
    if own and rng.random() < 0.12:  # hover: lift a piece, think, put it back
        sq = rng.choice(own)
        tr.lift(sq)
        tr.wait(200, 700)
        tr.place(sq)
        tr.wait(150, 600)
    near = [sq for sq in chess.SQUARES if sq in tr.occ and sq != frm and chess.square_distance(sq, frm) == 1]
    if near and rng.random() < 0.1:  # brush a neighbour while reaching for the piece
        sq = rng.choice(near)
        tr.lift(sq)
        tr.wait(40, 140)
        tr.place(sq)
        tr.wait(30, 120)
    if board.is_castling(move):
        _castle(tr, board, move, rng)
    elif board.is_en_passant(move):
        cap = chess.square(chess.square_file(to), chess.square_rank(frm))
        order = rng.choice(("capturer", "victim", "middle"))
        if order == "victim":
            tr.lift(cap)
            tr.wait(150, 500)
        tr.lift(frm)
        tr.wait(100, 400)
        if order == "middle":
            tr.lift(cap)
            tr.wait(100, 300)
        tr.place(to)
        if order == "capturer":
            tr.wait(100, 500)
            tr.lift(cap)
    elif board.is_capture(move):
        if rng.random() < 0.5:  # the captured piece first
            tr.lift(to)
            tr.wait(150, 600)
            tr.lift(frm)
            tr.wait(100, 400)
        else:  # the capturing piece first
            tr.lift(frm)
            tr.wait(100, 400)
            tr.lift(to)
            tr.wait(100, 300)
        tr.place(to)
    else:
        tr.lift(frm)
        tr.wait(60, 300)
        if rng.random() < 0.35:
            _slide(tr, frm, to)
        tr.place(to)
    if move.promotion:
        if rng.random() < 0.5:  # the pawn swapped for the new piece on the square
            tr.wait(200, 600)
            tr.lift(to)
            tr.wait(200, 700)
            tr.place(to)
        tr.wait(100, 300)
        for _ in range(PROMOTION_ORDER.index(move.promotion)):
            tr.button("plus")
            tr.wait(100, 300)
    if press or move.promotion:
        if not move.promotion and rng.random() < 0.25:
            tr.wait(20, 90)  # faster than the settle window: the press completes it
        else:
            tr.wait(150, 700)
        tr.press(color)


def _castle(tr, board, move, rng):
    color = board.turn
    kf = move.from_square
    rf = move.to_square if board.chess960 else _std_rook(move)
    side_h = chess.square_file(rf) > chess.square_file(kf)
    rank = chess.square_rank(kf)
    kt = chess.square(6 if side_h else 2, rank)
    rt = chess.square(5 if side_h else 3, rank)
    if {kt, rt} & {kf, rf}:
        # Chess960 squares overlap (or swap): both in hand, then both down.
        first, second = (kf, rf) if rng.random() < 0.7 else (rf, kf)
        tr.lift(first)
        tr.wait(80, 300)
        tr.lift(second)
        tr.wait(80, 300)
        a, b = (kt, rt) if rng.random() < 0.7 else (rt, kt)
        tr.place(a)
        tr.wait(80, 300)
        tr.place(b)
        return
    steps = [(kf, kt), (rf, rt)]
    if rng.random() < 0.25:
        steps.reverse()  # rook first: against art. 4.4, tolerated
    for a, b in steps:
        tr.lift(a)
        tr.wait(80, 300)
        tr.place(b)
        tr.wait(100, 400)


def _std_rook(move):
    rank = chess.square_rank(move.from_square)
    return chess.square(7 if chess.square_file(move.to_square) > 4 else 0, rank)


def trace_game(board, moves, rng, bounce=0.4):
    """Trace of `moves` played from `board` (which is left unchanged)."""
    b = board.copy()
    tr = Trace(b, rng, bounce)
    for move in moves:
        play_move(tr, b, move, rng)
        b.push(move)
    tr.wait(1000, 1500)
    return tr.text()


def choose_move(board, rng, engine_like):
    """A random legal move; engine-like games prefer castling, en passant and promotions
    (each promotion piece in turn), so that every special move is common."""
    moves = list(board.legal_moves)
    if engine_like:
        special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
        if special and rng.random() < 0.8:
            return rng.choice(special)
        pushes = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
        if pushes and rng.random() < 0.35:
            return rng.choice(pushes)
    return rng.choice(moves)


def random_game(seed, max_plies=None):
    """(start board, moves) of a random game: standard or Chess960, random or engine-like."""
    rng = random.Random(seed)
    if rng.random() < 0.25:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        board = chess.Board()
    engine_like = rng.random() < 0.6
    limit = max_plies or rng.choice((30, 60, 90, 140))
    b = board.copy()
    moves = []
    while not b.is_game_over() and len(moves) < limit:
        m = choose_move(b, rng, engine_like)
        moves.append(m)
        b.push(m)
    return board, moves


# ----- adversarial traces


def _astray(tr, frm, to, carry, stay):
    """A piece goes from frm to to (carried for `carry` ms, or knocked: at once), stays
    there `stay` ms, and is put back."""
    tr.wait(300, 800)
    tr.lift(frm)
    if carry:
        tr.wait(*carry)
    tr.place(to)
    tr.wait(*stay)
    tr.lift(to)
    tr.wait(100, 300)
    tr.place(frm)
    tr.wait(300, 600)


def knocked_piece(tr, board, rng):
    """A piece knocked onto a neighbouring empty square, left there for 2-3 s, put back.
    Never a piece of the side to move onto a square it could move to: that would be a
    legal move on the board, which no occupancy board can tell from a knock."""
    pieces = list(board.piece_map())
    if board.move_stack:  # the piece just moved, knocked back home, is a take-back
        last = board.peek()
        pieces = [sq for sq in pieces if sq not in (last.to_square, last.from_square)]
    rng.shuffle(pieces)
    legal = {(m.from_square, m.to_square) for m in board.legal_moves}
    for sq in pieces:
        empty = [n for n in chess.SQUARES if n not in tr.occ and chess.square_distance(n, sq) == 1
                 and (sq, n) not in legal]
        if empty:
            to = rng.choice(empty)
            _astray(tr, sq, to, None, (2000, 3000))
            return sq, to
    return None


def illegal_then_corrected(tr, board, rng):
    """A piece of the side to move put on a square no legal move reaches, left a moment,
    and taken back. Returns (from, to) or None."""
    legal = {(m.from_square, m.to_square) for m in board.legal_moves}
    own = [sq for sq, p in board.piece_map().items() if p.color == board.turn]
    rng.shuffle(own)
    for frm in own:
        empty = [sq for sq in chess.SQUARES if sq not in tr.occ and (frm, sq) not in legal]
        if empty:
            to = rng.choice(empty)
            _astray(tr, frm, to, (100, 300), (600, 1000))
            return frm, to
    return None


def take_back(tr, board_after, rng):
    """The last move of board_after undone on the board: the moved pieces go back and a
    captured piece returns to its square."""
    before = board_after.copy()
    move = before.pop()
    tr.wait(400, 900)
    gone = [sq for sq in chess.SQUARES if sq in tr.occ and before.piece_at(sq) is None]
    back = [sq for sq in chess.SQUARES if sq not in tr.occ and before.piece_at(sq) is not None]
    capture = before.is_capture(move) and not before.is_en_passant(move)
    if capture:
        tr.lift(move.to_square)  # the capturing piece leaves the target...
        tr.wait(100, 300)
    for sq in gone:
        tr.lift(sq)
        tr.wait(100, 300)
    for sq in back:
        tr.place(sq)
        tr.wait(100, 300)
    if capture:
        tr.place(move.to_square)  # ...and the captured piece comes back to it
    tr.wait(300, 600)
    return before
