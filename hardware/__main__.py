"""python -m hardware: the netlist, the bill of materials and the wiring diagram, from the
circuit (after a clean ERC); then the sensor strip (hardware/pcb.py), where KiCad's pcbnew is
installed."""
from hardware.outputs import BOM, NETLIST, WIRING, write_all

write_all()
for p in (NETLIST, BOM, WIRING):
    print(p)
try:
    from hardware import pcb

    pcb.pcbnew_module()
except ImportError as e:
    print(f"the sensor PCB not made: {e}")
else:
    raise SystemExit(pcb.main([]))
