"""Hostile input, surface by surface: how much was tried, how it came out, and what was
found (an exception other than the surface's clean refusal, with the seed that gives it).
CI runs a few seconds of each (tests/host/test_surface_fuzz.py, tests/host/test_relay_fuzz.py,
tests/firmware/test_fuzz_protocol.py); this runs more.

  - device lines into the relay's board session (and its page JSON, PGN and LiveChess
    reconstruction), lichess stream lines into play lichess's reader, round files, trace
    lines (tests/host/surfacefuzz.py);
  - the relay's HTTP, page feed and LiveChess API (tests/host/webfuzz.py), then whether it
    still answers;
  - the board's own line, inside micropython (the firmware's protocol fuzz test).

    python bench/fuzz.py [--n N] [--seeds K] [--web N] [--no-firmware]
"""
import argparse
import asyncio
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.nothing_lost import web_fuzz  # noqa: E402  (the relay's servers fuzzed, and whether it answers after)
from tests.host import surfacefuzz  # noqa: E402

SURFACES = {
    "device lines -> relay session": surfacefuzz.fuzz_session,
    "lichess stream lines -> play lichess": surfacefuzz.fuzz_lichess,
    "round files -> relay": surfacefuzz.fuzz_round,
    "trace lines -> simulator": surfacefuzz.fuzz_trace,
}


def run_surface(fuzz, n: int, seeds: int):
    total, found = Counter(), []
    t0 = time.monotonic()
    for seed in range(1, seeds + 1):
        try:
            total += fuzz(n, seed=seed)
        except Exception as e:  # noqa: BLE001 - a finding: reported, and the next seed runs
            where = traceback.extract_tb(e.__traceback__)[-1]
            found.append(f"seed {seed}: {type(e).__name__}: {str(e)[:100]} ({Path(where.filename).name}:{where.lineno})")
    return total, found, time.monotonic() - t0


def firmware():
    from host_tools import micropython
    from host_tools.replay import APP_HEAP

    r = micropython.run(["tests/firmware/runner.py", "tests.firmware.test_fuzz_protocol"], heap=APP_HEAP,
                        compiled=True, also=("tests/firmware",), timeout=1800)
    return r.returncode, r.stdout.count("PASS"), r.stdout.count("FAIL")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=5000, help="inputs per seed and surface")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--web", type=int, default=2000, help="inputs of each kind at the relay's servers")
    ap.add_argument("--no-firmware", action="store_true")
    a = ap.parse_args()
    findings = 0
    print(f"{'surface':40} {'tried':>8} {'seconds':>8}  outcomes")
    for name, fuzz in SURFACES.items():
        total, found, secs = run_surface(fuzz, a.n, a.seeds)
        tried = a.n * a.seeds
        outcomes = ", ".join(f"{k} {v}" for k, v in total.most_common())
        print(f"{name:40} {tried:>8} {secs:>8.1f}  {outcomes}")
        for f in found:
            print(f"    FOUND {f}")
        findings += len(found)
    t0 = time.monotonic()
    seen, alive = asyncio.run(web_fuzz(a.web))
    server_errors = sum(v for k, v in seen.items() if k.startswith("status 5"))
    tried = seen["raw"] + seen["http"] + seen["ws"]
    statuses = ", ".join(f"{k[7:]} {v}" for k, v in sorted(seen.items()) if k.startswith("status "))
    print(f"{'relay HTTP, page feed, LiveChess':40} {tried:>8} {time.monotonic() - t0:>8.1f}  "
          f"statuses {statuses}; /api/state after: {alive}")
    if server_errors or alive != 200:
        print(f"    FOUND {server_errors} server errors; /api/state after: {alive}")
        findings += 1
    if not a.no_firmware:
        t0 = time.monotonic()
        code, passed, failed = firmware()
        print(f"{'the board line (micropython), bytes':40} {100000:>8} {time.monotonic() - t0:>8.1f}  "
              f"exit {code}, passed {passed}, failed {failed}")
        findings += bool(code or failed)
    print(f"findings: {findings}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
