# The Pico runs this at power-up: the chess board and clock. The UF2 freezes it with the
# firmware (manifest.py), and MicroPython runs a frozen main.py in preference to one on the
# filesystem. Its sys.path, though, puts the filesystem first: MicroPython v1.28.0's rp2
# port starts with ["", ".frozen", "/lib"], "" being the filesystem's root (py/runtime.c,
# ports/rp2/main.c). So the frozen modules go first here, before the firmware is imported:
# the firmware that runs is the UF2's, whatever else is on the flash (an old copy put there
# as files never shadows it: docs/firmware.md; tests/e2e/test_chip.py checks it on the
# emulated Pico). The filesystem stays on the path, after them, for a developer's REPL.
import sys

if ".frozen" in sys.path:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")

from firmware.app.main import run

run()
