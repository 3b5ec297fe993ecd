# The Pico runs this after boot.py: the chess board and clock. The UF2 freezes it with the
# firmware (manifest.py), and MicroPython runs a frozen main.py before one on the
# filesystem. Which firmware it imports (docs/firmware.md): the frozen one, unless
# `deploy` put a development copy on the filesystem (its mark: /firmware/DEVELOPMENT).
import sys

try:
    open("/firmware/DEVELOPMENT").close()
except OSError:  # no development copy: the frozen firmware, whatever else is on the flash
    if ".frozen" in sys.path:
        sys.path.remove(".frozen")
        sys.path.insert(0, ".frozen")

from firmware.app.main import run

run()
