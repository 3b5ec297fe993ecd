"""A person's hands at the simulated board: the moves they make written, as they happen,
into the trace the simulator follows (`SimulatedBoard(hands=True)`, simulator/hal.py's
follow mode), with the human habits of host_tools/tracegen.py (thinking, hovering,
captures in either order, slides, reed bounce). What a program needs to play at the
board as a person does: the tests of `play`, and `play engine --sim`, where the moves
typed at the keyboard are made on the board by these hands."""
from __future__ import annotations

import random
import threading
import time

import chess

from host_tools import tracegen


_HALVES = (("press white", "press black"), ("button ask-white", "button ask-black"),
           ("button draw-white", "button draw-black"))
_SWAPPED = {f"{a}{end}": f"{b}{end}" for x, y in _HALVES for a, b in ((x, y), (y, x)) for end in ("", " down", " up")}


class Hands:
    def __init__(self, path: str, board: chess.Board | None = None, seed: int = 1,
                 bounce: float = 0.2):
        """path: the trace file the simulator follows; board: the position the pieces
        stand in (the standard start if None)."""
        self.path = path
        self.rng = random.Random(seed)
        self.bounce = bounce
        self._lock = threading.Lock()
        self.occ = set((board or chess.Board()).piece_map())
        # The half of the clock White sits at ("left": the hardware's "white" half; "right"
        # when the board was told `access white=right`): a colour's lever, ask key and draw
        # key are pressed at the half where that colour sits (docs/access.md).
        self.white_at = "left"

    def _play(self, lines: list[str]) -> None:
        """Trace lines (times from 0) written out at their times, from now."""
        start = time.monotonic()
        with open(self.path, "a") as f:
            for line in lines:
                t, rest = line.split(" ", 1)
                wait = start + int(t) / 1000 - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                if self.white_at != "left":
                    rest = _SWAPPED.get(rest, rest)
                f.write(f"0 {rest}\n")
                f.flush()

    def _trace(self, board: chess.Board) -> tracegen.Trace:
        tr = tracegen.Trace(board, self.rng, bounce=self.bounce)
        tr.occ = set(self.occ)  # as the pieces really stand
        tr.lines = []
        return tr

    def busy(self) -> bool:
        """Whether the hands are making a move (or a take-back) now."""
        return self._lock.locked()

    def move(self, board: chess.Board, move: chess.Move, press: bool = True) -> None:
        """The player to move makes move on the board (board: before it) and presses his
        clock; a promotion's piece is chosen with the clock's buttons, as on the board."""
        with self._lock:
            tr = self._trace(board)
            tracegen.play_move(tr, board, move, self.rng, press=press)
            self._finish(tr)

    def carry_out(self, board: chess.Board, move: chess.Move) -> None:
        """The move of the player who is not at the board (an engine, an opponent online),
        shown by the board's LEDs, carried out by these hands: the pieces only, with no
        press and no button (the board completes it by itself)."""
        with self._lock:
            tr = self._trace(board)
            tracegen.play_move(tr, board, move, self.rng, press=False)
            tr.lines = [l for l in tr.lines if " press " not in l and " button " not in l]
            self._finish(tr)

    def take_back(self, board_after: chess.Board) -> chess.Board:
        """The last move of board_after undone on the board; the position before it."""
        with self._lock:
            tr = self._trace(board_after)
            before = tracegen.take_back(tr, board_after, self.rng)
            self._finish(tr)
            return before

    def set_up(self, board: chess.Board) -> None:
        """The pieces set up as board stands (a new game): all at once."""
        with self._lock:
            self._play([f"0 occ {sum(1 << sq for sq in board.piece_map()):016x}"])
            self.occ = set(board.piece_map())

    def shift(self, frm: chess.Square, to: chess.Square) -> None:
        """A piece lifted from frm and put on to, whatever the rules say (a move repeated
        wrongly, or put right): the lift, a moment, the piece down."""
        with self._lock:
            tr = self._trace(chess.Board())
            tr.lift(frm)
            tr.wait(300, 700)
            tr.place(to)
            self._finish(tr)

    def press(self, color: chess.Color) -> None:
        with self._lock:
            self._play([f"0 press {'white' if color == chess.WHITE else 'black'}"])

    def button(self, name: str, hold_ms: int = 120) -> None:
        """A clock button pressed and let go (down, hold_ms, up), as the hardware reports it."""
        with self._lock:
            self._play([f"0 button {name} down", f"{hold_ms} button {name} up"])

    def _finish(self, tr: tracegen.Trace) -> None:
        # From the first action on: the thinking before it is the caller's.
        lines = tr.lines
        if lines:
            first = int(lines[0].split(" ", 1)[0])
            lines = [f"{int(l.split(' ', 1)[0]) - first} {l.split(' ', 1)[1]}" for l in lines]
        self._play(lines)
        self.occ = set(tr.occ)
