"""The DGT e-board protocol (issue 16): the simulated board runs the real firmware inside
micropython (precompiled, as deployed) with a DGT host attached in update-board mode, a
game of N plies made by a person's hands (lifts, slides, bounce), and reports

- the last physical change of the pieces -> the field update it gives, on the line
  (simulated time: the debounce and the scan period);
- the CPU time of the step that writes it here (the chip is ~150x slower: see docs/developer.md).

    python bench/dgt.py [--plies N]
"""
import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import micropython, tracegen  # noqa: E402
from host_tools.replay import APP_HEAP  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=100)
    a = ap.parse_args()
    seed = 21
    board, moves = tracegen.random_game(seed, max_plies=a.plies)
    while board.chess960 or len(moves) < a.plies // 2:
        seed += 1
        board, moves = tracegen.random_game(seed, max_plies=a.plies)
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(tracegen.trace_game(board, moves, random.Random(5)))
    r = micropython.run(["bench/dgt_core.py", f.name], heap="512K", compiled=True, timeout=1800)
    Path(f.name).unlink()
    if r.returncode:
        sys.exit(r.stdout + r.stderr)
    out = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    n, _, plies = out["updates"].split()
    d = out["delay_ms"].split()
    s = out["step_us"].split()
    print(f"a game of {plies} plies; {n} field updates")
    print(f"last physical change -> its field update: median {d[1]} ms, 95% within {d[3]} ms (simulated time)")
    print(f"  {d[7]} updates came over 100 ms after the last change, worst {d[5]} ms: pieces the board named "
          "when it took the move (no hand had moved since: the game, not the pieces, changed what a square shows)")
    print(f"CPU of the step that writes it: median {int(s[1]) / 1000:.2f} ms, worst {int(s[3]) / 1000:.2f} ms here")


if __name__ == "__main__":
    main()
