"""The wiring diagram's words (hardware/wiring.png), held to the circuit: every connection and
value its text states about the supplies, the side LEDs, the voice, the cells and the magnet is
looked up in the circuit (hardware/circuit.py Board: parts found by their value and pin names,
not by the generator's keys) and in the magnet model. A review found the diagram stale: a
100R the circuit has as 150 ohm, pin 40 and the charger drawn on VBUS where they sit behind the
soft start on VBUS_SOFT, the DFPlayer on VSYS where a 1N5819 feeds it, a 12x3 mm magnet where the
model chose 12x2; the checker below refuses that text."""
import csv
import re
from pathlib import Path

import pytest

from hardware import circuit as C
from hardware import geometry as G
from hardware import magnets
from hardware import outputs

MECHANICAL = Path(__file__).resolve().parents[2] / "hardware" / "mechanical.csv"

# What the diagram said before the review (hardware/outputs.py then): the checker must refuse it.
STALE = [
    "VBUS: the clock's USB socket (clamped); charger IN+, WS2812 chain, ideal diode",
    "the magnet in the piece's base (12x3 mm N42 at 55 mm squares) closes one of them",
    "  Side LEDs: GPIO -> 2k2 -> BC337 base; emitter to GND; VSYS -> 100R -> LED anode; LED cathode to the collector.",
    "  Power: 3 x 18650 in parallel -> 2.5 A polyfuse -> charger B+/B- (IN+ from VBUS); OUT+ -> 5 V regulator",
    "      GND -> TP1 (wires to its test points under it), VBUS -> pin 40.",
    "      to GND: 0x4D); its TX -> 1k -> DFPlayer Mini RX, DFPlayer TX -> its RX; DFPlayer VCC VSYS (100u),",
]


def _value(text):
    """A component value as written: 150R, 150 ohm and 150 are one value."""
    return re.sub(r"\s*(R|ohm)$", "", text.strip())


def _net(pin, board):
    nets = [n for n in pin.nets if n is not board.circuit.NC]
    return nets[0].name if nets else None


def _part(board, test):
    found = [p for p in board.circuit.parts if test(p)]
    assert len(found) >= 1
    return found[0]


def _has_pin(p, name):
    return any(pin.name == name for pin in p.pins)


def _between(board, a, b):
    """The values of the parts with one pin on net a and another on net b."""
    out = set()
    for p in board.circuit.parts:
        nets = {_net(pin, board) for pin in p.pins}
        if a in nets and b in nets:
            out.add(_value(str(p.value)))
    return out


def faults(lines, board, pico_pin_40_label=None):
    """What the diagram's text states that the circuit does not have; a stated topic that the
    text no longer states at all is a fault too."""
    text = "\n".join(lines)
    out, seen = [], set()
    pico = _part(board, lambda p: p.name == "Raspberry_Pi_Pico")
    pin40 = _net(pico[40], board)
    # the magnet: the model's choice at the board's pitch
    grade, d, t, _ = magnets.choose()
    for m in re.finditer(r"(\d+)x(\d+) mm (N\d+) at ([\d.]+) mm squares", text):
        seen.add("magnet")
        if (int(m[1]), int(m[2]), m[3], float(m[4])) != (d, t, grade, G.PITCH):
            out.append("magnet %s: the model chose %gx%g mm %s at %g mm" % (m[0], d, t, grade, G.PITCH))
    # the side LEDs' resistor, from the net named to the LEDs' anodes
    anodes = {_net(p["A"], board) for p in board.circuit.parts if p.name == "LED"}
    for m in re.finditer(r"(\w+) -> (\w+) -> LED anode", text):
        seen.add("led")
        if not any(_value(m[2]) in _between(board, m[1], a) for a in anodes):
            out.append("%s: no %s between %s and an LED's anode" % (m[0], m[2], m[1]))
    # the Pico's pin 40
    for m in re.finditer(r"(\w+) -> pin 40\b", text):
        seen.add("pin40")
        if m[1] != pin40:
            out.append("%s: pin 40 is on %s" % (m[0], pin40))
    if pico_pin_40_label is not None:
        seen.add("pin40 label")
        if pico_pin_40_label.split(":")[0] != pin40:
            out.append("pin 40's label %r: pin 40 is on %s" % (pico_pin_40_label, pin40))
    # a part stated between two nets: "VBUS -> AO3401A soft start -> VBUS_SOFT"
    for m in re.finditer(r"(\w+) -> (\S+) soft start -> (\w+)", text):
        seen.add("soft start")
        if _value(m[2]) not in _between(board, m[1], m[3]):
            out.append("%s: no %s between %s and %s" % (m[0], m[2], m[1], m[3]))
    # the charger's input
    charger = _part(board, lambda p: _has_pin(p, "IN+") and _has_pin(p, "B+"))
    for m in re.finditer(r"IN\+ from (\w+)", text):
        seen.add("charger")
        if m[1] != _net(charger["IN+"], board):
            out.append("charger IN+ from %s: it is on %s" % (m[1], _net(charger["IN+"], board)))
    # the DFPlayer's supply
    player = _part(board, lambda p: p.name.startswith("DFPlayer"))
    vcc = _net(player["VCC"], board)
    for m in re.finditer(r"DFPlayer VCC (\w+)", text):
        seen.add("dfplayer")
        if m[1] != vcc:
            out.append("DFPlayer VCC %s: it is on %s" % (m[1], vcc))
    for m in re.finditer(r"(\w+) -> (\w+) -> DFPlayer VCC(?: \((\w+))?", text):
        seen.add("dfplayer")
        if _value(m[2]) not in _between(board, m[1], vcc) or (m[3] and m[3] != vcc):
            out.append("%s: the DFPlayer's VCC is on %s, from %s" % (m[0], vcc, m[1]))
    # the cells: as many as the mechanical list buys; the fuse on the charger's B+
    with open(MECHANICAL, newline="") as f:
        bought = {r["part"]: int(r["qty"]) for r in csv.DictReader(f)}["18650 cell"]
    for m in re.finditer(r"(\d+) x 18650", text):
        seen.add("cells")
        if int(m[1]) != bought:
            out.append("%s: %d cells are bought" % (m[0], bought))
    for m in re.finditer(r"([\d.]+ A) polyfuse -> charger B\+", text):
        seen.add("fuse")
        if m[1] not in _between(board, _net(charger["B+"], board), "CELL+"):
            out.append("%s: no %s fuse on the charger's B+" % (m[0], m[1]))
    for m in re.finditer(r"WS2812 chain on (\w+)", text):
        seen.add("ws2812")
        chain = _part(board, lambda p: "WS2812" in p.fields.get("Role", ""))
        if m[1] != _net(chain[1], board):
            out.append("%s: the chain's supply pin is on %s" % (m[0], _net(chain[1], board)))
    wanted = {"magnet", "led", "pin40", "charger", "dfplayer", "cells", "fuse"}
    if pin40 != "VBUS" and any(_net(p["VBUS"], board) == "VBUS" for p in board.circuit.parts
                               if p.name == "USB_B_Micro"):
        wanted.add("soft start")  # pin 40 sits behind a part: the text must say which
    out += ["the text no longer states " + w for w in sorted(wanted - seen)]
    return out


@pytest.fixture(scope="module")
def board():
    return C.Board()


def test_the_stale_text_is_refused(board):
    found = faults(STALE, board, STALE[0])
    for fault in ("100R", "pin 40 is on VBUS_SOFT", "IN+ from VBUS", "DFPlayer VCC VSYS", "12x3 mm",
                  "3 x 18650", "pin 40's label", "soft start"):
        assert any(fault in f for f in found), (fault, found)


def test_the_diagram_states_only_what_the_circuit_has(board, tmp_path):
    drawn = outputs.write_wiring(board, tmp_path / "wiring.png")
    label = [t for t in drawn if re.match(r"\w+: .*soft start", t) or t.startswith("VBUS")]
    assert len(label) == 1, label  # pin 40's label
    assert faults(drawn, board, label[0]) == []
