"""The faces' I2C bus against the I2C standard's rise time at the speed the firmware runs it:
each side of the BSS138 level shifter is its own bus segment (the MOSFET is off while a line
rises past its threshold), its capacitance the sum of its pins', the shifter's and its
wires', its rise time (30 % to 70 %) 0.8473 R C for its pull-up R (UM10204, 7.1: Rp(max) =
tr / (0.8473 Cb)); the pull-ups no lower than the standard's 3 mA sink allows, the Pico
pulling down both sides at once.

    python -m hardware.i2c       # each side's capacitance, rise time and sink current
"""
from __future__ import annotations

import re
import sys

# UM10204 (NXP I2C-bus specification, Rev. 7), Table 10: fast mode (400 kHz) rise time of
# SDA and SCL at most 300 ns; the capacitance of each I/O pin at most 10 pF; VOL 0.4 V at
# 3 mA sink.
RISE_NS = {100_000: 1000, 400_000: 300}
PIN_PF = 10.0  # a chip's I2C pin: the standard's maximum (Pico, SC16IS750, HT16K33)
SINK_MA = 3.0
VOL = 0.4
# onsemi BSS138 datasheet, Dynamic Characteristics: Coss 13 pF, Ciss 27 pF (VDS 10 V)
BSS138_COSS_PF = 13.0
BSS138_CISS_PF = 27.0
LEAD_PF_PER_M = 60.0  # one conductor of a flat 4-way lead to its neighbours (28 AWG: 45-60 pF/m)
FACE_LEAD_M = 0.35  # the controller to each face, in the clock (an end of the clock to its middle)
TRACE_PF = 5.0  # the boards' own copper on each side
V3V3, VSYS_MAX = 3.4, 5.25


def firmware_hz() -> int:
    """The bus speed the firmware sets (firmware/hal/rp2.py's machine.I2C(..., freq=...))."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "firmware" / "hal" / "rp2.py").read_text()
    m = re.search(r"machine\.I2C\(.*?freq=(\d+)", text, re.S)
    return int(m.group(1))


def _ohms(value: str) -> float:
    v = value.lower().replace("ohm", "").strip()
    for tag, k in (("k", 1e3), ("m", 1e6)):
        if tag in v:
            a, _, b = v.partition(tag)
            return float((a or "0") + "." + (b or "0")) * k
    return float(v)


def sides(board):
    """[(name, pull-up ohms, its supply's volts, capacitance pF)] of the two bus segments,
    from the circuit: the 3.3 V side (the Pico's pins, the voice's bridge, the shifters'
    sources), the 5 V side (the faces' HT16K33s, the shifters' drains, the leads to the faces)."""
    parts = board.parts

    def nets(key):
        return {q.name: q.nets[0].name for q in parts[key].pins if q.nets}

    out = []
    for line in ("SDA", "SCL"):
        low = "I2C_" + line
        high = "FACE_" + line
        pins_low = sum(1 for k, p in parts.items() for q in p.pins
                       if q.nets and q.nets[0].name == low and p.name in ("Raspberry_Pi_Pico", "SC16IS750_Module"))
        faces = sum(1 for k, p in parts.items() for q in p.pins
                    if q.nets and q.nets[0].name == high and p.name == "HT16K33")
        shifters = sum(1 for k, p in parts.items() if p.name == "Q_NMOS_GSD" and nets(k).get("D") == high)
        r_low = next(_ohms(str(p.value)) for k, p in parts.items() if p.name == "R" and low in nets(k).values())
        r_high = next(_ohms(str(p.value)) for k, p in parts.items() if p.name == "R" and high in nets(k).values())
        c_low = pins_low * PIN_PF + shifters * BSS138_CISS_PF + TRACE_PF
        c_high = faces * (PIN_PF + FACE_LEAD_M * LEAD_PF_PER_M) + shifters * BSS138_COSS_PF + TRACE_PF
        out += [(line + " 3.3 V side", r_low, V3V3, c_low), (line + " 5 V side", r_high, VSYS_MAX, c_high)]
    return out


def rise_ns(r_ohm: float, c_pf: float) -> float:
    return 0.8473 * r_ohm * c_pf * 1e-3


def faults(board, hz=None) -> list[str]:
    hz = hz or firmware_hz()
    limit = RISE_NS[400_000 if hz > 100_000 else 100_000]
    out = []
    found = sides(board)
    for name, r, v, c in found:
        t = rise_ns(r, c)
        if t > limit:
            out.append("%s: %.0f ns rise (%.0f ohm, %.0f pF), over the %d ns of %d kHz" % (name, t, r, c, limit, hz // 1000))
    for line in ("SDA", "SCL"):  # the Pico pulls both sides' pull-ups through the shifter
        low, high = [(r, v) for name, r, v, c in found if name.startswith(line)]
        sink = ((low[1] - VOL) / low[0] + (high[1] - VOL) / high[0]) * 1000
        if sink > SINK_MA:
            out.append("%s: the pull-ups ask %.2f mA of the pin pulling low, over the standard's %.0f mA" % (
                line, sink, SINK_MA))
    return out


# The faces on ready-made backpacks (hardware/README.md, step 2C): four, two on each face's
# lead; each brings 10 kohm pull-ups on SDA and SCL to its VCC, and level-shifts its lines
# (learn.adafruit.com/adafruit-led-backpack, "Pinouts": counted as a BSS138 each).
BACKPACKS = 4
BACKPACK_PULLUP = 10_000.0


BACKPACK_SIDE_PULLUP = "12k"  # the controller's faces'-side pull-ups with backpacks (README, 2C)


def backpack_faults(board, fitted: str | None = BACKPACK_SIDE_PULLUP, hz=None) -> list[str]:
    """faults() of the faces' side with four backpacks instead of the two face boards: their
    pull-ups in parallel with the controller's faces'-side ones, of value fitted (None: left
    out)."""
    hz = hz or firmware_hz()
    limit = RISE_NS[400_000 if hz > 100_000 else 100_000]
    out = []
    found = sides(board)
    for line in ("SDA", "SCL"):
        (_, r_low, v_low, _), (_, r_high, v_high, _) = [x for x in found if x[0].startswith(line)]
        r = BACKPACK_PULLUP / BACKPACKS
        if fitted:
            r = 1 / (1 / r + 1 / _ohms(fitted))
        c = BACKPACKS * (PIN_PF + BSS138_COSS_PF) + 2 * FACE_LEAD_M * LEAD_PF_PER_M + 2 * BSS138_COSS_PF + TRACE_PF
        t = rise_ns(r, c)
        if t > limit:
            out.append("%s backpacks' side: %.0f ns rise (%.0f ohm, %.0f pF), over the %d ns of %d kHz" % (
                line, t, r, c, limit, hz // 1000))
        sink = ((v_low - VOL) / r_low + (v_high - VOL) / r) * 1000
        if sink > SINK_MA:
            out.append("%s: with backpacks the pull-ups ask %.2f mA of the pin pulling low, over the standard's "
                       "%.0f mA" % (line, sink, SINK_MA))
    return out


def main(argv=None) -> int:
    from hardware.circuit import Board

    board = Board()
    hz = firmware_hz()
    for name, r, v, c in sides(board):
        print("%-16s %6.0f ohm  %5.1f pF  rise %4.0f ns" % (name, r, c, rise_ns(r, c)))
    found = faults(board, hz)
    for f in found:
        print("FAULT:", f)
    print("the firmware's bus: %d kHz, rise time limit %d ns" % (hz // 1000, RISE_NS[400_000 if hz > 100_000 else 100_000]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
