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
from host_tools.board.record import GameRecord
from host_tools.protocol import DeviceParser, Event, Status, encode
from host_tools.commandline import CommandError, trace_file

# The whole application with its journal on the 64-bit unix port (docs/developer.md, "Speed and memory"): its
# live heap passes 230 KB in the real-time simulator, which ran out of a 320K heap in the
# watchdog test; the chip's own figure is bench/chip.py's (objects ~40% smaller, ~89 KB
# free after a game).
APP_HEAP = "384K"


def run_trace(trace: str | Path, control: str = "300+2", fen: str | None = None,
              chess960: int | None = None, white: str = "White", black: str = "Black",
              tail_ms: int = 3000, outputs: str | None = None, start_clock: bool | None = None,
              heap: str = APP_HEAP, commands: tuple = ()):
    """Play the trace; returns (GameRecord of the last game, all messages, stderr).
    start_clock: send `start` before the trace; by default only when the trace does not
    start the clock itself with a press before the first move (as the opponent's button
    does, 6.6), so that every turn is timed from the press the trace has."""
    if start_clock is None:
        start_clock = not starts_its_clock(trace)
    cmd = f"new tc={control} white={encode(white)} black={encode(black)}"
    if fen:
        cmd += " fen=" + encode(fen)
    if chess960 is not None:
        cmd += f" chess960={chess960}"
    host = cmd + "\n" + "".join(c + "\n" for c in commands) + ("start\n" if start_clock else "")
    flash = tempfile.mkdtemp(prefix="chessboard-flash-")  # a fresh board: its own settings files
    args = ["simulator/main.py", "--trace", str(trace), "--host-first", "--tail", str(tail_ms),
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


def starts_its_clock(trace: str | Path) -> bool:
    """Whether a lever is pressed in the trace before the pieces first move."""
    first_occ = None
    with open(trace) as f:
        for line in f:
            words = line.split()
            if len(words) < 3 or words[0].startswith("#"):
                continue
            if words[1] == "occ":
                if first_occ is None:
                    first_occ = words[2]
                elif words[2] != first_occ:
                    return False
            elif words[1] == "press" or (words[1] == "lever" and words[-1] == "down"):
                return True
    return False


def main(argv=None):
    prog = "python -m host_tools replay"
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
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
    try:
        _check(a)
        record, messages, _ = run_trace(a.trace, a.time_control, a.fen, a.chess960, a.white, a.black)
        errors = [m for m in messages if isinstance(m, Status) and m.kind == "err"]
        if record is None or not any(isinstance(m, Status) and m.kind == "ok" and m.args[:1] == ["new"]
                                     for m in messages):
            said = errors[0].line if errors else "no game"
            raise CommandError(f"the board refused the game: {said}")
        for e in errors:
            print("device:", e.line, file=sys.stderr)
        Path(a.pgn_out).write_text(record.pgn())
    except (CommandError, RuntimeError, OSError) as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    print(f"{len(record.plies)} plies, result {record.result}"
          f"{' (' + record.termination + ')' if record.termination else ''} -> {a.pgn_out}")
    return 0


def _check(a) -> None:
    """Everything the command line names, before the firmware runs: one line says what is wrong."""
    import chess

    from firmware.clock.timecontrol import parse as parse_control
    trace_file(a.trace)
    try:
        parse_control(a.time_control)
    except ValueError as e:
        raise CommandError(f"--time-control {a.time_control!r}: {e}") from None
    if a.fen is not None:
        try:
            chess.Board(a.fen)
        except ValueError as e:
            raise CommandError(f"--fen: {e}") from None
    if a.chess960 is not None and not 0 <= a.chess960 <= 959:
        raise CommandError(f"--chess960 is a start position number 0..959, not {a.chess960}")
    out = Path(a.pgn_out)
    folder = out.parent if str(out.parent) else Path(".")
    if out.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise CommandError(f"--pgn-out {a.pgn_out}: not a file that can be written")
