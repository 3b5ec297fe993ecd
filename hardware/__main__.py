"""python -m hardware: the netlist, the bill of materials and the wiring diagram, from the
circuit (after a clean ERC), and the perfboard layouts; then the sensor strip
(hardware/pcb.py), the faces' PCB (hardware/facepcb.py) and the other boards' PCBs
(hardware/layoutpcb.py), where KiCad's pcbnew is installed, the enclosure (hardware/enclosure.py)
where build123d is, and last the rest of the bill of materials and the cost
(hardware/parts.py), which read them."""
import importlib
import subprocess
import sys

from hardware import perfboard
from hardware.outputs import BOM, NETLIST, WIRING, write_all

write_all()
for p in (NETLIST, BOM, WIRING):
    print(p)
status = perfboard.main([])
# (module, the module and function that say whether its tool is here, what it makes)
for name, (home, tool), what in (("pcb", ("pcb", "pcbnew_module"), "the sensor strip"),
                                 ("facepcb", ("pcb", "pcbnew_module"), "the faces' PCB"),
                                 ("layoutpcb", ("pcb", "pcbnew_module"), "the controller's and small boards' PCBs"),
                                 ("enclosure", ("enclosure", "build123d_module"), "the enclosure"),
                                 ("tactile", ("enclosure", "build123d_module"), "the blind player's board")):
    module = importlib.import_module("hardware." + name)
    try:
        getattr(importlib.import_module("hardware." + home), tool)()
    except ImportError as e:
        print(f"{what} not made: {e}")
        continue
    if tool == "pcbnew_module":  # each KiCad board in a process of its own: pcbnew's identifiers, seeded
        status |= subprocess.run([sys.executable, "-m", "hardware." + name]).returncode  # by each, stay its own
    else:
        status |= module.main([])
if status == 0:  # (it reads the committed STL files, so it needs no build123d)
    from hardware import parts

    parts.main()
raise SystemExit(status)
