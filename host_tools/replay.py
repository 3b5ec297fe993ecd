"""python -m host_tools replay --trace FILE [--time-control TC] [--fen FEN | --chess960 N]
                               [--white NAME] [--black NAME] --pgn-out FILE

Runs a trace through the real firmware inside `micropython` (sim HAL, simulated time, as
fast as it can), and writes the game the host received as PGN: SAN with [%clk h:mm:ss]
after every move, TimeControl, Result and Termination. Tests and benchmarks use it."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from host_tools import micropython
from host_tools.gamerecord import GameRecord
from host_tools.protocol import DeviceParser, Event, Status, encode

APP_HEAP = "256K"  # the whole application on the 64-bit unix port (see README, memory)


def run_trace(trace: str | Path, control: str = "300+2", fen: str | None = None,
              chess960: int | None = None, white: str = "White", black: str = "Black",
              tail_ms: int = 3000, outputs: str | None = None, start_clock: bool = True,
              heap: str = APP_HEAP, commands: tuple = ()):
    """Play the trace; returns (GameRecord of the last game, all messages, stderr)."""
    cmd = f"new tc={control} white={encode(white)} black={encode(black)}"
    if fen:
        cmd += " fen=" + encode(fen)
    if chess960 is not None:
        cmd += f" chess960={chess960}"
    host = cmd + "\n" + "".join(c + "\n" for c in commands) + ("start\n" if start_clock else "")
    flash = tempfile.mkdtemp(prefix="chessboard-flash-")  # a fresh board: its own settings files
    args = ["firmware/hal/sim_main.py", "--trace", str(trace), "--host-first", "--tail", str(tail_ms),
            "--presets", os.path.join(flash, "presets.json")]
    if outputs:
        args += ["--outputs", outputs]
    try:
        r = micropython.run(args, heap=heap, compiled=True, input=host, timeout=1800)
    finally:
        shutil.rmtree(flash, ignore_errors=True)
    if r.returncode:
        raise RuntimeError(f"the firmware stopped: {r.stdout[-2000:]}\n{r.stderr}")
    messages = DeviceParser().feed(r.stdout.encode())
    record = None
    for m in messages:
        if isinstance(m, Event):
            if record is None or m.game != record.game:
                record = GameRecord(m.game)
            status = record.apply(m)
            if status == "gap":
                raise RuntimeError(f"event {m.seq} of game {m.game} came after {record.last_seq}")
        elif isinstance(m, Status) and m.kind == "clock" and record is not None:
            record.clocks = (int(m.args[0]), int(m.args[1]))
    return record, messages, r.stderr


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools replay", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--time-control", default="300+2")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--fen")
    g.add_argument("--chess960", type=int)
    ap.add_argument("--white", default="White")
    ap.add_argument("--black", default="Black")
    ap.add_argument("--pgn-out", required=True)
    a = ap.parse_args(argv)
    record, messages, _ = run_trace(a.trace, a.time_control, a.fen, a.chess960, a.white, a.black)
    errors = [m for m in messages if isinstance(m, Status) and m.kind == "err"]
    for e in errors:
        print("device:", e.line, file=sys.stderr)
    Path(a.pgn_out).write_text(record.pgn())
    print(f"{len(record.plies)} plies, result {record.result}"
          f"{' (' + record.termination + ')' if record.termination else ''} -> {a.pgn_out}")
    return 0
