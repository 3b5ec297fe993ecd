"""A draw claim as the arbiter takes it (Laws 9.2, 9.3, 9.5), checked by python-chess on
the relay's record of the game: by the player having the move, for the position on the
board (9.2.1.2, 9.3.2) or with the move he has written on his scoresheet and declared he
will make (9.2.1.1, 9.3.1). The written move is part of the claim: the claim is correct only
if the position on the board, or the one that move makes, is a threefold repetition or
completes fifty moves; when it is found incorrect the move must still be played (9.5.3).
Pure: what the relay then sends to the board is the web server's."""
from __future__ import annotations

from dataclasses import dataclass

import chess

from host_tools.board.record import SIDE_NAMES


class ClaimError(ValueError):
    """A claim the arbiter cannot take: not the claimant's turn, a move that is not legal."""


@dataclass
class Claim:
    side: str  # "w" or "b"
    correct: bool
    reason: str  # "threefold repetition", "fifty moves" or why not
    move: chess.Move | None  # the written move
    move_san: str | None  # as it is written ("32. Nf3")

    def note(self) -> str:
        """The claim as the PGN's comment at the move it was made after."""
        who = SIDE_NAMES[self.side]
        written = f" with the written move {self.move_san} (9.2.1.1, 9.3.1)" if self.move_san else ""
        if self.correct:
            return f"{who} claims a draw{written}: correct, {self.reason}"
        must = f"; {self.move_san} must be played (9.5.3)" if self.move_san else ""
        return f"{who} claims a draw{written}: incorrect, {self.reason}{must}"


def check_claim(board: chess.Board, side: str, written: str | None = None) -> Claim:
    """side's claim in the position board (the game so far, with its moves: repetitions
    are counted on them), with the move he wrote (SAN or UCI) or none."""
    if side not in ("w", "b"):
        raise ClaimError("the claimant is w or b")
    if (board.turn == chess.WHITE) != (side == "w"):
        raise ClaimError("only the player having the move claims a draw (9.2.1, 9.3)")
    if board.is_game_over():
        raise ClaimError("the game is over")
    move = san = None
    if written:
        text = written.strip()
        try:
            move = board.parse_san(text)
        except ValueError:
            try:
                move = board.parse_uci(text)
            except ValueError:
                raise ClaimError(f"{text!r} is not a legal move in this position") from None
        san = ("%d. " if board.turn == chess.WHITE else "%d... ") % board.fullmove_number + board.san(move)
    if board.is_repetition(3):
        return Claim(side, True, "threefold repetition (9.2.1.2)", move, san)
    if board.halfmove_clock >= 100:
        return Claim(side, True, "fifty moves (9.3.2)", move, san)
    if move is not None:
        after = board.copy()
        after.push(move)
        if after.is_repetition(3):
            return Claim(side, True, "threefold repetition with the written move (9.2.1.1)", move, san)
        if after.halfmove_clock >= 100:
            return Claim(side, True, "fifty moves with the written move (9.3.1)", move, san)
    return Claim(side, False, "no threefold repetition and no fifty moves", move, san)
