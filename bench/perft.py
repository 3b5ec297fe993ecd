"""Perft and game-end benchmark of the firmware rule checker.

    python bench/perft.py --fen FEN --depth N [--interp micropython|cpython] [--chess960]

prints `nodes <N> nps <rate>` for the firmware checker, then python-chess's rate on the
same position in the same run (CPython), their ratio, the cost of one "apply a move and
decide the game-end state" step over a 300-ply game, whether that game runs inside
`micropython -X heapsize=64K`, and the step cost scaled to a 125 MHz RP2040 (x150, see
docs/developer.md). Perft counts leaves in bulk at depth 1 in both checkers, so the rates compare.
"""
import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import micropython  # noqa: E402
from host_tools.micropython import CHIP_FACTOR  # noqa: E402



def _micropython(args, heap, compiled=False):
    r = micropython.run(["bench/perft_core.py"] + args, heap=heap, compiled=compiled)
    if r.returncode:
        return None, r.stdout + r.stderr
    return r.stdout, None


def python_chess_perft(fen, depth, chess960):
    import chess

    board = chess.Board(fen, chess960=chess960)

    def perft(d):
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for m in list(board.legal_moves):
            board.push(m)
            total += perft(d - 1)
            board.pop()
        return total

    t = time.perf_counter()
    n = perft(depth)
    return n, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fen", default="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--interp", choices=("micropython", "cpython"), default="micropython")
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--plies", type=int, default=300)
    a = ap.parse_args()

    extra = ["chess960"] if a.chess960 else []
    if a.interp == "micropython":
        out, err = _micropython(["perft", a.fen, str(a.depth)] + extra, "128K")
        if err:
            sys.exit("micropython failed: " + err)
        nodes, us = map(int, re.match(r"nodes (\d+) us (\d+)", out).groups())
    else:
        sys.path.insert(0, str(ROOT / "bench"))
        import perft_core

        nodes, us = perft_core.perft(a.fen, a.depth, a.chess960)
    nps = nodes * 1_000_000 // max(us, 1)
    print(f"nodes {nodes} nps {nps}")

    pc_nodes, pc_s = python_chess_perft(a.fen, a.depth, a.chess960)
    pc_nps = int(pc_nodes / pc_s)
    print(f"python-chess (CPython) nodes {pc_nodes} nps {pc_nps}")
    if pc_nodes != nodes:
        sys.exit(f"node counts differ: firmware {nodes}, python-chess {pc_nodes}")
    print(f"ratio {a.interp}/python-chess {nps / pc_nps:.2f} (target >= 0.25)")

    out, err = _micropython(["game", str(a.plies)], "64K", compiled=True)
    if err:
        print(f"game of {a.plies} plies in micropython -X heapsize=64K: FAILED\n{err}")
        sys.exit(1)
    f = dict(re.findall(r"(\w+) (\d+)", out))
    plies = int(f["plies"])
    step = (int(f["push_us"]) + int(f["outcome_us"])) / plies
    claim = int(f["claim_us"]) / plies
    print(f"game of {plies} plies in micropython -X heapsize=64K (firmware as .mpy, as deployed): ok")
    print(f"apply move + game-end state: {step / 1000:.3f} ms per ply here, "
          f"~{step * CHIP_FACTOR / 1000:.0f} ms on the RP2040")
    print(f"claimable draws (threefold, 50 moves) on request: {claim / 1000:.3f} ms here, "
          f"~{claim * CHIP_FACTOR / 1000:.0f} ms on the RP2040")
    print(f"worst full step (move + game end + claims): {int(f['worst_step_us']) / 1000:.3f} ms here, "
          f"~{int(f['worst_step_us']) * CHIP_FACTOR / 1000:.0f} ms on the RP2040")


if __name__ == "__main__":
    main()
