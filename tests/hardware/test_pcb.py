"""The sensor strip (#17, hardware/pcb.py) as KiCad builds it: its design rules check clean
at several square pitches; eight of it, joined by their ribbons, carry every switch and
diode of the circuit connected as the circuit connects them; the switches where the
geometry says; the committed board, Gerber and drill files what the generator gives. Needs KiCad's pcbnew (Debian's kicad, which
./run test installs); skipped with the reason where it is missing."""

import math

import pytest

from hardware import geometry as G
from hardware import pcb
from tests.hardware.kicad import PCBNEW, assert_same_board, needs_pcbnew, regenerate

pytestmark = needs_pcbnew




def _pads(board):
    """{(reference, pad number): net} of a KiCad board."""
    return {(fp.GetReference(), pad.GetNumber()): pad.GetNetname() for fp in board.GetFootprints() for pad in fp.Pads()}


@pytest.mark.parametrize("pitch", [G.PITCH_RANGE[0], G.PITCH, 58.0, 60.0, G.PITCH_RANGE[1]])
def test_the_design_rules_check_is_clean(tmp_path, pitch):
    violations, unconnected = pcb.write_all(pitch, tmp_path)
    assert (violations, unconnected) == (0, 0), (tmp_path / pcb.DRC_FILE.name).read_text()[:2000]
    assert {p.name for p in (tmp_path / "gerber").iterdir()} >= {
        "sensor-F_Cu.gbr", "sensor-B_Cu.gbr", "sensor-F_Mask.gbr", "sensor-B_Mask.gbr", "sensor-Edge_Cuts.gbr",
        "sensor-PTH.drl"}


def test_a_pitch_the_strip_cannot_take_is_refused():
    for pitch in (G.PITCH_RANGE[0] - 1, G.PITCH_RANGE[1] + 1):
        with pytest.raises(ValueError, match="pitch"):
            pcb.SensorStrip(pitch)


def test_the_check_catches_a_fault(tmp_path):
    # Not clean by luck: a file line moved onto its neighbour's pads is caught.
    strip = pcb.SensorStrip()
    x1, y1, x2, y2, layer, net = strip.tracks[1]  # file a's switch to the file line
    _, _, pads = next(p for p in strip.parts if p[0] == "diode_a")
    _, kx, ky, _ = next(p for p in pads if p[0] == "K")
    strip.tracks[1] = (x1, y1, kx, ky, layer, net)  # onto the diode's cathode: the rank line
    path = tmp_path / "bad.kicad_pcb"
    PCBNEW.SaveBoard(str(path), strip.kicad(PCBNEW))
    violations, _ = pcb.drc(PCBNEW, path, tmp_path / "bad.rpt")
    assert violations > 0


def test_the_mounting_holes_keep_clear_of_the_copper(tmp_path):
    # The holes pass the check where they are; moved onto the rank line, the check fails.
    strip = pcb.SensorStrip()
    assert len(strip.holes) == len(G.MOUNT_AT)
    x, _ = strip.holes[0]
    strip.holes[0] = (x, strip.rank_y())
    path = tmp_path / "bad.kicad_pcb"
    PCBNEW.SaveBoard(str(path), strip.kicad(PCBNEW))
    violations, _ = pcb.drc(PCBNEW, path, tmp_path / "bad.rpt")
    assert violations > 0
    assert "hole" in (tmp_path / "bad.rpt").read_text().lower()


class _Joined:
    """Which (strip, net) pairs the ribbons join: union-find over eight copies of the saved
    strip, strip i's J2 pin k to strip i+1's J1 pin k, as the maker plugs them."""

    def __init__(self, pads):
        self.up = {}
        for i in range(7):
            for k in range(16):
                above, below = pads[("J2", str(k + 1))], pads[("J1", str(k + 1))]
                if above:
                    self.join((i, above), (i + 1, below))

    def find(self, node):
        while self.up.get(node, node) != node:
            node = self.up[node]
        return node

    def join(self, a, b):
        self.up[self.find(a)] = self.find(b)


def test_eight_strips_make_the_circuits_matrix():
    """Every switch and diode of the circuit is on a strip, connected as the circuit
    connects them once the eight strips are joined; the first strip's J1 brings each file
    and rank line to its own pin for the controller, no two joined."""
    from hardware.circuit import Board

    circuit = Board()
    pads = _pads(PCBNEW.LoadBoard(str(pcb.BOARD_FILE)))
    assert [pads[("J1", str(k + 1))] for k in range(16)] == pcb.J1
    joined = _Joined(pads)
    controller = {name: joined.find((0, pads[("J1", str(k + 1))])) for k, name in enumerate(pcb.CONTROLLER)}
    assert len(set(controller.values())) == 16  # no two lines joined
    checked = 0
    for ref, part in circuit.parts.items():
        if not (ref.startswith(("reed", "diode_")) and ref[-2:-1] in pcb.FILES and ref[-1:].isdigit()):
            continue  # the matrix's parts (not the power path's diode)
        rank = int(ref[-1]) - 1
        for pin in part.pins:
            net = pin.nets[0].name
            node = joined.find((rank, pads[(ref[:-1], pin.name)]))
            if net in controller:
                assert node == controller[net], (ref, pin.name, net)
            else:  # between the switch and its diode: on its own
                assert net == pcb.board_net(pads[(ref[:-1], pin.name)], rank), (ref, pin.name)
                assert node not in controller.values()
            checked += 1
    assert checked == 64 * (2 * len(G.SQUARE_REEDS) + 2)  # three switches and a diode per square
    # And KiCad finds every pad of the strip joined to every other of its net by the tracks.
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    saved.BuildConnectivity()
    assert saved.GetConnectivity().GetUnconnectedCount() == 0


def test_the_ribbons_shift_matters():
    # The joining is not right by construction: with J2 wired straight through (no shift)
    # every strip's switches would land on the controller's rank 1 line.
    pads = _pads(PCBNEW.LoadBoard(str(pcb.BOARD_FILE)))
    assert len({_Joined(pads).find((r, "RANK+0")) for r in range(8)}) == 8
    for k in range(8):
        pads[("J2", str(k + 1))] = "RANK+%d" % k
    joined = _Joined(pads)
    assert len({joined.find((r, "RANK+0")) for r in range(8)}) == 1


def test_the_switches_lie_on_the_square_grid():
    """Each reed switch, once its strip lies in its place, is where geometry.reed_centres
    says (the enclosure's pockets read the same function): three per square, the first
    along the diagonal through the centre, in the direction geometry.square_reeds gives."""
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    mm = PCBNEW.ToMM
    seen = 0
    for fp in saved.GetFootprints():
        ref = fp.GetReference()
        if not ref.startswith("reed"):
            continue
        name, file = ref.split("_")
        f, i = pcb.FILES.index(file), int(name[4:] or 1) - 1
        (x1, y1), (x2, y2) = sorted((mm(p.GetPosition().x), mm(p.GetPosition().y)) for p in fp.Pads())
        assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(G.REED_PADS, abs=1e-3)
        (_, (ux, uy)) = G.square_reeds()[i]
        assert ((x2 - x1) / G.REED_PADS, (y2 - y1) / G.REED_PADS) == pytest.approx((ux, uy), abs=1e-4)
        for r in range(8):
            ox, oy = G.strip_origin(r)
            gx0, gy0 = G.reed_centres(f, r)[i]
            assert (ox + (x1 + x2) / 2, oy + (y1 + y2) / 2) == pytest.approx((gx0, gy0), abs=1e-3)
            cx, cy = G.square_centre(f, r)  # the whole glass inside its own square
            for end in (-1, 1):
                gx, gy = gx0 + end * G.REED_GLASS[0] / 2 * ux, gy0 + end * G.REED_GLASS[0] / 2 * uy
                assert abs(gx - cx) < G.PITCH / 2 and abs(gy - cy) < G.PITCH / 2
        seen += 1
    assert seen == 8 * len(G.SQUARE_REEDS) == 24
    assert G.square_reeds()[0][0] == (0.0, 0.0)
    outline = saved.GetBoardEdgesBoundingBox()
    length, width = G.strip_size()
    assert abs(mm(outline.GetWidth()) - length - 0.1) < 0.01  # (the outline's own width)
    assert abs(mm(outline.GetHeight()) - width - 0.1) < 0.01
    # Side by side, the strips cover the eight ranks with a gap between them, none over another.
    assert G.strip_origin(7)[1] > 0 and G.strip_origin(0)[1] + width < 8 * G.PITCH
    assert all(G.strip_origin(r)[1] - (G.strip_origin(r + 1)[1] + width) == G.STRIP_GAP for r in range(7))


def test_the_generated_files_are_up_to_date(tmp_path):
    regenerate(tmp_path, "hardware.pcb", timeout=300)
    assert (tmp_path / pcb.PICTURE.name).exists()
    assert_same_board((tmp_path / pcb.BOARD_FILE.name, tmp_path / pcb.DRC_FILE.name, tmp_path / "gerber"),
                      (pcb.BOARD_FILE, pcb.DRC_FILE, pcb.GERBERS), "hardware/pcb/ is stale: run python -m hardware.pcb")


def test_the_strip_takes_its_parts_and_says_where_each_goes():
    # The headers' holes take a 0.64 mm square pin (0.91 mm across its corners), the leads'
    # holes the reeds' and diodes' round leads; the silkscreen names every switch and diode
    # and draws the glass and the diode's body with its band at the cathode's end.
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    mm = PCBNEW.ToMM
    for fp in saved.GetFootprints():
        for pad in fp.Pads():
            drill = mm(pad.GetDrillSize().x)
            if fp.GetReference() in ("J1", "J2"):
                assert drill >= 0.64 * math.sqrt(2) + 0.05
            elif fp.GetReference().startswith(("reed_", "diode_")):
                assert 0.6 + 0.2 <= drill <= 1.0
    texts = {d.GetText() for d in saved.GetDrawings() if d.GetLayer() == PCBNEW.F_SilkS and hasattr(d, "GetText")}
    assert {"S" + f for f in pcb.FILES} <= texts and {"D" + f for f in pcb.FILES} <= texts
    strip = pcb.SensorStrip()
    for f in pcb.FILES:
        _, _, pads = next(p for p in strip.parts if p[0] == "diode_" + f)
        k = next(p for p in pads if p[0] == "K")
        a = next(p for p in pads if p[0] == "A")
        # the band: a short line across the body, nearer the cathode than the anode
        band = [s for s in strip.silk if s[0] == s[2] and min(s[1], s[3]) < k[2] < max(s[1], s[3])
                and min(k[1], a[1]) < s[0] < max(k[1], a[1]) and abs(s[0] - k[1]) < abs(s[0] - a[1])]
        assert band, f
    silk = [d for d in saved.GetDrawings() if d.GetLayer() == PCBNEW.F_SilkS and not hasattr(d, "GetText")]
    assert len(silk) >= 8 * (2 + 6)


def _outside(x, y, piece, margin):
    """How far (x, y) is outside the LED piece's rectangle (negative: inside)."""
    corners, _ = piece
    x0, x1 = min(c[0] for c in corners), max(c[0] for c in corners)
    y0, y1 = min(c[1] for c in corners), max(c[1] for c in corners)
    a, b = max(x0 - x, x - x1), max(y0 - y, y - y1)
    return (math.hypot(max(a, 0), max(b, 0)) if a > 0 or b > 0 else max(a, b)) - margin


def test_each_square_led_piece_lies_clear_of_the_strips_pads_holes_and_glass():
    # The optional WS2812B pieces (hardware/README.md, step 3) stick on the strip under
    # their squares: on the committed KiCad board (read back by KiCad itself), every pad,
    # hole and via at least 0.5 mm clear of every piece; at every pitch the generator takes,
    # each piece inside its square and clear of its reeds' glass.
    saved = PCBNEW.LoadBoard(str(pcb.BOARD_FILE))
    mm = PCBNEW.ToMM
    things = [(mm(p.GetPosition().x), mm(p.GetPosition().y), max(mm(p.GetSize().x), mm(p.GetSize().y)) / 2)
              for fp in saved.GetFootprints() for p in fp.Pads()]
    things += [(mm(t.GetPosition().x), mm(t.GetPosition().y), mm(t.GetWidth()) / 2) for t in saved.GetTracks()
               if t.GetClass() == "PCB_VIA"]
    assert len(things) > 8 * 8
    pieces = [G.led_piece(*G.strip_square_centre(f)) for f in range(8)]
    for piece in pieces:
        assert min(_outside(x, y, piece, r) for x, y, r in things) >= 0.5
    # A piece centred on its square would lie on the centre switch's glass.
    cx, cy = G.strip_square_centre(0)
    h = G.LED_PIECE[1] / 2
    centred = ([(cx - 16, cy - h), (cx + 16, cy + h)], (cx, cy))
    assert _outside(cx, cy, centred, G.REED_GLASS[1] / 2) < 0
    for pitch in (G.PITCH_RANGE[0], G.PITCH, G.PITCH_RANGE[1]):
        for f in range(8):
            cx, cy = G.square_centre(f, 0, pitch)
            piece = G.led_piece(cx, cy, pitch)
            assert all(abs(x - cx) < pitch / 2 - 0.5 and abs(y - cy) < pitch / 2 - 0.5 for x, y in piece[0])
            for (gx, gy), (_, (ux, uy)) in zip(G.reed_centres(f, 0, pitch), G.square_reeds(pitch)):
                for t in (-1.0, -0.5, 0.0, 0.5, 1.0):  # along the glass
                    x, y = gx + t * G.REED_GLASS[0] / 2 * ux, gy + t * G.REED_GLASS[0] / 2 * uy
                    assert _outside(x, y, piece, G.REED_GLASS[1] / 2) >= 0.5
