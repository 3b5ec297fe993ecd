"""The order (hardware/sourcing.py, hardware/order.csv): every part of the circuit with its
manufacturer, part number and a distributor's order number; every connector's housing and
crimps, every module's socket and every small chip's adapter counted from the netlist and
the perfboards, so that an order cannot miss one; the file what the generator gives."""
import csv

import pytest

from hardware import perfboard, sourcing
from hardware.circuit import Board


@pytest.fixture(scope="module")
def board():
    return Board()


def test_every_part_of_the_circuit_has_its_source(board):
    rows = sourcing.order_rows(board=board)
    bom = list(csv.DictReader((sourcing.HERE / "bom.csv").open()))
    assert sum(r["qty"] for r in rows[:len(bom)]) == sum(int(r["qty"]) for r in bom)
    for r in rows:
        for field in ("manufacturer", "mpn", "distributor", "order_number"):
            assert r[field], (r["part"], field)
        assert r["checked"] in ("seen", "scheme", "marketplace"), r["part"]
        assert r["eur_each"] > 0 and r["eur"] == pytest.approx(r["qty"] * r["eur_each"], abs=0.005)
    # Resistors by their value, as Yageo numbers them.
    assert sourcing.source("CFR-25", "4k7")["mpn"] == "CFR-25JB-52-4K7"
    assert sourcing.source("CFR-25", "100")["order_number"] == "603-CFR-25JB-52-100R"
    # A part with no source is named, not priced at nothing.
    with pytest.raises(KeyError, match="Flux"):
        sourcing.source("Flux capacitor 1.21 GW")


def test_every_connector_of_the_netlist_gets_its_housing_and_a_crimp_per_pin(board):
    got = sourcing.fittings(board)

    def total(name):
        return sum(r["qty"] for r in got if r["part"] == name)

    xh2 = [p for p in board.parts.values() if "B2B-XH-A" in p.footprint]
    xh3 = [p for p in board.parts.values() if "B3B-XH-A" in p.footprint]
    ph2 = [p for p in board.parts.values() if "B2B-PH-K" in p.footprint]
    assert xh2 and xh3 and ph2
    assert total("B2B-XH-A") == len(xh2) and total("XHP-2") == len(xh2) and total("XHP-3") == len(xh3)
    assert total("SXH-001T-P0.6") == 2 * len(xh2) + 3 * len(xh3)
    assert total("PHR-2") == len(ph2) and total("SPH-002T-P0.5S") == 2 * len(ph2)
    assert total("socket 1x20") == 2 and total("socket DIP-16") == 1 and total("socket 1x8") == 2
    assert total("adapter SOT-23") == 3 and total("adapter SC-70-6") == 2 and total("adapter SOP-28") == 2
    # five TVS arrays and the buffer on the cable guard, one on the voice, the USB clamp
    assert total("adapter SOT-23-6") == 8 and total("adapter micro-USB") == 1
    # Each perfboard connector has its header; a lead between two boards a housing at each
    # end, and a crimp per pin at each housing.
    connectors = [(lay.name, name, int(fp[1:])) for lay in perfboard.LAYOUTS
                  for name, (fp, *_) in lay.places.items() if name.startswith("J_") and (lay.name, name) != ("guard", "J_BOARD")]
    assert sum(r["qty"] for r in got if r["part"].startswith("KK header")) == sum(
        len(sourcing.kk_sizes(n)) for _, _, n in connectors)
    face = [r for r in got if r["for"] == "the lead from controller:J_FACE_W"]
    assert {r["part"]: r["qty"] for r in face} == {"KK housing 4": 2, "KK crimp": 8}
    keys = [r for r in got if r["for"] == "the lead from face-white:J_KEYS"]
    assert {r["part"]: r["qty"] for r in keys} == {"KK housing 4": 1, "KK crimp": 4}  # soldered at the keys
    assert all(r["mpn"] == "22-01-3047" and r["checked"] == "seen" for r in face if r["part"] == "KK housing 4")
    # A row of more than ten circuits is made of common sizes end to end: the 20-way lead
    # between the controller and the guard two 10-way housings at each end (Molex's numbers
    # take two digits there; the distributor's number for ten was not seen).
    guard = {r["part"]: r for r in got if r["for"] == "the lead from controller:J_GUARD"}
    assert {k: r["qty"] for k, r in guard.items()} == {"KK housing 10": 4, "KK crimp": 40}
    assert guard["KK housing 10"]["mpn"] == "22-01-3107" and guard["KK housing 10"]["checked"] == "scheme"
    assert sum(r["qty"] for r in got if r["part"] == "KK header 10") == 4
    # The board's cable: plain pins at both ends (the strip's J1, the guard's J_BOARD), two
    # 8-way housings crimped at each end of the ribbon.
    cable = {r["part"]: r for r in got if r["for"] == "the lead from guard:J_BOARD"}
    assert {k: r["qty"] for k, r in cable.items()} == {"KK housing 8": 4, "KK crimp": 32}
    assert cable["KK housing 8"]["order_number"] == "538-22-01-3087" and cable["KK housing 8"]["checked"] == "seen"


@pytest.mark.parametrize("n, sizes", [(2, [2]), (10, [10]), (11, [6, 5]), (16, [8, 8]), (20, [10, 10]), (25, [9, 8, 8])])
def test_a_long_kk_row_is_made_of_common_sizes(n, sizes):
    assert sourcing.kk_sizes(n) == sizes and sum(sizes) == n


def test_a_part_or_a_connector_the_order_does_not_know_is_refused(board, monkeypatch):
    monkeypatch.setattr(board.parts["buzzer"], "footprint", "Connector_Molex:Molex_Micro-Fit_3.0_1x02")
    with pytest.raises(KeyError, match="no fittings known"):
        sourcing.fittings(board)
    monkeypatch.undo()
    monkeypatch.delitem(sourcing.LEADS, "controller:J_SWITCH")
    with pytest.raises(KeyError, match="J_SWITCH"):
        sourcing.fittings(board)


def test_the_order_is_up_to_date_and_the_cost_counts_it(tmp_path):
    from hardware import parts

    made = sourcing.write(tmp_path / "order.csv")
    assert made == sourcing.ORDER.read_text(), "run python -m hardware.parts"
    rows = list(csv.DictReader(sourcing.ORDER.open()))
    cost = {r["section"]: float(r["eur"]) for r in csv.DictReader(parts.COST.open())}
    voice = sum(float(r["eur"]) for r in rows if r["voice"])
    rest = sum(float(r["eur"]) for r in rows if not r["voice"])
    assert cost[parts.ELECTRONICS] == pytest.approx(rest, abs=0.01)
    assert cost[parts.THE_VOICE] == pytest.approx(voice + 4.00 + 3.00 + 0.50 + 0.12, abs=0.01)  # + cell, card, board, screws


def test_the_rest_of_the_bill_of_materials_has_its_sources_too(monkeypatch):
    from hardware import parts

    rows = parts.mechanical_rows()
    for r in rows:
        for field in ("manufacturer", "mpn", "distributor", "order_number"):
            assert r[field], (r["part"], field)
        assert r["checked"] in sourcing.CHECKED, r["part"]
    kinds = {r["part"]: r["checked"] for r in rows}
    assert kinds["sensor strip PCB"] == "fab" and kinds["cell holder 4x18650"] == "seen"
    # A fastener is ordered by its standard's designation, thread and length as the line says.
    for r in rows:
        if r["checked"] == "standard":
            size = r["part"].split()[1]  # "M3x10"
            assert r["order_number"].startswith("ISO") and size in r["order_number"], r["part"]
    # The ribbon bought covers the seven joins and the longer cable.
    ribbon = next(r for r in rows if r["part"] == "ribbon 16-way")
    assert int(ribbon["qty"]) * parts.FOOT >= 7 * parts.RIBBON_JOIN + parts.RIBBON_CABLE
    # A line with no source is named, not priced at nothing.
    monkeypatch.delitem(sourcing.CATALOGUE, "rubber foot")
    with pytest.raises(KeyError, match="rubber foot"):
        parts.mechanical_rows()


def test_a_distributors_order_number_is_one_word():
    """What goes into a distributor's basket or upload is a number: no spaces, no words
    (marketplace rows are search phrases and stay as they are)."""
    rows = list(csv.DictReader((sourcing.HERE / "order.csv").open()))
    numbered = [r for r in rows if r["distributor"] in (sourcing.MOUSER, sourcing.DIGIKEY, sourcing.LCSC, "Pololu")]
    assert numbered and [r["order_number"] for r in numbered if not r["order_number"].strip() or
                         any(ch.isspace() for ch in r["order_number"])] == []


def test_every_unseen_number_says_what_was_looked_up():
    # A line marked "scheme" (its number formed, not seen) records what its look-up found
    # and where (issue 47), so that the maker knows what is left to check.
    schemed = {k for k, v in sourcing.CATALOGUE.items() if v[5] == "scheme"} | {
        k for k in sourcing.CATALOGUE if "{n" in sourcing.CATALOGUE[k][1]}
    assert schemed - set(sourcing.LOOKED_UP) == set(), schemed - set(sourcing.LOOKED_UP)
    assert all(found for found, _ in sourcing.LOOKED_UP.values())
    # The fuse's record names the datasheet its figures and its derating come from.
    found, where = sourcing.LOOKED_UP["MF-R250"]
    assert "R1max 0.07" in found and "page 4" in found and "REV. AL" in where
