# FEN in and out, with the X-FEN (KQkq, or a rook's file when it is not the outermost)
# and Shredder-FEN (rook files, HAha) castling fields of Chess960.
#
# set_fen parses everything into local values and checks the position before touching the
# Position, so an invalid FEN raises InvalidFenError and leaves the old position whole.
from firmware.rules.errors import InvalidFenError
from firmware.rules.squares import (
    SQ120,
    SQ64,
    WHITE,
    BLACK,
    OFF,
    PAWN,
    ROOK,
    KING,
    FILE_NAMES,
    find,
    piece_symbol,
    square_name,
)

_PIECES = ("P", "N", "B", "R", "Q", "K", "p", "n", "b", "r", "q", "k")  # (squares.py: why a tuple)


def _parse_board(field):
    rows = field.split("/")
    if len(rows) != 8:
        raise InvalidFenError("board field needs 8 ranks separated by '/', got %d" % len(rows))
    board = bytearray(120)
    for i in range(120):
        board[i] = OFF
    for r in range(8):
        row = rows[r]
        rank = 7 - r
        f = 0
        last_digit = False
        for ch in row:
            if "1" <= ch <= "8":
                if last_digit:
                    raise InvalidFenError("two digits in a row in rank %d of the board field" % (rank + 1))
                for _ in range(ord(ch) - 48):
                    if f < 8:
                        board[21 + rank * 10 + f] = 0
                    f += 1
                last_digit = True
            else:
                i = find(_PIECES, ch)
                if i < 0:
                    raise InvalidFenError("invalid character %r in the board field" % ch)
                if f < 8:
                    board[21 + rank * 10 + f] = (i % 6 + 1) | (WHITE if i < 6 else BLACK)
                f += 1
                last_digit = False
        if f != 8:
            raise InvalidFenError("rank %d of the board field has %d squares, not 8" % (rank + 1, f))
    return board


def _castling(board, field, kings, chess960):
    """Castling field -> (rights bits, rook cells). X-FEN and Shredder-FEN letters."""
    rights = 0
    rooks = bytearray(4)
    if field == "-":
        return rights, rooks
    for ch in field:
        white = ch.isupper()
        color = WHITE if white else BLACK
        base = 21 if white else 91
        k = kings[0 if white else 1]
        c = ch.lower()
        if not (base <= k < base + 8):
            raise InvalidFenError("castling right %r but the %s king is not on its back rank"
                                  % (ch, "white" if white else "black"))
        rook = color | ROOK
        cell = 0
        if c == "k":
            for s in range(base + 7, k, -1):
                if board[s] == rook:
                    cell = s
                    break
        elif c == "q":
            for s in range(base, k):
                if board[s] == rook:
                    cell = s
                    break
        elif "a" <= c <= "h":
            s = base + ord(c) - 97
            if board[s] == rook and s != k:
                cell = s
        else:
            raise InvalidFenError("invalid character %r in the castling field" % ch)
        if not cell:
            raise InvalidFenError("castling right %r has no %s rook to castle with"
                                  % (ch, "white" if white else "black"))
        if not chess960 and (k != base + 4 or (cell != base and cell != base + 7)):
            raise InvalidFenError("castling right %r needs the king on the e-file and the rook in "
                                  "the corner in standard chess (Chess960 needs chess960=True)" % ch)
        i = (0 if white else 2) + (0 if cell > k else 1)
        if rights & (1 << i):
            raise InvalidFenError("castling field %r names one right twice" % field)
        rights |= 1 << i
        rooks[i] = cell
    return rights, rooks


def _number(text, what, lo, hi):
    if not text.isdigit():
        raise InvalidFenError("%s must be a number, got %r" % (what, text))
    v = int(text)
    if not lo <= v <= hi:
        raise InvalidFenError("%s %d is out of range %d..%d" % (what, v, lo, hi))
    return v


def set_fen(pos, text, chess960=False):
    if not isinstance(text, str):
        raise InvalidFenError("a FEN must be a string")
    parts = text.split()
    if not 4 <= len(parts) <= 6:
        raise InvalidFenError("a FEN has 6 fields (4 at least), got %d" % len(parts))
    board = _parse_board(parts[0])
    if parts[1] not in ("w", "b"):
        raise InvalidFenError("side to move must be 'w' or 'b', got %r" % parts[1])
    turn = WHITE if parts[1] == "w" else BLACK

    kings = bytearray(2)
    counts = [0, 0, 0, 0]  # white king, black king, white pieces, black pieces
    pawns = [0, 0]
    for s in range(64):
        c = SQ120[s]
        p = board[c]
        if not p:
            continue
        side = 0 if p & WHITE else 1
        counts[2 + side] += 1
        if p & 7 == KING:
            counts[side] += 1
            kings[side] = c
        elif p & 7 == PAWN:
            pawns[side] += 1
            if s < 8 or s >= 56:
                raise InvalidFenError("a pawn stands on %s, a back rank" % square_name(s))
    for side in (0, 1):
        name = "white" if side == 0 else "black"
        if counts[side] != 1:
            raise InvalidFenError("%s must have exactly one king, has %d" % (name, counts[side]))
        if counts[2 + side] > 16 or pawns[side] > 8:
            raise InvalidFenError("%s has more pieces or pawns than a game can give" % name)

    rights, rooks = _castling(board, parts[2], kings, chess960)

    ep = 0
    if parts[3] != "-":
        f = find(FILE_NAMES, parts[3][0]) if len(parts[3]) == 2 else -1
        want = "6" if turn == WHITE else "3"
        if f < 0 or parts[3][1] != want:
            raise InvalidFenError("en passant field must be '-' or a square on rank %s, got %r"
                                  % (want, parts[3]))
        ep = 21 + f + (50 if turn == WHITE else 20)
        pushed = ep - 10 if turn == WHITE else ep + 10
        origin = ep + 10 if turn == WHITE else ep - 10
        if board[pushed] != (turn ^ OFF) | PAWN or board[ep] or board[origin]:
            raise InvalidFenError("en passant square %s is impossible: no pawn has just passed it"
                                  % parts[3])

    halfmove = _number(parts[4], "halfmove clock", 0, 8000) if len(parts) > 4 else 0
    fullmove = _number(parts[5], "fullmove number", 1, 9999) if len(parts) > 5 else 1

    # The side that has just moved may not be in check: try it on a scratch position.
    old = (pos.board, pos.kings, pos.turn)
    pos.board = board
    pos.kings = kings
    pos.turn = turn
    bad = pos.attacked(kings[1 if turn == WHITE else 0], turn)
    pos.board, pos.kings, pos.turn = old
    if bad:
        raise InvalidFenError("the side not to move is in check")

    # All checked: commit.
    pos.board = board
    pos.kings = kings
    pos.turn = turn
    pos.castling = rights
    pos.castle_rooks = rooks
    mask = bytearray(b"\x0f" * 120)
    for i in range(4):
        if rights & (1 << i):
            mask[rooks[i]] &= 15 ^ (1 << i)
            mask[kings[i >> 1]] &= 12 if i < 2 else 3
    pos.rights_mask = mask
    pos.ep = ep
    pos.halfmove_clock = halfmove
    pos.fullmove_number = fullmove
    pos.chess960 = chess960
    pos.ply = 0
    del pos._chunks[1:]  # a new game gives back what a long one grew


def board_fen(pos):
    b = pos.board
    out = []
    for rank in range(7, -1, -1):
        empty = 0
        for f in range(8):
            p = b[21 + rank * 10 + f]
            if p:
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(piece_symbol(p))
            else:
                empty += 1
        if empty:
            out.append(str(empty))
        if rank:
            out.append("/")
    return "".join(out)


def castling_fen(pos, shredder=False):
    out = []
    b = pos.board
    for i in range(4):
        if not pos.castling & (1 << i):
            continue
        cell = pos.castle_rooks[i]
        white = i < 2
        ch = FILE_NAMES[SQ64[cell] & 7]
        if not shredder:
            # X-FEN: K/Q unless another own rook stands further out on that side.
            base = 21 if white else 91
            rook = b[cell]
            outer = range(cell + 1, base + 8) if i & 1 == 0 else range(base, cell)
            if not any(b[s] == rook for s in outer):
                ch = "k" if i & 1 == 0 else "q"
        out.append(ch.upper() if white else ch)
    return "".join(out) or "-"


def fen(pos, shredder=False):
    """The six-field FEN. The en passant square is written only when an en passant
    capture is legal (as python-chess does by default and X-FEN asks)."""
    ep = "-"
    if pos.ep and pos.has_legal_en_passant():
        ep = square_name(SQ64[pos.ep])
    return "%s %s %s %s %d %d" % (
        board_fen(pos),
        "w" if pos.turn == WHITE else "b",
        castling_fen(pos, shredder),
        ep,
        pos.halfmove_clock,
        pos.fullmove_number,
    )
