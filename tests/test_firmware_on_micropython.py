"""Every firmware test function in tests/firmware/ runs again here inside the real
`micropython` interpreter with the heap capped (tests/mpy.py), one process per test, so
that a test passing under CPython alone never counts as proof for the chip."""
import re
from pathlib import Path

import pytest

from tests import mpy

HERE = Path(__file__).parent / "firmware"


def _cases():
    for path in sorted(HERE.glob("test_*.py")):
        for name in re.findall(r"^def (test_\w+)\(\)", path.read_text(), re.M):
            yield pytest.param("tests.firmware." + path.stem, name, id=f"{path.stem}::{name}")


@pytest.mark.parametrize("module,name", list(_cases()))
def test_in_micropython(module, name):
    r = mpy.run(["tests/firmware/runner.py", module, name])
    assert r.returncode == 0 and f"PASS {name}" in r.stdout, r.stdout + r.stderr
