"""python -m host_tools play engine|lichess|pair [options]: play on the board against a UCI
engine (host_tools/play/engine.py) or on lichess through its Board API with the token in
LICHESS_TOKEN (host_tools/play/online.py); or, with `pair`, a sighted and a blind player on
two boards kept as one game (FIDE appendix D: host_tools/play/pair.py). With --sim the board is the simulated one, and
the moves you type (e2e4 or Nf3) are made on it by a person's hands (host_tools/hands.py)."""
from __future__ import annotations

import argparse
import os
import random
import sys
import threading

import chess

from host_tools.commandline import CommandError
from host_tools.play import keyboard


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
    e.add_argument("--tc", default="5+2", help="the time control as FIDE writes it (minutes + seconds a move: "
                                              "5+2, 90+30, 40/90+30:30+30; host_tools/fidetime.py), default 5+2")
    e.add_argument("--fen", help="start from this position")
    e.add_argument("--speak", action="store_true", help="speak the engine's moves (espeak-ng)")
    e.add_argument("--lang", default="en", help="the spoken language: en or it")
    li = sub.add_parser("lichess", help="a lichess game through the Board API (LICHESS_TOKEN)")
    where = li.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: the Pico plugged in)")
    where.add_argument("--sim", action="store_true", help="the simulated board; type your moves")
    how = li.add_mutually_exclusive_group()
    how.add_argument("--seek", metavar="MIN+INC", help="seek a casual game, e.g. 10+5")
    how.add_argument("--challenge", metavar="USER", help="challenge a lichess user (with --tc)")
    how.add_argument("--game", metavar="ID", help="join a game in progress")
    li.add_argument("--tc", default="10+5", help="the challenge's time control, minutes+increment (default 10+5)")
    li.add_argument("--speak", action="store_true", help="speak the opponent's moves (espeak-ng)")
    li.add_argument("--lang", default="en", help="the spoken language: en or it")
    li.add_argument("--server", default="https://lichess.org", help=argparse.SUPPRESS)
    pa = sub.add_parser("pair", help="a sighted and a blind player, each on his own board: one game (appendix D)")
    pa.add_argument("sighted", help="the sighted player's board's serial port")
    pa.add_argument("blind_board", metavar="blind", help="the blind player's board's serial port (its clock is the game's)")
    pa.add_argument("--blind", choices=("white", "black"), default="black", help="the blind player's colour")
    pa.add_argument("--seat", choices=("left", "right"), default="left",
                    help="the half of his clock the blind player sits at (docs/access.md), default left")
    pa.add_argument("--tc", default="5400+30", help="the time control (docs/protocol.md), default 5400+30")
    pa.add_argument("--white", default="White", help="White's name")
    pa.add_argument("--black", default="Black", help="Black's name")
    pa.add_argument("--touches", action="store_true",
                    help="the blind player feels it when the sighted player touches a piece (D.2.10)")
    pa.add_argument("--out", default="out/pair", help="the game's files (default out/pair)")
    pa.add_argument("--http-port", type=int, default=8080, help="the page's port (default 8080)")
    a = ap.parse_args(argv)
    try:
        if a.mode == "pair":
            return _pair(a, prog)
        if a.mode == "lichess":
            return _lichess(a, prog)
        return _engine(a, prog)
    except CommandError as err:
        raise SystemExit(f"{prog}: error: {err}") from None


def _engine(a, prog) -> int:
    from host_tools.board.link import BoardError
    from host_tools.play.engine import EngineGame, PlayError, find_engine

    if a.fen:
        try:
            chess.Board(a.fen)
        except ValueError as err:
            raise CommandError(f"--fen: {err}") from None
    from host_tools.fidetime import read  # as FIDE writes it, into the board's control; checked before it starts

    try:
        reading = read(a.tc)
    except ValueError as err:
        raise CommandError(f"--tc: {err}") from None
    print(f"time control: {reading.words} ({reading.control})", flush=True)
    a.tc = reading.control
    you = {"white": chess.WHITE, "black": chess.BLACK}.get(a.color, random.choice((chess.WHITE, chess.BLACK)))
    try:
        path = find_engine(a.engine)
    except PlayError as err:
        raise CommandError(str(err)) from None
    port, sim, speak = _board_and_speech(a)
    link = _open_link(port, sim)
    try:
        game = EngineGame(link, path, level=a.level, color=not you, control=a.tc, fen=a.fen,
                          speak=speak, hands=sim.hands if sim else None)
    except PlayError as err:
        link.close()
        if sim:
            sim.stop()
        raise CommandError(str(err)) from None
    commands = keyboard.start(game, sim)

    def play():
        game.start()
        game.run(commands=commands)
    return _until_done(prog, play, (BoardError, PlayError), game.close, link.close, *_stopper(sim))


def _board_and_speech(a):
    """The board's port (a simulated board started with --sim) and a speak function."""
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
    return port, sim, speak


# lichess's speeds by its estimate, limit + 40 x increment (s) (scalachess Speed): the
# Board API takes seeks only from rapid on (lila: Game.isBoardCompatible, Speed >= Rapid;
# the seek form answers "Invalid time control"), and challenges from blitz on (lila:
# Challenge.isBoardCompatible, Speed >= Blitz).
RAPID_S = 480
BLITZ_S = 180


def _board_api_speed(minutes: float, inc: int, floor_s: int, what: str, text: str) -> None:
    estimate = minutes * 60 + 40 * inc
    if estimate < floor_s:
        kind = "rapid or slower" if floor_s == RAPID_S else "blitz or slower"
        raise CommandError(
            f"{what} {text}: lichess's Board API takes only {kind} games here, an estimate of "
            f"minutes x 60 + 40 x increment of at least {floor_s} s ({text} is {estimate:g} s); "
            f"try {'10+0 or 8+2' if floor_s == RAPID_S else '3+0 or 2+1'}")


def _minutes_inc(text: str, what: str) -> tuple[float, int]:
    m, sep, i = (text or "").partition("+")
    try:
        minutes, inc = float(m), int(i) if sep else 0
    except ValueError:
        raise CommandError(f"{what}: minutes+increment such as 10+5, not {text!r}") from None
    if not (0 <= minutes <= 180 and 0 <= inc <= 180) or minutes == inc == 0:
        raise CommandError(f"{what}: 0 to 180 minutes and 0 to 180 s increment, not {text!r}")
    return minutes, inc


def _lichess(a, prog) -> int:
    from host_tools.board.link import BoardError
    from host_tools.play.lichess_api import BoardApi, LichessError
    from host_tools.play.online import OnlineGame

    token = os.environ.get("LICHESS_TOKEN", "").strip()
    if not token:
        raise CommandError("no LICHESS_TOKEN: make a token with the board:play scope at "
                           "https://lichess.org/account/oauth/token and set LICHESS_TOKEN to it")
    seek = _minutes_inc(a.seek, "--seek") if a.seek else None
    tc = _minutes_inc(a.tc, "--tc")
    if seek:
        _board_api_speed(*seek, RAPID_S, "--seek", a.seek)
    if a.challenge:
        _board_api_speed(*tc, BLITZ_S, "--tc", a.tc)
    api = BoardApi(token, a.server)
    try:
        account = api.account()
    except LichessError as err:
        api.close()
        raise CommandError(str(err)) from None
    port, sim, speak = _board_and_speech(a)
    link = _open_link(port, sim, api.close)

    def play():
        game = OnlineGame(link, api, speak=speak, hands=sim.hands if sim else None)
        print(f"lichess: logged in as {account.get('username', account.get('id'))}", flush=True)
        if seek:
            game.seek(*seek)
        elif a.challenge:
            game.challenge(a.challenge, *tc)
        elif a.game:
            game.join(a.game)
        else:
            game.wait()
        game.run(commands=keyboard.start(game, sim))
    return _until_done(prog, play, (BoardError, LichessError), link.close, api.close, *_stopper(sim))


def _pair(a, prog, until=None) -> int:
    import asyncio
    from pathlib import Path

    from firmware.clock import timecontrol
    from host_tools.play import pair
    from host_tools.relay import cli

    try:
        timecontrol.parse(a.tc)
    except ValueError as err:
        raise CommandError(f"--tc: {err} (seconds: 300+2, 5400+30, 40/5400+30:1800+30)") from None
    blind = chess.WHITE if a.blind == "white" else chess.BLACK
    names = pair.set_up(a.sighted, a.blind_board, blind, a.tc, a.white, a.black, a.seat)
    out = Path(a.out)
    path = pair.round_file(out, *names, blind, a.white, a.black, a.touches, seat=a.seat)
    print(f"the sighted player's board {names[0]} is board 1, the blind player's {names[1]} board 1001 "
          f"(its clock is the game's)", flush=True)
    asyncio.run(cli.run(cli.parse(pair.relay_args([a.sighted, a.blind_board], path, out, a.http_port)), until=until))
    return 0


def _stopper(sim) -> tuple:
    return (sim.stop,) if sim else ()


def _open_link(port, sim, *also):
    """The board's line, answering; else everything opened so far closed again."""
    from host_tools.board.link import BoardLink

    link = BoardLink(port)
    if not link.connected.wait(10):
        for close in (link.close, *also, *_stopper(sim)):
            close()
        raise CommandError(f"the board on {port} does not answer")
    return link


def _until_done(prog, play, errors, *closers) -> int:
    """play() until the player quits (0); one line and 1 for errors; closers in the end."""
    try:
        play()
    except errors as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        for close in closers:
            close()
    return 0


def _find_board() -> str:
    from host_tools.board.port import find_picos

    found = find_picos()
    if not found:
        raise CommandError("no board plugged in (no Raspberry Pi Pico found): plug it in, or give --port "
                           "PATH, or try --sim")
    return found[0]
