"""The magnets' sizing (hardware/magnets.py) and the rest of the bill of materials with
its cost (hardware/parts.py, #17): the field model against its closed form, the choice
against the board's layers, the committed mechanical.csv and cost.csv what the generators
give, and README's cost figure theirs."""
import csv
from pathlib import Path

import pytest

from hardware import geometry as G
from hardware import magnets as M

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("distance", [1.0, 4.0, 6.15, 12.0])
def test_the_field_model_agrees_with_the_closed_form_on_the_axis(distance):
    exact = M.on_axis(distance, 8, 3, 1.17)
    bx, by, bz = M.field((0, 0, -distance), 8, 3, 1.17)
    assert abs(bx) < 1e-9 and abs(by) < 1e-9
    assert bz == pytest.approx(exact, rel=0.01)


def test_the_chosen_magnet_reads_its_square_and_spares_the_next():
    grade, d, t, tol = M.choose()
    lo, hi = M.needed()
    br = M.GRADES[grade]
    assert tol >= M.MIN_TOLERANCE * G.PITCH
    assert M.own_field(d, t, br, off=tol) >= lo
    assert M.neighbour_field(d, t, br, off=tol) <= hi
    # Half a millimetre further, one of the two fails: the tolerance is the real edge.
    beyond = tol + 0.5
    assert M.own_field(d, t, br, off=beyond) < lo or M.neighbour_field(d, t, br, off=beyond) > hi


def test_the_sizing_follows_the_layers_and_refuses_what_cannot_work():
    grade, d, t, tol = M.choose()
    br = M.GRADES[grade]
    # A thicker playing surface: the same magnet reads a piece less far off its centre.
    thicker = M.tolerance(d, t, br, depth=G.magnet_to_reed() + 3.0)
    assert thicker is None or thicker < tol
    # A big magnet reaches the next square; a tiny one barely reads its own.
    assert (M.tolerance(12, 3, M.GRADES["N42"]) or 0) < tol
    assert (M.tolerance(5, 2, M.GRADES["N35"]) or 0) < tol
    with pytest.raises(ValueError, match="no common disc magnet"):
        M.choose(depth=25.0)


def test_the_bill_of_materials_and_the_cost_are_up_to_date(tmp_path):
    from hardware import parts

    mech, money = parts.write_all(tmp_path / "mechanical.csv", tmp_path / "cost.csv")
    assert mech == parts.MECHANICAL.read_text(), "run python -m hardware.parts"
    assert money == parts.COST.read_text(), "run python -m hardware.parts"
    rows = list(csv.DictReader(parts.MECHANICAL.open()))
    grade, d, t, _ = M.choose()
    magnet = [r for r in rows if r["part"].startswith("magnet")]
    assert magnet and magnet[0]["part"] == "magnet %dx%d %s" % (d, t, grade)
    for r in rows:
        assert float(r["eur"]) == pytest.approx(int(r["qty"]) * float(r["eur_each"]), abs=0.01)
    # Every part of the circuit's BOM has its price, and a missing one is said.
    assert len(parts.electronic_rows()) == len(list(csv.DictReader((ROOT / "hardware" / "bom.csv").open())))
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
