"""The perfboards as real PCBs (hardware/layoutpcb.py): the controller, the cable guard, the
voice and the buttons, each placed as its perfboard places it and routed by the generator,
KiCad's design rules check clean with every pad connected (and a removed track and a short
both found); every pad on the net the circuit gives its pin; the supply nets wide but at
chips' pins; the controller's and the guard's mounting holes over the clock's standoffs; the
assembly files; the committed files what the generator gives. Needs KiCad's pcbnew; skipped
with the reason where it is missing."""

import pytest

from hardware import layoutpcb as C
from hardware import enclosure as E
from hardware import pcb
from hardware.routedpcb import TRACK, WIDE
from tests.hardware.kicad import PCBNEW, assert_same_board, needs_pcbnew, regenerate

pytestmark = needs_pcbnew


NAMES = sorted(C.BOARDS)


@pytest.fixture(scope="module", params=NAMES)
def board(request):
    return C.LayoutPCB(request.param).route()


def _check(b, tmp_path, name):
    from hardware.routedpcb import fill_zones

    path = tmp_path / (name + ".kicad_pcb")
    PCBNEW.SaveBoard(str(path), b.kicad(PCBNEW))
    fill_zones(PCBNEW, path)
    return pcb.drc(PCBNEW, path, tmp_path / (name + ".rpt"))


def test_the_board_is_routed_and_its_check_is_clean(board, tmp_path):
    assert _check(board, tmp_path, "good") == (0, 0), (tmp_path / "good.rpt").read_text()[:2000]
    if board.name != "controller":
        return  # (the check's faults are shown once, on the densest board)
    gone = C.LayoutPCB(board.name)
    i = next(k for k, t in enumerate(board.tracks) if t[5] not in ("GND",))  # (the pour would bridge a ground gap)
    gone.tracks, gone.vias = board.tracks[:i] + board.tracks[i + 1:], list(board.vias)
    assert _check(gone, tmp_path, "gone")[1] > 0
    short = C.LayoutPCB(board.name)
    short.tracks, short.vias = list(board.tracks), list(board.vias)
    x1, y1, x2, y2, layer, net, width = short.tracks[i]
    other = next(p for p in short.pads() if p.net and p.net not in (net, "GND") and p.layers == "FB")
    short.tracks[i] = (x1, y1, other.x, other.y, layer, net, width)
    assert _check(short, tmp_path, "short")[0] > 0


def test_every_pad_carries_its_pins_net_as_the_perfboard_has_it(board):
    layout = board.layout
    parts = {part.key: part for part in board.parts}
    assert set(parts) == set(layout.places)
    for (key, number), net in layout.nets.items():
        pad = next(p for p in parts[key].pads if p.number == number)
        assert pad.net == net, (key, number, pad.net, net)
    for key, part in layout.circuit.parts.items():  # and the perfboard's, the circuit's
        if key in layout.elsewhere:
            continue
        for p in part.pins:
            net = p.nets[0].name if p.nets else None
            if net and not net.startswith("__"):
                assert layout.nets[(key, p.num)] == net
    # The ideal diodes as themselves: SC-70-6 on the top, VIN, GND, CE, N.C., ST, VOUT.
    if board.name == "controller":
        u = next(part for part in board.parts if part.key == "ideal_usb")
        assert u.fp.endswith("SC-70-6") and [p.net for p in u.pads] == ["VBUS_SOFT", "GND", "GND", None, None, "VSYS"]
        # USB's soft start as itself: SOT-23 on the top, gate, source on the socket's VBUS, drain
        q = next(part for part in board.parts if part.key == "soft_start")
        assert q.fp.endswith("SOT-23") and [p.net for p in q.pads] == ["SOFT_GATE", "VBUS", "VBUS_SOFT"]
        # USB: the micro-USB socket's five pins, its shell's pads (four surface, two round
        # holes, two slots) all on ground; the clamp's I/O1 (1, 6) on D+, I/O2 (3, 4) on D-.
        j = next(part for part in board.parts if part.key == "usb_socket")
        assert [p.net for p in j.pads[:5]] == ["VBUS", "USB_DM", "USB_DP", None, "GND"]
        shell = j.pads[5:]
        assert len(shell) == 8 and {p.net for p in shell} == {"GND"}
        assert sum(1 for p in shell if p.slot) == 2 and sum(1 for p in shell if p.layers == "FB") == 4
        clamp = next(part for part in board.parts if part.key == "usb_clamp")
        assert clamp.fp.endswith("SOT-23-6")
        assert [p.net for p in clamp.pads] == ["USB_DP", "GND", "USB_DM", "USB_DM", "VBUS", "USB_DP"]
    if board.name == "guard":  # each cable line's clamp: an SP0504 channel, pin 2 to ground
        for part in board.parts:
            if part.key.startswith("tvs_cable"):
                assert part.fp.endswith("SOT-23-5") and part.pads[1].net == "GND"


def test_the_supply_nets_run_wide(board):
    widths = {}
    for *_, net, width in board.tracks:
        widths.setdefault(net, set()).add(width)
    if board.name == "controller":
        for net in C.WIDE_NETS:
            assert WIDE in widths[net], net
        assert widths["COL_a"] == {TRACK}
    # Thin only close to a pin of its own net (between a chip's pins), or on the branch that
    # reaches a pin drawing no current (THIN: the USB clamp's VBUS reference): the thin
    # tracks and vias joined end to end from that pin.
    pads = {net: [p for p in board.pads() if p.net == net] for net in C.WIDE_NETS}
    from hardware.routedpcb import NECK, REACH_IN

    branch = set()
    for p in board.pads():
        if (p.part.key, p.number) in board.THIN:
            ends = {(round(p.x, 3), round(p.y, 3))}
            thin = [t for t in board.tracks if t[5] == p.net and t[6] == TRACK]
            grew = True
            while grew:
                grew = False
                for t in thin:
                    a, b = (round(t[0], 3), round(t[1], 3)), (round(t[2], 3), round(t[3], 3))
                    if t not in branch and (a in ends or b in ends or min(p.distance(*a), p.distance(*b)) <= REACH_IN):
                        branch.add(t)
                        ends |= {a, b}
                        grew = True
    for t in board.tracks:
        x1, y1, x2, y2, layer, net, width = t
        if net in C.WIDE_NETS and width == TRACK and t not in branch:
            assert min(min(p.distance(x1, y1), p.distance(x2, y2)) for p in pads[net]) < NECK + 0.7, (net, x1, y1)


def test_the_holes_sit_over_the_clocks_standoffs(board):
    half = E.ClockHalf("black")
    seats = {"controller": (half.controller_at(), E.CONTROLLER_BOARD, half.standoffs()[:4]),
             "guard": (half.guard_at(), E.GUARD_BOARD, half.standoffs()[4:])}
    if board.name not in seats:
        return  # (the voice and the buttons are glued in)
    (cx, cy), (w, d, _), standoffs = seats[board.name]
    assert board.W <= w + 0.5 and board.H <= d + 0.5
    for sx, sy in standoffs:
        # (the enclosure's y runs the other way)
        assert min(abs(sx - cx - hx) + abs((cy + d - sy) - hy) for hx, hy, _ in board.holes) < 2.5


def test_the_assembly_files_list_every_surface_mount_part(board):
    bom, cpl = board.assembly_rows()
    smd = sorted(part.ref for part in board.parts if part.pads[0].layers == "F")
    assert len(smd) == {"controller": 7, "guard": 6, "voice": 1, "buttons": 0}[board.name]  # (7: the soft start)
    assert sorted(r[0] for r in cpl) == smd and board.hand_parts() == []
    assert sorted(ref for row in bom for ref in row[1].split(",")) == smd  # JLCPCB's: comma-separated
    assert all(r[3] == "Top" for r in cpl) and all(row[3].startswith("C") and row[3][1:].isdigit() for row in bom)


@pytest.mark.parametrize("name", NAMES)
def test_the_generated_files_are_up_to_date(tmp_path, name):
    regenerate(tmp_path, "hardware.layoutpcb", "--board", name)
    assert_same_board(C.files(name, tmp_path), C.files(name),
                      "hardware/pcb/%s.* is stale: run python -m hardware.layoutpcb" % name)
