"""A game between a sighted and a blind player on two simulated boards (appendix D), as
they play it: each makes his move on his own board and the other repeats it on his; one
clock, the blind player's board's, which both press (the sighted player after his move,
D.2.5; the blind player after his, D.2.4). The hands are host_tools/hands.py's, in real
time, on two SimulatedBoards (real firmware) attached to a relay, whose pairing
(host_tools/relay/twoboards.py) asks each board for the move to repeat.

Things go wrong once each, as they do at a real board, for the arbiter to see:
  lag_ply:     the move of that ply is repeated late (the board lags a move for a while);
  wrong_ply:   the sighted player repeats the blind player's move of that ply wrongly (he
               misheard it): his board refuses it and the relay tells the arbiter at once
               (D.2.9); the piece is put right and the move repeated;
  missing_ply: the blind player does not repeat the sighted player's move of that ply: he
               makes his own next move and presses; the relay tells the arbiter at once,
               he takes his move back, repeats the sighted player's, and plays on.
run_pair() sets it all up: the two boards, a round file pairing them, the relay. Used by
`python -m host_tools demo --appendix-d`, `python -m host_tools sim --pair` and
tests/e2e/test_appendix_d.py."""
from __future__ import annotations

import argparse
import asyncio
import shutil
import signal
import threading
import time
from pathlib import Path

import chess
import chess.pgn

from host_tools.commandline import CommandError, readable_file, writable_folder
from host_tools.play import pair
from host_tools.protocol import encode
from host_tools.relay import cli
from host_tools.relay.twoboards import PAIRED

REPEAT_S = 0.4  # the other player hears the move announced and reaches for the piece
LAG_S = 3.0  # the lagging repetition's delay


def wait_for(test, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return test()


def misheard(board: chess.Board, move: chess.Move) -> chess.Move:
    """Another legal move, as a misheard announcement gives: the same piece elsewhere if
    it can go elsewhere (a plain move: no capture, castling or promotion)."""
    plain = [m for m in board.legal_moves if m != move and not board.is_capture(m)
             and not board.is_castling(m) and not m.promotion]
    return ([m for m in plain if m.from_square == move.from_square] or plain)[0]


def play(moves, sighted, blind, blind_color: chess.Color, sessions: dict, number: int = 1,
         lag_ply: int | None = None, wrong_ply: int | None = None, missing_ply: int | None = None,
         alerts=None, log=print, board: chess.Board | None = None) -> dict:
    """Play moves (chess.Move from board, the start if None) with sighted's and blind's hands (Hands of the
    two simulated boards); sessions: the relay's (to see each move arrive there); alerts():
    the relay's alerts (to wait for the one the wrong repetition gives). Returns what
    happened: {"wrong": (tried, alert seconds), "missing": alert seconds, "lag": ply}
    (seconds None: no alert came)."""
    board = (board or chess.Board()).copy()
    blind_plies = {k for k in range(len(moves)) if (board.turn if k % 2 == 0 else not board.turn) == blind_color}
    if wrong_ply is not None and wrong_ply not in blind_plies:
        raise ValueError("wrong_ply: a move of the blind player's (the sighted player repeats it wrongly)")
    if missing_ply is not None and (missing_ply in blind_plies or missing_ply + 1 >= len(moves)):
        raise ValueError("missing_ply: a move of the sighted player's, with the blind player's after it")
    a_n, b_n = number, number + PAIRED
    done = {}

    def plies(n):
        s = sessions.get(n)
        return len(s.record.plies) if s is not None and s.record is not None else -1

    for ply, move in enumerate(moves):
        by_blind = board.turn == blind_color
        own, other = (blind, sighted) if by_blind else (sighted, blind)
        own_n, other_n = (b_n, a_n) if by_blind else (a_n, b_n)
        own.move(board, move, press=by_blind)  # the blind player presses his own board's clock
        if not by_blind:
            blind.press(board.turn)  # the sighted player presses the one clock: the blind player's
        if not wait_for(lambda: plies(own_n) >= ply + 1, 20):
            raise RuntimeError(f"board {own_n} did not take {board.san(move)}")
        if ply == lag_ply:
            log(f"  board {other_n} lags: {board.san(move)} is repeated {LAG_S:g} s late")
            time.sleep(LAG_S)
        time.sleep(REPEAT_S)
        if ply == missing_ply:
            mine = moves[ply + 1]
            board.push(move)
            log(f"  the blind player forgets to repeat {board.peek().uci()} and plays {board.san(mine)} on his board")
            board.pop()
            before = len(alerts()) if alerts else 0
            t0 = time.monotonic()
            other.shift(mine.from_square, mine.to_square)
            other.press(not board.turn)
            told = wait_for(lambda: alerts is not None and any(
                x["kind"] == "pair-differs" for x in alerts()[before:]), 10)
            done["missing"] = time.monotonic() - t0 if told else None
            other.shift(mine.to_square, mine.from_square)  # his move back; the repetition follows
            time.sleep(0.5)
        if ply == wrong_ply:
            wrong = misheard(board, move)
            before = len(alerts()) if alerts else 0
            t0 = time.monotonic()
            log(f"  the sighted player repeats {board.san(move)} as {board.san(wrong)} (misheard)")
            other.shift(wrong.from_square, wrong.to_square)
            told = wait_for(lambda: alerts is not None and any(
                x["kind"] == "pair-differs" for x in alerts()[before:]), 10)
            done["wrong"] = (board.san(wrong), time.monotonic() - t0 if told else None)
            other.shift(wrong.to_square, wrong.from_square)  # put right: the piece back...
            time.sleep(0.5)
        other.carry_out(board, move)  # ...and the move repeated
        if not wait_for(lambda: plies(other_n) >= ply + 1, 20):
            raise RuntimeError(f"board {other_n} did not take the repeated {board.san(move)}")
        board.push(move)
    done["lag"] = lag_ply
    return done


def run_pair(moves, out: Path, control: str, port: int = 0, blind_color: chess.Color = chess.BLACK,
              faults: dict | None = None, white: str = "Sighted", black: str = "Blind", fen: str | None = None,
              until_result: bool = True, linger: bool = False, log=print) -> dict:
    """Two simulated boards paired in a round file (board 1 the sighted player's, 1001 the
    blind player's) and a relay on them (its files in out/relay, its page on port, 0: any);
    moves played on them as the players do (play() above, with faults: lag_ply,
    wrong_ply, missing_ply), then - until_result - until the game has a result, and with
    linger until the relay is stopped (Ctrl-C), its page still there. What
    happened, with the relay's alerts and the public game's termination; "error" if the
    game could not be played."""
    from host_tools.sim import SimulatedBoard  # (here: pseudo-terminals, POSIX only; demo imports this module)

    shutil.rmtree(out, ignore_errors=True)
    (out / "lines").mkdir(parents=True)
    # The blind player sits at the left half of his clock whatever his colour, as a player
    # at a club is set up (host_tools/play/pair.py): his board is told where White sits, and
    # the hands at it press each colour's lever at that colour's half.
    seat = "left"
    round_file = pair.round_file(out, "sim-sighted", "sim-tactile", blind_color, white, black, True,
                                 event="Appendix D", site="simulated boards", seat=seat)
    new = f"new tc={control}" + (f" fen={encode(fen)}" if fen else "")
    sighted = SimulatedBoard(hands=True, wait_host=True, board_id="sim-sighted", link=str(out / "lines" / "sighted"),
                             flash=out / "flash-sighted", commands=[new], outputs=str(out / "sighted.outputs"))
    tactile = SimulatedBoard(hands=True, wait_host=True, board_id="sim-tactile", link=str(out / "lines" / "tactile"),
                             flash=out / "flash-tactile", outputs=str(out / "tactile.outputs"),
                             commands=[new, f"access blind={seat} white={pair.white_seat(blind_color, seat)} speech=fide"])
    tactile.hands.white_at = pair.white_seat(blind_color, seat)
    start = chess.Board(fen) if fen else chess.Board()
    if fen:
        sighted.hands.set_up(start)
        tactile.hands.set_up(start)
    args = cli.parse(pair.relay_args([str(out / "lines" / "*")], round_file, out, port))
    happened = {}

    async def until_done(relay):
        s = relay.sessions
        while not all(n in s and s[n].record is not None for n in (1, 1001)):
            await asyncio.sleep(0.1)
        log("both boards are there: the game begins (the arbiter's page shows them side by side)")

        def hands():
            try:
                happened.update(play(moves, sighted.hands, tactile.hands, blind_color, s, board=start,
                                              alerts=relay.alerts_json, log=log, **(faults or {})))
            except Exception as e:  # told, and the game ends
                happened["error"] = e
        t = threading.Thread(target=hands, daemon=True)
        t.start()
        while t.is_alive() or (until_result and s[1].record.result == "*" and "error" not in happened):
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.3)
        happened["alerts"] = relay.alerts_json()
        happened["termination"] = s[1].record.termination
        if linger:
            log("the game is played: the relay stays until Ctrl-C")
            await asyncio.Event().wait()

    async def run_then_stop_boards():
        # SIGTERM and SIGHUP stop it as Ctrl-C does (the main task cancelled: the relay's
        # cleanup runs). The boards are stopped here, inside the loop: asyncio.run waits at
        # its end for the threads still reading their lines, which end only when the boards
        # are gone (stopped after it, a Ctrl-C left the process and its boards running).
        _cancel_on_signals(asyncio.current_task())
        try:
            await cli.run(args, until=until_done)
        finally:
            sighted.stop()
            tactile.stop()

    try:
        asyncio.run(run_then_stop_boards())
    except asyncio.CancelledError:  # SIGTERM or SIGHUP
        raise KeyboardInterrupt from None
    finally:
        sighted.stop()  # (started, not yet run: stopped all the same)
        tactile.stop()
    return happened


def _cancel_on_signals(task):
    loop = asyncio.get_running_loop()
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            try:
                loop.add_signal_handler(getattr(signal, name), task.cancel)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # Windows' loop, or not the main thread (the demo's own): signals are its caller's


def main(argv=None) -> int:
    """python -m host_tools sim --pair --pgn FILE [--blind white|black] [--port N] [--out DIR]:
    two simulated boards for one game, the sighted player's and the blind player's (his
    colour: --blind, Black unless told), paired in a round file, with a relay on them whose
    page and arbiter's page it prints; the PGN's game is played on them as the two players
    do. The relay stays until Ctrl-C; its files are in --out (out/sim-pair)."""
    prog = "python -m host_tools sim --pair"
    ap = argparse.ArgumentParser(prog=prog, description=main.__doc__)
    ap.add_argument("--pgn", required=True, help="the game to play on the two boards")
    ap.add_argument("--blind", choices=("white", "black"), default="black", help="the blind player's colour")
    ap.add_argument("--port", type=int, default=8080, help="the relay's page")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "out" / "sim-pair"),
                    help="the folder for the boards' lines and flash and the relay's files")
    a = ap.parse_args(argv)
    # Ctrl-C (SIGINT) ends it even when it was started with SIGINT ignored (as a shell
    # starts a command with & in a script): without this, nothing but SIGKILL stopped it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        readable_file(a.pgn, "the PGN file")
        writable_folder(a.out, "--out")
        with open(a.pgn) as f:
            game = chess.pgn.read_game(f)
    except (CommandError, OSError, ValueError) as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    if game is None or game.errors or game.board().chess960:
        raise SystemExit(f"{prog}: error: {a.pgn}: no game that reads (or a Chess960 one)")
    start = game.board()
    fen = None if start.fen() == chess.STARTING_FEN else start.fen()
    tc = game.headers.get("TimeControl", "?")
    try:
        happened = run_pair(list(game.mainline_moves()), Path(a.out), "5400+30" if tc in ("?", "-") else tc, a.port,
                            chess.WHITE if a.blind == "white" else chess.BLACK, fen=fen,
                            white=game.headers.get("White", "Sighted"), black=game.headers.get("Black", "Blind"),
                            until_result=False, linger=True)
    except KeyboardInterrupt:
        return 0
    if "error" in happened:
        print(f"the game stopped: {happened['error']}")
        return 1
    return 0
