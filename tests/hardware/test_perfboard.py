"""The controller's perfboard layout (#17, hardware/perfboard.py), from the circuit: every
part that lives on it has its holes, nothing overlaps, the wires join each of the circuit's
nets and never two, every line that leaves has its connector pin, and the committed wiring
list is what the generator gives."""
import pytest

from hardware import perfboard as PB


@pytest.fixture(scope="module")
def board():
    return PB.Perfboard()  # the controller


def _groups(board):
    up = {}

    def find(h):
        while up.get(h, h) != h:
            h = up[h]
        return h

    for _, a, b in board.wires:
        up[find(a)] = find(b)
    return find


@pytest.mark.parametrize("layout", PB.LAYOUTS, ids=lambda l: l.name)
def test_every_layout_has_no_problem_and_makes_its_nets(layout):
    b = PB.Perfboard(layout)
    assert b.problems() == []
    find = _groups(b)
    by_net = {}
    for pin, net in b.nets.items():
        if net:
            by_net.setdefault(net, set()).add(find(b.pins[pin]))
    assert all(len(g) == 1 for g in by_net.values())
    assert len({next(iter(g)) for g in by_net.values()}) == len(by_net)  # no two nets joined


def test_the_small_boards_plug_into_the_controllers_connectors():
    """The buttons' and the voice's leads carry the controller's J_BUTTONS and J_VOICE pin
    for pin; the buttons stand where the rear wall has its holes."""
    from hardware import enclosure as E

    layouts = {l.name: l for l in PB.LAYOUTS}
    controller = PB.Perfboard()
    for name, joins in (("buttons", "J_BUTTONS"), ("voice", "J_VOICE"), ("guard", "J_GUARD")):
        assert PB.Perfboard(layouts[name]).headers["J_CONTROLLER"] == controller.headers[joins]
    buttons = PB.Perfboard(layouts["buttons"])
    centres = []
    for key in ("button_plus", "button_minus", "button_ok", "button_menu", "button_reset"):
        x0, _, x1, _ = buttons.bodies[key]
        centres.append((x0 + x1) / 2 * 2.54)
    holes = E.ClockHalf("black").buttons()
    assert [round(c - centres[0], 6) for c in centres] == [round(h - holes[0], 6) for h in holes]


def test_the_wires_make_the_circuits_nets_on_the_board(board):
    find = _groups(board)
    by_net = {}
    for pin, net in board.nets.items():
        if net:
            by_net.setdefault(net, set()).add(find(board.pins[pin]))
    assert all(len(groups) == 1 for groups in by_net.values()), \
        [n for n, g in by_net.items() if len(g) > 1]
    owners = {}
    for net, groups in by_net.items():
        (g,) = groups
        assert g not in owners, (net, owners.get(g))  # two nets joined: a short
        owners[g] = net
    # Every pin of every part here is the circuit's: same net, pin for pin.
    for key, part in board.circuit.parts.items():
        if key in board.elsewhere:
            continue
        for p in part.pins:
            net = p.nets[0].name if p.nets else None
            if net and not net.startswith("__"):
                assert board.nets[(key, p.num)] == net, (key, p.num)


def test_every_line_that_leaves_has_its_connector(board):
    """A net shared by a part elsewhere (a face, the voice board, the buttons, the strips)
    and a part here reaches a pin of that group's connector."""
    here = {n for pin, n in board.nets.items() if n and not pin[0].startswith("J_")}
    for key, group in board.elsewhere.items():
        part = board.circuit.parts[key]
        for p in part.pins:
            net = p.nets[0].name if p.nets else None
            if net in here:
                assert net in board.headers[group], (key, p.num, net, group)
    # The board's cable plugs into the cable guard's J_BOARD, the strips' J1 pin for pin;
    # the guard's lead to the controller carries J_GUARD pin for pin.
    from hardware.pcb import CONTROLLER

    guard = PB.Perfboard(next(lay for lay in PB.LAYOUTS if lay.name == "guard"))
    assert guard.headers["J_BOARD"] == list(CONTROLLER)
    assert guard.headers["J_CONTROLLER"] == board.headers["J_GUARD"]


def test_the_checks_catch_a_bad_layout():
    places = dict(PB.CONTROLLER_PLACES)
    places["r_col_a"] = places["r_col_b"]  # two resistors in one place
    del places["buzzer"]
    wrong = PB.Perfboard(places=places).problems()
    assert any("share hole" in w for w in wrong)
    assert any("overlaps" in w for w in wrong)
    assert "buzzer has no place" in wrong
    places = dict(PB.CONTROLLER_PLACES)
    places["pico"] = ("PICO", 33, 1, 0)  # over a mounting hole
    assert any("mounting hole" in w for w in PB.Perfboard(places=places).problems())


def test_the_picos_test_point_holes_lie_under_its_pads():
    # The Pico's pins, placed in mm as its drawing has them (pin 1 and 40 at the USB end,
    # pins 1-20 down the left side), go through pico_hole to the PICO footprint's own pin
    # holes: the turn that takes the test points' pads to their holes is the one the pins
    # take (a mirror would send pin 40 to pin 1's hole and swap D+ and D-).
    pins = dict((num, (dx, dy)) for num, dx, dy in PB.FOOTPRINTS["PICO"][0])
    x1, y1 = PB.PICO_PIN1
    for k in range(1, 41):
        x, y = (x1, y1 + (k - 1) * 2.54) if k <= 20 else (-x1, y1 + (40 - k) * 2.54)
        assert PB.pico_hole(x, y) == pins[str(k)], k
    # Each test point's hole is the one under its pad (within the half-diagonal of a hole),
    # a hole of its own, clear of the pins' rows, and under the Pico's USB end.
    taken = {pins[str(k)] for k in range(1, 41)}
    for tp, (x, y) in PB.PICO_TEST_PADS.items():
        col, row = pins[tp]
        hx, hy = x1 + row * 2.54, y1 - col * 2.54
        assert ((hx - x) ** 2 + (hy - y) ** 2) ** 0.5 < 2.54 / 2 ** 0.5, tp
        assert (col, row) not in taken and 0 < row < 7 and col > -3, tp
        taken.add((col, row))
    # The datasheet's order: D- (TP2) beside pin 40's side of the USB end, D+ (TP3) by pin 1's.
    assert pins["TP2"][1] > pins["TP3"][1]


def test_it_fits_the_clocks_controller_seat():
    # The controller and the cable guard on Black's bottom: each standoff under a corner
    # the layout keeps free for a screw.
    from hardware import enclosure as E

    half = E.ClockHalf("black")
    guard = next(lay for lay in PB.LAYOUTS if lay.name == "guard")
    standoffs = half.standoffs()
    pitch = 2.54
    for (w, d, _), (cx, cy), layout, mine in ((E.CONTROLLER_BOARD, half.controller_at(), PB.CONTROLLER, standoffs[:4]),
                                              (E.GUARD_BOARD, half.guard_at(), guard, standoffs[4:])):
        assert (layout.cols - 1) * pitch < w and (layout.rows - 1) * pitch < d
        margin_x, margin_y = (w - (layout.cols - 1) * pitch) / 2, (d - (layout.rows - 1) * pitch) / 2
        holes = [(margin_x + x * pitch, margin_y + y * pitch) for x, y in layout.screws]
        for sx, sy in mine:
            # (the enclosure's y runs the other way)
            assert min(abs(sx - cx - hx) + abs((cy + d - sy) - hy) for hx, hy in holes) < 2.5, layout.name
    assert len(standoffs) == 8


def test_the_wiring_lists_are_up_to_date(tmp_path):
    made = PB.write_all(tmp_path)
    for path in made:
        if path.suffix == ".txt":
            assert path.read_text() == (PB.OUT / path.name).read_text(), "run python -m hardware.perfboard"
        assert (PB.OUT / path.name).exists()


@pytest.mark.parametrize("layout", [l for l in PB.LAYOUTS if l.name.startswith("face")], ids=lambda l: l.name)
def test_a_face_shows_through_its_window(layout):
    """On its board, centred behind the clock's window: every character and light inside
    the window; the board as large as the clock's seat for it."""
    from hardware import enclosure as E

    face = PB.Perfboard(layout)
    assert face.problems() == []
    w, h, _ = E.FACE_BOARD
    pitch = 2.54
    assert (layout.cols - 1) * pitch < w and (layout.rows - 1) * pitch < h
    mx, my = (w - (layout.cols - 1) * pitch) / 2, (h - (layout.rows - 1) * pitch) / 2
    ww, wh = E.FACE_WINDOW
    left, top = (w - ww) / 2, (h - wh) / 2
    shown = [k for k in face.bodies if k.startswith(("char_", "ind_"))]
    assert len(shown) == 18
    for key in shown:
        x0, y0, x1, y1 = face.bodies[key]
        assert left <= mx + x0 * pitch and mx + x1 * pitch <= left + ww, key
        assert top <= my + y0 * pitch and my + y1 * pitch <= top + wh, key
        assert face.sides[key] == "F"
    assert face.headers["J_CLOCK"] == ["VSYS", "GND", "FACE_SDA", "FACE_SCL"]
