"""The power budget: what the board draws on its battery, and how long it runs after the
low-battery sign (FIDE Handbook C.02 asks for at least 10 hours of flawless running).

    python -m hardware.power      # prints the budget, as hardware/README.md shows it

Every figure is an upper estimate, for the worst the clock shows: both faces full
("8:88:88" with two sign characters and every indicator lit), one running-side LED on, the
motors' signals allowed for, the Raspberry Pi Pico busy. The faces' brightness is the
firmware's own (firmware/hal/ht16k33.py) and the sign's threshold is the firmware's
(firmware/hal/battery.py): change either there and this changes with it; the tests
(tests/test_hardware.py) hold the 10 hours.
"""
from __future__ import annotations

from dataclasses import dataclass

from firmware.hal.battery import CURVE, LOW_BATTERY_MV, percent
from firmware.hal.ht16k33 import BRIGHTNESS

CELLS = 3  # 18650 Li-ion cells in parallel (1S3P)
CELL_MAH = 3000  # rated capacity of one cell
CELL_V = 3.6  # nominal voltage
DERATE = 0.80  # what an aged cell in a cold room still gives of its rating
GAUGE_ERROR = 10  # per cent points the voltage-read charge may be too high (curve, load, cell)
VSYS_V = 5.0  # the boost module's output, before the OR-ing Schottky diode
BOOST_EFFICIENCY = 0.85  # a synchronous step-up at 100-300 mA from 3.0-4.2 V

PICO_MA = 25  # RP2040 at 125 MHz running MicroPython, USB idle (Pico datasheet: ~20-25 mA)
ROW_MA = 25  # one lit segment's current while its COM is scanned (HT16K33 row driver)
COMS = 8  # the HT16K33 scans eight COM lines: each is on 1/8 of the time
HT16K33_MA = 1  # the chip's own supply current
SEGMENTS_8 = 8  # segments of an "8" on the 14-segment characters (A-F, G1, G2)
FACE_WORST = 5 * SEGMENTS_8 + 7 + 2 + 4  # 8:88:88, "F1", two colons, four indicators
FACES = 2
LED_MA = 26  # a running-side LED: (VSYS - 2.0 V - 0.1 V) / 100 ohm
MOTORS_MA = 5  # the vibration motors' signals, averaged over a game
# The optional voice (DFPlayer Mini and its SC16IS750): the player idles at 15-24 mA with
# its card in (its maker's figures), the bridge at under 1 mA; speaking, its amplifier
# draws ~150 mA into the 8 ohm speaker at a talking clock's volume. A game where every move
# is announced (~2 s of speech) every ~30 s, and a blind player asks now and then: speech
# ~10% of the time.
VOICE_IDLE_MA = 25
VOICE_SPEAKING_MA = 150
VOICE_SHARE = 0.10
VOICE_CELLS = 4  # with the voice, a fourth cell in the holder: three would give 9.8 h
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
    ])


if __name__ == "__main__":
    print(report())
    print("\nthe curve (mV, %):", ", ".join("%d %d" % p for p in CURVE))
