"""Every firmware test function in tests/firmware/ runs again here inside the real
`micropython` interpreter with the heap capped (tests/mpy.py: 128K; 256K for a module
that runs the whole application), one process per test, so that a test passing under
CPython alone never counts as proof for the chip."""
import re
from pathlib import Path

import pytest

from tests import mpy

HERE = Path(__file__).parent / "firmware"


def _cases():
    for path in sorted(HERE.glob("test_*.py")):
        text = path.read_text()
        # A module that needs the whole application says so: MICROPYTHON_HEAP = "256K".
        heap = re.search(r'^MICROPYTHON_HEAP = "(\w+)"', text, re.M)
        for name in re.findall(r"^def (test_\w+)\(\)", text, re.M):
            yield pytest.param("tests.firmware." + path.stem, name, heap.group(1) if heap else mpy.HEAP,
                               id=f"{path.stem}::{name}")


@pytest.mark.parametrize("module,name,heap", list(_cases()))
def test_in_micropython(module, name, heap):
    r = mpy.run(["tests/firmware/runner.py", module, name], heap=heap)
    assert r.returncode == 0 and f"PASS {name}" in r.stdout, r.stdout + r.stderr
