"""Device benchmark (issue 4): the simulated board runs the real firmware inside
micropython (precompiled, as deployed) and reports

- the delay from the final physical change of a move to the move's line on the serial port
  (simulated time: debounce + settle window + scan period), and the CPU time of the step that
  writes it (here, and x150 for a 125 MHz RP2040);
- the peak heap over a long game (64-bit unix port; the chip's objects are ~40% smaller);
- the scans per second that the chip's asyncio loop sustains in real time while the rule
  checker prepares moves (target: 100).

    python bench/device.py [--plies N] [--seconds S]
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
from host_tools.micropython import CHIP_FACTOR  # noqa: E402



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seconds", type=int, default=15)
    a = ap.parse_args()
    seed = 21
    board, moves = tracegen.random_game(seed, max_plies=a.plies)
    while board.chess960 or len(moves) < a.plies // 2:  # a long standard game, the same each run
        seed += 1
        board, moves = tracegen.random_game(seed, max_plies=a.plies)
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(tracegen.trace_game(board, moves, random.Random(5)))
    r = micropython.run(["bench/device_core.py", "latency", f.name], heap=APP_HEAP, compiled=True, timeout=1800)
    if r.returncode:
        sys.exit(r.stdout + r.stderr)
    out = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    print(f"game of {out['moves'].split()[0]} plies, settle window {out['moves'].split()[2]} ms")
    d = out["delay_ms"].split()
    print(f"final physical change -> move line: median {d[1]} ms, worst {d[3]} ms "
          "(simulated time: debounce + settle window + scan period)")
    s = out["step_us"].split()
    print(f"CPU from the start of that step to the move line: median {int(s[1]) / 1000:.3f} ms, worst "
          f"{int(s[3]) / 1000:.3f} ms here; ~{int(s[1]) * CHIP_FACTOR / 1000:.0f} / {int(s[3]) * CHIP_FACTOR / 1000:.0f} ms on the RP2040")
    print(f"peak live heap over the game: {int(out['peak_heap_bytes']) / 1024:.0f} KB "
          f"(64-bit unix port, heap {APP_HEAP}; the chip's objects are ~40% smaller)")
    r = micropython.run(["bench/device_core.py", "rate", f.name, str(a.seconds)], heap=APP_HEAP,
                        compiled=True, timeout=600)
    Path(f.name).unlink()
    if r.returncode:
        sys.exit(r.stdout + r.stderr)
    print("asyncio loop in real time:", r.stdout.strip().replace("_", " "))
    print("(the unix port; on the chip every step is ~150x slower: see docs/developer.md)")


if __name__ == "__main__":
    main()
