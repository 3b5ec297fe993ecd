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


def trace_file(path: str) -> None:
    """path is a readable trace (simulator/trace.py) of lines the simulator can play, in
    time order; CommandError naming the first line that is not."""
    from simulator.trace import TraceError, parse_line

    readable_file(path, "the trace")
    last = 0
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                try:
                    ev = parse_line(line)
                except TraceError:
                    raise CommandError(f"the trace {path}, line {n}, is no trace line: {line.strip()[:60]!r}") from None
                if ev is not None:
                    if ev[0] < last:
                        raise CommandError(f"the trace {path}, line {n}, goes back in time ({ev[0]} ms after {last})")
                    last = ev[0]
    except UnicodeDecodeError:
        raise CommandError(f"the trace {path} is not text (UTF-8)") from None


# The simulator's stand-in for a Pico's flash: the files it holds. Those the simulator
# itself writes must be files; none may be a link (the simulator would write through it,
# over another file). A settings file that is a folder is the firmware's to refuse, as
# on a chip: the board starts on its defaults and says so.
FLASH_OWN = ("journal.bin", "journal.bin.games", "journal.bin.games.new", "board.occ", "watchdog")
FLASH_SETTINGS = ("presets.json", "access.json", "config.json")


def flash_folder(path: str) -> None:
    writable_folder(path, "the flash folder")
    for name in FLASH_OWN + FLASH_SETTINGS:
        p = Path(path) / name
        if p.is_symlink():
            raise CommandError(f"the flash folder's {name} is a link: a board's flash holds its own files only")
        if name in FLASH_OWN and p.exists() and not p.is_file():
            raise CommandError(f"the flash folder's {name} is not a file")
