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
from tests.hardware.kicad import PCBNEW, assert_same_board, needs_pcbnew, regenerate

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
    import re

    bom, cpl = face.assembly_rows()
    smd = sorted(part.ref for part in face.parts if part.pads[0].layers == "B")
    hand = [r[0] for r in face.hand_parts()]
    assert set(smd) >= {"U1", "C1", "D1", "D2", "D3", "R1"} and hand == ["U1"]  # (no stocked number: by hand)
    assert sorted(r[0] for r in cpl) == sorted(set(smd) - set(hand))
    # JLCPCB's BOM: designators comma-separated, a stocked LCSC number on every line
    assert sorted(ref for row in bom for ref in row[1].split(",")) == sorted(set(smd) - set(hand))
    assert all(re.fullmatch(r"C\d+", row[3]) for row in bom)
    assert all(r[3] == "Bottom" for r in cpl)


def test_the_generated_files_are_up_to_date(tmp_path):
    regenerate(tmp_path, "hardware.facepcb")
    assert_same_board([tmp_path / p.name for p in (F.BOARD_FILE, F.DRC_FILE, F.FAB)], (F.BOARD_FILE, F.DRC_FILE, F.FAB),
                      "hardware/pcb/face.* is stale: run python -m hardware.facepcb")
    rows = list(csv.DictReader((F.FAB / "face-cpl.csv").open()))
    assert rows and set(rows[0]) == {"Designator", "Mid X", "Mid Y", "Layer", "Rotation"}


# ----- held to KiCad's own library and its own flip (not to this generator)

LIBRARY = "/usr/share/kicad/footprints"


def _board(path=F.BOARD_FILE):
    return PCBNEW.LoadBoard(str(path))


def library_faults(board, library=LIBRARY):
    """Footprints that are not KiCad's library footprint as KiCad itself places it: each one
    (the characters, drawn for the display, and the mounting holes aside) loaded afresh from
    the library, put where the board's is, flipped by KiCad's FOOTPRINT.Flip if the board's
    is on the back, turned as it is; every pad must be where KiCad puts it, on KiCad's
    layers."""
    faults = []
    scratch = PCBNEW.BOARD()
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        if ref.startswith(("DS", "H")):
            continue
        lib, name = str(fp.GetFPID().GetLibNickname()), str(fp.GetFPID().GetLibItemName())
        if not lib:
            faults.append((ref, "not from KiCad's library"))
            continue
        mine = PCBNEW.FootprintLoad("%s/%s.pretty" % (library, lib), name)
        scratch.Add(mine)
        mine.SetPosition(fp.GetPosition())
        if fp.IsFlipped():
            mine.Flip(fp.GetPosition(), False)
        mine.SetOrientation(fp.GetOrientation())
        want = {p.GetNumber(): p for p in mine.Pads()}
        got = list(fp.Pads())
        if len(got) != len(want):
            faults.append((ref, "pads", len(got), len(want)))
        for p in got:
            q = want.get(p.GetNumber())
            if q is None or abs(p.GetPosition().x - q.GetPosition().x) > 1000 \
                    or abs(p.GetPosition().y - q.GetPosition().y) > 1000 \
                    or list(p.GetLayerSet().Seq()) != list(q.GetLayerSet().Seq()):
                faults.append((ref, p.GetNumber(), "not where KiCad puts it"))
    return faults


def test_every_footprint_is_kicads_own_placed_and_flipped_by_kicad():
    assert library_faults(_board()) == []
    # On the board as it was (the back's parts drawn on the front's pattern, pads put on
    # B.Cu unmirrored) the same check finds them:
    import subprocess

    old = subprocess.run(["git", "show", "1bf2f30:hardware/pcb/face.kicad_pcb"], capture_output=True, text=True,
                         cwd=str(pcb.HERE.parent))
    if old.returncode == 0:
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "old.kicad_pcb").write_text(old.stdout)
            faults = library_faults(_board(Path(d) / "old.kicad_pcb"))
        assert {f[0] for f in faults} >= {"U1", "C1", "D1", "R1", "J1"}


def turning(points):
    """The shoelace sum of a chip's corner pins as the front sees them (x right, y down):
    negative when they run counter-clockwise to the eye, positive clockwise."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))


# The HT16K33's 28SOP pins (Holtek HT16K33 datasheet, "Pin Assignment"): 1-14 down one
# side, 15-28 up the other, counter-clockwise seen from the top (JEDEC numbering); the
# circuit's names for the four that power and talk to it.
HT16K33_POWER_AND_BUS = {"28": "VDD", "1": "VSS", "27": "SDA", "26": "SCL"}


def test_the_chip_on_the_back_is_mirrored_and_its_supply_and_bus_pins_carry_theirs():
    board = _board()
    u1 = next(fp for fp in board.GetFootprints() if fp.GetReference() == "U1")
    pads = {p.GetNumber(): p for p in u1.Pads()}
    corners = [PCBNEW.ToMM(pads[n].GetPosition()) for n in ("1", "14", "15", "28")]
    # Seen from the front a chip on the back shows its underside: its pins run clockwise.
    assert u1.IsFlipped() and turning(corners) > 0
    assert all(p.IsOnLayer(PCBNEW.B_Cu) and not p.IsOnLayer(PCBNEW.F_Cu) for p in u1.Pads())
    nets = {"VDD": "VSYS", "VSS": "GND", "SDA": "SDA", "SCL": "SCL"}
    for number, pin in HT16K33_POWER_AND_BUS.items():
        assert pads[number].GetNetname() == nets[pin], (number, pin, pads[number].GetNetname())


# ----- the characters held to the ordered display's own pin table (issue 47, point 1)
#
# The firmware's bits (firmware/hal/face.py): bit i of a character's word lights ROW i of
# the HT16K33 (its datasheet's 16 x 8 matrix: ROW0-15 drive the anodes, COM0-7 sink the
# cathodes of a common-cathode display), character i on COM i. Named by where each segment
# is, the firmware's way: H, J, K the upper diagonal, vertical, diagonal from the left; N, M,
# L the lower ones from the left.
from firmware.hal import face as FIRMWARE  # noqa: E402

BIT = {"A": FIRMWARE._A, "B": FIRMWARE._B, "C": FIRMWARE._C, "D": FIRMWARE._D, "E": FIRMWARE._E,
       "F": FIRMWARE._F, "G1": FIRMWARE._G1, "G2": FIRMWARE._G2, "H": FIRMWARE._H, "J": FIRMWARE._J,
       "K": FIRMWARE._K, "L": FIRMWARE._L, "M": FIRMWARE._M, "N": FIRMWARE._N, "DP": FIRMWARE.DP}

# Each display maker's pin table, typed from its datasheet's page (never from the generator):
# part number -> ("document, revision, page", (the maker's letter for each of the firmware's
# positions where they differ, characters per part, {pin: segment, or "COM<k>" for the
# common cathode of the part's character k counted from the left})).
# Kingbright PSC08-11SRWA (the part order-face-board.csv buys): its datasheet was not reached from
# here (hardware/sourcing.py LOOKED_UP says where it was looked for), so nothing is typed
# and the face PCB stays marked "do not order".
DATASHEETS = {}

# An independent published pinout, not a maker's datasheet: the Luckylight KWA-541CBB (0.54",
# two 14-segment characters, common cathode, 18 positions with pin 3 absent) as Adafruit's
# open 0.54" quad alphanumeric backpack wires it (adafruit/Adafruit-LED-Backpacks at a58b392,
# "Adafruit 0.54 Alphanumeric STEMMA QT.sch": library adafruit_display, symbol
# SEGMENT_STARBURST_DUAL_COMMONCATHODE, its pins under their segments' labels; the same
# schematic's nets put pin 12 on ROW0 ... pin 8 on ROW14 in the bit order of Adafruit's
# library, whose lower diagonals are the firmware's the other way round; its "v0.1" schematic
# wires them the same). It lets the check below be run on a real display's pins.
KWA_541CBB = ({"L": "N", "N": "L"}, 2, {
    "12": "A", "10": "B", "9": "C", "7": "D", "1": "E", "18": "F", "13": "G1", "6": "G2", "17": "H", "15": "J",
    "14": "K", "2": "L", "4": "M", "5": "N", "8": "DP", "16": "COM0", "11": "COM1"})


def characters(board):
    """The board's character displays, left to right as the front shows them: [(reference,
    {pad number: net})]."""
    parts = [fp for fp in board.GetFootprints() if fp.GetReference().startswith("DS")]
    parts.sort(key=lambda fp: fp.GetPosition().x)
    return [(fp.GetReference(), {p.GetNumber(): p.GetNetname() or None for p in fp.Pads()}) for fp in parts]


def display_faults(parts, table):
    """Where the displays' pads are not on the nets the maker's pin table and the firmware's
    bits give them: [(reference, pin, net on the board, net wanted)]; [] if every pin is."""
    letters, per_part, pins = table
    mine = {theirs: ours for ours, theirs in letters.items()}
    faults = []
    for i, (ref, pads) in enumerate(parts):
        for pin in sorted(set(pins) | set(pads), key=lambda n: (len(n), n)):
            meaning = pins.get(pin)
            if meaning is None:
                want = None
            elif meaning.startswith("COM"):
                want = "COM%d" % (i * per_part + int(meaning[3:]))
            else:
                want = "ROW%d" % (BIT[mine.get(meaning, meaning)].bit_length() - 1)
            got = pads.get(pin, "(no pad)")
            if got != want:
                faults.append((ref, pin, got, want))
    return faults


def test_the_check_of_a_displays_pins_finds_a_pin_on_another_net():
    # A board wired as the table says passes; two segments swapped, a common moved or a pin
    # missing is found.
    letters, per_part, pins = KWA_541CBB
    good = []
    for i in range(4):
        pads = {}
        for pin, meaning in pins.items():
            seg = {v: k for k, v in letters.items()}.get(meaning, meaning)
            pads[pin] = "COM%d" % (2 * i + int(meaning[3:])) if meaning.startswith("COM") else \
                "ROW%d" % (BIT[seg].bit_length() - 1)
        good.append(("DS%d" % (i + 1), pads))
    assert display_faults(good, KWA_541CBB) == []
    # (the lower diagonals by the maker's letters: its L is the firmware's N, ROW13)
    assert good[0][1]["2"] == "ROW13" and good[0][1]["5"] == "ROW11"
    swapped = [(ref, dict(pads)) for ref, pads in good]
    swapped[1][1]["2"], swapped[1][1]["5"] = swapped[1][1]["5"], swapped[1][1]["2"]
    assert {f[1] for f in display_faults(swapped, KWA_541CBB)} == {"2", "5"}
    moved = [(ref, dict(pads)) for ref, pads in good]
    moved[2][1]["11"] = "COM4"
    assert display_faults(moved, KWA_541CBB) == [("DS3", "11", "COM4", "COM5")]
    gone = [(ref, dict(pads)) for ref, pads in good]
    del gone[3][1]["8"]
    assert display_faults(gone, KWA_541CBB) == [("DS4", "8", "(no pad)", "ROW14")]


def test_the_characters_follow_the_ordered_displays_own_pin_table_or_the_board_says_do_not_order():
    import re

    from hardware import sourcing

    ordered = next(r for r in csv.DictReader(sourcing.FACE_ORDER.open()) if r["part"] == "Char_14seg_CC")
    parts = characters(_board())
    assert [ref for ref, _ in parts] == ["DS%d" % n for n in range(1, 9)]
    table = DATASHEETS.get(ordered["mpn"])
    if table is not None:
        assert display_faults(parts, table[1]) == [], table[0]
    else:
        # No datasheet pin table reached for the display ordered: the board says so where a
        # maker would order it (the guide and the board's own silkscreen), and the order
        # line records where the table was looked for.
        guide = (pcb.HERE / "README.md").read_text()
        section = guide.split("## The faces' PCB", 1)[1].split("\n## ", 1)[0]
        assert re.search(r"\*\*Do not order\s+it", section), "the face PCB's section must say: Do not order it"
        board = _board()
        silk = [t.GetText() for t in board.GetDrawings()
                if t.GetClass().endswith("TEXT") and t.GetLayer() in (PCBNEW.F_SilkS, PCBNEW.B_SilkS)]
        assert any("do not order" in t.lower() for t in silk), silk
        assert "not reached" in sourcing.LOOKED_UP[ordered["mpn"]][0].lower()
    # The check is not empty words: the generic footprint (pins in segment order, one
    # common) is wrong against a real display's published pins.
    assert len(display_faults(parts, KWA_541CBB)) > 8 * 8
