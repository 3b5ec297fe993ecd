"""The keyboard of a player program: lines typed are read by a thread and handed to the
game's loop, which asks for them between its other work (typed). On the simulated board
a move typed (e2e4 or Nf3) is made on the pieces by the person's hands instead."""
from __future__ import annotations

import queue
import sys
import threading

import chess


def start(game, sim=None) -> queue.Queue:
    """Read stdin in a thread; the queue the game's run() takes as commands."""
    commands: queue.Queue = queue.Queue()
    threading.Thread(target=_read, args=(commands, game, sim), daemon=True).start()
    return commands


def typed(commands: queue.Queue | None, keyboard) -> bool:
    """Hand the next line typed, if any, to keyboard(text); True when it says quit."""
    if commands is None:
        return False
    try:
        text = commands.get_nowait()
    except queue.Empty:
        return False
    return keyboard(text) == "quit"


def _read(commands: queue.Queue, game, sim) -> None:
    for line in sys.stdin:
        text = line.strip()
        if sim is not None and text:
            board = game.board()
            move = _parse_move(board, text) if board is not None else None
            if move is not None:
                threading.Thread(target=sim.hands.move, args=(board, move), daemon=True).start()
                continue
        commands.put(text)
    commands.put("quit")


def _parse_move(board: chess.Board, text: str):
    for parse in (board.parse_uci, board.parse_san):
        try:
            return parse(text)
        except ValueError:
            continue
    return None
