"""python -m hardware: the netlist, the bill of materials and the wiring diagram, from the
circuit (after a clean ERC), and the controller's perfboard layout; then the sensor strip
(hardware/pcb.py), where KiCad's pcbnew is installed, the enclosure (hardware/enclosure.py)
where build123d is, and last the rest of the bill of materials and the cost
(hardware/parts.py), which read them."""
from hardware import perfboard
from hardware.outputs import BOM, NETLIST, WIRING, write_all

write_all()
for p in (NETLIST, BOM, WIRING):
    print(p)
status = perfboard.main([])
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
    from hardware import parts

    parts.main()
raise SystemExit(status)
