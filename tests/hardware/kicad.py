"""For the PCB tests: KiCad's pcbnew and its footprint library, or why they are missing (the
tests skip with the reason);
a generated file's lines but those that carry the day it was made; a board generated afresh
held to the committed one."""
import subprocess
import sys
from pathlib import Path

import pytest

from hardware import pcb

try:
    PCBNEW = pcb.pcbnew_module()
    from hardware import kicadlib

    kicadlib.library_dir()  # the routed boards' footprints are KiCad's library's
    WHY = ""
except ImportError as e:
    PCBNEW = None
    WHY = str(e)

needs_pcbnew = pytest.mark.skipif(PCBNEW is None, reason=WHY)


def normal(path: Path) -> list[str]:
    """A generated file's lines but those that carry the day it was made."""
    return [line for line in Path(path).read_text().splitlines() if "date" not in line.lower() and "Created on" not in line]


def regenerate(out: Path, module: str, *args: str, timeout: int = 600):
    """Run a board's generator (python -m module args --out out) from the repository root."""
    r = subprocess.run([sys.executable, "-m", module, *args, "--out", str(out)], capture_output=True, text=True,
                       timeout=timeout, cwd=str(pcb.HERE.parent))
    assert r.returncode == 0, r.stdout + r.stderr


def assert_same_board(made, committed, stale: str):
    """made, committed: (KiCad board, its DRC report, its fab folder): the board identical,
    the report and every fab file but for their dates (and the report's first line)."""
    assert made[0].read_text() == committed[0].read_text(), stale
    assert normal(made[1])[1:] == normal(committed[1])[1:]
    for new in sorted(made[2].iterdir()):
        assert normal(new) == normal(committed[2] / new.name), new.name
