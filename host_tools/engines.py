"""Where a UCI engine is: the one given, or Stockfish where the usual installs put it.
Used by `play engine` (the opponent) and by the relay (the spectators' evaluation)."""
from __future__ import annotations

import os
import shutil

PLACES = ("stockfish", "/usr/games/stockfish", "/usr/local/bin/stockfish", "/opt/homebrew/bin/stockfish")


class EngineMissing(ValueError):
    """No engine where one was asked for; the message says what to install or give."""


def find_engine(path: str | None = None) -> str:
    """The engine to run: path, or Stockfish on the PATH or where Debian puts it."""
    if path:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        found = shutil.which(path)
        if found:
            return found
        raise EngineMissing(f"the engine {path!r} is not an executable file")
    for candidate in PLACES:
        found = shutil.which(candidate) or (candidate if os.access(candidate, os.X_OK) else None)
        if found:
            return found
    raise EngineMissing("no chess engine found: install Stockfish (Debian: apt-get install stockfish; "
                        "macOS: brew install stockfish) or give one with --engine PATH")
