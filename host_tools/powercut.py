"""Power-cut trials: the real firmware plays a long game in the simulator (`micropython`,
virtual time, the journal on a folder that stands for the Pico's flash); the process is
killed (SIGKILL: no clean-up, as when the power goes) at a random instant, started again
on the same flash, and asked for the whole game record. A trial passes when

  - every event the host saw before the cut is there again, identical (nothing lost);
  - the record has each sequence number once, 1..n (nothing duplicated);
  - the record is a prefix of the uninterrupted game's (virtual time makes the firmware
    deterministic), followed only by the pause the recovery itself logs;
  - the clocks are those of the last completed move: each side's time is its last `clk`
    (or the start time), and the clock is paused (or stopped after a result).

tests/e2e/test_power_cut.py runs 200 trials; bench/nothing_lost.py runs more and prints figures."""
from __future__ import annotations

import random
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess

from host_tools import micropython, tracegen
from host_tools.protocol import DeviceParser, Event, Status
from host_tools.replay import APP_HEAP

CONTROL = "5400+30"
START_MS = 5400000


def _args(flash: Path, trace: Path | None, tail: int) -> list[str]:
    args = ["simulator/main.py", "--host-first", "--tail", str(tail),
            "--presets", str(flash / "presets.json"), "--journal", str(flash / "journal.bin")]
    if trace:
        args += ["--trace", str(trace)]
    return args


def _lines(data: bytes) -> list:
    return DeviceParser().feed(data)


@dataclass
class Game:
    """The uninterrupted game: its trace, its events and how long a run takes."""
    trace: Path
    events: list[str]
    seconds: float


@dataclass
class Trial:
    cut_after: float
    seen: int = 0  # events the host saw before the cut
    recovered: int = 0  # events of the record after the restart
    lost: int = 0
    duplicated: int = 0
    problems: list[str] = field(default_factory=list)


def make_game(folder: Path, seed: int = 7, plies: int = 80) -> Game:
    """A long game's trace, played once to the end for reference."""
    rng = random.Random(seed)
    board, moves = chess.Board(), []
    b = board.copy()
    while not b.is_game_over() and len(moves) < plies:
        m = tracegen.choose_move(b, rng, engine_like=False)
        moves.append(m)
        b.push(m)
    trace = folder / "game.trace"
    trace.write_text(tracegen.trace_game(board, moves, rng))
    flash = Path(tempfile.mkdtemp(prefix="chessboard-flash-", dir=folder))
    t0 = time.monotonic()
    p = micropython.popen(_args(flash, trace, 1000), heap=APP_HEAP, stdin=-1, stdout=-1, stderr=-1)
    out, err = p.communicate(f"new tc={CONTROL}\nstart\n".encode(), timeout=600)
    seconds = time.monotonic() - t0
    if p.returncode:
        raise RuntimeError(f"the firmware stopped ({p.returncode}): {out.decode()[-800:]} {err.decode()[-2000:]}")
    events = [m.line for m in _lines(out) if isinstance(m, Event) and m.game == 2]
    return Game(trace, events, seconds)


def trial(game: Game, folder: Path, rng: random.Random) -> Trial:
    flash = Path(tempfile.mkdtemp(prefix="chessboard-flash-", dir=folder))
    try:
        return _trial(game, flash, rng)
    finally:
        shutil.rmtree(flash, ignore_errors=True)


def _trial(game: Game, flash: Path, rng: random.Random) -> Trial:
    t = Trial(cut_after=rng.uniform(0.0, game.seconds))
    p = micropython.popen(_args(flash, game.trace, 1000), heap=APP_HEAP,
                          stdin=-1, stdout=-1, stderr=-1)
    p.stdin.write(f"new tc={CONTROL}\nstart\n".encode())
    p.stdin.close()
    time.sleep(t.cut_after)
    p.send_signal(signal.SIGKILL)  # the power goes
    out = p.stdout.read()
    p.wait()
    seen = [m.line for m in _lines(out) if isinstance(m, Event) and m.game == 2]
    return after_cut(game, flash, seen, t)


def after_cut(game: Game, flash: Path, seen: list[str], t: Trial | None = None) -> Trial:
    """The power back on flash, after the host saw the events seen of game 2: the trial's
    judgement."""
    t = t or Trial(cut_after=0.0)
    t.seen = len(seen)
    # The power is back: the board starts on the same flash; the host says hello (the
    # board never speaks first) and asks for everything.
    r = micropython.run(_args(flash, None, 0), heap=APP_HEAP, compiled=True,
                        input="hello\nresend 1\nstate\n", timeout=120)
    if r.returncode:
        t.problems.append(f"the restart failed: {r.stdout[-500:]} {r.stderr[-500:]}")
        t.lost = t.seen
        return t
    msgs = _lines(r.stdout.encode())
    # Which game came back is what the `recovered` line says. The hello alone cannot tell:
    # a cut between the games counter's write and the first game's record leaves no game
    # on flash, and the board starts the next number (game 2, say) afresh.
    rec = next((m for m in msgs if isinstance(m, Status) and m.kind == "recovered"), None)
    game_id = int(rec.kwargs.get("game", 0)) if rec else 0
    hello = next((m for m in msgs if isinstance(m, Status) and m.kind == "hello"), None)
    if rec and (hello is None or hello.kwargs.get("game") != rec.kwargs.get("game")):
        t.problems.append(f"hello {hello and hello.line!r} does not name the recovered game {game_id}")
    live = []  # what the board sent by itself (nothing: it never speaks first), then the resend
    events = []
    for m in msgs:
        if isinstance(m, Event) and m.game == game_id:
            (events if events or m.seq == 1 else live).append(m)
    # A commit of two pages cut between them leaves part of a record: the board drops it
    # and says so (none of it was sent). Any other warning is a problem.
    warnings = [m.line for m in msgs if isinstance(m, Status) and m.kind == "warning"
                and "interrupted%20write" not in m.line]
    if warnings:
        t.problems.append(f"warnings: {warnings}")
    if game_id != 2:
        # Cut before the new game was on flash: then the host cannot have seen it either.
        if seen:
            t.problems.append(f"the host saw game 2, the board came back with game {game_id or 'none'}")
            t.lost = len(seen)
        return t
    seqs = [e.seq for e in events]
    t.duplicated = len(seqs) - len(set(seqs))
    if seqs != list(range(1, len(seqs) + 1)):
        t.problems.append(f"sequence numbers {seqs[:5]}... are not 1..n")
    lines = [e.line for e in events]
    t.recovered = len(lines)
    t.lost = sum(1 for a, b in zip(seen, lines) if a != b) + max(0, len(seen) - len(lines))
    n = int(rec.kwargs["seq"])
    if lines[:n] != game.events[:n]:
        t.problems.append("the recovered record is not the game's")
    extra = lines[n:]
    if extra and [e.split(" ", 1)[1] for e in extra] != ["pause"]:
        t.problems.append(f"after the recovered record: {extra}")
    if live:  # the board never speaks first: the recovery's pause comes with the resend
        t.problems.append(f"the board sent {[e.line for e in live]} before it was asked")
    _check_clocks(t, lines[:n], msgs)
    return t


def _check_clocks(t: Trial, lines: list[str], msgs: list) -> None:
    last = {0: START_MS, 1: START_MS}
    ended = False
    for line in lines:
        words = line.split()
        if words[1] == "clk":
            ply = int(words[2])
            last[(ply - 1) % 2] = int(words[3])
        elif words[1] == "result":
            ended = True
    clock = [m for m in msgs if isinstance(m, Status) and m.kind == "clock"]
    if not clock:
        t.problems.append("no clock line")
        return
    c = clock[-1]
    if ended:
        return  # a result's clocks stop where they are, not at a press
    if (int(c.args[0]), int(c.args[1])) != (last[0], last[1]):
        t.problems.append(f"clock {c.args[:2]} after the cut, the last presses gave {last}")
    if c.args[3] not in ("paused", "stopped"):
        t.problems.append(f"the clock is {c.args[3]} after the cut")
