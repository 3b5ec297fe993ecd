"""The firmware on the chip: the board's UF2 (MicroPython v1.28.0 with the firmware frozen
in, python -m host_tools uf2) on an emulated RP2040 (../shared/rp2emu), a game played on it
with pieces and levers as people move them (host_tools/tracegen.py), and every figure read in
emulated time (cycles at 125 MHz):

- the last thing a player did for a move -> its `move` line (median, worst): the last lift
  or placement, or the press when the move waited for it;
- the lever going down -> its `clk` line (median, worst);
- matrix scans per second and the longest gap between two scans during the game;
- GC pauses (count, median, longest) and whether one fell between a move and its line;
- flash erases during the game (each stops the chip for ~45 ms with interrupts off);
- heap free after gc.collect() at the end of the game (the `memory` command).

    python bench/chip.py [--plies 300] [--seed 3] [--timing typ|max|none]

Frozen bytecode runs from the flash (XIP), whose cache misses the emulator does not model:
on a real Pico the code may run somewhat slower than these figures. The unix-port figures
of the same firmware are bench/device.py's.
"""
import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import emulator, micropython, tracegen, uf2  # noqa: E402
from host_tools.replay import APP_HEAP  # noqa: E402


def unix_port(trace):
    """The same trace through the same firmware in the unix port (bench/device_core.py):
    {"delay": "median worst", "heap": bytes, "scans": "min median max"}."""
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(trace)
    try:
        r = micropython.run(["bench/device_core.py", "latency", f.name], heap=APP_HEAP,
                            compiled=True, timeout=1800)
        out = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
        r2 = micropython.run(["bench/device_core.py", "rate", f.name, "10"], heap=APP_HEAP,
                             compiled=True, timeout=600)
    finally:
        Path(f.name).unlink()
    if r.returncode or r2.returncode:
        return {}
    d = out["delay_ms"].split()
    s = r2.stdout.split()
    return {"delay": f"median {d[1]}, worst {d[3]} ms", "heap": f"peak live {int(out['peak_heap_bytes']) // 1024} KB",
            "scans": s[s.index("median") + 1]}


def long_game(plies, seed):
    """A standard game of at least `plies` plies (random games joined end to end are not
    one game, so the seed moves on until one is long enough)."""
    while True:
        board, moves = tracegen.random_game(seed, max_plies=plies)
        if not board.chess960 and len(moves) >= plies:
            return seed, board, moves
        seed += 1


def measure(lines, acts, base):
    """Latencies from the log. A move's line is timed from the last thing the player did
    before it: the last lift or placement, or the press if one came before the line (a
    move that waits for the press - a capture whose order is ambiguous, a castling half, a
    promotion - is completed by it). Returns (plain moves, press-completed moves, clk
    latencies, moves seen)."""
    changes = [base + t for t, a in acts if a["kind"] in ("lift", "place")]
    presses = [base + t for t, a in acts if a["kind"] == "press" and a["btn"] in ("white", "black")]
    plain, pressed, clk_lat, seen = [], [], [], 0
    for ln in lines:
        words = ln["s"].split()
        if len(words) < 2 or not words[0].startswith("@"):
            continue
        t = ln["t"]
        if words[1] == "move":
            seen += 1
            last = max((c for c in changes if c <= t), default=None)
            if last is None:
                continue
            press = max((p for p in presses if last <= p <= t), default=None)
            (pressed if press is not None else plain).append(t - (press if press is not None else last))
        elif words[1] == "clk":
            last = max((p for p in presses if p <= t), default=None)
            if last is not None:
                clk_lat.append(t - last)
    return plain, pressed, clk_lat, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--timing", default="typ", choices=("typ", "max", "none"))
    ap.add_argument("--port", type=int, default=7811)
    ap.add_argument("--keep", help="a folder for the emulator's log (default: a temporary one)")
    a = ap.parse_args()
    home, why = emulator.locate()
    if home is None:
        sys.exit(why)
    seed, board, moves = long_game(a.plies, a.seed)
    trace = tracegen.trace_game(board, moves, random.Random(seed))
    acts = emulator.actions(trace)
    cache = ROOT / "build" / "chip"
    board = uf2.current()
    image, how = emulator.uf2_image(cache, a.port, board), f"{board.name} ({uf2.image_size(board)} bytes of flash)"
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="chip-bench-"))
    # The faces answer on I2C, as on a real board: their driver runs at every refresh.
    with emulator.Pico(work, a.port).start(flash=image, timing=a.timing, extra=("--displays",)) as pico:
        pico.hello()
        pico.occupy(emulator.occupancy(trace))
        pico.send("new")
        t_new = pico.line(" game ", after=0)["t"]
        base = t_new + 3000  # a board waits for its round: the journal prepares meanwhile
        pico.wait_until(base - 100)
        flash0 = dict(pico.stats()["flashOps"])
        end = emulator.schedule(pico, acts, base)
        pico.wait_until(end + 1000)
        stats = pico.stats(since=base)
        flash = {k: v - flash0[k] for k, v in stats["flashOps"].items()}
        pico.send("memory")
        mem = pico.line("memory", after=end)["s"].split(" ", 2)[2]
        lines = pico.lines()
    plain, pressed, clk_lat, seen = measure(lines, acts, base)
    move_lat = plain + pressed
    gc = stats["gc"]
    scan = stats["scan"]
    unix = unix_port(trace)
    print(f"firmware: {how}")
    print(f"a game of {len(moves)} plies (seed {seed}); {seen} move lines; flash timing {a.timing}")
    print(f"{'':40} {'on the chip':>24}   must be")
    if move_lat:
        print(f"{'last action of a move -> move line':40} {'median %.0f, worst %.0f ms' % (statistics.median(move_lat), max(move_lat)):>24}   median <= 120, worst <= 200 ms")
        if plain:
            print(f"{'  moves the board commits by itself':40} {'%d: median %.0f, worst %.0f' % (len(plain), statistics.median(plain), max(plain)):>24}")
        if pressed:
            print(f"{'  moves completed by the press':40} {'%d: median %.0f, worst %.0f' % (len(pressed), statistics.median(pressed), max(pressed)):>24}")
    if clk_lat:
        print(f"{'lever down -> clk line':40} {'median %.0f, worst %.0f ms' % (statistics.median(clk_lat), max(clk_lat)):>24}   <= 20 ms")
    print(f"{'scans per second':40} {scan.get('per_s', 0):>24.1f}   >= 98")
    print(f"{'longest gap between two scans':40} {'%.0f ms' % scan.get('gap_max_ms', 0):>24}   <= 30 ms")
    print(f"{'GC pauses':40} {'%d, median %.1f, max %.1f ms' % (gc.get('count', 0), gc.get('median_ms', 0), gc.get('max_ms', 0)):>24}   out of a move's path")
    print(f"{'flash erases / programs during the game':40} {'%d / %d' % (flash['erase'], flash['program']):>24}   no erase")
    print(f"{'heap after gc.collect() after the game':40} {mem:>24}   free >= 150 KB (UF2)")
    print(f"emulator: {stats['t'] / 1000:.0f} s emulated in {stats['wall_s']:.0f} s")
    if unix:
        print(f"the unix port, same trace (bench/device.py's way): last change -> move line {unix['delay']} "
              f"(the press not counted), {unix['scans']} scans/s, {unix['heap']} (64-bit objects)")


if __name__ == "__main__":
    main()
