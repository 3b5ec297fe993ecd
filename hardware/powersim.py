"""The power path simulated with ngspice (Debian's ngspice): a SPICE netlist written from the
circuit (hardware/circuit.py: every part on the power nets, each by its template, wired as
the circuit wires it), run through USB unplugged and plugged at full and at empty cells,
both motors starting and the voice speaking, and the clock switched off running from USB
while the cells charge; each part's supply held to its datasheet's minimum at every instant.

    python -m hardware.powersim    # each scenario's lowest and highest rails, the checks

The models are the parts' datasheet figures, each named where it is used; the loads are
hardware/power.py's budget (the faces full, the Pico busy, a running-side LED lit), the
motors stalled at start (their coil's resistance from 5 V), the voice's amplifier at its
peak. A part with no SPICE model of its own (the regulator module, the charger module, the
ideal diodes) is a behavioural model of what its datasheet promises; what the simulation
can show is how the circuit's wiring hands the supply over, not a chip's inner faults.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hardware import power as PW

NGSPICE = "ngspice"
POWER_NETS = {"VBUS", "VSYS", "BOOST_5V", "BOOST_EN", "BASE_USB", "BAT_OUT", "CELL+", "CELL_FUSED", "CELL-",
              "AUDIO_V", "VBUS_SOFT", "SOFT_GATE"}

# Datasheet minimums of what VSYS and AUDIO_V feed (and the maximums), the checks' limits.
LIMITS = {
    # HT16K33 (Holtek, Rev 1.10), D.C. Characteristics: VDD 4.5-5.5 V
    "HT16K33": ("VSYS", 4.5, 5.5),
    # 74AHCT1G125 (the LEDs' data buffer): VCC 4.5-5.5 V (its recommended operating conditions)
    "74AHCT1G125": ("VSYS", 4.5, 5.5),
    # Raspberry Pi Pico datasheet, "Powering Pico": VSYS 1.8-5.5 V (below it the Pico resets)
    "Pico": ("VSYS", 1.8, 5.5),
    # DFPlayer Mini (its maker's manual): 3.2-5.0 V
    "DFPlayer": ("AUDIO_V", 3.2, 5.0),
}
USB_CABLE_OHM = 0.25  # VBUS and ground of a 1 m cable, both ways (28 AWG power pair)
HOST_UF = 120  # a host port's own VBUS capacitance (USB 2.0 7.2.4.1: at least 120 uF)
USB_DEVICE_UF = 10  # USB 2.0 7.2.4.1: at most 10 uF (in parallel with 44 ohm) at plug-in
CHARGER_IN_UF = 10  # the TP4056 module's own input capacitor (a 10 uF ceramic on the common modules)
CHARGER_OUT_UF = 10  # and across its battery output
# The optional square LEDs on VBUS: 64 single WS2812B pieces cut from a strip, each with its
# own 100 nF (hardware/README.md), 6.4 uF across the chain's supply at plug-in
LED_CHAIN_UF = 64 * 0.1
CHARGE_A = PW.CHARGE_A_MAX  # the circuit's charge at its R_PROG's most (+10 %): charge_of(board)
CELL_OHM = 0.060  # an 18650's DC resistance, aged and cool (its makers give 30-80 mohm)
PROTECTION_OHM = 0.060  # the module's two FS8205A MOSFETs in series (2 x 25-30 mohm at 4 V drive)
# The cells' fuse: {part number: (hold and trip current in still air at the datasheet's
# reference temperature, R1max: its resistance an hour after it has tripped once, the worst
# it then stays)}, each typed from its maker's Electrical Characteristics:
FUSES = {
    # Littelfuse USBR series (its datasheet, "Revised: July 12, 2010", page 63 of the
    # catalogue, Electrical Characteristics, at 20 C; the search tools' docs corpus,
    # cdn.shopify.com/.../Littelfuse_PTC_USBR-40993.pdf). The 16R185B was the circuit's
    # fuse before the MF-R250: its R1max 0.09 ohm leaves VSYS 4.55 V with the motors and the
    # voice on empty cells, 50 mV from the faces' minimum (see the MF-R185's 0.11 below).
    "16R110B": (1.10, 2.20, 0.140), "16R135B": (1.35, 2.70, 0.120), "16R160B": (1.60, 3.20, 0.110),
    "16R185B": (1.85, 3.70, 0.090), "16R250B": (2.50, 5.00, 0.060),
    # Bourns MF-R series (its datasheet, "MF-R Series - PTC Resettable Fuses", REV. AL, 05/21,
    # page 1, Electrical Characteristics, at 23 C; the same table in the older copies at
    # pdf.product.network/d36d6b36/bourns.com/MF-R025-0.html and dtsheet.com/doc/1638939):
    # hold, trip and R1max. The MF-R110 is the part the clock had first (0.10-0.18 ohm
    # initial, R1max 0.27). The MF-R185 (30 V, 40 A, 0.040-0.07 ohm initial, R1max 0.11)
    # holds about what the clock draws, but its R1max lets the regulator's input sag until
    # VSYS falls to 4.34 V with the motors and the voice on empty cells. The MF-R250 (30 V,
    # 40 A, 0.025-0.048 ohm initial, R1max 0.07; 12.0 x 18.3 mm, leads 0.81 mm on 5.1 mm,
    # page 3) is the circuit's fuse.
    "MF-R110": (1.10, 2.20, 0.27), "MF-R135": (1.35, 2.70, 0.17), "MF-R160": (1.60, 3.20, 0.15),
    "MF-R185": (1.85, 3.70, 0.11), "MF-R250": (2.50, 5.00, 0.07),
    # Littelfuse (ex TE) PolySwitch RUEF series (its datasheet, "Revised: 10/22/18", page 1,
    # Electrical Characteristics, at 20 C: pdf.datasheet.live/dc2034c4/littelfuse.com/
    # RUEF300-AP.html): the RUEF250 has the MF-R250's figures (2.50 / 5.00 A, 30 V, R1max
    # 0.07 ohm), a second source for the same footprint.
    "RUEF185": (1.85, 3.70, 0.09), "RUEF250": (2.50, 5.00, 0.07),
}
INSIDE_C = 50  # the clock's inside, warm room and electronics: the fuse's ambient
# Each fuse's own rerating, typed from its datasheet's rerating table, with the document
# and page: {part number: (((celsius, share of its reference hold current), ...), "its
# citation")}. Bourns' MF-R datasheet, REV. AL, 05/21, page 4, "Thermal Derating Table -
# Ihold / Itrip (Amps)", the hold currents at -40 / -20 / 0 / 23 / 40 / 50 / 60 / 70 /
# 85 C (read from the copy in github.com/nic/nic-av-switch, datasheets/mfr.pdf, commit
# de9477b; the stored web copies give its first page only).
MF_R_SOURCE = "Bourns MF-R Series datasheet, REV. AL 05/21, page 4, Thermal Derating Table - Ihold"
MF_R_CELSIUS = (-40, -20, 0, 23, 40, 50, 60, 70, 85)
MF_R_HOLD_A = {
    "MF-R110": (1.60, 1.43, 1.27, 1.10, 0.91, 0.85, 0.75, 0.67, 0.57),
    "MF-R135": (1.96, 1.76, 1.55, 1.35, 1.12, 1.04, 0.92, 0.82, 0.70),
    "MF-R160": (2.32, 2.08, 1.84, 1.60, 1.33, 1.23, 1.09, 0.98, 0.83),
    "MF-R185": (2.68, 2.41, 2.13, 1.85, 1.54, 1.42, 1.26, 1.13, 0.96),
    "MF-R250": (3.63, 3.25, 2.88, 2.50, 2.08, 1.93, 1.70, 1.53, 1.30),
}
FUSE_RERATING = {mpn: (tuple((c, a / FUSES[mpn][0]) for c, a in zip(MF_R_CELSIUS, amps)), MF_R_SOURCE)
                 for mpn, amps in MF_R_HOLD_A.items()}
# Not typed for the Littelfuse USBR (16R...) and RUEF parts: their "Temperature Rerating"
# tables print on a later page than the ones the stored copies reach; they are rated by
# GENERIC_RERATE below, labelled as such wherever it is shown, and must hold what they
# carry with it RERATE_MARGIN lower still (holds_a).
# GENERIC, not this fuse's: radial polyfuses' usual rerating, about 0.7 % per degree above
# 20 C (the shape of the makers' charts).
GENERIC_RERATE = ((20, 1.00), (30, 0.92), (40, 0.85), (50, 0.78), (60, 0.71), (70, 0.63), (85, 0.52))
GENERIC_SOURCE = "GENERIC polyfuse curve (the part's own datasheet table not reached: hardware/powersim.py)"
# While a fuse is rated by the generic curve, it must hold what it carries with the curve
# 20 % lower still at INSIDE_C (the MF-R rows above lie within 1 % of the generic curve at
# 50 C: 0.77-0.78 of their 23 C hold).
RERATE_MARGIN = 0.80
RERATE = GENERIC_RERATE  # (the name earlier code used)


def rerating(mpn: str = None) -> tuple:
    """(table, source) of the fuse mpn's hold-current rerating: its datasheet's if typed in
    FUSE_RERATING, else the generic curve, its source saying so."""
    return FUSE_RERATING.get(mpn, (GENERIC_RERATE, GENERIC_SOURCE))


def rerated(hold_a: float, celsius: float = INSIDE_C, mpn: str = None) -> float:
    """The current a fuse of hold_a (at 20 C) holds at an ambient of celsius, by the fuse
    mpn's own rerating table where it is known (rerating())."""
    table = rerating(mpn)[0]
    for (t0, f0), (t1, f1) in zip(table, table[1:]):
        if t0 <= celsius <= t1:
            return hold_a * (f0 + (f1 - f0) * (celsius - t0) / (t1 - t0))
    raise ValueError("no rerating for %s C" % celsius)


def holds_a(mpn: str, celsius: float = INSIDE_C) -> float:
    """What the fuse mpn may carry at an ambient of celsius: its rerated hold current by its
    own table; while only the generic curve rates it, RERATE_MARGIN of that."""
    a = rerated(FUSES[mpn][0], celsius, mpn)
    return a if mpn in FUSE_RERATING else a * RERATE_MARGIN


# The soft start's P-MOSFET: Alpha & Omega AO3401A (datasheet Rev 3, March 2011, page 2,
# Electrical Characteristics at 25 C): VGS(th) -0.5 / -0.9 / -1.3 V (min, typ, max) at
# -250 uA; gFS 17 S at VDS -5 V, ID -4 A; RDS(on) 47 mohm typical at VGS -4.5 V, -3.5 A
# (60 max) and 60 mohm at -2.5 V; Ciss 645 pF, Crss 55 pF at VDS -15 V; RG 7.8 ohm; its
# body diode VSD -0.7 V at 1 A. As ngspice's VDMOS: KP from gFS (square law, gm =
# sqrt(2 KP ID)), RD + RS the rest of RDS(on). The slew is set by the circuit's 10 nF and
# 1 Mohm, far above the part's own capacitances: the three thresholds all run (PMOS_VTO).
PMOS_VTO = (-0.5, -0.9, -1.3)
PMOS_KP = 17.0 ** 2 / (2 * 4.0)
PMOS_MODEL = (".model ao3401a VDMOS(pchan VTO={vto} KP=%g RD=0.02 RS=0.02 RG=7.8 CGS=590p CGDMAX=300p CGDMIN=55p "
              "IS=1e-12 N=1.1 RB=0.02 CJO=150p)" % PMOS_KP)
MOTOR_OHM = 25.0  # a 3 V 10 mm coin motor's coil, stalled at start
# ... driven at the firmware's duty limit (firmware/hal/motorduty.py: its rated 3 V on the
# 5 V rail), its PWM smoothed by VSYS's capacitors: as its average load
MOTOR_DUTY = 3.0 / 5.0
VOICE_PEAK_A = 0.30  # the DFPlayer's amplifier at a word's peak into 8 ohm
EMPTY_V, FULL_V = PW.CELL_RANGE_V


def _parts(board):
    """The circuit's parts on the power nets: [(key, template, value, {pin name: net}, MPN)]."""
    out = []
    for key, p in sorted(board.parts.items()):
        pins = {q.name: q.nets[0].name for q in p.pins if q.nets}
        if any(n in POWER_NETS for n in pins.values()):
            out.append((key, p.name, str(p.value), pins, p.fields.get("MPN", "")))
    return out


def fuse_of(board) -> str:
    """The cells' fuse's part number."""
    return next(mpn for key, tpl, _, _, mpn in _parts(board) if tpl == "Polyfuse")


def charge_of(board) -> float:
    """The most the board's charger charges at (A): by the R_PROG the circuit names, or, on a
    circuit that names none, the 1.2 kohm the modules come with (hardware/power.py)."""
    chg = next(p for p in board.parts.values() if p.name == "Charger_Module")
    r = chg.fields.get("R_PROG")
    return PW.charge_a(_ohms(r) if r else PW.R_PROG_STOCK_OHM, worst=True)


def _farads(value: str) -> float:
    v = value.strip().lower().replace("f", "")
    for suffix, k in (("u", 1e-6), ("n", 1e-9), ("p", 1e-12), ("m", 1e-3)):
        if v.endswith(suffix):
            return float(v[:-1]) * k
    return float(v)


def _ohms(value: str) -> float:
    v = value.strip().lower().replace("ohm", "").strip()
    for suffix, k in (("k", 1e3), ("m", 1e6)):
        if v.endswith(suffix):
            return float(v[:-1]) * k
    return float(v)


def node(net: str) -> str:
    return "0" if net == "GND" else net.replace("+", "P").replace("-", "M").lower()


class Scenario:
    """What happens: the cells' voltage, the USB port's, whether USB is in at the start and
    when it is pulled or plugged (s), when the motors start and the voice speaks (s)."""

    def __init__(self, name, cells_v, usb_v=5.0, usb_in=True, switch_at=None, motors_at=None, voice_at=None,
                 end=0.25, switch_on=True, host_ohm=0.0, replug=None):
        self.name, self.cells_v, self.usb_v, self.usb_in = name, cells_v, usb_v, usb_in
        self.replug = replug  # (pulled at, plugged again at) s after a plug-in at switch_at
        self.host_ohm = host_ohm  # the port's own source resistance (0: an ideal port)
        self.switch_at, self.motors_at, self.voice_at, self.end, self.switch_on = \
            switch_at, motors_at, voice_at, end, switch_on


SCENARIOS = [
    Scenario("USB pulled, cells full", FULL_V, switch_at=0.05),
    Scenario("USB pulled, cells empty", EMPTY_V, switch_at=0.05),
    Scenario("USB pulled from a weak port, cells empty", EMPTY_V, usb_v=PW.USB_V[0], switch_at=0.05),
    Scenario("USB plugged, cells full", FULL_V, usb_in=False, switch_at=0.05),
    Scenario("USB plugged, cells empty", EMPTY_V, usb_in=False, switch_at=0.05),
    Scenario("motors and voice, cells empty", EMPTY_V, usb_in=False, motors_at=0.05, voice_at=0.05),
    Scenario("motors and voice, weak USB port", EMPTY_V, usb_v=PW.USB_V[0], motors_at=0.05, voice_at=0.05),
    Scenario("USB pulled while the motors and voice run, cells empty", EMPTY_V, switch_at=0.1, motors_at=0.05,
             voice_at=0.05),
    # Switched off, the clock runs from USB alone (VSYS through the USB ideal diode) while the
    # TP4056 charges empty cells: VBUS carries the charge and VSYS's load through the port's
    # own resistance (a port of 5 V behind its power switch and fuse, 0.2 ohm: HOST_OHM) and
    # the cable's 0.25 ohm, or a port at USB's least 4.75 V. The TP4056 has no input-voltage
    # regulation: 1 A (its R_PROG as sold) pulls VSYS to ~4.4 V, under the HT16K33's 4.5 V.
    Scenario("charging from USB with the clock off, cells empty", EMPTY_V, usb_v=5.0, host_ohm=0.2, switch_on=False,
             end=0.1),
    Scenario("charging from a weak USB port with the clock off, cells empty", EMPTY_V, usb_v=PW.USB_V[0],
             switch_on=False, end=0.1),
]
CHARGING = [sc for sc in SCENARIOS if sc.name.startswith("charging")]


def netlist(board, sc: Scenario, without=(), vto=PMOS_VTO[1], fuse=None) -> str:
    """The SPICE deck of the circuit's power path in scenario sc (without: the keys of parts
    to leave out, as if never fitted, their pins' nets joined where the part passes power:
    the soft start's MOSFET left out is a wire, as the circuit was without it; vto: the
    MOSFET's threshold; fuse: another part number in the cells' fuse's place)."""
    b = PW.budget(voice=False)
    charge = charge_of(board)
    lines = ["* the power path, %s (hardware/powersim.py, from hardware/circuit.py)" % sc.name,
             PMOS_MODEL.format(vto=vto),
             ".model schottky D(IS=3e-6 N=1.05 RS=0.04 CJO=100p)  ; 1N5819 / MBR120: 0.3-0.45 V at 0.1-1 A",
             ".model body D(IS=1e-12 N=1.5 RS=0.1)",
             ".model bat85 D(IS=5e-9 N=1.0 RS=1 CJO=10p)  ; BAT85: at most 0.24 V at 0.1 mA, 0.32 V at 1 mA",
             ".model ideal D(IS=1e-9 N=0.02 RS=%g)  ; an LM66100 on: 79 mohm, ~10 mV" % PW.IDEAL_DIODE_OHM,
             ".model npn NPN(IS=1e-14 BF=250 VAF=100 RB=60 RC=0.2 CJE=25p CJC=10p)  ; BC337-40: hFE 250-630",
             ".model sw SW(VT=0.5 VH=0.1 RON=0.005 ROFF=1e9)"]
    # The USB port: its source, its own capacitance, the cable, the plug (a switch).
    t = sc.switch_at
    if t is None:
        plug = "DC %d" % (1 if sc.usb_in else 0)
    else:
        a, z = (1, 0) if sc.usb_in else (0, 1)
        plug = "PWL(0 %d %g %d %g %d)" % (a, t, a, t + 1e-6, z)
        if sc.replug:
            out_at, in_at = sc.replug
            plug = plug[:-1] + " %g 1 %g 0 %g 0 %g 1)" % (out_at, out_at + 1e-6, in_at, in_at + 1e-6)
    if sc.host_ohm:
        lines += ["Vhost hostsrc 0 DC %g" % sc.usb_v, "Rhost hostsrc host %g" % sc.host_ohm]
    else:
        lines.append("Vhost host 0 DC %g" % sc.usb_v)
    lines += ["Chost host 0 %guF" % HOST_UF,
              "Rcable host cable %g" % USB_CABLE_OHM, "Vplug plugctl 0 %s" % plug,
              "Splug cable %s plugctl 0 sw" % node("VBUS")]
    for key, tpl, value, pins, mpn in _parts(board):
        n = {k: node(v) for k, v in pins.items()}
        if key in without:
            if tpl == "Q_PMOS_GSD":
                lines.append("R%s_wire %s %s 0.001" % (key, n["S"], n["D"]))
            continue
        if tpl in ("C", "CP"):
            a, c = (n.get("+"), n.get("-")) if tpl == "CP" else (n.get("1"), n.get("2"))
            esr = 0.01 if tpl == "C" else (0.08 if _farads(value) >= 500e-6 else 0.3)  # electrolytics' ESR
            lines += ["C%s %s_c %s %s" % (key, key, c, value.replace("u", "uF").replace("n", "nF")),
                      "R%s_esr %s %s_c %g" % (key, a, key, esr)]
        elif tpl == "R" and all(v in POWER_NETS | {"GND"} for v in pins.values()):
            lines.append("R%s %s %s %g" % (key, n["1"], n["2"], _ohms(value)))
        elif tpl == "Q_PMOS_GSD":
            lines.append("M%s %s %s %s ao3401a" % (key, n["D"], n["G"], n["S"]))
        elif tpl == "Q_NPN_CBE" and pins.get("B") in POWER_NETS:
            lines.append("Q%s %s %s %s npn" % (key, n["C"], n["B"], n["E"]))
        elif tpl == "LM66100":
            # TI LM66100 (SLVSEZ4): on when CE is low and VIN is over 1.5 V and above VOUT,
            # 79 mohm; it blocks reverse current; its body diode VIN to VOUT
            # (a diode of 79 mohm and a few mV: SPICE's own diode keeps the simulation smooth)
            if pins.get("CE") == "GND":
                lines.append("D%s %s %s ideal" % (key, n["VIN"], n["VOUT"]))
            lines.append("D%s_body %s %s body" % (key, n["VIN"], n["VOUT"]))
        elif tpl == "Boost_5V":
            # Pololu S7V8F5: 5 V from 2.7-11.8 V; EN high above 1.2 V, pulled up to VIN
            # inside (100 kohm); a soft start of about 1 ms; ~85 % efficient
            vin, vout, en = n["VIN"], n["VOUT"], n["EN"]
            lines += ["R%s_pull %s %s 100k" % (key, vin, en),
                      "B%s_on %s_on 0 V=0.25*(1+tanh((V(%s)-1.2)/0.05))*(1+tanh((V(%s)-2.7)/0.05))" % (key, key, en, vin),
                      "R%s_ss %s_on %s_ss 1k" % (key, key, key), "C%s_ss %s_ss 0 0.33u" % (key, key),
                      "B%s_out %s_int 0 V=%g*V(%s_ss)" % (key, key, PW.BOOST_V[0] + PW.BOOST_V[1] - 5.0, key),
                      "V%s_sense %s_int %s_s 0" % (key, key, key),
                      "R%s_out %s_s %s 0.05" % (key, key, vout),
                      "B%s_in %s 0 I=max(V(%s)*I(V%s_sense),0)/(%g*max(V(%s),0.5))"
                      % (key, vin, vout, key, PW.BOOST_EFFICIENCY, vin)]
        elif tpl == "Charger_Module":
            # TP4056 (NanJing Top Power): charges at its R_PROG's current from VCC 4.0-8 V
            # (under-voltage lock-out below ~3.8 V), to 4.2 V; the module's OUT+ is its B+,
            # its OUT- reaches B- through the DW01A's two MOSFETs
            vin, bp, bm, out = n["IN+"], n["B+"], n["B-"], n["OUT+"]
            lines += ["C%s_in %s 0 %guF" % (key, vin, CHARGER_IN_UF), "C%s_out %s 0 %guF" % (key, out, CHARGER_OUT_UF),
                      "R%s_bplus %s %s 0.001" % (key, bp, out),
                      "R%s_prot %s 0 %g" % (key, bm, PROTECTION_OHM),
                      "B%s_chg %s %s I=%g*min(max((V(%s)-3.9)/0.2,0),1)*min(max((4.2-V(%s))/0.05,0),1)"
                      % (key, vin, bp, charge, vin, bp)]
        elif tpl == "Conn_01x03" and key == "square_leds":
            lines.append("C%s %s 0 %guF" % (key, n["1"], LED_CHAIN_UF))
        elif tpl == "Polyfuse":
            lines += ["R%s %s %s_m %g" % (key, n["1"], key, FUSES[fuse or mpn][2]),
                      "Vfuse_sense %s_m %s 0" % (key, n["2"])]
        elif key == "battery":
            lines += ["Vcells %s_emf %s DC %g" % (key, n["2"], sc.cells_v),
                      "Rcells %s_emf %s %g" % (key, n["1"], CELL_OHM / PW.CELLS)]
        elif tpl == "SW_SPDT":  # on: B (the enable) left open; off: B to A
            if not sc.switch_on:
                lines.append("R%s %s %s 0.1" % (key, n["B"], n["A"]))
        elif tpl == "Raspberry_Pi_Pico":
            # its own Schottky from VBUS to VSYS (MBR120VLSFT1), and its draw on VSYS
            lines += ["D%s_vbus %s %s schottky" % (key, n["VBUS"], n["VSYS"]),
                      "B%s_load %s 0 I=%g*min(max(V(%s)/1.8,0),1)" % (key, n["VSYS"], PW.PICO_MA / 1000, n["VSYS"])]
        elif tpl == "HT16K33":
            lines.append("B%s %s 0 I=%g*min(max(V(%s)/1,0),1)" % (key, n["VDD"], b.face_ma / 1000, n["VDD"]))
        elif tpl == "D_Schottky":  # (on the power nets: the soft start's gate clamp)
            lines.append("D%s %s %s bat85" % (key, n["A"], n["K"]))
        elif tpl == "D_Supply":
            lines.append("D%s %s %s schottky" % (key, n["A"], n["K"]))
        elif tpl == "Motor" and sc.motors_at is not None:
            lines += ["V%s_on %s_g 0 PWL(0 0 %g 0 %g 1)" % (key, key, sc.motors_at, sc.motors_at + 1e-6),
                      "S%s %s %s_m %s_g 0 sw" % (key, n["+"], key, key),
                      "R%s %s_m 0 %g" % (key, key, MOTOR_OHM / MOTOR_DUTY)]
        elif tpl == "DFPlayer_Mini":
            on = "PWL(0 0 %g 0 %g %g)" % (sc.voice_at, sc.voice_at + 1e-4, VOICE_PEAK_A) if sc.voice_at is not None else \
                "DC 0"
            lines += ["B%s %s 0 I=(%g+V(%s_i))*min(max(V(%s)/2,0),1)" % (key, n["VCC"], PW.VOICE_IDLE_MA / 1000, key,
                                                                            n["VCC"]),
                      "V%s_i %s_i 0 %s" % (key, key, on)]
    # The rest of VSYS's budget (a running-side LED, the motors' signals), as one load.
    rest = (b.vsys_ma - PW.PICO_MA - PW.FACES * b.face_ma) / 1000
    lines.append("Brest %s 0 I=%g*min(max(V(%s)/2,0),1)" % (node("VSYS"), rest, node("VSYS")))
    probes = ["vbus", "vsys", "boost_5v", "boost_en", "cellp", "audio_v", "bat_out", "host"]
    lines += [".options method=gear reltol=1e-3 abstol=1e-9 vntol=1e-5 itl4=200",
              ".tran 20u %g 0 50u" % sc.end,
              ".control", "run",
              "wrdata {out} " + " ".join("v(%s)" % p for p in probes) + " i(vhost) i(vfuse_sense)",
              ".endc", ".end"]
    return "\n".join(lines) + "\n"


class Run:
    """A scenario's result: its traces (t, {probe: [values]}) and its checks."""

    PROBES = ["vbus", "vsys", "boost_5v", "boost_en", "cellp", "audio_v", "bat_out", "host", "i_host", "i_fuse"]

    def __init__(self, sc, rows):
        self.scenario = sc
        self.t = [r[0] for r in rows]
        self.v = {p: [r[1 + 2 * k] for r in rows] for k, p in enumerate(self.PROBES)}

    def after(self, probe, t0=0.005):
        """The trace from t0 s on (the first ms are the simulation's own start)."""
        return [v for t, v in zip(self.t, self.v[probe]) if t >= t0]

    def lowest(self, probe):
        return min(self.after(probe))

    def highest(self, probe):
        return max(self.after(probe))

    def faults(self) -> list[str]:
        out = []
        for part, (rail, lo, hi) in LIMITS.items():
            probe = rail.lower()
            if part == "DFPlayer" and self.scenario.voice_at is None:
                continue  # (it is optional: checked where it speaks)
            if self.lowest(probe) < lo - 1e-3:
                out.append("%s: %s falls to %.2f V, under %s's minimum %.1f V" % (self.scenario.name, rail,
                                                                                   self.lowest(probe), part, lo))
            if self.highest(probe) > hi + 1e-3:
                out.append("%s: %s reaches %.2f V, over %s's maximum %.1f V" % (self.scenario.name, rail,
                                                                                 self.highest(probe), part, hi))
        return out


def vbus_farads(board, clock_on: bool = True) -> float:
    """The capacitance a USB port meets at plug-in (F): the capacitors on VBUS, the charger
    module's own input, and, when the clock is off (its regulator off, VSYS empty), what
    the USB ideal diode and the Pico's Schottky open onto: VSYS's and, past its diode,
    the voice's. USB 2.0 7.2.4.1 allows 10 uF (USB_DEVICE_UF)."""
    parts = _parts(board)
    reach = {"VBUS"}
    if not clock_on:  # what the plug reaches through the diodes into an empty VSYS (a soft start's
        # MOSFET is not crossed: it opens slowly, after the plug-in)
        for key, tpl, value, pins, mpn in parts:
            if (tpl == "LM66100" and pins.get("VIN") in reach) or \
                    (tpl == "Raspberry_Pi_Pico" and pins.get("VBUS") in reach):
                reach |= {"VSYS", "AUDIO_V"}
    total = 0.0
    for key, tpl, value, pins, mpn in parts:
        if tpl in ("C", "CP") and (pins.get("+") or pins.get("1")) in reach and \
                (pins.get("-") or pins.get("2")) == "GND":
            total += _farads(value)
        if tpl == "Charger_Module" and pins.get("IN+") in reach:
            total += CHARGER_IN_UF * 1e-6
        if tpl == "Conn_01x03" and key == "square_leds" and pins.get("1") in reach:
            total += LED_CHAIN_UF * 1e-6
    return total


# USB 2.0 7.2.4.1: a device may load the end of its cable with at most 10 uF in parallel
# with 44 ohm at plug-in; one that needs more "must incorporate some form of VBUS surge
# current limiting, such that it matches the characteristics of the above load": the port's
# voltage must not dip further than that load makes it dip. The port here: its 120 uF
# (HOST_UF) behind HOST_OHM, a port's power switch and its fuse.
HOST_OHM = 0.2
INRUSH_AT, INRUSH_END = 0.005, 0.25  # (the soft start's gate turns it on over ~0.1 s)
REFERENCE_OHM = 44.0


def _run(deck: str) -> list[list[float]]:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.txt"
        (Path(d) / "deck.cir").write_text(deck.replace("{out}", str(out)))
        r = subprocess.run([NGSPICE, "-b", str(Path(d) / "deck.cir")], capture_output=True, text=True, timeout=120)
        if not out.exists():
            raise RuntimeError("ngspice failed:\n%s" % (r.stdout + r.stderr)[-2000:])
        return [[float(x) for x in line.split()] for line in out.read_text().splitlines() if line.strip()]


def reference_dip(usb_v: float = 5.0) -> float:
    """How far (V) the port dips when USB's reference load (10 uF || 44 ohm) is plugged in."""
    deck = "\n".join([
        "* USB 2.0 7.2.4.1's reference load plugged into the port (hardware/powersim.py)",
        ".model sw SW(VT=0.5 VH=0.1 RON=0.005 ROFF=1e9)",
        "Vhost hostsrc 0 DC %g" % usb_v, "Rhost hostsrc host %g" % HOST_OHM, "Chost host 0 %guF" % HOST_UF,
        "Rcable host cable %g" % USB_CABLE_OHM,
        "Vplug plugctl 0 PWL(0 0 %g 0 %g 1)" % (INRUSH_AT, INRUSH_AT + 1e-6), "Splug cable dev plugctl 0 sw",
        "Cref dev 0 %guF" % USB_DEVICE_UF, "Rref dev 0 %g" % REFERENCE_OHM,
        ".tran 2u %g 0 2u" % INRUSH_END, ".control", "run", "wrdata {out} v(host)", ".endc", ".end"]) + "\n"
    rows = _run(deck)
    return usb_v - min(r[1] for r in rows if r[0] >= INRUSH_AT)


def inrush(board=None, clock_on: bool = False, cells_v: float = None, without=(), vto=PMOS_VTO[1]
           ) -> tuple[float, float]:
    """The port's dip (V) when the clock is plugged in, and the reference load's: USB allows
    the first no larger than the second. With the clock off, VSYS is empty and its
    capacitors charge from the plug through the soft start, the USB ideal diode and the
    Pico's Schottky (without and vto: as simulate's)."""
    if board is None:
        from hardware.circuit import Board

        board = Board()
    sc = Scenario("USB plugged, the clock %s" % ("on" if clock_on else "off"), cells_v or FULL_V, usb_in=False,
                  switch_at=INRUSH_AT, end=INRUSH_END, switch_on=clock_on, host_ohm=HOST_OHM)
    run = simulate(sc, board, without, vto)
    return sc.usb_v - min(run.after("host", INRUSH_AT)), reference_dip(sc.usb_v)


def replug_dip(board=None, gap: float = 0.1, without=(), vto=PMOS_VTO[1]) -> float:
    """The port's dip (V) when a clock that is off is plugged in, pulled out once VSYS is up
    (0.4 s) and plugged back gap s later: the soft start must start again as softly."""
    if board is None:
        from hardware.circuit import Board

        board = Board()
    out_at = 0.4
    sc = Scenario("USB plugged, pulled and plugged again, the clock off", FULL_V, usb_in=False, switch_at=INRUSH_AT,
                  end=out_at + gap + INRUSH_END, switch_on=False, host_ohm=HOST_OHM, replug=(out_at, out_at + gap))
    run = simulate(sc, board, without, vto)
    return sc.usb_v - min(run.after("host", out_at + gap))


def ngspice_missing() -> str:
    return "" if shutil.which(NGSPICE) else "ngspice is missing (Debian: apt-get install ngspice)"


def simulate(sc: Scenario, board=None, without=(), vto=PMOS_VTO[1], fuse=None) -> Run:
    """Run ngspice on the circuit's power path in scenario sc (the soft start's MOSFET at
    threshold vto; fuse: another part number in the cells' fuse's place)."""
    if board is None:
        from hardware.circuit import Board

        board = Board()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.txt"
        deck = netlist(board, sc, without, vto, fuse).replace("{out}", str(out))
        (Path(d) / "deck.cir").write_text(deck)
        r = subprocess.run([NGSPICE, "-b", str(Path(d) / "deck.cir")], capture_output=True, text=True, timeout=120)
        if not out.exists():
            raise RuntimeError("ngspice failed on %s:\n%s" % (sc.name, (r.stdout + r.stderr)[-2000:]))
        rows = [[float(x) for x in line.split()] for line in out.read_text().splitlines() if line.strip()]
    return Run(sc, rows)


def fuse_current(runs) -> float:
    """The most the cells' fuse carries for longer than a moment (A): the charge, or the
    heaviest load on empty cells (the mean of its last 50 ms)."""
    worst = CHARGE_A
    for run in runs:
        tail = [abs(i) for t, i in zip(run.t, run.v["i_fuse"]) if t >= run.scenario.end - 0.05]
        worst = max(worst, sum(tail) / len(tail))
    return worst


def main(argv=None) -> int:
    why = ngspice_missing()
    if why:
        print(why)
        return 1
    from hardware.circuit import Board

    board = Board()
    status = 0
    runs = []
    for sc in SCENARIOS:
        run = simulate(sc, board)
        runs.append(run)
        line = "%-62s VSYS %.2f-%.2f V  VBUS %.2f-%.2f V  cells %.2f V" % (
            sc.name, run.lowest("vsys"), run.highest("vsys"), run.lowest("vbus"), run.highest("vbus"),
            run.lowest("cellp"))
        print(line)
        for f in run.faults():
            print("  FAULT:", f)
            status = 1
    for on in (True, False):
        uf = vbus_farads(board, on) * 1e6
        print("USB meets %.1f uF at plug-in with the clock %s (USB 2.0 allows %d uF)" % (uf, "on" if on else "off",
                                                                                       USB_DEVICE_UF))
        if uf > USB_DEVICE_UF + 1e-9:
            print("  FAULT: more than USB allows")
            status = 1
        for vto in PMOS_VTO:
            dip, allowed = inrush(board, clock_on=on, vto=vto)
            print("  the port dips %.2f V at plug-in, the soft start's threshold %.1f V (USB's reference load, "
                  "10 uF || 44 ohm: %.2f V)" % (dip, vto, allowed))
            if dip > allowed:
                print("  FAULT: more inrush than USB allows")
                status = 1
    dip, allowed = inrush(board, clock_on=False, without={"soft_start"})
    print("without the soft start, the clock off: the port dips %.2f V" % dip)
    dip = replug_dip(board)
    print("pulled and plugged back 0.1 s later, the clock off: the port dips %.2f V (without the gate's clamp: "
          "%.2f V)" % (dip, replug_dip(board, without={"d_soft"})))
    if dip > allowed:
        print("  FAULT: more inrush than USB allows")
        status = 1
    fuse = fuse_of(board)
    carried, holds = fuse_current(runs), holds_a(fuse)
    print("the cells' fuse (%s) carries up to %.2f A; it holds %.2f A at %d C (rerated by: %s%s)" % (
        fuse, carried, rerated(FUSES[fuse][0], mpn=fuse), INSIDE_C, rerating(fuse)[1],
        "" if fuse in FUSE_RERATING else "; %.2f A with the curve %d %% lower" % (holds, 100 - 100 * RERATE_MARGIN)))
    if carried > holds:
        print("  FAULT: the fuse trips in use")
        status = 1
    print("the charger charges at up to %.2f A (its R_PROG, +10 %%): USB 2.0 gives a port %d mA" % (
        charge_of(board), PW.USB2_PORT_A * 1000))
    if charge_of(board) > PW.USB2_PORT_A + 1e-9:
        print("  FAULT: more than a USB 2.0 port gives")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
