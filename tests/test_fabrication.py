"""What a fab and an assembler check on the routed boards' committed files, with KiCad's own
geometry (pcbnew's PAD.HitTest): no via in or touching a surface-mount pad (solder wicks
down it; DRC accepts it, an assembler does not). Needs KiCad's pcbnew; skipped with the
reason where it is missing."""
import subprocess
import tempfile
from pathlib import Path

import pytest

from hardware import pcb
from tests.kicad import PCBNEW, needs_pcbnew

pytestmark = needs_pcbnew

ROUTED = ("face", "controller", "buttons", "guard", "voice")


def vias_on_surface_pads(path):
    """[(via position mm, reference, pad)]: each via whose copper is in or touches a surface
    pad's copper (KiCad's hit test of the pad's shape, widened by the via's radius)."""
    board = PCBNEW.LoadBoard(str(path))
    smd = [(fp.GetReference(), p) for fp in board.GetFootprints() for p in fp.Pads()
           if p.GetAttribute() == PCBNEW.PAD_ATTRIB_SMD]
    found = []
    for t in board.GetTracks():
        if t.GetClass() != "PCB_VIA":
            continue
        for ref, p in smd:
            if p.HitTest(t.GetPosition(), t.GetWidth() // 2):
                found.append((PCBNEW.ToMM(t.GetPosition()), ref, p.GetNumber()))
    return found


@pytest.mark.parametrize("name", ROUTED)
def test_no_via_in_or_touching_a_surface_mount_pad(name):
    assert vias_on_surface_pads(pcb.HERE / "pcb" / (name + ".kicad_pcb")) == []


def test_the_check_finds_the_vias_the_boards_had():
    # The face and the controller as they were before the router kept vias off surface pads
    # (24 such vias between them: the HT16K33's pads, the USBLC6, a BSS138, the SP0504).
    found = 0
    for name in ("face", "controller"):
        old = subprocess.run(["git", "show", "1bf2f30:hardware/pcb/%s.kicad_pcb" % name], capture_output=True,
                             text=True, cwd=str(pcb.HERE.parent))
        if old.returncode != 0:
            pytest.skip("the old boards are not in this clone's history")
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / (name + ".kicad_pcb")
            path.write_text(old.stdout)
            found += len(vias_on_surface_pads(path))
    assert found >= 20
