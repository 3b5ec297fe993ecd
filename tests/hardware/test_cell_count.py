"""The cells' count where a maker reads it: the bill of materials' battery connector, the order
list's lines for it and the mechanical list's holder and cells must all name one number (a fault
found in review: bom.csv and order.csv said three cells, the holder bought takes four)."""
import csv
import re
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _counts(text):
    """Every cell count a text states about 18650 cells: "3 x 18650", "4x18650", "three 18650",
    "of 4 18650", "1S3P"."""
    found = [int(n) for n in re.findall(r"\b(\d+)\s*x\s*18650", text)]
    found += [WORDS[w.lower()] if w.lower() in WORDS else int(w)
              for w in re.findall(r"\b(\w+)\s+18650", text) if w.lower() in WORDS or w.isdigit()]
    found += [int(n) for n in re.findall(r"\b1S(\d+)P\b", text)]
    return found


def _rows(name):
    with open(HARDWARE / name, newline="") as f:
        return list(csv.DictReader(f))


def test_the_bom_and_order_name_the_cells_the_mechanical_list_buys():
    mech = _rows("mechanical.csv")
    holder = [r for r in mech if "holder" in r["part"] and "18650" in r["part"]]
    cells = [r for r in mech if r["part"] == "18650 cell"]
    assert len(holder) == 1 and len(cells) == 1
    holds = set(_counts(holder[0]["part"] + " " + holder[0]["description"]))
    assert len(holds) == 1, holds
    (n,) = holds
    assert int(cells[0]["qty"]) == n, "cells bought: %s, the holder takes %d" % (cells[0]["qty"], n)
    bom = [r for r in _rows("bom.csv") if "18650" in r["description"]]
    assert bom, "the BOM names no battery"
    order = [r for r in _rows("order.csv") if "18650" in ",".join(r.values())]
    assert order, "the order list names no battery"
    for row in bom + order:
        text = ",".join(row.values())
        counts = _counts(text)
        assert counts, text
        assert set(counts) == {n}, "%r names %s cells, the holder takes %d" % (text, counts, n)
