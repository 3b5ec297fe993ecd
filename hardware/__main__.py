"""python -m hardware: the netlist, the bill of materials and the wiring diagram, from the
circuit (after a clean ERC); then the sensor strip (hardware/pcb.py), where KiCad's pcbnew is
installed, and the enclosure (hardware/enclosure.py), where build123d is."""
from hardware.outputs import BOM, NETLIST, WIRING, write_all

write_all()
for p in (NETLIST, BOM, WIRING):
    print(p)
status = 0
try:
    from hardware import pcb

    pcb.pcbnew_module()
except ImportError as e:
    print(f"the sensor strip not made: {e}")
else:
    status |= pcb.main([])
try:
    from hardware import enclosure

    enclosure.build123d_module()
except ImportError as e:
    print(f"the enclosure not made: {e}")
else:
    status |= enclosure.main([])
raise SystemExit(status)
