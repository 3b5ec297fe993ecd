# The Pico runs this after boot.py: the chess board and clock.
from firmware.app.main import run

run()
