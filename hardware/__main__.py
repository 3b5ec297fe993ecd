"""python -m hardware: the netlist, the bill of materials and the wiring diagram, from the
circuit (after a clean ERC)."""
from hardware.outputs import BOM, NETLIST, WIRING, write_all

write_all()
for p in (NETLIST, BOM, WIRING):
    print(p)
