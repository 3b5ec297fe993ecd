"""The electrical rules a circuit's faults break, checked on the circuit's own netlist
(hardware/circuit.py) beyond SKiDL's pin-type ERC, which takes a diode's two pins, a
transistor's and a module's as passive and so lets a reversed diode, crossed USB lines or a
missing ideal diode through:

- every part's supply pin inside its datasheet's range on every way the clock is powered
  (the cells alone; USB with the cells; USB with the cells cut off by their protection),
  each rail's range found by following the circuit from its sources through what passes
  power on (fuse, charger, regulator, ideal diodes, diodes anode to cathode, the Pico's own
  Schottky and its 3.3 V regulator), so that a reversed supply diode leaves its rail dead,
  a missing ideal diode leaves VSYS dead or under the faces' 4.5 V, and a 5 V part on the
  3.3 V rail is refused;
- USB's D+ and D- the same line at the socket, its clamp and the Pico's test points (the
  Pico datasheet: TP2 is USB D-, TP3 D+), each clamp channel's two pins on one line;
- a soft start's P-MOSFET (its pins named as its datasheet's: AO3401A, page 1, 1 gate,
  2 source, 3 drain) passes its source's supply to its drain only with its gate pulled
  down through a resistor, and never the wrong way round (its body diode, drain to
  source, would carry the supply past it at once);
- a flyback diode's cathode on its coil's supply end; a matrix diode's cathode on the
  decoder's side (the ranks, driven low), its anode on the switch's.

    python -m hardware.erc       # the faults, or "ERC: clean"
"""
from __future__ import annotations

import sys

from hardware import power as PW

# (template, supply pin): (least, most volts, where it must be supplied: True everywhere,
# "cells" wherever the cells are, False only checked where supplied): the datasheets' ranges
SUPPLY = {
    ("HT16K33", "VDD"): (4.5, 5.5, True),  # HT16K33 Rev 1.10, D.C. Characteristics
    ("Raspberry_Pi_Pico", "VSYS"): (1.8, 5.5, True),  # Raspberry Pi Pico datasheet, "Powering Pico"
    ("DFPlayer_Mini", "VCC"): (3.2, 5.0, True),  # DFPlayer Mini manual, specification
    ("SC16IS750_Module", "VCC"): (2.3, 3.6, True),  # NXP SC16IS750, 3.3 V part: 2.3-3.6 V
    ("74HC138", "VCC"): (2.0, 6.0, True),  # 74HC138 (Nexperia/TI), recommended operating conditions
    ("74AHCT1G125", "VCC"): (4.5, 5.5, True),  # SN74AHCT1G125, recommended operating conditions
    ("Boost_5V", "VIN"): (2.7, 11.8, "cells"),  # Pololu S7V8F5: 2.7-11.8 V in (wherever there are cells)
    ("Charger_Module", "IN+"): (4.0, 8.0, False),  # TP4056: VCC 4.0-8.0 V (on USB only)
    ("LM66100", "VIN"): (1.5, 5.5, False),  # LM66100: VIN 1.5-5.5 V
    ("USBLC6-2SC6", "VBUS"): (0.0, 5.25, False),  # USBLC6-2SC6: its stand-off
}
STATES = ("cells", "USB and cells", "USB, cells cut off")
IDEAL_DROP = PW.IDEAL_DIODE_OHM * PW.VSYS_MA_MAX / 1000
DIODES = ("D_Supply", "D", "D_Schottky", "D_Small")  # a diode's template: pins A and K
INDUCTIVE = ("Motor", "Buzzer")
PMOS = "Q_PMOS_GSD"
# AO3401A (its datasheet Rev 3, page 2): RDS(on) at most 60 mohm at VGS -4.5 V; it carries
# the charge and VSYS's load on USB
PMOS_DROP = PW.SOFT_START_OHM * (PW.CHARGE_A + PW.VSYS_MA_MAX / 1000)


def _pulled_down(m: dict, net) -> bool:
    """Whether net reaches ground through a resistor (a MOSFET's gate held on)."""
    return any(tpl == "R" and {pins.get("1"), pins.get("2")} == {net, "GND"} for tpl, pins, _ in m.values())


def model(board) -> dict:
    """{part key: (template, {pin name: net}, {pin number: net})}: what the rules read."""
    out = {}
    for key, p in board.parts.items():
        named = {q.name: q.nets[0].name for q in p.pins if q.nets and not q.nets[0].name.startswith("__")}
        numbered = {str(q.num): q.nets[0].name for q in p.pins if q.nets and not q.nets[0].name.startswith("__")}
        out[key] = (p.name, named, numbered)
    return out


def rails(m: dict, state: str) -> dict:
    """{net: (lowest, highest) volts} of the nets that carry a supply in state."""
    r = {}
    usb = state.startswith("USB")
    cells = state != "USB, cells cut off"
    for key, (tpl, pins, _) in m.items():
        if tpl == "USB_B_Micro" and usb and "VBUS" in pins:
            r[pins["VBUS"]] = PW.USB_V
        if key == "battery" and cells and "1" in pins:
            r[pins["1"]] = PW.CELL_RANGE_V

    def feed(net, lo, hi):
        if net is None or net == "GND":
            return False
        old = r.get(net)
        new = (lo, hi) if old is None else (max(old[0], lo), max(old[1], hi))  # the higher source wins
        if new != old:
            r[net] = new
            return True
        return False

    for _ in range(20):  # until nothing changes
        changed = False
        for key, (tpl, pins, _) in m.items():
            def src(pin):
                return r.get(pins.get(pin))
            if tpl == "Polyfuse":
                for a, b in (("1", "2"), ("2", "1")):
                    if src(a):
                        changed |= feed(pins.get(b), *src(a))
            elif tpl == PMOS and src("S") and _pulled_down(m, pins.get("G")):
                lo, hi = src("S")
                changed |= feed(pins.get("D"), lo - PMOS_DROP, hi)
            elif tpl == "Charger_Module" and src("B+"):  # its OUT+ is its B+
                changed |= feed(pins.get("OUT+"), *src("B+"))
            elif tpl == "Boost_5V" and src("VIN") and src("VIN")[0] >= 2.7 and pins.get("EN") != "GND":
                changed |= feed(pins.get("VOUT"), *PW.BOOST_V)
            elif tpl == "LM66100" and src("VIN") and pins.get("CE") == "GND" and src("VIN")[0] >= 1.5:
                lo, hi = src("VIN")
                changed |= feed(pins.get("VOUT"), lo - IDEAL_DROP, hi)
            elif tpl in DIODES and src("A"):
                lo, hi = src("A")
                drop = PW.SCHOTTKY_V
                if pins.get("K") not in r or r[pins["K"]][0] < lo - drop[1]:
                    changed |= feed(pins.get("K"), lo - drop[1], hi - drop[0])
            elif tpl == "Raspberry_Pi_Pico":
                if src("VBUS"):  # its own Schottky, VBUS to VSYS
                    lo, hi = src("VBUS")
                    changed |= feed(pins.get("VSYS"), lo - PW.SCHOTTKY_V[1], hi - PW.SCHOTTKY_V[0])
                if src("VSYS") and src("VSYS")[0] >= 1.8:
                    changed |= feed(pins.get("3V3"), *PW.V3V3)
        if not changed:
            break
    return r


def faults(m: dict) -> list[str]:
    out = []
    for state in STATES:
        r = rails(m, state)
        for key, (tpl, pins, _) in sorted(m.items()):
            for (t, pin), (lo, hi, must) in SUPPLY.items():
                if t != tpl or pin not in pins:
                    continue
                net = pins[pin]
                if net not in r:
                    if must is True or (must == "cells" and state != "USB, cells cut off"):
                        out.append("%s (%s): its %s on %s has no supply on %s" % (key, tpl, pin, net, state))
                    continue
                a, b = r[net]
                if a < lo - 1e-9 or b > hi + 1e-9:
                    out.append("%s (%s): its %s on %s is %.2f-%.2f V on %s, outside its %.1f-%.1f V" % (
                        key, tpl, pin, net, a, b, state, lo, hi))
    # A soft start's MOSFET the right way round: its source on the supply it switches.
    for key, (tpl, pins, _) in sorted(m.items()):
        if tpl == PMOS:
            r = rails({k: v for k, v in m.items() if k != key}, "USB and cells")
            if pins.get("D") in r and pins.get("S") not in r:
                out.append("%s: its drain on the supply (%s), its source on %s: reversed, its body diode passes "
                           "the supply at once" % (key, pins.get("D"), pins.get("S")))
    # USB's data lines, end to end
    sockets = [pins for tpl, pins, _ in m.values() if tpl == "USB_B_Micro"]
    picos = [pins for tpl, pins, _ in m.values() if tpl == "Raspberry_Pi_Pico"]
    clamps = [(key, num) for key, (tpl, _, num) in m.items() if tpl == "USBLC6-2SC6"]
    for s in sockets:
        for p in picos:
            for line, tp in (("D+", "USB_DP"), ("D-", "USB_DM")):
                if s.get(line) != p.get(tp):
                    out.append("USB %s: the socket's is %s, the Pico's %s (%s) is %s" % (
                        line, s.get(line), "TP3" if line == "D+" else "TP2", tp, p.get(tp)))
        for key, num in clamps:  # USBLC6-2SC6: I/O1 is pins 1 and 6, I/O2 pins 3 and 4
            for a, b in (("1", "6"), ("3", "4")):
                if num.get(a) != num.get(b):
                    out.append("%s: its channel's pins %s and %s on %s and %s" % (key, a, b, num.get(a), num.get(b)))
            if {num.get("1"), num.get("3")} != {s.get("D+"), s.get("D-")}:
                out.append("%s: its channels are not the socket's D+ and D-" % key)
    # Flyback diodes: across a coil, the band on its supply end.
    coils = {(pins.get("+"), pins.get("-")): key for key, (tpl, pins, _) in m.items() if tpl in INDUCTIVE}
    for key, (tpl, pins, _) in sorted(m.items()):
        if tpl not in DIODES:
            continue
        a, k = pins.get("A"), pins.get("K")
        for (plus, minus), coil in coils.items():
            if {a, k} == {plus, minus} and k != plus:
                out.append("%s: across %s with its band on the switched end (%s): it shorts the coil's "
                           "supply when the transistor turns on" % (key, coil, k))
    # Matrix diodes: the band towards the ranks the 74HC138 drives low (through the guard's
    # resistor), the anode on the switch's side.
    driven = {n for tpl, pins, _ in m.values() if tpl == "74HC138" for name, n in pins.items() if name.startswith("Y")}
    beyond = set(driven)
    for tpl, pins, _ in m.values():
        if tpl == "R" and ({pins.get("1"), pins.get("2")} & driven):
            beyond |= {pins.get("1"), pins.get("2")}
    for key, (tpl, pins, _) in sorted(m.items()):
        if tpl == "D_Schottky" and (pins.get("A") in beyond) and pins.get("K") not in beyond:
            out.append("%s: its anode on a rank (%s), its band on the switch: it blocks the scan" % (key, pins.get("A")))
    return out


def main(argv=None) -> int:
    from hardware.circuit import Board

    found = faults(model(Board()))
    for f in found:
        print(f)
    print("ERC: %d faults" % len(found) if found else "ERC: clean")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
