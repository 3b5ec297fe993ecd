# The Pico runs this after boot.py: the chess board and clock. The UF2 freezes it with the
# firmware (manifest.py), and MicroPython runs a frozen main.py before one on the
# filesystem. The firmware it imports is the frozen one, whatever else is on the flash (an
# old copy put there as files never shadows it: docs/firmware.md).
import sys

if ".frozen" in sys.path:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")

from firmware.app.main import run

run()
