"""The enclosure as parametric CAD (build123d, from PyPI): the board's tray under the
playing surface and the clock's housing, exported as STL for printing and STEP for any CAD
program. Every dimension of the board comes from hardware/geometry.py, the same source as
the sensor strips (hardware/pcb.py).

    python -m hardware.enclosure [--pitch MM] [--bed MM] [--out DIR]

**The board** (bottom up): a printed tray, split into tiles that fit the print bed and
glued with printed joiners; on its floor, 24 posts whose 3 mm pins go through the strips'
mounting holes and carry the strips at their height and in their place (the pins are where
geometry.mount_holes says, so every reed switch lies under its square); its wall carries
the playing surface (a 3 mm sheet of plywood or acrylic cut from board-top.dxf, its
squares engraved or painted), screwed down at eight points. A notch in each side wall, by
White's corners, lets the ribbon out to the clock on either side of the board.

**The clock**: two halves, one per player, each a shell printed standing on its joint end
(no overhang) and a bottom plate: the face behind a window in the sloping front, the lever
on top (a printed cap over a microswitch on a post of the bottom plate), the coin motor in
a pocket under the top beside the lever, where the player's hand rests, and the 10 mm LED
that shows whose clock runs. White's half holds the cells' holder, the power switch and
the speaker; Black's half the controller board (Pico by the USB slot), the menu buttons and
reset on the arbiter's side (the rear), and the board's ribbon. The halves bolt together
through their joint walls, which leave an opening for the wires.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from hardware import geometry as G

HERE = Path(__file__).resolve().parent
OUT = HERE / "enclosure"
BED = 220.0  # the print bed's side (most printers: 220-256 mm)
BED_HEIGHT = 210.0

# ----- the clock (mm)
CHARS, CHAR_PITCH, CHAR_HEIGHT = 8, 20.32, 25.4  # a face: eight 0.8-inch characters
FACE_WINDOW = (CHARS * CHAR_PITCH + 6.0, CHAR_HEIGHT + 12.0)  # the characters and the indicators' row
FACE_BOARD = (180.0, 50.0, 12.0)  # a face's board and what stands behind it (HT16K33, pins)
FACE_SCREWS = (88.0, 22.0)  # the face board's M2.5 screws, from the window's centre
HALF = 200.0  # a half's length
DEPTH, H_FRONT, H_REAR, TOP_DEPTH, T = 100.0, 25.0, 75.0, 45.0, 2.4
LEVER = 35.0  # the lever cap's side (its hole 0.6 mm larger)
LEVER_UP = 8.0  # how far the cap stands above the top
LIP = (3.0, 1.6)  # the cap's lip under the top (keeps it in): how far it reaches, its thickness
LED_HOLE = 10.2
# A blind player's ask key (appendix D: his time without his lever): a 12 mm push button
# under the top, its cap through a round hole beside the lever on the outer side, where a
# hand that knows the lever finds it. Hole, the button's body (side, height under the top).
ASK_KEY = (12.6, 12.5, 9.0)
ASK_KEY_FROM_LEVER = 62.0
DRAW_KEY_FROM_LEVER = 84.0  # the draw key (9.1.2), the same button, further out
# A player's headphone socket (the voice's ears=on): a panel-mount 3.5 mm jack in the
# outer end wall, above the cells and the controller. Hole, body (length in, side), where.
JACK = (6.4, 14.0, 10.0)
JACK_AT = (70.0, 45.0)  # y, z
MOTOR = (10.6, 1.4)  # the coin motor's pocket: diameter, depth (under a 2.4 mm top)
SWITCH = (12.8, 5.8, 6.5, 10.0)  # the lever's microswitch: length, width, body height, lever's free height
BATTERY_HOLDER = (80.0, 79.0, 21.0)  # four 18650 cells side by side
CONTROLLER_BOARD = (90.0, 70.0, 1.6)  # a 9 x 7 cm perfboard (hardware/perfboard.py)
CONTROLLER_PARTS = 13.0  # the tallest thing on it: the Pico on its sockets
STANDOFF = 6.0
SPEAKER = 40.0
BUTTON_PITCH = 9 * 2.54  # the arbiter's buttons, on a strip of perfboard behind the rear wall
BOSS = (7.0, 2.5, 10.0)  # the shell's screw bosses: diameter, pilot hole, depth


def build123d_module():
    try:
        import build123d
    except ImportError:
        raise ImportError("build123d is missing (pip install build123d; ./run installs it)") from None
    return build123d


# ===================================================================== the board

class BoardEnclosure:
    """The board's tray, its tiles and joiners, and the playing surface. CAD coordinates:
    x along the ranks (a to h), y along the files (1 to 8), z up from the tray's bottom;
    square a1's lower-left corner at (0, 0)."""

    JOINER = (30.0, 12.0, 1.2)  # a joiner plate, half in each tile, under a seam

    def __init__(self, pitch: float = G.PITCH, bed: float = BED):
        self.pitch = G.check_pitch(pitch)
        self.bed = bed
        self.frame = G.frame(pitch)
        self.side = G.board_outer(pitch)
        self.x0 = -self.frame
        self.pcb_z = G.FLOOR + G.UNDER_PCB  # the strips' underside
        self.plate_z = self.pcb_z + G.PCB_THICKNESS + G.ABOVE_PCB  # the playing surface's underside
        self.height = self.plate_z + G.TOP_PLATE
        self.tiles_per_side = math.ceil(self.side / (bed - 10.0))
        self.seams = self._seams()

    def _seams(self):
        """Where the tray is cut into tiles (the same lines across and along): evenly, but
        never within 6 mm of a post, each tile within the bed."""
        n = self.tiles_per_side
        step = self.side / n
        posts = {round(v, 3) for xy in self.pins() for v in xy}
        seams, last = [], self.x0
        for k in range(1, n):
            for d in sorted((i * 0.5 for i in range(-40, 41)), key=abs):
                c = self.x0 + k * step + d
                if all(abs(c - v) >= 6.0 for v in posts) and c - last <= self.bed:
                    break
            else:
                raise ValueError("no seam for tile %d clear of the posts" % k)
            seams.append(c)
            last = c
        if self.x0 + self.side - last > self.bed:
            raise ValueError("the last tile does not fit the bed")
        return seams

    def to_cad(self, x, y):
        """A point on the board (geometry.py's coordinates, y down from rank 8) in CAD's."""
        return x, 8 * self.pitch - y

    def pins(self):
        """The posts' pins: [(x, y)] in CAD coordinates, one per strip mounting hole."""
        return [self.to_cad(x, y) for _, x, y in G.mount_holes(self.pitch)]

    def screws(self):
        """Where the playing surface is screwed to the wall: the corners and the middles."""
        c = G.WALL / 2
        lo, mid, hi = self.x0 + c, self.x0 + self.side / 2, self.x0 + self.side - c
        return [(x, y) for x in (lo, mid, hi) for y in (lo, mid, hi) if (x, y) != (mid, mid)]

    def cable_notch(self):
        """(y0, y1, z0, z1) of the ribbon's way out through the left and the right wall,
        by White's corners: the clock stands where the arbiter decides (6.5), and the
        border in front of rank 1 is free all along for the ribbon to the right."""
        return -self.frame + G.WALL, 0.0, G.FLOOR, G.FLOOR + 6.0

    def tray(self):
        from build123d import Align, Box, Cylinder, Pos

        lo = (Align.MIN, Align.MIN, Align.MIN)
        s, x0, w = self.side, self.x0, G.WALL
        wall_h = self.plate_z - G.FLOOR
        part = Pos(x0, x0, 0) * Box(s, s, G.FLOOR, align=lo)
        part += Pos(x0, x0, G.FLOOR) * Box(s, s, wall_h, align=lo) - Pos(x0 + w, x0 + w, G.FLOOR) * Box(
            s - 2 * w, s - 2 * w, wall_h, align=lo)
        for x, y in self.pins():
            part += Pos(x, y, G.FLOOR) * Cylinder(4.0, G.UNDER_PCB, align=(Align.CENTER, Align.CENTER, Align.MIN))
            part += Pos(x, y, self.pcb_z) * Cylinder(1.5, self.plate_z - self.pcb_z,
                                                    align=(Align.CENTER, Align.CENTER, Align.MIN))
        for x, y in self.screws():
            part -= Pos(x, y, self.plate_z - 12.0) * Cylinder(1.25, 12.5, align=(Align.CENTER, Align.CENTER, Align.MIN))
        y0, y1, z0, z1 = self.cable_notch()
        for x in (x0 - 1, x0 + s - w - 1):
            part -= Pos(x, y0, z0) * Box(w + 2, y1 - y0, z1 - z0, align=lo)
        jx, jy, jz = self.JOINER
        edges = [x0] + self.seams + [x0 + s]
        for seam in self.seams:
            for k in range(self.tiles_per_side):
                c = (edges[k] + edges[k + 1]) / 2
                part -= Pos(seam, c, -0.01) * Box(jx, jy, jz + 0.01, align=(Align.CENTER, Align.CENTER, Align.MIN))
                part -= Pos(c, seam, -0.01) * Box(jy, jx, jz + 0.01, align=(Align.CENTER, Align.CENTER, Align.MIN))
        return part

    def tiles(self, tray=None):
        """The tray cut at the seams: {name: part}, each within the print bed."""
        from build123d import Align, Box, Pos

        tray = tray if tray is not None else self.tray()
        edges = [self.x0 - 1] + self.seams + [self.x0 + self.side + 1]
        out = {}
        for i in range(self.tiles_per_side):
            for j in range(self.tiles_per_side):
                cut = Pos(edges[i], edges[j], -1) * Box(edges[i + 1] - edges[i], edges[j + 1] - edges[j],
                                                        self.height + 2, align=(Align.MIN, Align.MIN, Align.MIN))
                out["board-tray-%d%d" % (i + 1, j + 1)] = tray & cut
        return out

    def joiner(self):
        from build123d import Box

        jx, jy, jz = self.JOINER
        return Box(jx - 0.4, jy - 0.4, jz)

    def joiners_needed(self):
        return 2 * len(self.seams) * self.tiles_per_side

    def plate(self):
        """The playing surface as a solid (for the STEP assembly): countersunk M3 holes."""
        from build123d import Align, Box, Cone, Cylinder, Pos

        lo = (Align.MIN, Align.MIN, Align.MIN)
        part = Pos(self.x0, self.x0, self.plate_z) * Box(self.side, self.side, G.TOP_PLATE, align=lo)
        for x, y in self.screws():
            part -= Pos(x, y, self.plate_z - 1) * Cylinder(1.7, G.TOP_PLATE + 2, align=(Align.CENTER, Align.CENTER, Align.MIN))
            part -= Pos(x, y, self.height - 1.7) * Cone(1.7, 3.4, 1.71, align=(Align.CENTER, Align.CENTER, Align.MIN))
        return part

    def strips(self):
        """The eight sensor strips where they lie (for the STEP assembly and the checks)."""
        from build123d import Align, Box, Cylinder, Pos

        length, width = G.strip_size(self.pitch)
        out = []
        for r in range(8):
            ox, oy = G.strip_origin(r, self.pitch)
            x, y = self.to_cad(ox, oy + width)
            strip = Pos(x, y, self.pcb_z) * Box(length, width, G.PCB_THICKNESS, align=(Align.MIN, Align.MIN, Align.MIN))
            for hx, hy in G.strip_mount_holes(self.pitch):
                cx, cy = self.to_cad(ox + hx, oy + hy)
                strip -= Pos(cx, cy, self.pcb_z - 1) * Cylinder(G.MOUNT_HOLE / 2, 4, align=(Align.CENTER, Align.CENTER, Align.MIN))
            out.append(strip)
        return out

    def dxf(self, path: Path, holes=(), hole=0.0, hatched=True) -> None:
        """The playing surface for a laser or a router: layer CUT (the outline and the
        screw holes, and any `holes` of diameter `hole`: the blind player's board's,
        hardware/tactile.py), layer ENGRAVE (the 64 squares, the dark ones hatched by
        lines unless not hatched)."""
        import ezdxf

        ezdxf.options.write_fixed_meta_data_for_testing = True  # no date: the same sources, the same file
        doc = ezdxf.new("R2010", setup=False)
        doc.header["$INSUNITS"] = 4  # millimetres
        doc.layers.add("CUT", color=1)
        doc.layers.add("ENGRAVE", color=5)
        msp = doc.modelspace()
        s, x0, p = self.side, self.x0, self.pitch
        msp.add_lwpolyline([(x0, x0), (x0 + s, x0), (x0 + s, x0 + s), (x0, x0 + s)], close=True,
                           dxfattribs={"layer": "CUT"})
        for x, y in self.screws():
            msp.add_circle((x, y), 1.7, dxfattribs={"layer": "CUT"})
        for x, y in holes:
            msp.add_circle((x, y), hole / 2, dxfattribs={"layer": "CUT"})
        for i in range(9):
            msp.add_line((i * p, 0), (i * p, 8 * p), dxfattribs={"layer": "ENGRAVE"})
            msp.add_line((0, i * p), (8 * p, i * p), dxfattribs={"layer": "ENGRAVE"})
        hatch = 2.5  # dark squares: engraved lines 2.5 mm apart, along the diagonal
        for f in range(8 if hatched else 0):
            for r in range(8):
                if (f + r) % 2:
                    continue  # a1 is dark
                x, y = f * p, r * p
                k = hatch
                while k < 2 * p:
                    a = (x + max(0.0, k - p), y + min(k, p))
                    b = (x + min(k, p), y + max(0.0, k - p))
                    msp.add_line(a, b, dxfattribs={"layer": "ENGRAVE"})
                    k += hatch
        doc.saveas(str(path))


# ===================================================================== the clock

def _slope():
    """The sloping front's angle (from the horizontal) and its middle (y, z)."""
    run = DEPTH - TOP_DEPTH
    return math.atan2(H_REAR - H_FRONT, run), (run / 2, (H_FRONT + H_REAR) / 2)


class ClockHalf:
    """One player's half of the clock: `side` "white" (its joint at x = HALF) or "black"
    (its joint at x = 0). y from the front (the faces) to the rear (the arbiter's buttons),
    z up from the bottom plate's top."""

    def __init__(self, side: str):
        if side not in ("white", "black"):
            raise ValueError("a clock half is white or black")
        self.side = side
        self.joint = HALF if side == "white" else 0.0
        self.outer = 0.0 if side == "white" else HALF

    def toward_outer(self, d):
        """x, d millimetres from the middle of the half towards its outer end."""
        return HALF / 2 + (-d if self.side == "white" else d)

    def lever_at(self):
        return HALF / 2, DEPTH - TOP_DEPTH / 2

    def ask_key_at(self):
        """The ask key's centre on the top: beside the lever, towards the outer end."""
        return self.toward_outer(ASK_KEY_FROM_LEVER), self.lever_at()[1]

    def draw_key_at(self):
        """The draw key's centre on the top: beyond the ask key."""
        return self.toward_outer(DRAW_KEY_FROM_LEVER), self.lever_at()[1]

    def profile(self, inset=0.0):
        from build123d import Plane, Polygon, offset

        outline = Polygon((0, 0), (DEPTH, 0), (DEPTH, H_REAR), (DEPTH - TOP_DEPTH, H_REAR), (0, H_FRONT), align=None)
        if inset:
            outline = offset(outline, amount=-inset)
        return Plane.YZ * outline

    def on_slope(self, x, along, normal, shape):
        """`shape` placed on the sloping front: x along the clock, `along` up the slope from
        its middle, `normal` out of it."""
        from build123d import Pos, Rot

        angle, (ym, zm) = _slope()
        y = ym + along * math.cos(angle) - normal * math.sin(angle)
        z = zm + along * math.sin(angle) + normal * math.cos(angle)
        return Pos(x, y, z) * Rot(math.degrees(angle), 0, 0) * shape

    def shell(self):
        from build123d import Align, Box, Cylinder, Pos, Rot, extrude

        lo = (Align.MIN, Align.MIN, Align.MIN)
        mid = (Align.CENTER, Align.CENTER, Align.CENTER)
        part = extrude(self.profile(), amount=HALF)
        part -= Pos(T, 0, 0) * extrude(self.profile(T), amount=HALF - 2 * T)
        part -= Pos(T, T, -1) * Box(HALF - 2 * T, DEPTH - 2 * T, T + 1.01, align=lo)  # open below
        # Bosses for the bottom plate's screws.
        for x, y in self.boss_at():
            part += Pos(x, y, 0) * (Cylinder(BOSS[0] / 2, 14.0, align=(Align.CENTER, Align.CENTER, Align.MIN))
                                   - Cylinder(BOSS[1] / 2, BOSS[2], align=(Align.CENTER, Align.CENTER, Align.MIN)))
        # The face's window and its four screws.
        xm = HALF / 2
        part -= self.on_slope(xm, 0, 0, Box(FACE_WINDOW[0], FACE_WINDOW[1], 20, align=mid))
        for sx in (-FACE_SCREWS[0], FACE_SCREWS[0]):
            for sa in (-FACE_SCREWS[1], FACE_SCREWS[1]):
                part -= self.on_slope(xm + sx, sa, 0, Cylinder(1.35, 20, align=mid))
        # The lever's hole, the LED, the motor's pocket under the top.
        lx, ly = self.lever_at()
        part -= Pos(lx, ly, H_REAR) * Box(LEVER + 0.6, LEVER + 0.6, 10, align=mid)
        part -= Pos(self.toward_outer(34), ly, H_REAR) * Cylinder(LED_HOLE / 2, 10, align=mid)
        for ax, ay in (self.ask_key_at(), self.draw_key_at()):
            part -= Pos(ax, ay, H_REAR) * Cylinder(ASK_KEY[0] / 2, 10, align=mid)
        part -= Pos(self.toward_outer(-34), ly, H_REAR - T - 0.01) * Cylinder(
            MOTOR[0] / 2, MOTOR[1] + 0.01, align=(Align.CENTER, Align.CENTER, Align.MIN))
        # The microswitch's block, out from the rear wall behind the switch, no higher than
        # the switch's body (the cap's lip comes down past it), two M2 holes through it.
        x0, y0, z0, x1, y1, z1 = self.switch_box()
        part += Pos((x0 + x1) / 2, y1, z0) * Box(x1 - x0 + 3, DEPTH - T / 2 - y1, z1 - z0,
                                                  align=(Align.CENTER, Align.MIN, Align.MIN))
        for dx in (-3.25, 3.25):
            part -= Pos((x0 + x1) / 2 + dx, y1 + 4, z0 + 3.0) * Rot(90, 0, 0) * Cylinder(0.9, 8, align=mid)
        # The joint wall: four M3 bolts and the wires' opening.
        jx = self.joint - T / 2
        for y, z in self.bolts():
            part -= Pos(jx, y, z) * Rot(0, 90, 0) * Cylinder(1.7, 10, align=mid)
        part -= Pos(jx, 50, 28) * Box(10, 40, 24, align=mid)
        ox = self.outer + (T / 2 if self.side == "white" else -T / 2)
        ry = DEPTH - T / 2
        part -= Pos(ox, JACK_AT[0], JACK_AT[1]) * Rot(0, 90, 0) * Cylinder(JACK[0] / 2, 10, align=mid)  # headphones
        if self.side == "white":
            part -= Pos(ox, DEPTH / 2, 12) * Box(10, 10, 5, align=mid)  # the power switch
            # The speaker's grille on the rear wall, and its two screws.
            zc = 38.0
            for i in range(-3, 4):
                for j in range(-3, 4):
                    gx, gz = i * 4.6 + (2.3 if j % 2 else 0), j * 4.0
                    if gx * gx + gz * gz <= 14.0 ** 2:
                        part -= Pos(xm + gx, ry, zc + gz) * Rot(90, 0, 0) * Cylinder(1.5, 10, align=mid)
            for sx in (-17.0, 17.0):
                part -= Pos(xm + sx, ry, zc + 17.0) * Rot(90, 0, 0) * Cylinder(1.35, 10, align=mid)
        else:
            part -= Pos(ox, DEPTH / 2, 18.5) * Box(10, 12, 9, align=mid)  # the Pico's USB
            for k, x in enumerate(self.buttons()):
                part -= Pos(x, ry, 22.0) * Rot(90, 0, 0) * Cylinder(4.0 if k < 4 else 1.5, 10, align=mid)
            part -= Pos(HALF - 50.0, ry, 0) * Box(24, 10, 12, align=mid)  # the board's ribbon
        return part

    def boss_at(self):
        d = T + BOSS[0] / 2 - 1.0  # into the walls
        return [(x, y) for x in (d, HALF - d) for y in (d, DEPTH - d)]

    @staticmethod
    def bolts():
        return [(16.0, 10.0), (DEPTH - 16.0, 10.0), (DEPTH - 16.0, H_REAR - 14.0), (45.0, 48.0)]

    def buttons(self):
        """The arbiter's buttons on Black's rear wall: +, -, ok, menu, then reset, nine
        perfboard holes apart (their board: hardware/perfboard.py)."""
        return [self.joint + 30.0 + k * BUTTON_PITCH for k in range(5)]

    def switch_box(self):
        """Where the lever's microswitch stands: (x0, y0, z0, x1, y1, z1)."""
        lx, ly = self.lever_at()
        ln, wd, h, free = SWITCH
        z0 = H_REAR - T - LIP[1] - free
        return lx - ln / 2, ly - wd / 2, z0, lx + ln / 2, ly + wd / 2, z0 + h

    def bottom(self):
        """The bottom plate: countersunk screws into the bosses, and the holder's or the
        controller's seat."""
        from build123d import Align, Box, Cone, Cylinder, Pos

        lo = (Align.MIN, Align.MIN, Align.MIN)
        c = (Align.CENTER, Align.CENTER, Align.MIN)
        part = Pos(0, 0, -T) * Box(HALF, DEPTH, T, align=lo)
        for x, y in self.boss_at():
            part -= Pos(x, y, -T - 1) * Cylinder(1.7, T + 2, align=c)
            part -= Pos(x, y, -T - 0.01) * Cone(3.4, 1.7, 1.71, align=c)
        if self.side == "white":
            hx, hy, _ = BATTERY_HOLDER
            bx, by = self.battery_at()
            # Two L-shaped corners, diagonally opposite, hold the holder.
            for x, y, w, d in ((bx - 3, by - 3, 3, 23), (bx - 3, by - 3, 23, 3),
                               (bx + hx, by + hy - 20, 3, 23), (bx + hx - 20, by + hy, 23, 3)):
                part += Pos(x, y, 0) * Box(w, d, 5, align=lo)
        else:
            for x, y in self.standoffs():
                part += Pos(x, y, 0) * (Cylinder(3.0, STANDOFF, align=c) - Cylinder(1.25, STANDOFF + 1, align=c))
        return part

    def battery_at(self):
        """The cells' holder's corner (x, y), at White's outer end, clear of the bosses."""
        return T + 2.0, 10.5

    def controller_at(self):
        """The controller board's corner (x, y), at Black's outer end (the Pico's USB
        towards the slot)."""
        return HALF - T - 1.0 - CONTROLLER_BOARD[0], 10.0

    def standoffs(self):
        cx, cy = self.controller_at()
        w, d, _ = CONTROLLER_BOARD
        return [(cx + 3.5, cy + 3.5), (cx + w - 3.5, cy + 3.5), (cx + 3.5, cy + d - 3.5), (cx + w - 3.5, cy + d - 3.5)]

    def contents(self):
        """What goes inside, as boxes: {name: part}; the fit check keeps them clear of the
        shell."""
        from build123d import Align, Box, Pos

        lo = (Align.MIN, Align.MIN, Align.MIN)
        out = {}
        x0, y0, z0, x1, y1, z1 = self.switch_box()
        out["switch"] = Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=lo)
        inward = T if self.side == "white" else HALF - T - JACK[1]
        out["headphone jack"] = Pos(inward, JACK_AT[0] - JACK[2] / 2, JACK_AT[1] - JACK[2] / 2) * Box(
            JACK[1], JACK[2], JACK[2], align=lo)
        side, height = ASK_KEY[1], ASK_KEY[2]
        for name, (ax, ay) in (("ask key", self.ask_key_at()), ("draw key", self.draw_key_at())):
            out[name] = Pos(ax - side / 2, ay - side / 2, H_REAR - T - height) * Box(side, side, height, align=lo)
        w, along, depth = FACE_BOARD
        out["face"] = self.on_slope(HALF / 2, 0, -T - depth / 2, Box(w, along, depth))
        if self.side == "white":
            bx, by = self.battery_at()
            out["cells"] = Pos(bx, by, 0.01) * Box(*BATTERY_HOLDER, align=lo)
        else:
            cx, cy = self.controller_at()
            w, d, t = CONTROLLER_BOARD
            out["controller"] = Pos(cx, cy, STANDOFF) * Box(w, d, t + CONTROLLER_PARTS, align=lo)
        return out


def lever_cap():
    """The lever: a cap standing LEVER_UP above the top, its lip under the top."""
    from build123d import Align, Box, Pos

    lo = (Align.CENTER, Align.CENTER, Align.MIN)
    return Box(LEVER + 2 * LIP[0], LEVER + 2 * LIP[0], LIP[1], align=lo) + Pos(0, 0, LIP[1]) * Box(
        LEVER, LEVER, T + LEVER_UP, align=lo)


# ===================================================================== output

def parts(pitch: float = G.PITCH, bed: float = BED):
    """Every printed part: {name: (part, how many)}; and the enclosure objects."""
    board = BoardEnclosure(pitch, bed)
    tray = board.tray()
    out = {name: (part, 1) for name, part in board.tiles(tray).items()}
    out["board-joiner"] = (board.joiner(), board.joiners_needed())
    for side in ("white", "black"):
        half = ClockHalf(side)
        out["clock-%s-shell" % side] = (half.shell(), 1)
        out["clock-%s-bottom" % side] = (half.bottom(), 1)
    out["clock-lever-cap"] = (lever_cap(), 2)
    return out, board, tray


def write_all(pitch: float = G.PITCH, bed: float = BED, out: Path = OUT) -> list[Path]:
    from build123d import Compound, Pos, export_step, export_stl

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.stl"):
        old.unlink()
    made, board, tray = parts(pitch, bed)
    written = []
    for name, (part, _) in sorted(made.items()):
        path = out / (name + ".stl")
        export_stl(part, str(path), tolerance=0.05, angular_tolerance=0.2)
        written.append(path)
    assembly = Compound(children=[tray, board.plate()] + board.strips())
    export_step(assembly, str(out / "board.step"))
    _undated(out / "board.step")
    white, black = ClockHalf("white"), ClockHalf("black")
    lx, ly = white.lever_at()
    caps = [Pos(x, ly, H_REAR - T - LIP[1]) * lever_cap() for x in (lx, HALF + lx)]
    clock = Compound(children=[white.shell(), white.bottom(), Pos(HALF, 0, 0) * black.shell(),
                               Pos(HALF, 0, 0) * black.bottom()] + caps)
    export_step(clock, str(out / "clock.step"))
    _undated(out / "clock.step")
    board.dxf(out / "board-top.dxf")
    written += [out / "board.step", out / "clock.step", out / "board-top.dxf"]
    written.append(picture(made, board, out / "enclosure.png"))
    return written


def _undated(step: Path) -> None:
    """The STEP file without the moment it was written (the same sources, the same file)."""
    import re

    text = step.read_text()
    step.write_text(re.sub(r"(FILE_NAME\('[^']*',)'[^']*'", r"\1'2000-01-01T00:00:00'", text, count=1))


def picture(made, board: BoardEnclosure, path: Path) -> Path:
    """Line drawings of the parts as a maker sees them (visible edges only, from build123d's
    hidden-line projection): the board's tray with the strips on their pins, the clock
    from the players' side and from the arbiter's."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from build123d import Compound, Pos

    def draw(ax, shapes, eye, title):
        for shape, colour, width in shapes:
            visible, _ = shape.project_to_viewport(eye, viewport_up=(0, 0, 1))
            for edge in visible:
                n = 2 if edge.geom_type.name == "LINE" else 24
                pts = [edge.position_at(i / (n - 1)) for i in range(n)]
                ax.plot([p.X for p in pts], [p.Y for p in pts], color=colour, lw=width)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(title, fontsize=9)

    tiles = Compound(children=[part for name, (part, _) in made.items() if name.startswith("board-tray")])
    strips = Compound(children=board.strips())
    clock = Compound(children=[made["clock-white-shell"][0], Pos(HALF, 0, 0) * made["clock-black-shell"][0]])
    fig = plt.figure(figsize=(13, 5.4))
    ax = fig.add_subplot(1, 3, 1)
    c = board.x0 + board.side / 2
    draw(ax, [(tiles, "#5d4037", 0.5), (strips, "#2e7d32", 0.5)], (c - 900, c - 1400, 1300),
         "The board's tray (%d printed tiles) with the\neight sensor strips on its 24 pins" % board.tiles_per_side ** 2)
    ax = fig.add_subplot(1, 3, 2)
    draw(ax, [(clock, "#263238", 0.6)], (HALF - 500, -700, 500),
         "The clock from the players' side: the faces'\nwindows, the levers' holes, the lights")
    ax = fig.add_subplot(1, 3, 3)
    draw(ax, [(clock, "#263238", 0.6)], (HALF + 500, DEPTH + 700, 400),
         "From the arbiter's side: the speaker (White's half),\nthe menu buttons and reset (Black's), the ribbon's slot")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.enclosure", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pitch", type=float, default=G.PITCH, help="a square's side in mm (%g-%g; %%(default)s)" % G.PITCH_RANGE)
    ap.add_argument("--bed", type=float, default=BED, help="the print bed's side in mm (%(default)s)")
    ap.add_argument("--out", default=str(OUT), help="the folder (default: hardware/enclosure)")
    a = ap.parse_args(argv)
    try:
        build123d_module()
        if a.bed < 120:
            raise ValueError("a print bed under 120 mm is too small for the clock's parts")
        for path in write_all(a.pitch, a.bed, Path(a.out)):
            print(path)
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{ap.prog}: error: {e}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
