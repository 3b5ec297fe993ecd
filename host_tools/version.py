"""The firmware's version as a build names it: the source's own number and the last commit
that changed what runs on the board (firmware/, main.py, manifest.py), so that `hello ...
fw=` tells which commit a board was built from, and two builds of the same firmware have
the same name (the UF2's cache is keyed by the content, not by the newest commit)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ON_BOARD = ("firmware", "main.py", "manifest.py")  # what a board runs, for git


def base() -> str:
    """The number in firmware/version.py, without its "+src"."""
    text = (ROOT / "firmware" / "version.py").read_text()
    return re.search(r'VERSION = "([^"+]+)', text).group(1)


def _git(*args: str) -> str | None:
    try:
        r = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def describe() -> str:
    """"0.1.0+g1a2b3c4" (".dirty" after it when the firmware differs from that commit);
    "0.1.0+unknown" outside a git checkout."""
    commit = _git("log", "-1", "--format=%h", "--abbrev=7", "--", *ON_BOARD)
    if not commit:
        return base() + "+unknown"
    dirty = _git("status", "--porcelain", "--", *ON_BOARD)
    return "%s+g%s%s" % (base(), commit, ".dirty" if dirty else "")


def source(version: str) -> str:
    """firmware/version.py as a build writes it into its copy."""
    text = (ROOT / "firmware" / "version.py").read_text()
    return re.sub(r'VERSION = "[^"]*"', 'VERSION = "%s"' % version, text)
