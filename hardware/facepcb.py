"""A clock face as a real two-layer PCB, generated with KiCad's Python API from the same
circuit as everything else (hardware/circuit.py): the eight 0.8-inch characters and ten
lights on the front, where the window shows them; the HT16K33, its capacitor, the keys'
and the address diodes and resistor on the back, as surface-mount parts an assembly
service fits (the characters, lights, connectors and the electrolytic are through-hole,
soldered by the maker). One design serves both faces: White's leaves the address parts
(D3, R1) off; Black's fits them (address 0x71).

The tracks are this generator's own: a maze router on a 0.635 mm grid (a quarter of the
characters' 2.54 mm pitch), orthogonal tracks 0.25 mm wide with 0.2 mm clearance, vias
0.6/0.3 mm, each net routed from its pins outwards. KiCad's design rules check runs on
the result.

    python -m hardware.facepcb   # hardware/pcb/face.kicad_pcb, face-drc.rpt, gerber-face/
                                 # (Gerbers, drill, the assembly's BOM and placement files),
                                 # face.png
"""
from __future__ import annotations

import sys
from pathlib import Path

from hardware import enclosure as E
from hardware.routedpcb import GRID, RoutedBoard, command, files, write_board

HERE = Path(__file__).resolve().parent
OUT = HERE / "pcb"
BOARD_FILE, DRC_FILE, FAB, PICTURE = files("face", OUT)

W, H = E.FACE_BOARD[0], E.FACE_BOARD[1]
HOLE = 2.7  # the M2.5 screws behind the window (enclosure.FACE_SCREWS)
SOIC28 = "Package_SO:SOIC-28W_7.5x17.9mm_P1.27mm"


class Face(RoutedBoard):
    """The face board (mm, y down, the front seen from the front), from Black's face in the
    circuit (the superset: its address parts); nets without the face's prefix."""

    SEED = 19
    POUR = "GND"  # poured over both sides (after routing: its tracks join it anyway)
    # (No datasheet pin table of the characters ordered was reached: the board says so itself.)
    NOTE = (W / 2, H - 3.0, "clock face (White: D3, R1 left off) - DO NOT ORDER: DS1-DS8 pinout unchecked")
    ASSEMBLY = {
        ("HT16K33", "SOIC-28W"): ("HT16K33-28SOP", ""),  # no stocked number seen: soldered by hand
        ("100n", "C_0805_2012Metric"): ("CL21B104KBCNNNC", "C28233"),
        ("39k", "0805"): ("0805W8F3902T5E", "C25826"),
        ("1N4148", "SOD-123"): ("1N4148W", "C81598"),
    }

    def __init__(self, board=None):
        from hardware.circuit import Board

        super().__init__(W, H, [(W / 2 + sx * E.FACE_SCREWS[0], H / 2 + sy * E.FACE_SCREWS[1], HOLE)
                                for sx in (-1, 1) for sy in (-1, 1)])
        self.circuit = board or Board()
        self._place()

    def _net(self, key, pin):
        p = self.circuit.parts[key][pin]
        name = p.nets[0].name if p.nets else None
        if not name or name.startswith("__"):
            return None
        return name.replace("FACE_B_", "").replace("FACE_", "")

    def polarity(self, part):
        return "+" if part.ref == "C2" else "band" if part.value == "1N4148" else None

    def label_inside(self, part):
        return part.ref.startswith("DS") or part.ref == "U1"

    def _place(self):
        c = self.circuit.parts
        k = "black"
        x0, top, bottom = 16 * GRID, 20 * GRID, 44 * GRID  # the characters' first pin, their two rows
        for i in range(8):
            key = "char_%s_%d" % (k, i)
            pins = [(str(n + 1), x0 + 32 * GRID * i + 4 * GRID * (n % 8), top if n < 8 else bottom,
                     self._net(key, str(n + 1))) for n in range(16)]
            self._tht("DS%d" % (i + 1), key, "14-seg 0.8in", "PSC08-11SRWA", pins, drill=1.0, size=1.7)
        names = ["0a", "0b", "1a", "1b"] + [str(i) for i in range(2, 8)]
        for i, n in enumerate(names):
            key = "ind_%s_%s" % (k, n)
            self._library("D%d" % (i + 10), key, "red 3 mm", "LED_THT:LED_D3.0mm", 20 * GRID + 26 * GRID * i, 64 * GRID,
                          {"1": self._net(key, "K"), "2": self._net(key, "A")})
        # The back: the HT16K33 between the characters' rows, its capacitors beside it; each
        # KiCad's footprint, flipped by KiCad (pin 1 where it is when the chip sits on the back).
        self._library("U1", "face_" + k, "HT16K33", SOIC28, 141 * GRID, 32 * GRID,
                      {str(n): self._net("face_" + k, str(n)) for n in range(1, 29)}, rot=90, side="B")
        self._library("C1", "c_face_" + k, "100n", "Capacitor_SMD:C_0805_2012Metric", 172 * GRID, 32 * GRID,
                      {"1": self._net("c_face_" + k, "1"), "2": self._net("c_face_" + k, "2")}, rot=90, side="B")
        cp = "cp_face_" + k
        self._library("C2", cp, "100u", "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm", 262 * GRID, 33 * GRID,
                      {"1": self._net(cp, "+"), "2": self._net(cp, "-")}, side="B")
        # The keys' diodes and the address diode and resistor, by the keys' connector.
        for ref, key, x in (("D1", "d_ask_" + k, 18), ("D2", "d_draw_" + k, 27), ("D3", "d_addr_" + k, 36)):
            self._library(ref, key, "1N4148", "Diode_SMD:D_SOD-123", x * GRID, 32 * GRID,
                          {"1": self._net(key, "K"), "2": self._net(key, "A")}, side="B")
        self._library("R1", "r_addr_" + k, "39k", "Resistor_SMD:R_0805_2012Metric", 45 * GRID, 32 * GRID,
                      {"1": self._net("r_addr_" + k, "1"), "2": self._net("r_addr_" + k, "2")}, side="B")
        # The connectors, on the back: J1 to the controller, J2 to the keys (pin 1 at the
        # top: turned half round before KiCad flips them, so their pins run down).
        order = ["VSYS", "GND", "SDA", "SCL"]
        header = "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical"
        self._library("J1", "J_CLOCK", "1x4", header, 276 * GRID, 26 * GRID,
                      {str(n + 1): order[n] for n in range(4)}, rot=180, side="B")
        keys = ["ASK", "ROW3", "DRAW", "ROW4"]
        self._library("J2", "J_KEYS", "1x4", header, 7 * GRID, 26 * GRID,
                      {str(n + 1): keys[n] for n in range(4)}, rot=180, side="B")


def write_all(out: Path = OUT) -> tuple[int, int]:
    return write_board(Face().route(), "face", out, "A clock face's PCB from the front (hardware/facepcb.py): top "
                       "copper red, bottom blue, THT pads gold, the back's SMD pads purple")


def main(argv=None):
    return command('python -m hardware.facepcb', __doc__, write_all, OUT, (BOARD_FILE, DRC_FILE, FAB, PICTURE), argv)


if __name__ == "__main__":
    sys.exit(main())
