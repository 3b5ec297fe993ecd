"""The spectators' evaluation: a UCI engine (Stockfish by default, through python-chess's
chess.engine) looks at each board's newest position in the background, at a bounded cost:
one engine process with one search thread (at most one core of the relay's machine, at a
low priority so that it never slows the relay down), each position for at most
`movetime_ms`. Only a board's newest position waits: a board that
moved again before its turn came is analysed once, at its newest position, so a hall of
boards slows the evaluations down and never piles work up.

What it finds (the score from White's side, in centipawns or as a mate, and the best line
in SAN) goes on the board's session and to the page's feed, and nowhere else: never to a
board, a player's device or a PGN. An engine that dies is started again (at most
`RESTARTS` times, then the evaluation is off and the log says why); the relay goes on."""
from __future__ import annotations

import asyncio
import os
import subprocess

import chess
import chess.engine

PV_PLIES = 8  # the best line shown, in plies
RESTARTS = 3
RESTART_WAIT_S = 2.0


def _below_normal() -> dict:
    """How the engine is started so that it never takes the CPU from the relay (whose work
    is the boards' moves): a low priority, on every system."""
    if os.name == "nt":
        return {"creationflags": subprocess.BELOW_NORMAL_PRIORITY_CLASS}
    return {"preexec_fn": lambda: os.nice(19)}


def score_json(pov: chess.engine.PovScore) -> dict:
    """A score from White's side: {"cp": 34} or {"mate": -3} (Black mates in 3)."""
    white = pov.white()
    if white.is_mate():
        return {"mate": white.mate()}
    return {"cp": white.score()}


def line_san(board: chess.Board, pv: list) -> list[str]:
    """The first PV_PLIES moves of a line in SAN, from board (left as it was)."""
    b = board.copy(stack=False)
    out = []
    for move in pv[:PV_PLIES]:
        if not b.is_legal(move):
            break
        out.append(b.san(move))
        b.push(move)
    return out


class Analysis:
    def __init__(self, engine_path: str, publish, log=print, movetime_ms: int = 300, hash_mb: int = 16):
        """publish(session): the session's `analysis` changed (the relay tells the page)."""
        self.engine_path = engine_path
        self.publish = publish
        self.log = log
        self.limit = chess.engine.Limit(time=movetime_ms / 1000)
        self.options = {"Threads": 1, "Hash": hash_mb}
        self.pending: dict[int, tuple] = {}  # board number -> (session, board, fen): newest only
        self.analysed: dict[int, str] = {}  # board number -> the FEN its analysis is of
        self.positions = 0  # analysed so far (for the benchmark)
        self._wake = asyncio.Event()
        self._task = None
        self._engine = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        await self._quit()

    def changed(self, s) -> None:
        """A board's game changed: its newest position waits for the engine (once)."""
        rec = s.record
        if rec is None:
            return
        try:
            position = rec.position()  # read only; copied below only when it is queued
        except ValueError:
            return
        fen = position.fen()
        if position.is_game_over() or rec.result != "*":
            self.pending.pop(s.number, None)
            self.analysed.pop(s.number, None)
            if s.analysis is not None:
                s.analysis = None
                self.publish(s)
            return
        if self.analysed.get(s.number) == fen:
            return
        self.pending.pop(s.number, None)  # to the back of the queue, with its newest position
        self.pending[s.number] = (s, position.copy(), fen)
        self._wake.set()

    async def _run(self) -> None:
        failures = 0
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.pending:
                number = next(iter(self.pending))
                s, board, fen = self.pending.pop(number)
                try:
                    if self._engine is None:
                        _, self._engine = await chess.engine.popen_uci(self.engine_path, **_below_normal())
                        await self._engine.configure(
                            {k: v for k, v in self.options.items() if k in self._engine.options})
                    info = await self._engine.analyse(board, self.limit)
                except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as e:
                    await self._quit()
                    failures += 1
                    if failures > RESTARTS:
                        self.log(f"analysis: the engine {self.engine_path} failed {failures} times ({e}): "
                                 "the spectators' evaluation is off")
                        self.pending.clear()
                        return
                    self.log(f"analysis: the engine failed ({e}); starting it again")
                    self.pending.setdefault(number, (s, board, fen))
                    await asyncio.sleep(RESTART_WAIT_S)
                    continue
                self.positions += 1
                if "score" not in info or s.record is None or s.record.result != "*":
                    continue  # (the game ended while the engine looked)
                self.analysed[number] = fen
                s.analysis = {"fen": fen, "ply": len(board.move_stack), "depth": info.get("depth"),
                              **score_json(info["score"]), "pv": line_san(board, info.get("pv", []))}
                self.publish(s)

    async def _quit(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            try:
                await asyncio.wait_for(engine.quit(), 2)
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, asyncio.TimeoutError, OSError):
                pass
