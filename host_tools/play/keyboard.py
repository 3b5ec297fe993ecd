"""The keyboard of a player program: lines typed are read by a thread and handed to the
game's loop, which asks for them between its other work (typed). On the simulated board
a move typed (e2e4 or Nf3) is made on the pieces by the person's hands instead: kept until
the board is ready for it (his turn, the other side's move carried out, the hands free),
read against the position then, and refused with the reason when it is not legal there;
"Your move." says when the board is ready."""
from __future__ import annotations

import queue
import re
import sys
import threading
import time

import chess

from host_tools.board.record import clock_text

# What a typed move looks like (UCI or SAN): anything else is a command of the game's.
MOVE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?|O-O(-O)?[+#]?|0-0(-0)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBN])?[+#]?)$")
SETTLE_S = 5.0  # a typed move made: the board has it within this (else the next is read anyway)


def start(game, sim=None) -> queue.Queue:
    """Read stdin in a thread; the queue the game's run() takes as commands."""
    commands: queue.Queue = queue.Queue()
    moves: queue.Queue | None = None
    if sim is not None:
        moves = queue.Queue()
        threading.Thread(target=_hands, args=(moves, game, sim), daemon=True).start()
    threading.Thread(target=_read, args=(commands, moves), daemon=True).start()
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


def _read(commands: queue.Queue, moves: queue.Queue | None) -> None:
    for line in sys.stdin:
        text = line.strip()
        if moves is not None and MOVE.match(text):
            moves.put(text)
            continue
        commands.put(text)
    commands.put("quit")


def _hands(moves: queue.Queue, game, sim) -> None:
    """The person's hands: each typed move made on the board when it is ready for it."""
    told = None
    while True:
        board = game.board()
        ready = board is not None and game.players_turn() and not sim.hands.busy()
        if not ready:
            time.sleep(0.05)
            continue
        ply = len(board.move_stack)
        record = game.link.session.record
        key = (record.game if record else None, ply)
        if told != key and moves.empty():
            told = key
            game.say(picture(board, game.link.session.clock) + "\nYour move.")
        try:
            text = moves.get(timeout=0.05)
        except queue.Empty:
            continue
        move = parse_move(board, text)
        if move is None:
            game.say(f"{text} is not a legal move in this position ({board.fen().split()[0]}, "
                     f"{'White' if board.turn == chess.WHITE else 'Black'} to move).")
            continue
        told = key
        sim.hands.move(board, move)
        end = time.monotonic() + SETTLE_S
        while time.monotonic() < end and (game.board() is None or len(game.board().move_stack) <= ply):
            time.sleep(0.05)


def picture(board: chess.Board, clock) -> str:
    """The position as the player at the simulated board sees it (White at the bottom,
    files and ranks named), and both clocks as the board last said them."""
    rows = [f"{8 - i} {row}" for i, row in enumerate(str(board).split("\n"))]
    times = ""
    if clock is not None and clock.at:
        times = f"\nWhite {clock_text(clock.white_ms, hours=False)} · Black {clock_text(clock.black_ms, hours=False)}"
    return "\n".join(rows) + "\n  a b c d e f g h" + times


def parse_move(board: chess.Board, text: str):
    for parse in (board.parse_uci, board.parse_san):
        try:
            return parse(text)
        except ValueError:
            continue
    return None
