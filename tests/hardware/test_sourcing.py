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
    rows = sourcing.circuit_rows(board=board)
    bom = list(csv.DictReader((sourcing.HERE / "bom.csv").open()))
    assert sum(r["qty"] for r in rows if r["value"]) == sum(int(r["qty"]) for r in bom)
    for r in rows + sourcing.backpack_rows(board):
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
    assert (tmp_path / sourcing.FACE_ORDER.name).read_text() == sourcing.FACE_ORDER.read_text(), "run python -m hardware.parts"
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


def _nets(part):
    return {n.name for pin in part.pins for n in pin.nets}


def test_the_default_order_buys_the_recommended_faces_and_nothing_only_a_face_board_takes(board):
    """The face PCB says "do not order" (its characters' pinout unchecked) and the guide
    recommends the backpacks (step 2C): order.csv then buys none of the parts that only a
    face board takes - found here from the circuit's nets, not from sourcing's own list -
    and all that step 2C says to buy; the face boards' parts are in order-face-board.csv,
    and the two files together hold every part of the circuit."""
    import re

    from hardware import facepcb, i2c, parts

    guide = (sourcing.HERE / "README.md").read_text()
    assert "DO NOT ORDER" in facepcb.Face.NOTE[2]
    assert re.search(r"\*\*Do not order\s+it", guide) and "**The recommended faces\nare the ready-made backpacks**" in guide
    order = list(csv.DictReader(sourcing.ORDER.open()))
    faces = list(csv.DictReader(sourcing.FACE_ORDER.open()))
    # (the 12 kohm line names the places it takes: R33 R34, in place of the 2.7 kohm)
    ordered = {ref for r in order if r["value"] != "12k" for ref in r["for"].split()}
    # The face board's own parts: on its HT16K33's commons and rows (but the keys and their
    # diodes, which the backpacks' carriers take), the HT16K33s, their capacitors on VSYS
    # beside them, and the faces' side pull-ups (12 kohm in their place with backpacks).
    only = {p.ref for p in board.parts.values()
            if any(re.match(r"FACE_[WB]_(COM|ROW|A0)", n) for n in _nets(p)) and "key" not in (p.fields.get("Role") or "")}
    only |= {p.ref for p in board.parts.values() if p.name == "HT16K33"}
    only |= {p.ref for k, p in board.parts.items() if k.startswith(("c_face_", "cp_face_"))}
    only |= {p.ref for p in board.parts.values() if {"FACE_SDA", "FACE_SCL"} & _nets(p) and p.name == "R"}
    assert len(only) >= 16 + 20 + 2 + 4 + 2 + 2
    assert ordered & only == set(), "order.csv buys a face board's part"
    assert {r["mpn"] for r in order} & {"PSC08-11SRWA", "HT16K33-28SOP", "WP710A10ID"} == set()
    assert not [r for r in order if r["part"] == "adapter SOP-28"]
    assert only <= {ref for r in faces for ref in r["for"].split()} | {ref for r in faces for ref in re.findall(
        r"\((\w+)\)", r["for"])}
    # What step 2C says to buy: four backpacks, two 12 kohm for the faces' side pull-ups,
    # per face its carrier perfboard, its J_CLOCK and J_KEYS, two 1N4148 and the two keys.
    step = guide.split("### 2C.", 1)[1].split("\n### ", 1)[0]
    assert "four of Adafruit's" in step and "two\n  12 kohm" in step.replace("two 12", "two\n  12")
    backpacks = [r for r in order if r["manufacturer"] == "Adafruit"]
    assert sum(int(r["qty"]) for r in backpacks) == i2c.BACKPACKS == 4
    assert [r["mpn"] for r in backpacks] == ["1911"] and backpacks[0]["order_number"] in step
    pulls = {p.ref for p in board.parts.values() if {"FACE_SDA", "FACE_SCL"} & _nets(p) and p.name == "R"}
    twelve = [r for r in order if r["part"] == "R" and r["value"] == "12k"]
    assert sum(int(r["qty"]) for r in twelve) == len(pulls) == 2 and pulls <= set(twelve[0]["for"].replace(",", "").split())
    keys = {p.ref for k, p in board.parts.items() if k.startswith(("d_ask_", "d_draw_", "ask_", "draw_"))}
    assert len(keys) == 8 and keys <= ordered
    assert sum(1 for r in order if r["part"] == "KK header 4" and re.match(r"J_(CLOCK|KEYS) \(face-", r["for"])) == 4
    carriers = [r for r in parts.mechanical_rows() if r["part"] == "perfboard 180x50"]
    assert carriers and carriers[0]["qty"] == 2
    # Nothing of the circuit lost between the two files.
    bom = list(csv.DictReader((sourcing.HERE / "bom.csv").open()))
    refs = [ref for r in bom for ref in r["references"].split()]
    listed = [ref for r in order + faces if r["value"] and r["manufacturer"] != "Adafruit" and r["value"] != "12k"
              for ref in r["for"].split()]
    assert sorted(listed) == sorted(refs)
