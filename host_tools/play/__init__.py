"""python -m host_tools play engine [options]: play on the board against a UCI engine
(host_tools/play/engine.py). With --sim the board is the simulated one, and the moves you
type (e2e4 or Nf3) are made on it by a person's hands (host_tools/hands.py)."""
from __future__ import annotations

import argparse
import os
import queue
import random
import sys
import threading

import chess

from host_tools.commandline import CommandError


def main(argv=None) -> int:
    prog = "python -m host_tools play"
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    e = sub.add_parser("engine", help="against a UCI engine (Stockfish by default)")
    where = e.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: the Pico plugged in)")
    where.add_argument("--sim", action="store_true", help="the simulated board; type your moves")
    e.add_argument("--engine", help="a UCI engine's executable (default: stockfish)")
    e.add_argument("--level", type=int, default=3, help="1 (a beginner) to 8 (a master); default 3")
    e.add_argument("--color", choices=("white", "black", "random"), default="white",
                   help="the colour you play (default white)")
    e.add_argument("--tc", default="300+2", help="the time control (docs/protocol.md), default 300+2")
    e.add_argument("--fen", help="start from this position")
    e.add_argument("--speak", action="store_true", help="speak the engine's moves (espeak-ng)")
    e.add_argument("--lang", default="en", help="the spoken language: en or it")
    a = ap.parse_args(argv)
    try:
        return _engine(a, prog)
    except CommandError as err:
        raise SystemExit(f"{prog}: error: {err}") from None


def _engine(a, prog) -> int:
    from host_tools.play.boardlink import BoardError, BoardLink
    from host_tools.play.engine import EngineGame, PlayError, find_engine

    if a.fen:
        try:
            chess.Board(a.fen)
        except ValueError as err:
            raise CommandError(f"--fen: {err}") from None
    you = {"white": chess.WHITE, "black": chess.BLACK}.get(a.color, random.choice((chess.WHITE, chess.BLACK)))
    try:
        path = find_engine(a.engine)
    except PlayError as err:
        raise CommandError(str(err)) from None
    speak = None
    if a.speak:
        from host_tools.speech import Announcer, move_text

        try:
            announcer = Announcer(a.lang)
        except (ValueError, RuntimeError) as err:
            raise CommandError(f"--speak: {err}") from None

        def speak(text):
            threading.Thread(target=announcer.say, args=(move_text(text, a.lang) if " " not in text else text,),
                             daemon=True).start()
    sim = None
    if a.sim:
        from host_tools.sim import SimulatedBoard

        sim = SimulatedBoard(hands=True)
        port = sim.path
        print(f"simulated board on {port}: type your moves (e2e4 or Nf3)", flush=True)
    else:
        port = a.port or _find_board()
        if not os.path.exists(port) and not port.upper().startswith("COM"):
            raise CommandError(f"no serial port {port}")
    link = BoardLink(port)
    if not link.connected.wait(10):
        link.close()
        raise CommandError(f"the board on {port} does not answer")
    try:
        game = EngineGame(link, path, level=a.level, color=not you, control=a.tc, fen=a.fen,
                          speak=speak, hands=sim.hands if sim else None)
    except PlayError as err:
        link.close()
        if sim:
            sim.stop()
        raise CommandError(str(err)) from None
    commands: queue.Queue = queue.Queue()
    threading.Thread(target=_keyboard, args=(commands, game, sim), daemon=True).start()
    try:
        game.new_game()
        game.run(commands=commands)
    except (BoardError, PlayError) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        game.close()
        link.close()
        if sim:
            sim.stop()
    return 0


def _find_board() -> str:
    from host_tools.relay.lines import find_picos

    found = find_picos()
    if not found:
        raise CommandError("no board plugged in (no Raspberry Pi Pico found): plug it in, or give --port "
                           "PATH, or try --sim")
    return found[0]


def _keyboard(commands: queue.Queue, game, sim) -> None:
    """Lines typed: on the simulated board a move is made by the hands; the rest are
    commands for the game."""
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
