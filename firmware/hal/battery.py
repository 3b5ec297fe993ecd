# The battery: three 18650 Li-ion cells in parallel (hardware/README.md, "Power"), read on
# GP28 through a 1:2 divider. What is left is judged from the cell's voltage under the
# clock's light load (about 0.05 C), on the typical discharge curve of such cells; the
# low-battery sign comes on where hardware/power.py shows at least 10 hours remain
# (FIDE Handbook C.02), with the curve's error allowed for.
from firmware.const import const


LOW_BATTERY_MV = const(3800)
DIVIDER = const(2)  # 100k over 100k: the ADC sees half the cell
# (mV, per cent of the energy left): a typical NMC 18650 cell at a light load, 25 C.
CURVE = ((4200, 100), (4080, 90), (3980, 80), (3900, 70), (3830, 60), (3770, 50), (3720, 40),
         (3680, 30), (3630, 20), (3550, 10), (3400, 5), (3000, 0))


def cell_mv(raw_u16):
    """The cell's voltage from the ADC's 16-bit reading (3.3 V full scale)."""
    return raw_u16 * 3300 * DIVIDER // 65535


def percent(mv):
    """The per cent of the energy left at mv, on CURVE (whole per cent, never rounded up)."""
    if mv >= CURVE[0][0]:
        return 100
    for i in range(1, len(CURVE)):
        hi_mv, hi_p = CURVE[i - 1]
        lo_mv, lo_p = CURVE[i]
        if mv >= lo_mv:
            return lo_p + (mv - lo_mv) * (hi_p - lo_p) // (hi_mv - lo_mv)
    return 0
