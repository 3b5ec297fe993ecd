# What the board's UF2 freezes into MicroPython (MicroPython's manifest convention; built
# by `python -m host_tools uf2`): the rp2 port's own modules (asyncio, neopixel, ...), the
# firmware package, and main.py, which the port runs in preference to a main.py on the
# filesystem. The build reads this file from a copy of the tree it makes under build/uf2/.
include("$(PORT_DIR)/boards/manifest.py")
package("firmware")
module("main.py")
