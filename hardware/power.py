"""The power budget: what the board draws on its battery, and how long it runs after the
low-battery sign (FIDE Handbook C.02 asks for at least 10 hours of flawless running); every
part inside its supply range on the cells and on a weak or strong USB port, the motors at
their rated voltage by the firmware's duty limit (firmware/hal/motorduty.py), and the time
a charge takes.

    python -m hardware.power      # prints the budget, as hardware/README.md shows it

Every figure is an upper estimate, for the worst the clock shows: both faces full
("8:88:88" with two sign characters and every indicator lit), one running-side LED on, the
motors' signals allowed for, the Raspberry Pi Pico busy. The faces' brightness is the
firmware's own (firmware/hal/ht16k33.py) and the sign's threshold is the firmware's
(firmware/hal/battery.py): change either there and this changes with it; the tests
(tests/hardware/test_hardware.py) hold the 10 hours.
"""
from __future__ import annotations

from dataclasses import dataclass

from firmware.hal import motorduty
from firmware.hal.battery import CURVE, LOW_BATTERY_MV, percent
from firmware.hal.ht16k33 import BRIGHTNESS

CELLS = 3  # 18650 Li-ion cells in parallel (1S3P)
CELL_MAH = 3000  # rated capacity of one cell
CELL_V = 3.6  # nominal voltage
DERATE = 0.80  # what an aged cell in a cold room still gives of its rating
GAUGE_ERROR = 10  # per cent points the voltage-read charge may be too high (curve, load, cell)
VSYS_V = 5.0  # the boost module's output, before the OR-ing ideal diode
BOOST_EFFICIENCY = 0.85  # a synchronous step-up at 100-300 mA from 3.0-4.2 V

PICO_MA = 25  # RP2040 at 125 MHz running MicroPython, USB idle (Pico datasheet: ~20-25 mA)
ROW_MA = 25  # one lit segment's current while its COM is scanned (HT16K33 row driver)
COMS = 8  # the HT16K33 scans eight COM lines: each is on 1/8 of the time
HT16K33_MA = 1  # the chip's own supply current
SEGMENTS_8 = 8  # segments of an "8" on the 14-segment characters (A-F, G1, G2)
FACE_WORST = 5 * SEGMENTS_8 + 7 + 2 + 4  # 8:88:88, "F1", two colons, four indicators
FACES = 2
# A running-side LED (Kingbright WP813SRD, 10 mm super-bright red) on a BC337-40 from VSYS:
# its forward voltage 1.85 V typical, 2.5 V most at 20 mA, at most 30 mA continuous (the
# figures Kingbright prints for its SRD chip's lamps; its datasheet page was not reachable
# from where this was written: check it), the transistor saturated (VCE(sat) ~0.1 V at
# 20 mA, its base driven 1.2 mA from 3.3 V through 2k2: forced gain ~17 of its hFE >= 250).
# The resistor for 20 mA at the typical forward voltage on the cells' 5 V: 150 ohm.
LED_VF = (1.85, 2.5)  # typical, most, at 20 mA
LED_MA_MAX = 30  # its absolute maximum DC forward current
LED_VCE_SAT = 0.1
LED_OHM = 150
GPIO_MA_MAX = 4  # the RP2040's default drive strength (its datasheet: 4 mA)


def led_ma(vsys: float = VSYS_V, vf: float = LED_VF[0], ohm: float = LED_OHM) -> float:
    """A running-side LED's current (mA) on VSYS at forward voltage vf through ohm."""
    return (vsys - vf - LED_VCE_SAT) / ohm * 1000


LED_MA = round(led_ma())  # ~20 mA
MOTORS_MA = 5  # the vibration motors' signals, averaged over a game
# The optional voice (DFPlayer Mini and its SC16IS750): the player idles at 15-24 mA with
# its card in (its maker's figures), the bridge at under 1 mA; speaking, its amplifier
# draws ~150 mA into the 8 ohm speaker at a talking clock's volume. A game where every move
# is announced (~2 s of speech) every ~30 s, and a blind player asks now and then: speech
# ~10% of the time.
VOICE_IDLE_MA = 25
VOICE_SPEAKING_MA = 150
VOICE_SHARE = 0.10
VOICE_CELLS = 4  # with the voice, a fourth cell in the holder: three would give 10.1 h, no margin
HOURS_NEEDED = 10


@dataclass
class Budget:
    face_ma: float
    vsys_ma: float
    battery_w: float
    usable_wh: float
    sign_percent: int
    hours_after_sign: float
    hours_total: float


def face_ma(brightness: int = BRIGHTNESS, lit: int = FACE_WORST) -> float:
    """One face's average current: each lit segment gets ROW_MA for 1/COMS of the time,
    dimmed to (brightness + 1)/16 (the HT16K33's 16 steps)."""
    return lit * ROW_MA / COMS * (brightness + 1) / 16 + HT16K33_MA


def voice_ma() -> float:
    return VOICE_IDLE_MA + VOICE_SPEAKING_MA * VOICE_SHARE


def budget(brightness: int = BRIGHTNESS, threshold_mv: int = LOW_BATTERY_MV, cells: int = CELLS,
           voice: bool = False) -> Budget:
    face = face_ma(brightness)
    vsys_ma = PICO_MA + FACES * face + LED_MA + MOTORS_MA + (voice_ma() if voice else 0)
    battery_w = VSYS_V * vsys_ma / 1000 / BOOST_EFFICIENCY
    usable_wh = cells * CELL_MAH / 1000 * CELL_V * DERATE
    sign = percent(threshold_mv)
    after = usable_wh * max(0, sign - GAUGE_ERROR) / 100 / battery_w
    return Budget(face, vsys_ma, battery_w, usable_wh, sign, after, usable_wh / battery_w)


# ----- every part inside its supply range (hardware/circuit.py's rails)

USB_V = (4.75, 5.25)  # a USB port: 5 V +-5 %, the weak one at its lowest
BOOST_V = (4.80, 5.20)  # the 5 V regulator module: +-4 %
CELL_RANGE_V = (3.0, 4.2)  # the cells, empty to full
V3V3 = (3.20, 3.40)  # the Pico's 3.3 V regulator
IDEAL_DIODE_OHM = 0.079  # LM66100's on-resistance (its datasheet)
# USB's soft start (an AO3401A, its datasheet page 2): RDS(on) at most 60 mohm at VGS -4.5 V,
# carrying the charge and VSYS's load on USB
SOFT_START_OHM = 0.060
SCHOTTKY_V = (0.25, 0.45)  # a 1N5819 from 10 mA to 0.5 A
VSYS_MA_MAX = 600  # VSYS at its heaviest: the voice speaking, both motors, the faces full, an LED


def rails(or_drop_v=None) -> dict:
    """{(rail, on): (lowest, highest) volts}, on "battery" or "usb". or_drop_v: the drop of
    the diode that ORs each source into VSYS (None: the ideal diodes, at VSYS_MA_MAX)."""
    drop = (0.0, IDEAL_DIODE_OHM * VSYS_MA_MAX / 1000) if or_drop_v is None else (or_drop_v, or_drop_v)
    out = {}
    soft = SOFT_START_OHM * (CHARGE_A + VSYS_MA_MAX / 1000)
    for on, source in (("battery", BOOST_V), ("usb", (USB_V[0] - soft, USB_V[1]))):
        vsys = (source[0] - drop[1], source[1] - drop[0])
        out[("VSYS", on)] = vsys
        out[("AUDIO_V", on)] = (vsys[0] - SCHOTTKY_V[1], vsys[1] - SCHOTTKY_V[0])
        out[("+3V3", on)] = V3V3
        out[("BAT_OUT", on)] = CELL_RANGE_V
    out[("VBUS", "usb")] = USB_V
    out[("BOOST_5V", "battery")] = BOOST_V
    return out


# (part, its rail, its least and most supply in volts: from its datasheet)
SUPPLIES = (
    ("HT16K33 (the faces)", "VSYS", 4.5, 5.5),
    ("Raspberry Pi Pico (VSYS)", "VSYS", 1.8, 5.5),
    ("DFPlayer Mini (the voice)", "AUDIO_V", 3.2, 5.0),
    ("SC16IS750 (the voice's bridge)", "+3V3", 2.3, 3.6),
    ("74HC138", "+3V3", 2.0, 6.0),
    ("5 V regulator (S7V8F5), input", "BAT_OUT", 2.7, 11.8),
    ("TP4056 charger, input", "VBUS", 4.0, 8.0),
    ("LM66100 ideal diodes, input", "BOOST_5V", 1.5, 5.5),
    ("LM66100 ideal diodes, input", "VBUS", 1.5, 5.5),
    ("WS2812 square LEDs", "VBUS", 3.5, 5.3),
    ("USBLC6-2SC6 (USB's clamp), its stand-off", "VBUS", 0.0, 5.25),
    ("74AHCT1G125 (the LEDs' data to 5 V)", "VSYS", 4.5, 5.5),
)
MOTOR_START_V = 2.3  # what a 3 V coin motor needs to start turning
INTENSITY_DEFAULT = (80, 100)  # firmware/access/settings.py's normal and strong pulses


def supply_faults(or_drop_v=None) -> list[str]:
    """Every part outside its supply range on a rail, on the cells or on USB; and the
    motors outside their rated voltage or under their start at the firmware's duty."""
    r = rails(or_drop_v)
    out = []
    for part, rail, lo, hi in SUPPLIES:
        for on in ("battery", "usb"):
            if (rail, on) not in r:
                continue
            vlo, vhi = r[(rail, on)]
            if vlo < lo or vhi > hi:
                out.append("%s on %s (%s): %.2f-%.2f V, its range %.1f-%.1f V" % (part, rail, on, vlo, vhi, lo, hi))
    for on in ("battery", "usb"):
        vlo, vhi = r[("VSYS", on)]
        for rail in (vlo, vhi):
            for level in INTENSITY_DEFAULT:
                avg = rail * motorduty.duty_u16(level, int(rail * 1000)) / 65535
                if avg > motorduty.RATED_MV / 1000 + 0.01:
                    out.append("a motor at %d %% on %.2f V: %.2f V, over its rated %.1f V" % (level, rail, avg,
                                                                                                motorduty.RATED_MV / 1000))
                if avg < MOTOR_START_V:
                    out.append("a motor at %d %% on %.2f V: %.2f V, under its start %.1f V" % (level, rail, avg,
                                                                                                 MOTOR_START_V))
    if motorduty.RAIL_MAX_MV < r[("VSYS", "usb")][1] * 1000 - 1:
        out.append("the firmware takes VSYS at most %.2f V before it has measured it, but it reaches %.2f V"
                   % (motorduty.RAIL_MAX_MV / 1000, r[("VSYS", "usb")][1]))
    return out


# The charge current, set by the TP4056's R_PROG. NanJing Top Power's TP4056 datasheet (the
# Chinese edition, its PDF dated 2017-08-16; read from the copy in github.com/xingrz/
# KeychronK3Pro-REBUILD, datasheets/TP4056.pdf at 7bc11a9): page 4, Electrical
# Characteristics, I_BAT 450 / 500 / 550 mA (min / typ / max) at R_PROG 2.4 kohm and 950 /
# 1000 / 1050 mA at 1.2 kohm; page 6, the PROG pin: I_BAT = V_PROG / R_PROG x 1200; page 8,
# R_PROG = 1200 / I_BAT "(error +-10 %)", its table 3 kohm 400 mA, 2 kohm 580 mA. The common
# modules come with 1.2 kohm, 1 A: the TP4056 has no input-voltage regulation, so 1 A from a
# port behind a USB cable pulls VBUS, and with it VSYS, under the faces' 4.5 V while the
# clock is off and runs from USB (hardware/powersim.py, "charging from USB ..."). USB 2.0
# gives a port 500 mA (7.2.1: five unit loads): 2.4 kohm would charge at up to 550 mA (page
# 4); 2.7 kohm (E24) charges at 0.44 A, at most 0.49 A at the formula's +10 %, within it.
# The maker changes the module's own R_PROG (an 0603 marked "122") for the 2.7 kohm the
# order lists.
R_PROG_OHM = 2700
R_PROG_STOCK_OHM = 1200  # what the modules come with (1 A)
PROG_TOLERANCE = 0.10


def charge_a(r_prog_ohm: float = R_PROG_OHM, worst: bool = False) -> float:
    """The TP4056's charge current (A) with R_PROG r_prog_ohm: typical, or at most (+10 %)."""
    return 1200.0 / r_prog_ohm * (1 + PROG_TOLERANCE if worst else 1)


CHARGE_A = charge_a()  # 0.44 A
CHARGE_A_MAX = charge_a(worst=True)  # 0.49 A
USB2_PORT_A = 0.5  # USB 2.0, 7.2.1: a high-power port's 500 mA
CV_TAIL = 1.15  # the constant-voltage end of a Li-ion charge adds about this much


def charge_hours(cells: int = CELLS) -> float:
    """From empty to full at CHARGE_A (the board off; on, it draws its own from USB)."""
    return cells * CELL_MAH / 1000 / CHARGE_A * CV_TAIL


def recharge_hours(hours_used: float = HOURS_NEEDED) -> float:
    """How long CHARGE_A takes to put back what hours_used of play took from the cells
    (the budget's worst draw, through the boost), in constant current."""
    return budget().battery_w * hours_used / CELL_V / CHARGE_A


def report(b: Budget | None = None) -> str:
    b = b or budget()
    v = budget(voice=True, cells=VOICE_CELLS)
    return "\n".join([
        "| what | figure |",
        "|---|---|",
        "| one face, worst case (%d lit segments, brightness %d/16) | %.0f mA |" % (FACE_WORST, BRIGHTNESS + 1, b.face_ma),
        "| on VSYS: Pico %d mA, two faces, one LED %d mA, motors %d mA | %.0f mA |" % (PICO_MA, LED_MA, MOTORS_MA, b.vsys_ma),
        "| from the cells (5 V boost, %d%% efficient) | %.2f W |" % (BOOST_EFFICIENCY * 100, b.battery_w),
        "| usable energy: %d x %d mAh x %.1f V x %d%% | %.1f Wh |" % (CELLS, CELL_MAH, CELL_V, DERATE * 100, b.usable_wh),
        "| low-battery sign at %d mV: %d%% left on the curve, %d%% counted | |" % (LOW_BATTERY_MV, b.sign_percent, b.sign_percent - GAUGE_ERROR),
        "| running after the sign | %.1f h (C.02: at least %d) |" % (b.hours_after_sign, HOURS_NEEDED),
        "| running from full | %.1f h |" % b.hours_total,
        "| with the optional voice (+%.0f mA: idle %d, speaking %d mA %d%% of the time) and %d cells | "
        "%.1f h after the sign (3 cells: %.1f h), %.1f h from full |" % (
            voice_ma(), VOICE_IDLE_MA, VOICE_SPEAKING_MA, VOICE_SHARE * 100, VOICE_CELLS, v.hours_after_sign,
            budget(voice=True).hours_after_sign, v.hours_total),
        "| charging at %.2f A (R_PROG %.1f kohm: within a USB 2.0 port's %d mA) from empty / after a %d-hour day's "
        "play | %.1f h (with 4 cells %.1f h) / %.1f h |" % (
            CHARGE_A, R_PROG_OHM / 1000, USB2_PORT_A * 1000, HOURS_NEEDED, charge_hours(), charge_hours(VOICE_CELLS),
            recharge_hours()),
        "| VSYS on the cells / on a USB port of 4.75-5.25 V (ideal diodes) | %.2f-%.2f V / %.2f-%.2f V: every part "
        "inside its range (%s) |" % (*rails()[("VSYS", "battery")], *rails()[("VSYS", "usb")],
                                     "none outside" if not supply_faults() else "; ".join(supply_faults())),
    ])


if __name__ == "__main__":
    print(report())
    print("\nthe curve (mV, %):", ", ".join("%d %d" % p for p in CURVE))
