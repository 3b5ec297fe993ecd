"""Every firmware test function in tests/firmware/ runs again here inside the real
`micropython` interpreter with the heap capped (tests/firmware/mpy.py: 128K; 256K for a module
that runs the whole application), one process per test, so that a test passing under
CPython alone never counts as proof for the chip. A module of tests/firmware/ that needs
CPython (pytest, python-chess, ast, sys.setprofile) says so and why in a line of its own,
`CPYTHON_ONLY = "..."`, and is left out here."""
import re
from pathlib import Path

import pytest

from tests.firmware import mpy

CPYTHON_ONLY = "it starts micropython itself"  # (its tests are not run again in micropython)

HERE = Path(__file__).parent


def _cases():
    for path in sorted(HERE.glob("test_*.py")):
        text = path.read_text()
        if re.search(r"^CPYTHON_ONLY = ", text, re.M):
            continue  # a test of the firmware that needs CPython (it says why)
        # A module that needs the whole application says so: MICROPYTHON_HEAP = "256K".
        heap = re.search(r'^MICROPYTHON_HEAP = "(\w+)"', text, re.M)
        for name in re.findall(r"^def (test_\w+)\(\)", text, re.M):
            yield pytest.param("tests.firmware." + path.stem, name, heap.group(1) if heap else mpy.HEAP,
                               id=f"{path.stem}::{name}")


@pytest.mark.parametrize("module,name,heap", list(_cases()))
def test_in_micropython(module, name, heap):
    r = mpy.run(["tests/firmware/runner.py", module, name], heap=heap)
    assert r.returncode == 0 and f"PASS {name}" in r.stdout, r.stdout + r.stderr
