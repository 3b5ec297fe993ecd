"""The cells' fuse on the controller's perfboard, held to its datasheet: Bourns "MF-R Series -
PTC Resettable Fuses", REV. AL, page 3 (Product Dimensions), the MF-R250: body 12.0 mm wide
(A, max.) standing 18.3 mm high (B), leads 5.1 mm apart (C) of 0.81 mm wire, 3.0 mm thick at
most (E; style 2, drawn on page 4: straight leads in one plane; the model takes 3.1). A review found it laid like a resistor in
neighbouring holes (2.54 mm, a one-hole body), where its 12 mm body met the charger's header."""
import pytest

from hardware import perfboard as PB

HOLE = 2.54  # mm
LEAD_SPACING = 5.1  # C, page 3
WIDTH = 12.0  # A, max., page 3
THICKNESS = 3.0  # E, max., page 3 (the model's 3.1 covers it)
LEAD_DIA = 0.81  # page 3: a lead this thick bends by its own diameter at most between holes


@pytest.fixture(scope="module")
def board():
    return PB.Perfboard()  # the controller


def _fuse_key(board):
    keys = [k for k, p in board.circuit.parts.items() if p.fields.get("MPN") == "MF-R250"]
    assert len(keys) == 1, keys
    return keys[0]


def test_the_fuses_leads_are_its_datasheets_spacing(board):
    key = _fuse_key(board)
    (x1, y1), (x2, y2) = board.pins[(key, "1")], board.pins[(key, "2")]
    spacing = HOLE * ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    assert abs(spacing - LEAD_SPACING) < LEAD_DIA / 2, "leads %.2f mm apart, the MF-R250's are %.1f" % (
        spacing, LEAD_SPACING)


def test_the_fuses_body_is_its_datasheets_and_nothing_overlaps_it(board):
    key = _fuse_key(board)
    x0, y0, x1, y1 = board.bodies[key]
    (px1, py1), (px2, py2) = board.pins[(key, "1")], board.pins[(key, "2")]
    along_x = px1 != px2
    length, across = ((x1 - x0), (y1 - y0)) if along_x else ((y1 - y0), (x1 - x0))
    assert length * HOLE >= WIDTH - 0.01, "body %.1f mm along its leads, the MF-R250 is %.1f" % (length * HOLE, WIDTH)
    assert across * HOLE >= THICKNESS, "body %.1f mm across, the MF-R250 is ~%.1f" % (across * HOLE, THICKNESS)
    # the body centred between its leads, as the part stands
    assert abs((x0 + x1) / 2 - (px1 + px2) / 2) < 0.01 and abs((y0 + y1) / 2 - (py1 + py2) / 2) < 0.01
    side = board.sides[key]
    for other, (a0, b0, a1, b1) in board.bodies.items():
        if other != key and board.sides[other] == side:
            assert not (x0 < a1 and a0 < x1 and y0 < b1 and b0 < y1), "%s overlaps the fuse" % other
    for (other, pin), (hx, hy) in board.pins.items():
        if other != key and board.sides[other] == side:
            assert not (x0 <= hx <= x1 and y0 <= hy <= y1), "%s pin %s is under the fuse" % (other, pin)
    assert 0 <= x0 + 0.5 and x1 - 0.5 <= board.layout.cols - 1 and 0 <= y0 + 0.5 and y1 - 0.5 <= board.layout.rows - 1
    assert board.problems() == []


def test_the_netlists_footprint_for_the_fuse_fits_its_leads():
    """The footprint a maker's own Pcbnew layout takes from board.net, read from KiCad's own
    library: its two holes on one line 5.1 mm apart (page 3's C; KiCad's MF-RG1100 footprint,
    the fuse's before the review, has its second pad 1.2 mm off that line), each wide enough for
    the 0.81 mm lead."""
    import re

    from hardware import circuit as C
    from hardware import kicadlib

    try:
        lib = kicadlib.library_dir()
    except ImportError as e:
        pytest.skip(str(e))
    board = C.Board()
    (part,) = [p for p in board.circuit.parts if p.fields.get("MPN") == "MF-R250"]
    name, fp = part.footprint.split(":")
    text = (lib / (name + ".pretty") / (fp + ".kicad_mod")).read_text()
    pads = [(float(x), float(y), float(d)) for x, y, d in re.findall(
        r'\(pad "\w+" thru_hole \w+ \(at ([-\d.]+) ([-\d.]+)[^)]*\).*?\(drill ([\d.]+)\)', text)]
    assert len(pads) == 2, pads
    (x1, y1, d1), (x2, y2, d2) = pads
    along, across = (abs(x2 - x1), abs(y2 - y1)) if abs(x2 - x1) >= abs(y2 - y1) else (abs(y2 - y1), abs(x2 - x1))
    assert abs(along - LEAD_SPACING) <= 0.1, "pads %.2f mm apart, the MF-R250's leads %.1f" % (along, LEAD_SPACING)
    assert across <= 0.1, "the second pad %.2f mm off the leads' line" % across
    assert min(d1, d2) >= LEAD_DIA + 0.1
