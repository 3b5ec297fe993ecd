# The vibration motors' duty limit from the supply: they are 3 V motors on the 5 V rail
# (VSYS: 4.7-5.25 V), switched by PWM at 20 kHz, where the coil averages the voltage. A
# signal's intensity (firmware/access/settings.py: 10-100 %) is a share of the motor's rated
# voltage, never more: the duty is that voltage over the rail's, as the Pico measures VSYS
# (a third of it on ADC 3, GPIO29) at every power poll; until it has, the rail is taken at
# its highest. hardware/power.py checks the limit against the rail and the motor's start.
from firmware.const import const


RATED_MV = const(3000)  # the motor's rated voltage (bom.csv: a 3 V coin motor)
RAIL_MAX_MV = const(5250)  # VSYS at its highest: USB's 5.25 V through an ideal diode
RAIL_MIN_MV = const(3000)  # a reading under this is no reading (the rail is never so low)


def vsys_mv(raw_u16):
    """VSYS from ADC 3's 16-bit reading (a 1:3 divider on the Pico, 3.3 V full scale)."""
    return raw_u16 * 3300 * 3 // 65535


def duty_u16(percent, rail_mv=RAIL_MAX_MV):
    """The PWM duty (0..65535) that gives a motor `percent` (0..100) of its rated voltage
    on a rail of rail_mv: never more than the rated voltage, whatever the rail."""
    if percent <= 0:
        return 0
    if percent > 100:
        percent = 100
    if rail_mv < RAIL_MIN_MV:
        rail_mv = RAIL_MAX_MV
    duty = percent * RATED_MV * 655 // rail_mv
    return duty if duty < 65535 else 65535
