"""For the PCB tests: KiCad's pcbnew, or why it is missing (the tests skip with the reason);
a generated file's lines but those that carry the day it was made."""
from pathlib import Path

import pytest

from hardware import pcb

try:
    PCBNEW = pcb.pcbnew_module()
    WHY = ""
except ImportError as e:
    PCBNEW = None
    WHY = str(e)

needs_pcbnew = pytest.mark.skipif(PCBNEW is None, reason=WHY)


def normal(path: Path) -> list[str]:
    """A generated file's lines but those that carry the day it was made."""
    return [line for line in Path(path).read_text().splitlines() if "date" not in line.lower() and "Created on" not in line]
