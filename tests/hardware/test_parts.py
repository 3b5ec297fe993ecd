"""The magnets' sizing (hardware/magnets.py) and the rest of the bill of materials with
its cost (hardware/parts.py, #17): the field model against its closed form, the choice
against the board's layers, the committed mechanical.csv and cost.csv what the generators
give, and README's cost figure theirs."""
import csv
import math
import re
from pathlib import Path

import pytest

from hardware import geometry as G
from hardware import magnets as M

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("distance", [1.0, 4.0, 6.15, 12.0])
def test_the_field_model_agrees_with_the_closed_form_on_the_axis(distance):
    exact = M.on_axis(distance, 8, 3, 1.17)
    bx, by, bz = M.field((0, 0, -distance), 8, 3, 1.17)
    assert abs(bx) < 1e-9 and abs(by) < 1e-9
    assert bz == pytest.approx(exact, rel=0.01)


@pytest.mark.parametrize("distance", [1.0, 4.0, 6.15, 12.0])
def test_the_potential_agrees_with_its_closed_form_on_the_axis(distance):
    assert M.potential([(0, 0, -distance)], 12, 3, 1.17)[0] == pytest.approx(
        M.on_axis_potential(distance, 12, 3, 1.17), rel=1e-4)


def test_what_closes_a_switch_is_the_field_along_its_glass_integrated_end_to_end():
    # Two computations that share nothing - the faces' charges' potential, and the side's
    # current's field by Biot-Savart - agree: the line integral of H along the glass, blade
    # end to blade end, is the difference of potential between the ends (what a test coil
    # as long as the glass gives as NI).
    import numpy as np

    depth = G.magnet_to_reed()
    for reed in G.square_reeds():
        for mx, my in ((0.0, 0.0), (6.0, -3.0), (14.0, 9.0)):
            (ax, ay), (bx, by) = M.glass_ends(reed)
            n = 201
            ts = np.linspace(0.0, 1.0, n)
            ux, uy = (bx - ax), (by - ay)
            along = [(M.field((ax + t * ux - mx, ay + t * uy - my, -depth), 12, 3, 1.17)) for t in ts]
            h = [(b[0] * ux + b[1] * uy) / M.MU0 / 1000 for b in along]  # H along the glass, A/m x mm/1000
            integral = float(np.trapezoid(h, ts)) if hasattr(np, "trapezoid") else float(np.trapz(h, ts))
            assert abs(integral) == pytest.approx(M.mmf([(mx, my)], 12, 3, 1.17, reed)[0], rel=0.02, abs=0.05)


def test_a_magnet_on_the_plane_that_bisects_the_glass_gives_the_switch_nothing():
    for reed in G.square_reeds():
        (ax, ay), (bx, by) = M.glass_ends(reed)
        mid = ((ax + bx) / 2, (ay + by) / 2)
        across = (-(by - ay), bx - ax)
        norm = math.hypot(*across)
        for k in (-8.0, 0.0, 5.0, 20.0):
            spot = (mid[0] + k * across[0] / norm, mid[1] + k * across[1] / norm)
            assert M.mmf([spot], 12, 3, 1.17, reed)[0] < 1e-6
    # The first layout (the glass along its file, 5 mm towards White): a piece standing 5 mm
    # towards White, 15 mm towards file a, was read by nothing.
    old = M.check(12, 3, 1.17, layout=((0.0, 5.0, 90.0),))
    assert not old["ok"] and old["own"] < 0.01


def test_the_choice_fails_where_it_should():
    grade, d, t, m = M.choose()
    assert m >= 1.0 and M.check(d, t, M.GRADES[grade])["ok"]
    # Smaller magnets (10 x 2, 8 x 3 N52) do not read a piece everywhere on its square; a
    # stronger one (12 x 4 N52) reaches the next square at the smallest pitch allowed (and
    # its crowd holds a switch closed: test_sensing.py): the choice is not one of many
    # that would all pass.
    assert not M.check(10, 2, M.GRADES["N52"])["ok"] and not M.check(8, 3, M.GRADES["N52"])["ok"]
    assert M.check(12, 4, M.GRADES["N52"], pitch=G.PITCH_RANGE[0])["neighbour"] > M.needed()[1]
    # A playing surface 6 mm thicker: no magnet does both.
    with pytest.raises(ValueError, match="no common disc magnet"):
        M.choose(depth=G.magnet_to_reed() + 6.0)


def test_the_bill_of_materials_and_the_cost_are_up_to_date(tmp_path):
    from hardware import parts

    mech, money = parts.write_all(tmp_path / "mechanical.csv", tmp_path / "cost.csv")
    assert mech == parts.MECHANICAL.read_text(), "run python -m hardware.parts"
    assert money == parts.COST.read_text(), "run python -m hardware.parts"
    rows = list(csv.DictReader(parts.MECHANICAL.open()))
    grade, d, t, _ = M.choose()
    magnet = [r for r in rows if r["part"].startswith("magnet")]
    assert magnet and magnet[0]["part"] == "magnet %dx%d %s" % (d, t, grade)
    from hardware import tactile
    assert tactile.MAGNET == (d, t)  # the tactile set's pegs take the same magnets
    for r in rows:
        assert float(r["eur"]) == pytest.approx(int(r["qty"]) * float(r["eur_each"]), abs=0.01)
    # Every part of the circuit's BOM has its price (and then its fittings: test_sourcing.py),
    # and a missing one is said.
    bom = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open()))
    from hardware import sourcing
    assert ({(r["part"], r["value"]) for r in sourcing.circuit_rows() if r["value"]}
            == {(r["part"], r["value"]) for r in bom})
    bad = tmp_path / "bom.csv"
    bad.write_text("qty,part,value\n1,Flux_Capacitor,1.21 GW\n")
    with pytest.raises(KeyError, match="Flux_Capacitor"):
        parts.electronic_rows(bad)


def test_readme_quotes_the_generated_cost():
    from hardware import parts

    cost = {r["section"]: r["eur"] for r in csv.DictReader(parts.COST.open())}
    guide = (ROOT / "hardware" / "README.md").read_text()
    for key in ("total without the voice", "total with the voice", "total without the voice or the pieces"):
        assert "EUR %s" % cost[key] in guide, key
    for section, eur in cost.items():  # the table, row by row
        assert ("| %s | %s |" % (section, eur) in guide or "| **%s** | **%s** |" % (section, eur) in guide), section


def test_the_volume_of_a_printed_part():
    from hardware import enclosure as E
    from hardware import parts

    jx, jy, jz = E.BoardEnclosure.JOINER
    assert parts.stl_volume(E.OUT / "board-joiner.stl") == pytest.approx((jx - 0.4) * (jy - 0.4) * jz, rel=1e-4)


def test_the_order_buys_the_square_leds_and_the_picos_pins():
    # The firmware drives a chain of one WS2812 per square (firmware/hal/squareleds.py: its
    # index runs over the 64 squares): the order buys strip enough for 64 single-LED pieces,
    # their cost is its own optional section, outside the totals; and the Pico (bought
    # without pins) gets its header and its two sockets.
    from firmware.hal import squareleds
    from hardware import parts

    chain = {squareleds.index(sq) for sq in range(64)}
    assert chain == set(range(64))
    rows = {r["part"]: r for r in csv.DictReader(parts.MECHANICAL.open())}
    strip = rows["WS2812B strip 30/m"]
    assert int(strip["qty"]) * 1000 // G.LED_PIECE[0] >= len(chain)
    cost = {r["section"]: float(r["eur"]) for r in csv.DictReader(parts.COST.open())}
    assert cost[parts.SQUARE_LEDS] == pytest.approx(float(strip["eur"]))
    assert cost["total with the voice"] == pytest.approx(cost["total without the voice"] + cost[parts.THE_VOICE])
    order = list(csv.DictReader((ROOT / "hardware" / "order.csv").open()))
    pico = [r for r in order if "Raspberry_Pi_Pico" in r["for"]]
    assert {r["part"] for r in pico} >= {"pin header 1x40", "socket 1x20"}
    assert sum(int(r["qty"]) for r in pico if r["part"] == "socket 1x20") == 2


def _guide():
    return (ROOT / "hardware" / "README.md").read_text()


def test_the_guides_figures_are_the_files_own():
    # The largest items the guide names are the four dearest lines of order.csv and
    # mechanical.csv, in that order, at their prices; the voice's figure is cost.csv's.
    from hardware import parts

    guide = " ".join(_guide().split())
    lines = list(csv.DictReader((ROOT / "hardware" / "order.csv").open())) + list(csv.DictReader(parts.MECHANICAL.open()))
    dearest = sorted(lines, key=lambda r: -float(r["eur"]))[:4]
    assert [r["part"] for r in dearest] == ["Reed", "sensor strip PCB", "HT16K33 backpack", "filament (g)"]
    sentence = guide.split("The 192 reed switches", 1)[1].split(").", 2)
    sentence = ").".join(sentence[:2])
    assert [float(x) for x in re.findall(r"EUR (\d+\.\d\d)", sentence)] == [float(r["eur"]) for r in dearest]
    cost = {r["section"]: r["eur"] for r in csv.DictReader(parts.COST.open())}
    assert "EUR %s more in all (`cost.csv`, \"the voice\")" % cost[parts.THE_VOICE] in guide


def test_the_guides_resistor_count_is_bom_csvs():
    bom = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open()))
    want = {}
    for r in bom:
        if r["part"] == "R":
            want[r["value"]] = want.get(r["value"], 0) + int(r["qty"])
    guide = _guide()
    bullet = guide.split("- **Resistors**", 1)[1].split("\n- ", 1)[0]
    bullet = re.sub(r"\([^()]*;[^()]*\)", "", " ".join(bullet.split()))  # (not the asides' "12k in their place")
    got = {}
    for n, value in re.findall(r"(\d+) x (\w+)", bullet):
        got[value] = got.get(value, 0) + int(n)
    assert got == want


def test_the_guide_names_every_line_bought_away_from_mouser():
    # "Ordering" names, by distributor, every line of order.csv, order-face-board.csv and
    # mechanical.csv that is not Mouser's, by its order number, and no other distributor.
    from hardware import parts, sourcing

    para = " ".join(_guide().split("Most\nlines are Mouser's", 1)[1].split("\n\n", 1)[0].split())
    heads = {sourcing.DIGIKEY: "DigiKey's:", sourcing.LCSC: "LCSC's:", "Pololu": "Pololu's own:"}
    parts_of = {}
    for name, head in heads.items():
        assert head in para, head
        text = para.split(head, 1)[1]
        parts_of[name] = min([text.split(h, 1)[0] for h in heads.values() if h in text] + [text.split(". ", 1)[0]],
                             key=len)
    files = [ROOT / "hardware" / "order.csv", sourcing.FACE_ORDER, parts.MECHANICAL]
    rows = [r for f in files for r in csv.DictReader(f.open())]
    assert {r["distributor"] for r in rows} <= set(heads) | {sourcing.MOUSER, sourcing.MARKET, sourcing.BOARD_HOUSE,
                                                              sourcing.FASTENERS, "a laser-cutting service"}
    for r in rows:
        if r["distributor"] in heads:
            assert r["order_number"].split()[0] in parts_of[r["distributor"]], (r["part"], r["distributor"])
