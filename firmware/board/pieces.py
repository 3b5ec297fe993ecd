# Which piece stands on each square, worked out from what reed switches can tell
# (occupied or empty) and the game. A square whose piece is lifted reads empty; a piece
# put down where the game has none (or where the opponent's piece was taken off: a
# capture's) is one of the lifted pieces - the one in the hand if it was seen on its way,
# else one with a legal move there, the side to move's first; a piece from off the board
# (a promotion's) is the side to move's queen. So that what a DGT host sees is what a DGT
# board would show under the same hands (firmware/app/dgt.py).
from firmware.rules.position import move_from, move_to
from firmware.rules.squares import SQ120


class PieceTracker:
    def __init__(self, game, recognizer):
        """game: the rules Game; rec: the move recogniser (its stable board and which
        squares were lifted since the board was last in order)."""
        self.game = game
        self.recognizer = recognizer
        self.shown = bytearray(64)  # the piece on each square (a1 = 0): the board's codes
        self._prev = bytearray(64)  # as worked out the time before
        self._held = 0  # the piece last picked up again from where it had been put down
        self._occ = bytearray(8)  # the occupancy and game it was worked out from
        self._ply = -1
        self._game = -1

    def update(self, game_id):
        """Work the pieces out again if the board or the game changed since the last
        time; whether it did (then shown may differ)."""
        occ = self.recognizer.stable()
        pos = self.game.position
        if occ == self._occ and pos.ply == self._ply and game_id == self._game:
            return False
        self._occ[:] = occ
        if pos.ply != self._ply:
            self._held = 0
        self._ply = pos.ply
        self._game = game_id
        shown = self.shown
        prev = self._prev
        prev[:] = shown
        board = pos.board
        lifted = []
        placed = []
        them = pos.turn ^ 24
        rec = self.recognizer
        for sq in range(64):
            p = board[SQ120[sq]]
            on = (occ[sq >> 3] >> (sq & 7)) & 1
            if p and not on:
                lifted.append(sq)
            elif not p and not on and prev[sq]:
                self._held = prev[sq]  # put down on its way, picked up again
            elif on and (not p or (p & them and rec.was_lifted(sq) and self._captured(sq, board, them))):
                placed.append(sq)  # (a piece taken off there and one put down: a capture's)
            shown[sq] = p if on else 0
        if placed:
            self._place(placed, lifted, pos, board)
        return True

    def _captured(self, sq, board, them):
        """Whether the opponent's piece on sq, lifted and back, may be a capturer instead:
        only if it came back after a piece of the side to move was lifted (a piece brushed
        off and put back before any was lifted is itself again)."""
        rec = self.recognizer
        for frm in range(64):
            p = board[SQ120[frm]]
            if p and not p & them and rec.filled_after_lifting(sq, frm):
                return True
        return False

    def _place(self, placed, lifted, pos, board):
        """Pieces standing where the game has none (or where the opponent's piece was
        taken off): the lifted pieces that can go there."""
        us = pos.turn
        prev = self._prev
        # A piece already shown on its square stays what it was (the king put down on g1
        # stays the king when the rook comes to f1).
        for sq in placed[:]:
            p = prev[sq]
            for frm in (lifted if p else ()):
                if board[SQ120[frm]] == p:
                    lifted.remove(frm)
                    placed.remove(sq)
                    self.shown[sq] = p
                    break
        moves = pos.legal_moves() if placed else None
        for sq in placed:
            best = _mover(sq, lifted, moves, board, self._held)  # a lifted piece with a legal move there
            if best is None:
                if board[SQ120[sq]]:
                    continue  # the opponent's piece, put back
                for frm in lifted:  # else the lifted pieces, the side to move's first
                    if best is None or (board[SQ120[frm]] & us and not board[SQ120[best]] & us):
                        best = frm
            if best is not None:
                lifted.remove(best)
                self.shown[sq] = board[SQ120[best]]
            else:  # a piece from off the board (a promotion's): the side to move's queen
                self.shown[sq] = us | 5


def _mover(sq, lifted, moves, board, held):
    """The lifted piece with a legal move to sq: the one in the hand first (a piece slid
    over other squares on its way), else the first found."""
    found = None
    for frm in lifted:
        for m in moves:
            if move_from(m) == frm and move_to(m) == sq:
                if board[SQ120[frm]] == held:
                    return frm
                if found is None:
                    found = frm
    return found
