"""The relay's files, all under one output folder:

    <out>/board-<n>.events       every sequenced event line a board sent, in order: the
                                 relay's own journal, replayed on restart
    <out>/board-<n>.pgn          that board's current game
    <out>/board-<n>-game-<g>.pgn each finished or replaced game
    <out>/round.pgn              the current game of every board (what lichess polls)

PGN files are written to a new file and renamed, so a reader never sees half of one.
"""
from __future__ import annotations

import os
from pathlib import Path


class Store:
    def __init__(self, out: str | Path):
        self.out = Path(out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)

    def path(self, name: str) -> Path:
        """A file in the output folder; refuses any name that would leave it."""
        p = (self.out / name).resolve()
        if p.parent != self.out or not name or "/" in name or "\\" in name or name.startswith("."):
            raise ValueError(f"not a file of the output folder: {name!r}")
        return p

    def append_event(self, board: int, line: str) -> None:
        with open(self.path(f"board-{board}.events"), "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def events(self, board: int) -> list[str]:
        p = self.path(f"board-{board}.events")
        return p.read_text().splitlines() if p.exists() else []

    def boards(self) -> list[int]:
        out = []
        for p in self.out.glob("board-*.events"):
            try:
                out.append(int(p.stem.split("-")[1]))
            except ValueError:
                pass
        return sorted(out)

    def write(self, name: str, text: str) -> Path:
        p = self.path(name)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(text)
        os.replace(tmp, p)
        return p
