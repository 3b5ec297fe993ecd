"""What a fab and an assembler check on the routed boards' committed files, with KiCad's own
geometry (pcbnew's PAD.HitTest): no via in or touching a surface-mount pad (solder wicks
down it; DRC accepts it, an assembler does not). Needs KiCad's pcbnew; skipped with the
reason where it is missing."""
import subprocess
import tempfile
from pathlib import Path

import pytest

from hardware import pcb
from tests.hardware.kicad import PCBNEW, needs_pcbnew

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


def kibot_rotation(footprint, kicad_degrees, bottom):
    """JLCPCB's rotation as KiBot makes it: its table of zero orientations (first match on
    the footprint's name), and its JLCPCB filter's rule (mirror_bottom: "(180 - component
    rot + angle)" on the bottom), both read from the installed KiBot."""
    import importlib.util
    import re

    from kibot.misc import DEFAULT_ROTATIONS

    base = Path(importlib.util.find_spec("kibot").submodule_search_locations[0])
    src = (base / "fil_base.py").read_text()
    jlc = src[src.index("'_rot_footprint_jlcpcb'"):][:300]
    assert "'mirror_bottom': True" in jlc and "'negative_bottom': False" in jlc
    assert "(180 - component rot + angle)" in (base / "fil_rot_footprint.py").read_text()
    angle = next((a for pattern, a in DEFAULT_ROTATIONS if re.search(pattern, footprint)), 0.0)
    return round((180 - kicad_degrees + angle) if bottom else (kicad_degrees + angle)) % 360


@pytest.mark.parametrize("name", ROUTED)
def test_the_placement_file_is_jlcpcbs_with_its_rotations(name):
    """Each line of the placement file: JLCPCB's columns and layer names, the part where the
    KiCad board has it (from the lower left corner), its rotation KiBot's for JLCPCB from
    the board's own footprint; every surface part in it or in the hand list."""
    import csv

    pytest.importorskip("kibot")
    path = pcb.HERE / "pcb" / (name + ".kicad_pcb")
    board = PCBNEW.LoadBoard(str(path))
    fps = {fp.GetReference(): fp for fp in board.GetFootprints()}
    rows = list(csv.DictReader((pcb.HERE / "pcb" / ("gerber-" + name) / (name + "-cpl.csv")).open()))
    height = PCBNEW.ToMM(board.GetBoardEdgesBoundingBox().GetHeight()) - 0.1  # (the outline's own line width)
    for r in rows:
        fp = fps[r["Designator"]]
        bottom = fp.IsFlipped()
        assert r["Layer"] == ("Bottom" if bottom else "Top")
        x, y = PCBNEW.ToMM(fp.GetPosition())
        assert abs(float(r["Mid X"]) - x) < 0.01 and abs(float(r["Mid Y"]) - (height - y)) < 0.2, r
        want = kibot_rotation(str(fp.GetFPID().GetLibItemName()), fp.GetOrientationDegrees() % 360, bottom)
        assert int(r["Rotation"]) == want, (r, want)
    smd = {ref for ref, fp in fps.items() if any(p.GetAttribute() == PCBNEW.PAD_ATTRIB_SMD for p in fp.Pads())}
    assert {r["Designator"] for r in rows} <= smd


@pytest.mark.parametrize("name", ROUTED)
def test_ground_is_poured_on_both_sides(name):
    board = PCBNEW.LoadBoard(str(pcb.HERE / "pcb" / (name + ".kicad_pcb")))
    sides = set()
    for z in board.Zones():
        if z.GetNetname() != "GND":
            continue
        for layer in (PCBNEW.F_Cu, PCBNEW.B_Cu):
            if z.IsOnLayer(layer) and z.GetFilledPolysList(layer).OutlineCount() > 0:
                sides.add(layer)
    assert sides == {PCBNEW.F_Cu, PCBNEW.B_Cu}


def test_the_supply_tracks_are_as_wide_as_ipc_2221_asks():
    """Each supply net's tracks on the controller (KiCad's board as committed) at least the
    width IPC-2221 asks for its current with a 10 K rise in 35 um copper, but for the necks
    between a chip's pins; the 0.6 mm the board had was short for VBUS's 1.9 A."""
    from hardware.layoutpcb import NET_AMPS
    from hardware.routedpcb import TRACK, ipc2221_mm

    assert 0.70 < ipc2221_mm(1.9) < 0.76 and ipc2221_mm(1.9) > 0.6  # (the chart's fit, checked at one point)
    board = PCBNEW.LoadBoard(str(pcb.HERE / "pcb" / "controller.kicad_pcb"))
    widths = {}
    for t in board.GetTracks():
        if t.GetClass() == "PCB_TRACK" and t.GetNetname() in NET_AMPS:
            widths.setdefault(t.GetNetname(), []).append(PCBNEW.ToMM(t.GetWidth()))
    assert {"VBUS", "VSYS", "BOOST_5V"} <= set(widths)
    for net, ws in widths.items():
        run = [w for w in ws if w > TRACK + 1e-6]  # (the thin necks at a chip's pins aside)
        assert run and min(run) >= ipc2221_mm(NET_AMPS[net]) - 1e-6, (net, min(run), ipc2221_mm(NET_AMPS[net]))
