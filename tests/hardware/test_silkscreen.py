"""The silkscreen of the routed boards' hand-drawn parts (hardware/routedpcb.py: the parts
with no footprint in KiCad's library, drawn from their perfboard holes or, for the face's
characters, as a generic 2 x 8): each is outlined on its side's silkscreen, on every side of
its pads, and carries its value (on the silkscreen where it fits, always on the fabrication
layer); the electrolytics and diodes their polarity mark. Read from the committed KiCad
boards with pcbnew (KiCad's own reading of the files), not from the generator; KiCad's
design rules check, silkscreen over pads and overlap included, runs in each board's own
tests (tests/hardware/test_facepcb.py, test_layoutpcb.py). Needs KiCad's pcbnew."""
import pytest

from hardware import facepcb as F
from hardware import layoutpcb as L
from tests.hardware.kicad import PCBNEW, needs_pcbnew

pytestmark = needs_pcbnew

BOARDS = [F.BOARD_FILE] + [L.files(name)[0] for name in sorted(L.BOARDS)]


def _mm(v):
    return PCBNEW.ToMM(v)


def _hand_drawn(board):
    """The footprints drawn here: no library name, with pads (the mounting holes aside)."""
    return [fp for fp in board.GetFootprints() if not str(fp.GetFPID().GetLibNickname())
            and not fp.GetReference().startswith("H") and len(list(fp.Pads())) > 0]


def _lines(board, layer):
    out = []
    for d in board.GetDrawings():
        if d.GetLayer() == layer and d.GetClass() in ("PCB_SHAPE", "DRAWSEGMENT"):
            (x1, y1), (x2, y2) = _mm(d.GetStart()), _mm(d.GetEnd())
            out.append((x1, y1, x2, y2))
    return out


def _texts(board, layer):
    return [d.GetText() for d in board.GetDrawings() if d.GetLayer() == layer and d.Type() == PCBNEW.PCB_TEXT_T]


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_every_hand_drawn_part_is_outlined_and_carries_its_value(path):
    board = PCBNEW.LoadBoard(str(path))
    parts = _hand_drawn(board)
    assert parts
    silk = _lines(board, PCBNEW.F_SilkS)
    fab_texts = _texts(board, PCBNEW.F_Fab)
    silk_texts = _texts(board, PCBNEW.F_SilkS)
    on_silk = 0
    for fp in parts:
        pads = list(fp.Pads())
        xs = [_mm(p.GetPosition())[0] for p in pads]
        ys = [_mm(p.GetPosition())[1] for p in pads]
        r = max(_mm(p.GetSize().x) for p in pads) / 2
        x0, x1, y0, y1 = min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r
        # a line beyond the pads' copper, along each of the four sides, within 1 mm of it
        sides = {
            "top": [s for s in silk if s[1] == s[3] and y0 - 1.0 < s[1] < y0 and x0 - 1 < min(s[0], s[2]) < x1],
            "bottom": [s for s in silk if s[1] == s[3] and y1 < s[1] < y1 + 1.0 and x0 - 1 < min(s[0], s[2]) < x1],
            "left": [s for s in silk if s[0] == s[2] and x0 - 1.0 < s[0] < x0 and y0 - 1 < min(s[1], s[3]) < y1],
            "right": [s for s in silk if s[0] == s[2] and x1 < s[0] < x1 + 1.0 and y0 - 1 < min(s[1], s[3]) < y1],
        }
        missing = [k for k, v in sides.items() if not v]
        assert len(missing) <= 1, (path.name, fp.GetReference(), missing)  # (one side may run along the edge)
        assert fp.GetValue() in fab_texts, (path.name, fp.GetReference())
        on_silk += fp.GetValue() in silk_texts
    assert on_silk >= len(parts) // 2, (path.name, on_silk, len(parts))


def test_the_face_characters_are_outlined_on_all_four_sides():
    board = PCBNEW.LoadBoard(str(F.BOARD_FILE))
    chars = [fp for fp in _hand_drawn(board) if fp.GetReference().startswith("DS")]
    assert len(chars) == 8
    assert all(fp.GetValue() in _texts(board, PCBNEW.F_SilkS) for fp in chars)


def test_each_transistors_flat_face_is_marked_on_the_side_its_legs_read_c_b_e():
    # circuit.py: the BC337's legs C, B, E left to right, its flat face towards you; pad 1 is C.
    board = PCBNEW.LoadBoard(str(L.files("controller")[0]))
    thick = [d for d in board.GetDrawings() if d.GetLayer() == PCBNEW.F_SilkS and d.Type() != PCBNEW.PCB_TEXT_T
             and abs(_mm(d.GetWidth()) - 0.25) < 1e-6]
    qs = [fp for fp in _hand_drawn(board) if fp.GetValue() == "BC337"]
    assert len(qs) == 5
    for fp in qs:
        pads = sorted(fp.Pads(), key=lambda p: p.GetNumber())
        (ax, ay), (cx, cy) = _mm(pads[0].GetPosition()), _mm(pads[-1].GetPosition())
        d = ((cx - ax) ** 2 + (cy - ay) ** 2) ** 0.5
        nx, ny = -(cy - ay) / d, (cx - ax) / d  # towards the one who reads C, B, E left to right
        mx, my = (ax + cx) / 2, (ay + cy) / 2
        side = [t for t in thick if 0.5 < ((_mm(t.GetStart())[0] + _mm(t.GetEnd())[0]) / 2 - mx) * nx
                + ((_mm(t.GetStart())[1] + _mm(t.GetEnd())[1]) / 2 - my) * ny < 2.5
                and abs((_mm(t.GetStart())[0] + _mm(t.GetEnd())[0]) / 2 - mx) < 3]
        assert side, fp.GetReference()


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_every_hand_drawn_part_has_a_courtyard_round_its_pads(path):
    # In the footprint itself, so that KiCad's DRC (run in each board's own tests) checks that
    # no two parts' courtyards overlap.
    board = PCBNEW.LoadBoard(str(path))
    for fp in _hand_drawn(board):
        lines = [g for g in fp.GraphicalItems() if g.GetLayer() in (PCBNEW.F_CrtYd, PCBNEW.B_CrtYd)]
        assert len(lines) >= 4, (path.name, fp.GetReference())
        xs = [_mm(g.GetStart())[0] for g in lines] + [_mm(g.GetEnd())[0] for g in lines]
        ys = [_mm(g.GetStart())[1] for g in lines] + [_mm(g.GetEnd())[1] for g in lines]
        for p in fp.Pads():
            (x, y), r = _mm(p.GetPosition()), _mm(p.GetSize().x) / 2
            assert min(xs) < x - r and x + r < max(xs) and min(ys) < y - r and y + r < max(ys), (
                path.name, fp.GetReference(), p.GetNumber())
