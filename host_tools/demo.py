"""The main job: two simulated boards - the real firmware inside `micropython`, on the
simulated hardware - play games from the reference's seeds into the relay, as people would
move the pieces (host_tools/tracegen.py), while the relay serves the live page, the round
PGN and the LiveChess API:

  board 1: Légal's mate (300+2) - ends 1-0 by checkmate, no press needed for the mate;
  board 2: the game of the Laws' appendix C at a fast control (45 s, sudden death); after
           11.Kb1 Black thinks too long, his flag falls, and White wins on time.

It prints the URL of the live page and the path of the PGN, and ends by itself once both
results are in, checking them against the source games with python-chess.
    python -m host_tools demo [--quick]   (--quick: simulated time, as fast as it goes)

With --appendix-d, a blind-versus-sighted game (FIDE appendix D) on two simulated boards
paired into one game: the sighted player's board (board 1) and the blind player's (board
1001, whose clock is the game's), each move made on one and repeated on the other, in real
time (host_tools/simpair.py): captures, a promotion, one repetition late, one misheard and
put right, and the blind player's flag at the end.
    python -m host_tools demo --appendix-d [--quick]   (--quick: a 30 s control, not 60 s)
"""
from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import shutil
from pathlib import Path

import chess
import chess.pgn

from host_tools import simpair, tracegen
from host_tools.relay import cli
from host_tools.sim import SimulatedBoard

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out" / "demo"

# The example games of the seeds (shared/reference), in Italian notation as there.
GAMES = (
    {"name": "Légal's mate", "control": "300+2", "white": "Légal", "black": "Saint Brie",
     "moves": "1.e4 e5 2.Cf3 d6 3.Ac4 Cc6 4.Cc3 Ag4 5.Cxe5 Axd1 6.Axf7+ Re7 7.Cd5#",
     "result": ("1-0", "checkmate")},
    {"name": "FIDE Laws, appendix C, lost on time", "control": "45", "white": "Appendix", "black": "C",
     "moves": "1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5 6. exd6 e.p. Cxd6 7. Ag5 Cc6 "
              "8. De3 Ae7 9. Cbd2 0-0 10. 0-0-0 Te8 11. Rb1",
     "result": ("1-0", "time_forfeit")},
)
_ITALIAN = str.maketrans({"R": "K", "D": "Q", "T": "R", "A": "B", "C": "N"})


def italian_to_moves(text):
    """Italian SAN (R D T A C) -> the moves, checked by python-chess."""
    text = text.replace("e.p.", "").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    return list(chess.pgn.read_game(io.StringIO(text.translate(_ITALIAN))).mainline_moves())


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools demo", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="simulated time: the games take a second")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--appendix-d", action="store_true",
                    help="a blind player's board paired with a sighted player's: one game (appendix D)")
    a = ap.parse_args(argv)
    if a.appendix_d:
        return appendix_d(a.quick, a.port)
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "lines").mkdir(parents=True)
    round_file = OUT / "round.json"
    round_file.write_text(json.dumps({"event": "Open chess board demo", "site": "simulated boards",
                                      "round": "1", "boards": {
                                          str(i + 1): {"white": g["white"], "black": g["black"],
                                                       "serial": f"demo-board-{i + 1}"}
                                          for i, g in enumerate(GAMES)}}, ensure_ascii=False))
    boards = []
    for i, g in enumerate(GAMES):
        moves = italian_to_moves(g["moves"])
        trace = OUT / f"board-{i + 1}.trace"
        trace.write_text(tracegen.trace_game(chess.Board(), moves, random.Random(7 + i)))
        boards.append(SimulatedBoard(trace, fast=a.quick, wait_host=True, board_id=f"demo-board-{i + 1}",
                                     link=str(OUT / "lines" / f"board-{i + 1}"), tail_ms=60000,
                                     flash=OUT / f"flash-{i + 1}", watchdog_ms=8000,
                                     commands=[f"new tc={g['control']}"]))
    args = cli.parse([str(OUT / "lines" / "*"), "--out", str(OUT / "relay"), "--round-file", str(round_file),
                      "--no-discover", "--port", str(a.port), "--livechess-port", str(a.port + 1)])

    async def until_done(relay):
        print("games under way (the page shows them live)...", flush=True)
        while True:
            recs = [relay.sessions[n].record if n in relay.sessions else None for n in (1, 2)]
            if all(r is not None and r.result != "*" for r in recs):
                return
            await asyncio.sleep(0.2)

    try:
        relay = asyncio.run(cli.run(args, until=until_done))
    finally:
        for b in boards:
            b.stop()
    ok = True
    pgn = (OUT / "relay" / "round.pgn").read_text()
    f = io.StringIO(pgn)
    for i, g in enumerate(GAMES):
        game = chess.pgn.read_game(f)
        want = [m.uci() for m in italian_to_moves(g["moves"])]
        got = [m.uci() for m in game.mainline_moves()]
        result = (game.headers["Result"], relay.sessions[i + 1].record.termination)
        good = got == want and result == g["result"]
        ok &= good
        print(f"board {i + 1}, {g['name']}: {len(got)} plies, {result[0]} ({result[1]})"
              f"{'' if good else '  <-- NOT the source game'}")
    print(f"round PGN: {OUT / 'relay' / 'round.pgn'}")
    return 0 if ok else 1


# The pair's game (appendix D): captures, a promotion with capture; Black (blind) then lets
# his flag fall. The sighted player mishears Black's 4th move; White's 3rd is repeated late.
PAIR_GAME = {"white": "Sighted, Sam", "black": "Blind, Bea",
             "moves": "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=D", "lag_ply": 4, "wrong_ply": 7}
PAIR_OUT = ROOT / "out" / "demo-appendix-d"


def appendix_d(quick: bool, port: int, out: Path = PAIR_OUT, log=print) -> int:
    """Play PAIR_GAME on two simulated boards paired in the round file; 0 if board 1's game
    in the round PGN is that game, won on Black's flag on the blind player's clock, with
    the misheard repetition told to the arbiter and no move lost."""
    moves = italian_to_moves(PAIR_GAME["moves"])
    happened = simpair.run_pair(moves, out, "30" if quick else "60", port, chess.BLACK, log=log,
                         faults={"lag_ply": PAIR_GAME["lag_ply"], "wrong_ply": PAIR_GAME["wrong_ply"]},
                         white=PAIR_GAME["white"], black=PAIR_GAME["black"])
    if "error" in happened:
        log(f"the game stopped: {happened['error']}")
        return 1
    game = chess.pgn.read_game(io.StringIO((out / "relay" / "round.pgn").read_text()))
    got = [m.uci() for m in game.mainline_moves()]
    told = [a["text"] for a in happened["alerts"] if a["kind"] == "pair-differs"]
    wrong = happened.get("wrong")
    log(f"board 1 (the public's game): {len(got)} plies, {game.headers['Result']} ({happened['termination']}); "
        f"the misheard repetition ({wrong[0] if wrong else '?'}) told to the arbiter "
        f"{'in %.2f s' % wrong[1] if wrong and wrong[1] is not None else 'NOT'}: {told[0] if told else '-'}")
    log(f"round PGN: {out / 'relay' / 'round.pgn'}")
    ok = got == [m.uci() for m in moves] and game.headers["Result"] == "1-0" and wrong and wrong[1] is not None
    return 0 if ok else 1
