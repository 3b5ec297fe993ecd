"""The enclosure (#17, hardware/enclosure.py) as build123d makes it: every printed part a
closed solid that fits the print bed; the tray's pins where the sensor strips' holes are
(read from the KiCad board) and every reed switch under its square of the playing surface
(read from its DXF); the strips, the tray and the clock's contents clear of one another;
the committed files what the generator gives."""
import math
import struct
from pathlib import Path

import pytest

from hardware import geometry as G

build123d = pytest.importorskip("build123d", reason="build123d is missing (pip install build123d)")
from hardware import enclosure as E  # noqa: E402


def _triangles(path: Path):
    """A binary STL's triangles as vertex triples."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<I", data, 80)
    assert len(data) == 84 + 50 * n, path.name
    out = []
    for i in range(n):
        v = struct.unpack_from("<12f", data, 84 + 50 * i)
        out.append((v[3:6], v[6:9], v[9:12]))
    return out


def closed(triangles) -> bool:
    """A closed, consistently oriented surface: every edge of every triangle is met once,
    the other way round, by exactly one other triangle."""
    key = lambda p: tuple(round(c, 4) for c in p)  # noqa: E731
    edges = {}
    for tri in triangles:
        a, b, c = (key(p) for p in tri)
        if len({a, b, c}) < 3:
            continue  # a sliver: no area, no edge
        for e in ((a, b), (b, c), (c, a)):
            edges[e] = edges.get(e, 0) + 1
    return bool(edges) and all(k == 1 and edges.get((e[1], e[0])) == 1 for e, k in edges.items())


STLS = sorted(E.OUT.glob("*.stl"))


def test_every_part_is_there():
    made, _, _ = E.parts()
    assert {p.stem for p in STLS} == set(made)
    # nine tiles, the joiner, four shell pieces, the lever's cap and bracket, the holder's corner
    assert len(STLS) >= 17


@pytest.mark.parametrize("path", STLS, ids=[p.stem for p in STLS])
def test_every_printed_part_is_a_closed_solid_that_fits_the_printer_as_it_lies(path):
    # As it lies in its file (as it prints): on the bed, within the smallest printer the
    # guide names (a 180 mm cube).
    tris = _triangles(path)
    assert closed(tris), path.name
    xs, ys, zs = ([p[i] for t in tris for p in t] for i in range(3))
    assert min(zs) == pytest.approx(0.0, abs=1e-3), path.name
    assert max(xs) - min(xs) <= E.BED and max(ys) - min(ys) <= E.BED, path.name
    assert max(zs) <= E.BED_HEIGHT, path.name


PRINTED = STLS + sorted((E.HERE / "tactile").glob("*.stl"))


@pytest.mark.parametrize("path", PRINTED, ids=[p.stem for p in PRINTED])
def test_every_printed_part_prints_without_support(path):
    from hardware import printability

    assert printability.overhangs(printability.read_stl(path)) == [], path.name


def _mesh(part):
    import numpy as np

    from hardware import printability

    path = Path(__import__("tempfile").mkdtemp()) / "part.stl"
    build123d.export_stl(part, str(path), tolerance=0.05, angular_tolerance=0.2)
    return np.asarray(printability.read_stl(path))


def test_the_overhang_check_finds_what_needs_support():
    from build123d import Align, Box, Pos

    from hardware import printability as P

    lo = (Align.MIN, Align.MIN, Align.MIN)

    def arch(span):  # two pillars and a beam across: a bridge of `span`
        return Box(5, 10, 10, align=lo) + Pos(5 + span, 0, 0) * Box(5, 10, 10, align=lo) + \
            Pos(0, 0, 10) * Box(10 + span, 10, 3, align=lo)

    assert P.overhangs(_mesh(arch(P.BRIDGE_MM - 5))) == []
    assert len(P.overhangs(_mesh(arch(P.BRIDGE_MM + 5)))) == 1
    ledge = Box(10, 10, 10, align=lo) + Pos(0, 0, 10) * Box(10 + 8, 10, 3, align=lo)  # 8 mm out over air
    assert P.overhangs(_mesh(ledge))[0].worst > P.LEDGE_MM
    short = Box(10, 10, 10, align=lo) + Pos(0, 0, 10) * Box(10 + 1.5, 10, 3, align=lo)
    assert P.overhangs(_mesh(short)) == []
    # What the review found: a clock half's shell, whole, standing on its joint end leaves
    # its outer end wall a roof of about 95 x 70 mm over air.
    bad = P.overhangs(_mesh(E.laid(E.ClockHalf("white").shell(), "+x")))
    assert max(o.area for o in bad) > 4000  # mm2: the end wall, less its jack and switch holes


def test_the_closed_check_catches_a_hole():
    tris = _triangles(E.OUT / "board-joiner.stl")
    assert closed(tris)
    assert not closed(tris[1:])  # a triangle missing: open
    flipped = [(t[0], t[2], t[1]) if i == 0 else t for i, t in enumerate(tris)]
    assert not closed(flipped)  # one turned inside out


def test_the_tiles_make_the_tray_whole_and_no_seam_cuts_a_post():
    board = E.BoardEnclosure()
    tray = board.tray()
    tiles = board.tiles(tray)
    assert len(tiles) == board.tiles_per_side ** 2
    assert abs(sum(t.volume for t in tiles.values()) - tray.volume) < 1.0
    for x, y in board.pins():
        for seam in board.seams:
            assert abs(x - seam) > 5 and abs(y - seam) > 5, (x, y, seam)
    # A narrower bed gives more tiles, each still on the bed.
    small = E.BoardEnclosure(bed=150.0)
    assert small.tiles_per_side > board.tiles_per_side


def _saved_strip_holes():
    """The mounting holes and reed switches of the committed KiCad strip, in mm."""
    from hardware import pcb

    try:
        pcbnew = pcb.pcbnew_module()
    except ImportError as e:
        pytest.skip(str(e))
    saved = pcbnew.LoadBoard(str(pcb.BOARD_FILE))
    mm = pcbnew.ToMM
    holes, reeds = [], {}
    for fp in saved.GetFootprints():
        ref = fp.GetReference()
        pads = list(fp.Pads())
        if ref.startswith("H"):
            holes.append((mm(pads[0].GetPosition().x), mm(pads[0].GetPosition().y), mm(pads[0].GetDrillSize().x)))
        if ref.startswith("reed"):  # the glass's centre, between its pads: {(file, switch): (x, y)}
            name, f = ref.split("_")
            reeds[(f, int(name[4:] or 1) - 1)] = (sum(mm(p.GetPosition().x) for p in pads) / 2,
                                                  sum(mm(p.GetPosition().y) for p in pads) / 2)
    return holes, reeds


def test_the_trays_pins_go_through_the_strips_holes():
    """The pins stand where the KiCad strip has its holes, thinner than the holes, on
    shoulders at the strips' underside, up to the playing surface; the strips, placed on
    them, touch neither the pins nor the wall."""
    from build123d import Vector

    board = E.BoardEnclosure()
    holes, _ = _saved_strip_holes()
    assert len(holes) == len(G.MOUNT_AT)
    from_pcb = sorted((round(x, 3), round(y, 3)) for r in range(8) for hx, hy, _ in holes
                      for x, y in [board.to_cad(G.strip_origin(r)[0] + hx, G.strip_origin(r)[1] + hy)])
    assert from_pcb == sorted((round(x, 3), round(y, 3)) for x, y in board.pins())
    assert all(d > 3.0 for _, _, d in holes)
    tray = board.tray()
    for x, y in board.pins():
        assert tray.is_inside(Vector(x, y, board.pcb_z + 0.8))  # the pin, in the hole
        assert not tray.is_inside(Vector(x + 1.55, y, board.pcb_z + 0.8))  # clear of the hole's wall
        assert tray.is_inside(Vector(x + 3.5, y, board.pcb_z - 0.5))  # the shoulder under the strip
        assert tray.is_inside(Vector(x, y, board.plate_z - 0.1))  # up to the playing surface
        assert not tray.is_inside(Vector(x, y, board.plate_z + 0.1))
    for strip in board.strips():
        assert (tray & strip).volume < 1e-6
    # The ribbon's way out, through either side wall by White's corners, and only there.
    y0, y1, z0, z1 = board.cable_notch()
    for x in (board.x0 + G.WALL / 2, board.x0 + board.side - G.WALL / 2):
        assert not tray.is_inside(Vector(x, (y0 + y1) / 2, (z0 + z1) / 2))
        assert tray.is_inside(Vector(x, y1 + 20, (z0 + z1) / 2))
    assert 8 * G.PITCH + 2 * board.frame - 2 * G.WALL > 0  # the border in front of rank 1 runs wall to wall


def test_every_reed_switch_lies_under_its_square():
    """From the KiCad strip and the playing surface's DXF: each of a square's three reeds'
    glass centred where geometry.square_reeds puts it from its square's centre, the whole
    glass inside the square; the magnet as far above it as the layers say."""
    import ezdxf

    board = E.BoardEnclosure()
    _, reeds = _saved_strip_holes()
    doc = ezdxf.readfile(str(E.OUT / "board-top.dxf"))
    lines = [e for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer == "ENGRAVE"]
    grid_x = sorted({round(e.dxf.start.x, 3) for e in lines if e.dxf.start.x == e.dxf.end.x})
    grid_y = sorted({round(e.dxf.start.y, 3) for e in lines if e.dxf.start.y == e.dxf.end.y})
    p = G.PITCH
    assert grid_x[:1] == [0.0] and grid_x[-1] == 8 * p and grid_y[:1] == [0.0] and grid_y[-1] == 8 * p
    squares_x = [i * p for i in range(9)]
    assert all(x in grid_x for x in squares_x)
    assert len(reeds) == 8 * len(G.SQUARE_REEDS)
    for r in range(8):
        ox, oy = G.strip_origin(r)
        for (name, i), (rx, ry) in reeds.items():
            f = "abcdefgh".index(name)
            x, y = board.to_cad(ox + rx, oy + ry)
            col, row = int(x // p), int(y // p)
            assert (col, row) == (f, r), name + str(r + 1)
            cx, cy = (f + 0.5) * p, (r + 0.5) * p
            # (the drawing's y grows towards Black: White is down)
            (dx, dy), (ux, uy) = G.square_reeds()[i]
            assert abs(x - cx - dx) < 1e-3 and abs((cy - y) - dy) < 1e-3
            h = G.REED_GLASS[0] / 2
            for gx, gy in ((x - h * ux, y + h * uy), (x + h * ux, y - h * uy)):  # the whole glass under its square
                assert col * p < gx < (col + 1) * p and row * p < gy < (row + 1) * p
    outline = [e for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == "CUT"][0]
    xs = [v[0] for v in outline.get_points()]
    assert abs(max(xs) - min(xs) - board.side) < 1e-6
    # The layers: the playing surface's top above the glass's axis, plus the felt.
    glass_axis = board.pcb_z + G.PCB_THICKNESS + G.REED_GLASS[1] / 2
    assert abs(board.height + G.FELT - glass_axis - G.magnet_to_reed()) < 1e-9
    assert board.plate_z - (board.pcb_z + G.PCB_THICKNESS + G.REED_GLASS[1]) >= 0.5  # the glass clear of the plate


@pytest.mark.parametrize("side", ["white", "black"])
def test_the_clocks_contents_fit_inside_its_half(side):
    """The face board behind its window, the lever (its cap pressed to the stop, spring,
    bracket, switch), the keys, the jack, the cells' holder and speaker (White) and the
    controller board (Black): inside the half's outline, clear of its walls, bosses and
    laps, and of one another; the window as large as the face."""
    import itertools

    half = E.ClockHalf(side)
    shell, bottom = half.shell(), half.bottom()
    outline = build123d.extrude(half.profile(), amount=E.HALF)
    inside = half.contents()
    for name, box in inside.items():
        if name != "lever cap, pressed":  # (its head stands on the top)
            assert (box & outline).volume == pytest.approx(box.volume, rel=1e-6), name  # inside
        assert (box & shell).volume < 1e-3, name
        assert (box & bottom).volume < 1e-3, name
    for (a, pa), (b, pb) in itertools.combinations(inside.items(), 2):
        assert (pa & pb).volume < 1e-3, (a, b)
    x0, y0, _, x1, y1, _ = half.switch_box()
    lx, ly = half.lever_at()
    assert lx - E.LEVER / 2 < x0 and x1 < lx + E.LEVER / 2 and ly - E.LEVER / 2 < y0 and y1 < ly + E.LEVER / 2
    assert E.FACE_WINDOW[0] >= E.CHARS * E.CHAR_PITCH and E.FACE_WINDOW[1] >= E.CHAR_HEIGHT
    # And the check is not blind: a holder twice as tall runs into the sloping front.
    if side == "white":
        from build123d import Align, Box, Pos

        bx, by = half.battery_at()
        hx, hy, hz = E.BATTERY_HOLDER
        tall = Pos(bx, by, 0.01) * Box(hx, hy, 2 * hz, align=(Align.MIN, Align.MIN, Align.MIN))
        assert (tall & shell).volume > 1.0


@pytest.mark.parametrize("width, fits", [(74.0, True), (100.0, True), (190.0, False)])
def test_the_cells_holder_fits_whatever_its_width(monkeypatch, width, fits):
    # The BK-18650-PC8's width across its four cells is an estimate (its own drawing was not
    # at hand): from four bare cells side by side to 100 mm, the holder and its printed
    # corners stay clear of the shell, the bottom and everything else in White's half (and
    # the check is not blind: at 190 mm the far corner runs into the end wall).
    monkeypatch.setattr(E, "BATTERY_HOLDER", (width,) + E.BATTERY_HOLDER[1:])
    half = E.ClockHalf("white")
    shell, bottom = half.shell(), half.bottom()
    inside = half.contents()
    mine = [k for k in inside if k == "cells" or k.startswith("holder corner")]
    assert len(mine) == 3 and inside["cells"].bounding_box().size.X == pytest.approx(width)
    clashes = [(name, "shell") for name in mine if (inside[name] & shell).volume >= 1e-3]
    clashes += [(name, "bottom") for name in mine if (inside[name] & bottom).volume >= 1e-3]
    clashes += [(name, other) for name in mine for other in inside
                if other not in mine and (inside[name] & inside[other]).volume >= 1e-3]
    assert (clashes == []) is fits, clashes


def test_a_usb_plug_reaches_the_clocks_socket_through_the_end_wall():
    # The socket where the controller's PCB puts it (read from hardware/layoutpcb.py): at the
    # board's outer edge, its mouth just inside the end wall, and the wall's slot round a
    # micro-B plug's overmould at the PCB's socket and at the perfboard adapter's, clear of
    # the headphone socket.
    from hardware import routedpcb
    from hardware.layoutpcb import LayoutPCB

    pcb = LayoutPCB("controller")
    socket = next(p for p in pcb.parts if p.key == "usb_socket")
    pins = [p for p in socket.pads if p.number in ("1", "2", "3", "4", "5")]
    # (KiCad's footprint: its five pins 2.35 mm behind the receptacle's centre, which stands
    # USB_EDGE from the board's edge, the mouth out; the router's grid moves it by at most
    # a fifth of a millimetre)
    assert sum(p.x for p in pins) / 5 + 2.35 + routedpcb.USB_EDGE == pytest.approx(pcb.W, abs=0.2)
    y = sum(p.y for p in pins) / 5
    assert y == pytest.approx(E.CONTROLLER_USB[0], abs=0.2)
    half = E.ClockHalf("black")
    assert half.usb_faults(y) == []
    # Not blind: the Pico's own socket (between its pins 1 and 40) would miss the slot.
    pico = {p.number: p for p in next(p for p in pcb.parts if p.key == "pico").pads}
    assert any("misses the slot" in f for f in half.usb_faults((pico["1"].y + pico["40"].y) / 2))


def test_the_lever_lands_on_its_stops_and_never_on_its_switch(monkeypatch):
    # A blitz slam: the cap's stem lands on the bracket's stops round the switch after
    # LEVER_TRAVEL, its head still clear of the top; the switch, set in its slots to click at
    # the stop for any D2F-L within its datasheet's operating position, is pressed no further
    # than its minimum overtravel and let go at rest; the spring holds the cap up and does
    # not go solid.
    half = E.ClockHalf("white")
    assert half.lever_faults() == []
    (head_up, stem_up), (head_down, stem_down) = half.lever_stop()
    assert head_down == pytest.approx(E.H_REAR + E.HEAD_GAP) and head_up - head_down == pytest.approx(E.LEVER_TRAVEL)
    cap_down, shell, bracket = half.cap(pressed=True), half.shell(), half.bracket()
    from build123d import Pos

    assert (cap_down & bracket).volume < 1e-3  # it stops on the bracket's stops, and there it touches
    assert ((Pos(0, 0, -0.2) * cap_down) & bracket).volume > 1.0  # 0.2 mm further would go into them
    assert ((Pos(0, 0, -E.HEAD_GAP + 0.1) * cap_down) & shell).volume < 1e-3  # the head never reaches the top
    # Each fault is found: a longer travel puts the switch's body in the stem's way and the
    # spring solid; a switch set further past its click takes it beyond its overtravel;
    # shorter slots cannot reach a switch at the end of its tolerance.
    monkeypatch.setattr(E, "LEVER_TRAVEL", 9.0)
    assert any("solid" in f for f in half.lever_faults()) and any("shelf" in f for f in half.lever_faults())
    monkeypatch.setattr(E, "LEVER_TRAVEL", 4.0)
    monkeypatch.setattr(E, "SWITCH_SLOT", 4.0)
    assert any("body" in f for f in half.lever_faults())
    monkeypatch.setattr(E, "SWITCH_SLOT", 2.0)
    monkeypatch.setattr(E, "SWITCH_SET", 1.0)
    assert any("overtravel" in f for f in half.lever_faults())
    monkeypatch.setattr(E, "SWITCH_SET", 0.4)
    monkeypatch.setattr(E, "SWITCH_SLOT", 1.0)
    assert any("cannot be set" in f for f in half.lever_faults())


def test_a_press_anywhere_on_the_cap_trips_the_switch(monkeypatch):
    # Pressed at its edge, the cap tilts as far as its guides let it (the top's hole round
    # the stem, its screw in the shelf's hole: a pin in two bushings) about the edge of what
    # stops it; the switch's lever must still go past its operating position, so the tilt
    # times the lever's distance from the pivot stays under what the switch is set past it.
    half = E.ClockHalf("white")
    tilt, short = half.edge_press()
    c = (E.LEVER_CLEAR / 2 + (E.LEVER_SCREW[0] - E.M3_MAJOR) / 2)
    assert math.radians(tilt) == pytest.approx(math.atan(c / (E.H_REAR - E.SHELF_TOP + 3.0)))
    assert 0 < short < E.SWITCH_SET <= E.SWITCH_OT
    # The old lever: its head landing on the top was the stop (the stops' outline the head's
    # 39 mm square), the switch 15 mm off its centre, the hole 0.6 mm larger, set 0.3 past:
    # a press on the far corner left the switch's lever 1.4 mm up, and the check says so.
    lx, ly = half.lever_at()
    w = E.LEVER / 2 + E.LEVER_RIM
    monkeypatch.setattr(E.ClockHalf, "lever_stops", lambda self: [(lx - w, ly - w, lx + w, ly + w)])
    monkeypatch.setattr(E, "LEVER_CLEAR", 0.6)
    monkeypatch.setattr(E, "SWITCH_SET", 0.3)
    assert half.edge_press()[1] == pytest.approx(1.42, abs=0.05)
    assert any("the press is missed" in f for f in half.lever_faults())
    monkeypatch.undo()
    # Stops on one side of the switch only: a press beyond the other side lifts the cap off it.
    x0, y0, x1, y1 = half.lever_stops()[0]
    monkeypatch.setattr(E.ClockHalf, "lever_stops", lambda self: [(x0, y0, x1, y1)])
    assert any("outside its stops" in f for f in half.lever_faults())
    monkeypatch.undo()
    # A looser hole (1 mm a side) lets the cap tilt past the switch.
    monkeypatch.setattr(E, "LEVER_CLEAR", 2.0)
    assert any("the press is missed" in f for f in half.lever_faults())


def test_the_generated_files_are_up_to_date(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "hardware.enclosure", "--out", str(tmp_path)], capture_output=True,
                       text=True, timeout=600, cwd=str(E.HERE.parent))
    assert r.returncode == 0, r.stdout + r.stderr
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in E.OUT.iterdir())
    for name in made:
        if name.endswith(".png"):
            continue
        if name.endswith(".dxf"):  # ezdxf orders its OBJECTS section differently from run to run
            assert _drawing(tmp_path / name) == _drawing(E.OUT / name), \
                "hardware/enclosure/%s is stale: run python -m hardware.enclosure" % name
            continue
        assert (tmp_path / name).read_bytes() == (E.OUT / name).read_bytes(), \
            "hardware/enclosure/%s is stale: run python -m hardware.enclosure" % name


def _drawing(path: Path):
    """What a DXF draws: each entity's kind, layer and points, in order."""
    import ezdxf

    out = []
    for e in ezdxf.readfile(str(path)).modelspace():
        if e.dxftype() == "LINE":
            geom = (tuple(e.dxf.start), tuple(e.dxf.end))
        elif e.dxftype() == "CIRCLE":
            geom = (tuple(e.dxf.center), e.dxf.radius)
        else:
            geom = tuple(tuple(p) for p in e.get_points())
        out.append((e.dxftype(), e.dxf.layer, geom))
    return out
