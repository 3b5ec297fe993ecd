# Inside micropython (bench/scan.py runs it): one full 64-square scan through the rp2 HAL's
# MatrixScanner, with pins that are Python objects (on the Pico they are machine.Pin, whose
# value() is C: faster), timed over many scans.
import sys
import time

sys.path.append(".")

from firmware.hal.matrix import MatrixScanner  # noqa: E402


class Pin:
    def __init__(self):
        self.v = 0

    def value(self, v):
        self.v = v


def main():
    pins = [Pin(), Pin(), Pin()]
    word = [0xFF]
    scanner = MatrixScanner(pins, lambda: word[0])
    out = bytearray(8)
    n = 20000
    t = time.ticks_us()
    for _ in range(n):
        scanner.scan(out)
    us = time.ticks_diff(time.ticks_us(), t)
    print("scan_us %.2f" % (us / n))


main()
