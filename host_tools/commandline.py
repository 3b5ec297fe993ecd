"""What the command lines share: one error kind whose message is the one line a user
sees (`prog: error: ...`, exit status 1), and the checks of what a command line names
(files to read, folders to write, the simulator's fault), made before anything runs."""
from __future__ import annotations

import os
from pathlib import Path


class CommandError(ValueError):
    """A command line that cannot run: its message says why, in one line."""


def check_fault(spec: str | None) -> None:
    if spec is None:
        return
    kind, _, n = spec.partition(":")
    if kind not in ("hang", "raise") or not n.isdigit():
        raise CommandError(f"--fault is hang:N or raise:N (N scans), not {spec!r}")


def writable_folder(path: str, what: str) -> None:
    """path is (or can be made) a folder this process can write in; CommandError if not."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
        probe = Path(path) / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise CommandError(f"{what} {path} cannot be written: {e.strerror or e}") from None


def readable_file(path: str, what: str) -> None:
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise CommandError(f"{what} {path} is not a readable file")
