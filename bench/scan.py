"""The reed matrix scan (issue 5): one full 64-square scan through the rp2 HAL's
MatrixScanner inside micropython (precompiled), and what that makes on a 125 MHz RP2040:
x150 for the Python, plus the 5 us settling wait per rank that the hardware needs.

    python bench/scan.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_tools import micropython  # noqa: E402
from host_tools.micropython import CHIP_FACTOR  # noqa: E402

SETTLE_US = 5 * 8


def main():
    r = micropython.run(["bench/scan_core.py"], heap="64K", compiled=True)
    if r.returncode:
        raise SystemExit(r.stdout + r.stderr)
    us = float(r.stdout.split()[1])
    chip = us * CHIP_FACTOR + SETTLE_US
    print(f"full scan inside micropython here   {us:.2f} us")
    print(f"on a 125 MHz RP2040 (x{CHIP_FACTOR} + 8 x 5 us) ~{chip / 1000:.2f} ms")
    print(f"at 100 scans a second                ~{chip / 100:.1f}% of the CPU")


if __name__ == "__main__":
    main()
