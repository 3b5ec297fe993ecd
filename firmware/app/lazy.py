# Code the board loads only when it is needed (a DGT program on the line, a Chess960 game,
# a maker's self-test, the clock's menu and its presets, the time-control parser;
# recovery.py only at start-up), and the qstrs that code will want.
#
# MicroPython interns names (qstrs) in pools that double in size, and a new pool is one
# block: on the chip the application's names fill the sixth pool almost to the brim, and
# the seventh is ~8 KB. Wanted in mid-game (a DGT program connecting late), a heap that a
# long game has cut into pieces may not have it (README: memory). So at start-up, before
# the application's own modules load, the later code's names are interned (the code is
# loaded and forgotten at once: the names stay, the code goes), and every one-character
# string of printable ASCII (indexing a string makes one). CPython has no qstrs.
import sys

from firmware.modules import forget, load  # noqa: F401 (the device's: lazy.load, lazy.forget)

LATER = (("firmware.app", "dgt"), ("firmware.app", "dgtstore"), ("firmware.rules", "chess960"),
         ("firmware.app", "selftest"),
         ("firmware.clock", "menu"), ("firmware.clock", "presets"), ("firmware.clock", "tcparse"))


def intern_names():
    if sys.implementation.name != "micropython":
        return
    new = [(p, n) for p, n in LATER if p + "." + n not in sys.modules]
    for package, name in new:
        __import__(package + "." + name)
    for package, name in new:  # after all: one may have imported another
        forget(package, name)
    for c in range(32, 127):
        chr(c)

