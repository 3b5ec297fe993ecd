"""The main job: the simulated board - the real firmware inside `micropython`, on the sim
HAL - plays two games from the reference's seeds as a person would move the pieces
(host_tools/tracegen.py), and the host writes what the board sent as PGN:

1. Légal's mate (300+2): ends 1-0 by checkmate, with no press needed for the mating move.
2. The game of the Laws' appendix C at blitz (180+0); after 11.Kb1 Black thinks too long:
   his flag falls and White wins on time.

Each PGN is checked against the source game with python-chess before it is written.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

import chess
import chess.pgn

from host_tools import tracegen
from host_tools.replay import run_trace

OUT = Path(__file__).resolve().parent.parent / "out" / "demo"

# The example games of the seeds (shared/reference), in Italian notation as there.
SEED_GAMES = (
    ("Légal's mate", "1.e4 e5 2.Cf3 d6 3.Ac4 Cc6 4.Cc3 Ag4 5.Cxe5 Axd1 6.Axf7+ Re7 7.Cd5#",
     "300+2", 0, "legal-mate.pgn", ("Légal", "Saint Brie")),
    ("FIDE Laws, appendix C, at blitz, lost on time",
     "1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5 6. exd6 e.p. Cxd6 7. Ag5 Cc6 "
     "8. De3 Ae7 9. Cbd2 0-0 10. 0-0-0 Te8 11. Rb1",
     "180", 200000, "appendix-c-blitz.pgn", ("White", "Black")),
)
_ITALIAN = str.maketrans({"R": "K", "D": "Q", "T": "R", "A": "B", "C": "N"})


def italian_to_moves(text):
    """Italian SAN (R D T A C) -> the moves, checked by python-chess."""
    text = text.replace("e.p.", "").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    game = chess.pgn.read_game(io.StringIO(text.translate(_ITALIAN)))
    return list(game.mainline_moves())


def play(name, text, control, extra_wait_ms, filename, players, out=print):
    moves = italian_to_moves(text)
    trace = tracegen.trace_game(chess.Board(), moves, random.Random(7))
    OUT.mkdir(parents=True, exist_ok=True)
    trace_path = OUT / (filename[:-4] + ".trace")
    trace_path.write_text(trace)
    rec, messages, _ = run_trace(trace_path, control, white=players[0], black=players[1],
                                 tail_ms=3000 + extra_wait_ms)
    want = [m.uci() for m in moves]
    got = [p.uci for p in rec.plies]
    if got != want:
        raise RuntimeError(f"{name}: the board sent {got}, the game was {want}")
    pgn = rec.pgn(event="Open chess board demo", site="simulated board", round_="1")
    (OUT / filename).write_text(pgn)
    out(f"== {name}: {len(got)} plies through the simulated board (firmware in micropython)")
    out("   " + _movetext(pgn))
    out(f"   result {rec.result} ({rec.termination}); PGN: {OUT / filename}")
    return rec


def _movetext(pgn):
    g = chess.pgn.read_game(io.StringIO(pgn))
    exporter = chess.pgn.StringExporter(headers=False, variations=False, comments=False)
    return g.accept(exporter)


def main():
    results = []
    for game in SEED_GAMES:
        results.append(play(*game))
    assert (results[0].result, results[0].termination) == ("1-0", "checkmate")
    assert (results[1].result, results[1].termination) == ("1-0", "time_forfeit")
    return 0
