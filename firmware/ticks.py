# MicroPython's tick arithmetic (time.ticks_diff / ticks_add), and the same under CPython
# for the tests, with the RP2040's period of 2**30 ms (about 12.4 days): ticks wrap, so
# times are only ever compared through ticks_diff.
try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    _PERIOD = 0x40000000
    _MASK = _PERIOD - 1
    _HALF = _PERIOD >> 1

    def ticks_add(t, delta):
        return (t + delta) & _MASK

    def ticks_diff(a, b):
        d = (a - b) & _MASK
        return d - _PERIOD if d >= _HALF else d

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _MASK
