"""The perfboards as real two-layer PCBs, generated with KiCad's Python API from the same
circuit and the same placement as the perfboard layouts (hardware/perfboard.py: every part
where the perfboard puts it, 2.54 mm a hole), so that the two cannot disagree; what a
perfboard wires underneath, tracks here (hardware/routedpcb.py routes them). The chips the
perfboards carry on adapters sit as themselves, surface-mount on the top for an assembly
service (the controller's BSS138s, AO3401A, LM66100s, USBLC6-2SC6 and micro-USB socket, the cable
guard's SP0504s and 74AHCT1G125, the voice's SP0504); everything else is through-hole. The
micro-USB socket stands at the controller's right edge, its mouth 0.7 mm past it, as its
drawing lands it. The supply nets (VSYS, VBUS, the
cells', the fuse's, the regulator's, USB's behind its soft start) run 0.6 mm wide (1 A of charging and the clock's
load), thinning only at a chip's pins; the ground is routed, then poured over both sides.

    python -m hardware.layoutpcb [--board NAME]   # hardware/pcb/<board>.kicad_pcb, its DRC
                                                  # report, gerber-<board>/ (Gerbers, drill,
                                                  # the assembly's BOM and placement), <board>.png
    boards: controller, guard (the cable guard), voice, buttons
"""
from __future__ import annotations

import sys
from pathlib import Path

from hardware import enclosure as E
from hardware import perfboard as PB
from hardware import routedpcb
from hardware.routedpcb import GRID, RoutedBoard, command

HERE = Path(__file__).resolve().parent
OUT = HERE / "pcb"
ORIGIN = 3 * GRID  # the perfboard's hole A1, on the router's grid
PITCH = 2.54
HOLE = 2.7
# The supply nets routed wide; the ground is routed too, then poured over both sides.
WIDE_NETS = {"VSYS", "VBUS", "VBUS_SOFT", "BAT_OUT", "CELL+", "CELL_FUSED", "CELL-", "BOOST_5V"}
# The most each carries for long (A; hardware/powersim.py): VBUS the charge and VSYS's load
# on USB; the cells' nets the heaviest load on empty cells; VSYS and the regulator's output
# that load at 5 V. Their tracks are routedpcb.WIDE, at least IPC-2221's width for each.
NET_AMPS = {"VBUS": 1.9, "VBUS_SOFT": 1.9, "VSYS": 0.9, "BOOST_5V": 0.9, "BAT_OUT": 1.4, "CELL+": 1.4, "CELL_FUSED": 1.4, "CELL-": 1.4}
# Through-hole pads by the perfboard's footprint: (pad, drill) in mm
PADS = {"R": (1.6, 0.8), "C": (1.6, 0.8), "D35": (1.6, 0.8), "D41": (1.8, 1.0), "CP": (1.7, 0.9),
        "TO92": (1.5, 0.8), "BUZZER": (1.7, 1.0), "PUSH12": (1.8, 1.1), "LED3": (1.6, 0.9), "DIP16": (1.6, 0.8),
        "PICO": (1.7, 1.0)}
# The perfboard's adapters, and what stands there on the PCB
# Surface parts turned on the PCB: the USB clamp half round, so that its VBUS pin (5) faces
# away from the data lines that pass its pins 4 and 6 and is reached by a track, not by a via
# in its pad.
TURNED = {"SOT-23-6": 180}
ADAPTED = {"SOT23": "SOT-23", "DIP6": "SC-70-6", "SOT235": "SOT-23-5", "SOT236": "SOT-23-6", "USB5": "USB-MICRO-B"}
# The surface-mount parts an assembly service fits: (value, footprint) -> (MPN, LCSC number or "")
ASSEMBLY = {
    ("BSS138", "SOT-23"): ("BSS138", "C52895"),
    ("AO3401A", "SOT-23"): ("AO3401A", "C15127"),  # (USB's soft start; C15127 as published BOMs list it)
    ("LM66100", "SC-70-6"): ("LM66100DCKR", "C2869734"),
    ("SP0504", "SOT-23-5"): ("SP0504BAHTG", "C10675"),
    ("SP0504 ears", "SOT-23-5"): ("SP0504BAHTG", "C10675"),
    ("74AHCT1G125", "SOT-23-5"): ("SN74AHCT1G125DBVR", "C7484"),
    ("USBLC6-2SC6", "SOT-23-6"): ("USBLC6-2SC6", "C7519"),
    ("micro-USB B", "USB-MICRO-B"): ("105017-0001", "C136000"),
}
# Each board: its pcbnew seed and its back's note (words, where). Its size: the perfboard's
# holes and a margin (the controller's as the clock's seat has it).
BOARDS = {
    "controller": (23, "chess clock controller", (18.0, 1.6)),
    "guard": (29, "cable guard: the board's cable", (45.0, 36.2)),
    "voice": (31, "voice", (14.0, 1.6)),
    "buttons": (37, "arbiter's buttons", (60.0, 1.6)),
}


def size(layout) -> tuple[float, float]:
    """The PCB's size in mm for a perfboard layout."""
    if layout.name == "controller":
        return E.CONTROLLER_BOARD[0], E.CONTROLLER_BOARD[1]
    return round(2 * ORIGIN + (layout.cols - 1) * PITCH, 1), round(2 * ORIGIN + (layout.rows - 1) * PITCH, 1)


class LayoutPCB(RoutedBoard):
    """One perfboard layout (by name) as a PCB."""

    POUR = "GND"
    ASSEMBLY = ASSEMBLY
    FIRST = ("USB_DM", "USB_DP")  # the micro-USB socket's data (its pads 0.65 mm apart), before they are walled in
    THIN = frozenset({("usb_clamp", "5")})  # the USB clamp's VBUS: a reference, no current

    def __init__(self, name: str = "controller", circuit=None):
        layout = next(lay for lay in PB.LAYOUTS if lay.name == name)
        self.name = name
        self.layout = PB.Perfboard(layout, board=circuit)  # the perfboard, from the circuit
        self.SEED, words, (x, y) = BOARDS[name]
        self.NOTE = (x, y, words)
        holes = [(self.at(c, r) + (HOLE,)) for c, r in layout.screws]
        super().__init__(*size(layout), holes, WIDE_NETS)
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
                kind = ADAPTED[fp]
                edge, rot = routedpcb.AT_EDGE.get(kind, (None, TURNED.get(kind, 0)))
                self._smd_library(ref, key, value, kind, cx if edge is None else self.W - edge, cy, nets, rot=rot,
                                  side="F")
                continue
            size, drill = PADS.get(fp, (1.7, 1.0))
            self._tht(ref, key, value, fp, [(num, *self.at(*hole), pb.nets[(key, num)]) for num, hole in
                                           sorted(pins, key=lambda p: _order(p[0]))], drill=drill, size=size)

    def polarity(self, part):
        if part.fp in ("CP",):
            return "+"
        if part.fp in ("D41", "D35") and part.pads[0].number in ("1",):
            return "band"
        if part.fp in ("DIP16",) or part.fp.startswith("Package_"):
            return "dot"
        if part.fp == "TO92":  # its flat face: C, B, E left to right seen from that side (circuit.py)
            return "flat"
        return None

    def label_inside(self, part):
        return part.fp in ("PICO", "DIP16", "BUZZER", "CP", "DFPLAYER", "PUSH12")


def _order(number):
    return (0, int(number)) if number.isdigit() else (1, number)


def files(name: str, out: Path = OUT):
    return routedpcb.files(name, out)


def write_all(out: Path = OUT, name: str = "controller") -> tuple[int, int]:
    board = LayoutPCB(name).route()
    return routedpcb.write_board(board, name, out, "%s (hardware/layoutpcb.py, from the front): top copper red, "
                                 "bottom blue, the supply nets wide, THT pads gold, SMD pads purple"
                                 % board.layout.layout.title.replace("perfboard", "PCB"),
                                 size=(10, 10 * board.H / board.W + 1))


def main(argv=None):
    import argparse
    import subprocess

    ap = argparse.ArgumentParser(prog="python -m hardware.layoutpcb", add_help=False)
    ap.add_argument("--board", choices=sorted(BOARDS))
    a, rest = ap.parse_known_args(argv)
    if a.board is None and not any(x in ("-h", "--help") for x in rest):
        # every board, each in a process of its own (pcbnew's seeded identifiers stay its own)
        return max(subprocess.run([sys.executable, "-m", "hardware.layoutpcb", "--board", name] + rest).returncode
                   for name in sorted(BOARDS))
    name = a.board or "controller"
    return command("python -m hardware.layoutpcb --board " + name, __doc__, lambda out: write_all(out, name), OUT,
                   files(name), rest)


if __name__ == "__main__":
    sys.exit(main())
