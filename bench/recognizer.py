"""Move recogniser benchmark: the cost of processing one scan and of recognising a move,
inside micropython (firmware precompiled, as deployed), over a long noisy game, next to
the settle window, and scaled to a 125 MHz RP2040 (x150).

    python bench/recognizer.py [--plies N] [--seed S]

Targets (issue 8): an unchanged scan under 0.02 ms here (3 ms on the chip); from the last
stable scan to the move event under 0.2 ms here (30 ms on the chip): the "change" scan
(the board becomes stable in its new state) and the "commit" scan (the move is emitted)
each stay under it, the settle window being a wait, not work."""
import argparse
import random
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import micropython, tracegen  # noqa: E402
from host_tools.micropython import CHIP_FACTOR  # noqa: E402



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    board, moves = tracegen.random_game(a.seed, max_plies=a.plies)
    text = tracegen.trace_game(board, moves, random.Random(a.seed), bounce=0.6)
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(text)
    fen = "start" if board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" else board.fen()
    r = micropython.run(["bench/recognizer_core.py", f.name, fen, str(int(board.chess960))],
                        heap="128K", compiled=True, timeout=1200)
    Path(f.name).unlink()
    if r.returncode:
        sys.exit(r.stdout + r.stderr)
    print(f"game: {len(moves)} plies, {len(text.splitlines())} trace lines, scans every 10 ms")
    for line in r.stdout.splitlines():
        m = re.match(r"(\w+) n (\d+) median_us (\d+) worst_us (\d+)", line)
        if m:
            kind, n, med, worst = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            print(f"{kind:9s} scans {n:6d}  median {med / 1000:.3f} ms  worst {worst / 1000:.3f} ms here"
                  f"  | chip ~{med * CHIP_FACTOR / 1000:.1f} ms median, ~{worst * CHIP_FACTOR / 1000:.1f} ms worst")
        else:
            print(line)


if __name__ == "__main__":
    main()
