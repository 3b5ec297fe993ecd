"""A clock face as a real PCB (hardware/facepcb.py): routed by the generator, KiCad's design
rules check clean with every pad connected; every pad carries the net the circuit gives its
pin (Black's face, White's the same less its address parts); the characters show through
the clock's window and the screws go where the enclosure has them; the assembly service's
BOM and placement list every surface-mount part and no other; the committed files what the
generator gives. Needs KiCad's pcbnew; skipped with the reason where it is missing."""
import csv

import pytest

from hardware import enclosure as E
from hardware import facepcb as F
from hardware import pcb
from tests.kicad import PCBNEW, assert_same_board, needs_pcbnew, regenerate

pytestmark = needs_pcbnew


@pytest.fixture(scope="module")
def face():
    return F.Face().route()




def test_the_board_is_routed_and_its_check_is_clean(face, tmp_path):
    path = tmp_path / "face.kicad_pcb"
    PCBNEW.SaveBoard(str(path), face.kicad(PCBNEW))
    assert pcb.drc(PCBNEW, path, tmp_path / "face.rpt") == (0, 0), (tmp_path / "face.rpt").read_text()[:2000]
    # Not clean by luck: a track taken away leaves its pads apart, one moved onto another
    # net's pad is a short.
    gone = F.Face()
    gone.tracks, gone.vias = list(face.tracks[1:]), list(face.vias)
    bad = tmp_path / "gone.kicad_pcb"
    PCBNEW.SaveBoard(str(bad), gone.kicad(PCBNEW))
    assert pcb.drc(PCBNEW, bad, tmp_path / "gone.rpt")[1] > 0
    short = F.Face()
    short.tracks, short.vias = list(face.tracks), list(face.vias)
    x1, y1, x2, y2, layer, net, width = short.tracks[0]
    other = next(p for p in short.pads() if p.net and p.net != net and p.layers == "FB")
    short.tracks[0] = (x1, y1, other.x, other.y, layer, net, width)
    bad = tmp_path / "short.kicad_pcb"
    PCBNEW.SaveBoard(str(bad), short.kicad(PCBNEW))
    assert pcb.drc(PCBNEW, bad, tmp_path / "short.rpt")[0] > 0


def test_every_pad_carries_its_pins_net_in_the_circuit(face):
    from hardware.circuit import Board

    circuit = Board()
    keys = {part.key: part for part in face.parts}
    checked = 0
    for side, k in (("black", "B"), ("white", "W")):
        for key, cpart in circuit.parts.items():
            if not key.endswith("_" + side) and ("_%s_" % side) not in key:
                continue
            if not key.startswith(("char_", "ind_", "face_", "c_face_", "cp_face_", "d_ask_", "d_draw_", "d_addr_",
                                   "r_addr_")):
                continue
            mine = keys[key.replace("_" + side, "_black")]
            pads = {p.number: p.net for p in mine.pads}  # numbered as the circuit numbers the pins
            for pin in cpart.pins:
                net = pin.nets[0].name if pin.nets else None
                want = None if not net or net.startswith("__") else net.replace("FACE_%s_" % k, "").replace("FACE_", "")
                assert pads[str(pin.num)] == want, (key, pin.name, pads[str(pin.num)], want)
                checked += 1
    assert checked > 2 * (8 * 16 + 10 * 2 + 28)
    # The connectors carry what the controller's lead and the keys' wires bring.
    j1 = next(p for p in face.parts if p.ref == "J1")
    assert [p.net for p in j1.pads] == ["VSYS", "GND", "SDA", "SCL"]


def test_the_characters_show_through_the_window_and_the_screws_fit(face):
    chars = [p for part in face.parts if part.ref.startswith("DS") for p in part.pads]
    xs = [p.x for p in chars]
    centre = (min(xs) + max(xs)) / 2
    assert abs(centre - F.W / 2) < 0.5
    assert max(xs) - min(xs) + 2 * 2.54 < E.FACE_WINDOW[0]
    assert sorted(h[:2] for h in face.holes) == sorted((F.W / 2 + sx, F.H / 2 + sy) for sx in (-E.FACE_SCREWS[0], E.FACE_SCREWS[0])
                                        for sy in (-E.FACE_SCREWS[1], E.FACE_SCREWS[1]))


def test_the_assembly_files_list_every_surface_mount_part(face):
    bom, cpl = face.assembly_rows()
    smd = sorted(part.ref for part in face.parts if part.pads[0].layers == "B")
    assert sorted(r[0] for r in cpl) == smd and set(smd) >= {"U1", "C1", "D1", "D2", "D3", "R1"}
    assert sorted(ref for row in bom for ref in row[1].split()) == smd
    assert all(row[3] or row[4] for row in bom)  # an LCSC number, or the MPN to find it by
    assert all(r[3] == "bottom" for r in cpl)


def test_the_generated_files_are_up_to_date(tmp_path):
    regenerate(tmp_path, "hardware.facepcb")
    assert_same_board([tmp_path / p.name for p in (F.BOARD_FILE, F.DRC_FILE, F.FAB)], (F.BOARD_FILE, F.DRC_FILE, F.FAB),
                      "hardware/pcb/face.* is stale: run python -m hardware.facepcb")
    rows = list(csv.DictReader((F.FAB / "face-cpl.csv").open()))
    assert rows and set(rows[0]) == {"Designator", "Mid X", "Mid Y", "Layer", "Rotation"}
