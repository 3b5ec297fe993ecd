"""Nothing is lost (issue 7): the figures.

- power-cut trials: the firmware in the simulator killed at random instants of a long game
  and started again on the same flash (host_tools/powercut.py): trials, events lost,
  events duplicated, trials with any other problem;
- fuzzing: random and mutated bytes into the device's protocol parser and random occupancy
  noise into the recogniser, both inside micropython (the firmware's fuzz tests), and bad
  requests and frames at the relay's HTTP and websocket endpoints (tests/host/webfuzz.py):
  inputs tried, crashes, server errors;
- the journal: bytes it writes per move, what littlefs (the Pico's filesystem, on a RAM
  flash with the Pico's 4 KB erase blocks) programs and erases for them, and the time of
  a commit inside micropython (x150 for a 125 MHz RP2040, plus the flash's own erase and
  program times).

    python bench/nothing_lost.py [--trials N] [--web N] [--plies N]
"""
import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import micropython, powercut  # noqa: E402
from host_tools.replay import APP_HEAP  # noqa: E402
from host_tools.micropython import CHIP_FACTOR  # noqa: E402

ERASE_MS = 45  # a 4 KB sector erase of the Pico's W25Q16 flash, typical (datasheet)
PAGE_MS = 0.4  # a 256-byte page program, typical


def power_cuts(n):
    folder = Path(tempfile.mkdtemp(prefix="chessboard-bench-"))
    game = powercut.make_game(folder, seed=7, plies=160)
    rng = random.Random(2026)
    lost = dup = bad = seen = 0
    for _ in range(n):
        t = powercut.trial(game, folder, rng)
        lost += t.lost
        dup += t.duplicated
        bad += bool(t.problems)
        seen += t.seen
    return len(game.events), lost, dup, bad, seen


def firmware_fuzz():
    out = {}
    for module in ("test_fuzz_protocol", "test_fuzz_recognizer"):
        r = micropython.run(["tests/firmware/runner.py", "tests.firmware." + module], heap=APP_HEAP,
                            compiled=True, also=("tests/firmware",), timeout=1800)
        out[module] = (r.returncode, r.stdout.count("PASS"), r.stdout.count("FAIL"))
    return out


async def web_fuzz(n):
    from host_tools.relay.app import Relay
    from tests.host import webfuzz

    logging.getLogger("aiohttp").setLevel(logging.CRITICAL)
    d = Path(tempfile.mkdtemp(prefix="chessboard-bench-"))
    relay = Relay(d / "out", [str(d / "boards" / "*")], discover=False, http_port=0,
                  livechess_port=0, log=lambda s: None, token="bench-token")
    await relay.start()
    try:
        seen = await webfuzz.run(relay.http_port, relay.livechess_port, n, seed=99)
        import aiohttp

        async with aiohttp.ClientSession() as http:
            alive = (await http.get(relay.urls()["page"] + "api/state")).status
    finally:
        await relay.stop()
    return seen, alive


def journal(plies):
    r = micropython.run(["bench/journal_core.py", str(plies)], heap="2M", compiled=True, also=("tests/firmware",),
                        timeout=1800)
    if r.returncode:
        raise SystemExit(r.stdout + r.stderr)
    return dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--web", type=int, default=2000, help="inputs of each kind at the relay")
    ap.add_argument("--plies", type=int, default=200, help="plies of the journal's game")
    a = ap.parse_args()
    t0 = time.time()
    events, lost, dup, bad, seen = power_cuts(a.trials)
    print(f"power-cut trials             {a.trials} (a {events}-event game; {seen} events seen before the cuts)")
    print(f"  events lost                {lost}")
    print(f"  events duplicated          {dup}")
    print(f"  trials with a problem      {bad}")
    fz = firmware_fuzz()
    rc, ok, fail = fz["test_fuzz_protocol"]
    print(f"protocol fuzz (micropython)  100,000+ random and mutated bytes: {'no crash' if rc == 0 else 'FAILED'}")
    rc, ok, fail = fz["test_fuzz_recognizer"]
    print(f"occupancy noise (micropython) 20,000 chatter scans, 1,000 random boards: {'no crash' if rc == 0 else 'FAILED'}")
    seen_web, alive = asyncio.run(web_fuzz(a.web))
    errors = sum(v for k, v in seen_web.items() if k.startswith("status 5"))
    total = seen_web.get("raw", 0) + seen_web.get("http", 0) + seen_web.get("ws", 0)
    print(f"relay fuzz                   {total} inputs (raw socket, HTTP, two websockets)")
    print(f"  server errors (5xx)        {errors}")
    print(f"  relay answering afterwards {'yes' if alive == 200 else 'NO'}")
    j = journal(a.plies)
    per = int(j["journal_bytes_per_move"])
    prog = int(j["flash_programmed_per_move"])
    er = float(j["flash_erased_blocks_per_move"])
    us = int(j["commit_us_median"])
    print(f"journal, per move            {per} bytes written by the firmware")
    print(f"  on the flash               {prog} bytes programmed, {er:.2f} 4 KB blocks erased while the clock runs")
    print(f"  commit inside micropython  {us} us median, {j['commit_us_max']} us max")
    chip = us * CHIP_FACTOR / 1000 + er * ERASE_MS + prog / 256 * PAGE_MS
    print(f"  on a 125 MHz RP2040        ~{chip:.0f} ms a move (x{CHIP_FACTOR} + flash erase/program times)")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
