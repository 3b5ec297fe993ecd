"""The sensor PCB (#17, hardware/pcb.py) as KiCad builds it: its design rules check clean
at several square pitches; every switch and diode of the circuit on it, connected as the
circuit connects them; the switches where the geometry says; the committed board, Gerber
and drill files what the generator gives. Needs KiCad's pcbnew (Debian's kicad, which
./run test installs); skipped with the reason where it is missing."""
from pathlib import Path

import pytest

from hardware import geometry as G
from hardware import pcb

try:
    PCBNEW = pcb.pcbnew_module()
except ImportError as e:
    PCBNEW = None
    WHY = str(e)

pytestmark = pytest.mark.skipif(PCBNEW is None, reason=WHY if PCBNEW is None else "")


def _normal(path: Path) -> list[str]:
    """A generated file's lines but those that carry the day it was made."""
    return [l for l in path.read_text().splitlines() if "date" not in l.lower() and "Created on" not in l]


@pytest.mark.parametrize("pitch", [50.0, G.PITCH, 60.0])
def test_the_design_rules_check_is_clean(tmp_path, pitch):
    violations, unconnected = pcb.write_all(pitch, tmp_path)
    assert (violations, unconnected) == (0, 0), (tmp_path / pcb.DRC_FILE.name).read_text()[:2000]
    assert {p.name for p in (tmp_path / "gerber").iterdir()} >= {
        "sensor-F_Cu.gbr", "sensor-B_Cu.gbr", "sensor-F_Mask.gbr", "sensor-B_Mask.gbr", "sensor-Edge_Cuts.gbr",
        "sensor-PTH.drl"}


def test_the_check_catches_a_fault(tmp_path):
    # Not clean by luck: a file line moved onto its neighbour's pads is caught.
    board = pcb.SensorPcb()
    x1, y1, x2, y2, layer, net = board.tracks[1]  # a1's switch to the file line
    board.tracks[1] = (x1, y1, x1 + G.DIODE_GAP + G.DIODE_PADS, y2, layer, net)  # onto the rank's pad
    path = tmp_path / "bad.kicad_pcb"
    PCBNEW.SaveBoard(str(path), board.kicad(PCBNEW))
    violations, _ = pcb.drc(PCBNEW, path, tmp_path / "bad.rpt")
    assert violations > 0


def test_every_switch_and_diode_of_the_circuit_is_on_the_board_as_wired():
    from hardware.circuit import Board

    circuit = Board()
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    pads = {}
    for fp in saved.GetFootprints():
        for pad in fp.Pads():
            pads[(fp.GetReference(), pad.GetNumber())] = pad.GetNetname()
    checked = 0
    for ref, part in circuit.parts.items():
        if not (ref.startswith(("reed_", "diode_")) and ref[-2:-1] in pcb.FILES and ref[-1:].isdigit()):
            continue  # the matrix's parts (not the power path's diode)
        for pin in part.pins:
            assert pads[(ref, pin.name)] == pin.nets[0].name, (ref, pin.name)
            checked += 1
    assert checked == 64 * 4
    # The header brings every file and rank line to the controller.
    header = {pads[("sensor_header", str(i + 1))] for i in range(16)}
    assert header == {"COL_" + f for f in pcb.FILES} | {"RANK_%d" % r for r in range(1, 9)}
    # And KiCad finds every pad joined to every other of its net by the tracks.
    saved.BuildConnectivity()
    assert saved.GetConnectivity().GetUnconnectedCount() == 0


def test_the_switches_lie_on_the_square_grid():
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    mm = PCBNEW.ToMM
    for fp in saved.GetFootprints():
        ref = fp.GetReference()
        if not ref.startswith("reed_"):
            continue
        sq = ref[5:]
        cx, cy = G.square_centre("abcdefgh".index(sq[0]), int(sq[1]) - 1)
        ys = sorted(mm(p.GetPosition().y) for p in fp.Pads())
        xs = {round(mm(p.GetPosition().x), 3) for p in fp.Pads()}
        assert xs == {round(cx, 3)}  # along its file, under the square
        assert abs((ys[0] + ys[1]) / 2 - (cy + G.REED_OFFSET)) < 1e-3  # the glass's centre
        assert abs(ys[1] - ys[0] - G.REED_PADS) < 1e-3
    outline = saved.GetBoardEdgesBoundingBox()
    assert abs(mm(outline.GetWidth()) - G.board_size() - 0.1) < 0.01  # (the outline's own width)


def test_the_generated_files_are_up_to_date(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "hardware.pcb", "--out", str(tmp_path)], capture_output=True,
                       text=True, timeout=300, cwd=str(pcb.HERE.parent))
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / pcb.BOARD_FILE.name).read_text() == pcb.BOARD_FILE.read_text(), \
        "hardware/pcb/ is stale: run python -m hardware.pcb"
    assert _normal(tmp_path / pcb.DRC_FILE.name)[1:] == _normal(pcb.DRC_FILE)[1:]
    for new in sorted((tmp_path / "gerber").iterdir()):
        assert _normal(new) == _normal(pcb.GERBERS / new.name), new.name
