"""The controller as a real two-layer PCB, generated with KiCad's Python API from the same
circuit and the same placement as its perfboard (hardware/perfboard.py: every part where the
perfboard puts it, 2.54 mm a hole), so that the two cannot disagree; what the perfboard
wires underneath, tracks here. The BSS138s and the LM66100s sit as themselves (SOT-23,
SC-70-6) where the perfboard has their adapters, surface-mount on the top for an assembly
service; everything else is through-hole. The supply nets (VSYS, VBUS, the cells' and the
regulator's) run 0.6 mm wide (1 A of charging and the clock's load), thinning only at a
chip's pins; the ground is routed, then poured over both sides.

    python -m hardware.controllerpcb   # hardware/pcb/controller.kicad_pcb, controller-drc.rpt,
                                       # gerber-controller/ (Gerbers, drill, the assembly's BOM
                                       # and placement files), controller.png
"""
from __future__ import annotations

import sys
from pathlib import Path

from hardware import enclosure as E
from hardware import pcb as STRIP
from hardware import perfboard as PB
from hardware.routedpcb import GRID, RoutedBoard, command, fill_zones, picture, write_assembly

HERE = Path(__file__).resolve().parent
OUT = HERE / "pcb"
BOARD_FILE = OUT / "controller.kicad_pcb"
DRC_FILE = OUT / "controller-drc.rpt"
FAB = OUT / "gerber-controller"
PICTURE = OUT / "controller.png"

W, H = E.CONTROLLER_BOARD[0], E.CONTROLLER_BOARD[1]
ORIGIN = 3 * GRID  # the perfboard's hole A1, on the router's grid
PITCH = 2.54
HOLE = 2.7
# The supply nets routed wide; the ground is routed too, then poured over both sides.
WIDE_NETS = {"VSYS", "VBUS", "BAT_OUT", "CELL+", "CELL_FUSED", "CELL-", "BOOST_5V"}
# Through-hole pads by the perfboard's footprint: (pad, drill) in mm
PADS = {"R": (1.6, 0.8), "C": (1.6, 0.8), "D35": (1.6, 0.8), "D41": (1.8, 1.0), "CP": (1.7, 0.9),
        "TO92": (1.5, 0.8), "BUZZER": (1.7, 1.0), "PUSH12": (1.8, 1.1), "LED3": (1.6, 0.9), "DIP16": (1.6, 0.8),
        "PICO": (1.7, 1.0)}
# The perfboard's adapters, and what stands there on the PCB
ADAPTED = {"SOT23": "SOT-23", "DIP6": "SC-70-6"}


class Controller(RoutedBoard):
    SEED = 23
    POUR = "GND"
    NOTE = (18.0, 1.6, "chess clock controller")
    ASSEMBLY = {
        ("BSS138", "SOT-23"): ("BSS138", "C52895"),
        ("LM66100", "SC-70-6"): ("LM66100DCKR", "C2869734"),
    }

    def __init__(self):
        self.layout = PB.Perfboard()  # the controller's perfboard, from the circuit
        holes = [(self.at(c, r) + (HOLE,)) for c, r in PB.SCREWS]
        super().__init__(W, H, holes, WIDE_NETS)
        self._place()

    @staticmethod
    def at(col, row):
        return ORIGIN + col * PITCH, ORIGIN + row * PITCH

    def _place(self):
        pb = self.layout
        refs = {key: pb.circuit.parts[key].ref for key in pb.places if key in pb.circuit.parts}
        for key, (fp, col, row, rot, *side) in sorted(pb.places.items()):
            ref = refs.get(key, key)
            value = str(pb.circuit.parts[key].value) if key in pb.circuit.parts else fp
            pins = sorted((num, pb.pins[(k, num)]) for (k, num) in pb.pins if k == key)
            if fp in ADAPTED:
                xs = [self.at(*h)[0] for _, h in pins]
                ys = [self.at(*h)[1] for _, h in pins]
                cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
                cx, cy = round(cx / GRID) * GRID, round(cy / GRID) * GRID
                nets = [pb.nets[(key, str(n + 1))] for n in range(len(pins))]
                self._smd(ref, key, value, ADAPTED[fp], cx, cy, nets, side="F")
                continue
            size, drill = PADS.get(fp, (1.7, 1.0))
            self._tht(ref, key, value, fp, [(num, *self.at(*hole), pb.nets[(key, num)]) for num, hole in
                                           sorted(pins, key=lambda p: _order(p[0]))], drill=drill, size=size)

    def polarity(self, part):
        if part.fp in ("CP",):
            return "+"
        if part.fp in ("D41", "D35") and part.pads[0].number in ("1",):
            return "band"
        if part.fp in ("DIP16", "SOT-23", "SC-70-6") or part.fp.startswith("Package_"):
            return "dot"
        return None

    def label_inside(self, part):
        return part.fp in ("PICO", "DIP16", "BUZZER", "CP")


def _order(number):
    return (0, int(number)) if number.isdigit() else (1, number)


def write_all(out: Path = OUT) -> tuple[int, int]:
    pcbnew = STRIP.pcbnew_module()
    out.mkdir(parents=True, exist_ok=True)
    board = Controller().route()
    path = out / BOARD_FILE.name
    pcbnew.SaveBoard(str(path), board.kicad(pcbnew))
    fill_zones(pcbnew, path)
    result = STRIP.drc(pcbnew, path, out / DRC_FILE.name)
    fab = out / FAB.name
    STRIP.plot(pcbnew, path, fab, ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "B_SilkS", "F_Paste", "Edge_Cuts"))
    write_assembly(board, fab, "controller")
    picture(board, out / PICTURE.name, "The controller's PCB from the front (hardware/controllerpcb.py): top copper "
            "red, bottom blue, the supply nets wide, THT pads gold, SMD pads purple", size=(10, 8))
    return result


def main(argv=None):
    return command('python -m hardware.controllerpcb', __doc__, write_all, OUT, (BOARD_FILE, DRC_FILE, FAB, PICTURE), argv)


if __name__ == "__main__":
    sys.exit(main())
