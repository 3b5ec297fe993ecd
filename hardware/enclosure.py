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

**The clock**: two halves, one per player. Each half's shell prints as two pieces cut
through the lever's hole, each standing on its end wall (no roof to bridge, and within a
180 mm printer), glued at the cut on a lap; its bottom is a 3 mm plate cut with the playing
surface (clock-bottoms.dxf). The face sits behind a window in the sloping front; the lever
on top is a printed cap whose head lands on the top at the end of its travel (the stop),
held up by a spring round the screw that keeps it on a printed bracket under it; the
bracket carries the microswitch in two slots, set to click as the head lands. The coin
motor sits in a pocket under the top beside the lever, where the player's hand rests, and
the 10 mm LED shows whose clock runs. White's half holds the cells' holder, the power
switch and the speaker; Black's half the controller board (its USB socket at the end wall's slot), the cable
guard the board's cable plugs into, the menu buttons and reset on the arbiter's side (the
rear), and the board's ribbon. The halves bolt
together through their joint walls, which leave an opening for the wires.

Every STL lies as it prints; hardware/printability.py checks each has no overhang that
needs support, and the generator refuses a lever whose switch would be its stop.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from hardware import geometry as G

HERE = Path(__file__).resolve().parent
OUT = HERE / "enclosure"
# The smallest printer the guide names (Prusa MINI+, Bambu Lab A1 mini: a 180 mm cube);
# every printed part fits it, the tray in tiles.
BED = 180.0
BED_HEIGHT = 180.0

# ----- the clock (mm)
CHARS, CHAR_PITCH, CHAR_HEIGHT = 8, 20.32, 25.4  # a face: eight 0.8-inch characters
FACE_WINDOW = (CHARS * CHAR_PITCH + 6.0, CHAR_HEIGHT + 12.0)  # the characters and the indicators' row
FACE_BOARD = (180.0, 50.0, 12.0)  # a face's board and what stands behind it (HT16K33, pins)
FACE_SCREWS = (88.0, 22.0)  # the face board's M2.5 screws, from the window's centre
HALF = 200.0  # a half's length
DEPTH, H_FRONT, H_REAR, TOP_DEPTH, T = 100.0, 25.0, 75.0, 45.0, 2.4
LEVER = 35.0  # the lever cap's stem, square (its hole LEVER_CLEAR larger)
LEVER_CLEAR = 0.4  # the top's hole round the stem: 0.2 mm a side, a sliding fit
LEVER_RIM = 2.0  # how far the cap's head reaches over the hole all round
LEVER_TRAVEL = 4.0  # pressed this far, the stem's bottom lands on the bracket's stops round the switch
# The head's underside above the top at the stop: the head never lands first, so however
# the cap is pressed it stops on the bracket's stops, round the switch's lever.
HEAD_GAP = 0.8
LEVER_UP = 8.0  # how far the cap stands above the top at rest (the head: LEVER_UP - LEVER_TRAVEL - HEAD_GAP thick)
M3_MAJOR = 3.0  # the cap's screw in the shelf's hole: the stem's second guide
STEM_BELOW = 1.0  # how far the stem reaches below the top at rest
# The lever's return spring, round the M3 screw that holds the cap down on the bracket's
# shelf: outside diameter, free length, solid length, rate (N/mm).
SPRING = (6.0, 11.0, 3.0, 0.2)
SHELF_TOP = 63.0  # the bracket's shelf (the spring's seat), above the bottom
LEVER_SCREW = (3.4, 2.5, 9.0, 20.0)  # the cap's M3: clearance in the shelf, pilot in the stem, its depth, length
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
SWITCH = (12.8, 5.8, 6.5, 10.0)  # the lever's microswitch (Omron D2F-L): length, thickness, body height, free position max
# Its operating position (nominal, tolerance), free position and minimum overtravel, from the
# centre line of its two M2 holes (6.5 mm apart, 2.9 mm above its base), as its datasheet
# gives them. The switch hangs on the bracket's rib in two slots: it is set to click as the
# cap lands on the top, then raised SWITCH_SET mm, so the overtravel at the stop stays under
# the datasheet's minimum whatever its own operating position: the switch is never the stop.
SWITCH_OP = (6.8, 1.5)
SWITCH_OT = 0.55
SWITCH_MD = 0.5  # movement differential: how far above the operating position it lets go
SWITCH_HOLES = (6.5, 2.9)
SWITCH_SET = 0.4
SWITCH_SLOT = 2.0  # the slots' reach either way of the middle setting
# The cells' holder, MPD BK-18650-PC8: four 18650 cells side by side, across x. Its two-cell
# BK-18650-PC4's drawing gives 77.70 along the cells and 21.54 high, 40.21 across two: four
# are taken as 80.4 across (the PC8's own drawing was not at hand). The white half takes
# any width from four bare cells side by side (74) to 100 mm (tests/hardware/test_enclosure.py), and
# the second corner is glued against the holder itself: the estimate cannot spoil the fit.
BATTERY_HOLDER = (80.4, 77.7, 21.6)
CONTROLLER_BOARD = (90.0, 70.0, 1.6)  # a 9 x 7 cm perfboard (hardware/perfboard.py)
CONTROLLER_PARTS = 13.0  # the tallest thing on it: the Pico on its sockets
# The clock's micro-USB socket (hardware/layoutpcb.py: a Molex 105017-0001 at the controller's
# outer edge, its mouth 0.7 mm past the board): its centre from the board's rear edge, and
# its mouth's centre above the board's top. On the perfboard its adapter board, soldered
# flat, lifts it by ADAPTER_LIFT. The end wall's slot lets a micro-B plug's overmould (USB_PLUG:
# width, thickness, as large as common cables have them) reach the socket at either height.
CONTROLLER_USB = (34.925, 1.3)
USB_MOUTH = 0.7  # how far the socket's mouth stands past the board's edge
ADAPTER_LIFT = 1.6
USB_PLUG = (11.0, 7.5)
USB_SLOT_MARGIN = 0.5  # round the plug, each side
GUARD_BOARD = (97.8, 39.4, 1.6)  # the cable guard (hardware/perfboard.py, layoutpcb.py), by the board's cable
GUARD_PARTS = 17.0  # its tallest: the LED chain's 1000 uF standing
STANDOFF = 6.0  # M2.5 hex standoffs, female-female
BOTTOM = 3.0  # the bottom plates: 3 mm plywood or acrylic, cut with the playing surface (no printer
# takes a 200 mm plate on a 180 mm bed)
TONGUE = (6.0, 1.6)  # the glued lap at a shell's cut: how far it reaches into the other piece, thickness
SPEAKER_Z = 34.0  # the speaker's centre on White's rear wall, below the lever's bracket
SPEAKER = 40.0
BUTTON_PITCH = 9 * 2.54  # the arbiter's buttons, on a strip of perfboard behind the rear wall
PLA_G_PER_CM3 = 1.24
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
        border in front of rank 1 is free all along for the ribbon to the right. At most
        22 mm long: the 16-way ribbon's 20.3 mm and a millimetre each side, its top a bridge
        the printer spans (printability: 25 mm)."""
        return max(-self.frame + G.WALL, -22.0), 0.0, G.FLOOR, G.FLOOR + 6.0

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
        """The half's shell whole, as it stands on the table (the two printed pieces glued at
        the cut, each with its tongue: pieces())."""
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
        part += self.tongues()
        # The face's window and its four screws.
        xm = HALF / 2
        part -= self.on_slope(xm, 0, 0, Box(FACE_WINDOW[0], FACE_WINDOW[1], 20, align=mid))
        for sx in (-FACE_SCREWS[0], FACE_SCREWS[0]):
            for sa in (-FACE_SCREWS[1], FACE_SCREWS[1]):
                part -= self.on_slope(xm + sx, sa, 0, Cylinder(1.35, 20, align=mid))
        # The lever's hole, the LED, the motor's pocket under the top.
        lx, ly = self.lever_at()
        part -= Pos(lx, ly, H_REAR) * Box(LEVER + LEVER_CLEAR, LEVER + LEVER_CLEAR, 10, align=mid)
        part -= Pos(self.toward_outer(34), ly, H_REAR) * Cylinder(LED_HOLE / 2, 10, align=mid)
        for ax, ay in (self.ask_key_at(), self.draw_key_at()):
            part -= Pos(ax, ay, H_REAR) * Cylinder(ASK_KEY[0] / 2, 10, align=mid)
        part -= Pos(self.toward_outer(-34), ly, H_REAR - T - 0.01) * Cylinder(
            MOTOR[0] / 2, MOTOR[1] + 0.01, align=(Align.CENTER, Align.CENTER, Align.MIN))
        # The lever's bracket, screwed through the rear wall.
        ry = DEPTH - T / 2
        for x, z in self.bracket_screws():
            part -= Pos(x, ry, z) * Rot(90, 0, 0) * Cylinder(1.7, 10, align=mid)
        # The joint wall: four M3 bolts and the wires' opening.
        jx = self.joint - T / 2
        for y, z in self.bolts():
            part -= Pos(jx, y, z) * Rot(0, 90, 0) * Cylinder(1.7, 10, align=mid)
        part -= Pos(jx, 50, 28) * Box(10, 40, 24, align=mid)
        ox = self.outer + (T / 2 if self.side == "white" else -T / 2)
        part -= Pos(ox, JACK_AT[0], JACK_AT[1]) * Rot(0, 90, 0) * Cylinder(JACK[0] / 2, 10, align=mid)  # headphones
        if self.side == "white":
            part -= Pos(ox, DEPTH / 2, 12) * Box(10, 10, 5, align=mid)  # the power switch
            # The speaker's grille on the rear wall, and its two screws.
            for i in range(-3, 4):
                for j in range(-3, 4):
                    gx, gz = i * 4.6 + (2.3 if j % 2 else 0), j * 4.0
                    if gx * gx + gz * gz <= 14.0 ** 2:
                        part -= Pos(xm + gx, ry, SPEAKER_Z + gz) * Rot(90, 0, 0) * Cylinder(1.5, 10, align=mid)
            for sx in (-17.0, 17.0):
                part -= Pos(xm + sx, ry, SPEAKER_Z + 17.0) * Rot(90, 0, 0) * Cylinder(1.35, 10, align=mid)
        else:
            y, z0, z1, w = self.usb_slot()
            part -= Pos(ox, y, (z0 + z1) / 2) * Box(10, w, z1 - z0, align=mid)  # the clock's USB socket
            for k, x in enumerate(self.buttons()):
                part -= Pos(x, ry, 22.0) * Rot(90, 0, 0) * Cylinder(4.0 if k < 4 else 1.5, 10, align=mid)
            part -= Pos(HALF - 50.0, ry, 8.0) * Box(24, 10, 10, align=mid)  # the board's ribbon
        return part

    def cut_at(self):
        """Where the shell is cut into its two printed pieces: through the lever's hole, so
        that neither piece has a roof over it (each prints standing on its end wall)."""
        return self.lever_at()[0]

    def tongues(self):
        """The laps that join the two pieces: strips inside the front and the rear wall, on
        the joint's piece, reaching TONGUE[0] past the cut (clear of the speaker, the
        buttons' board and the lever's bracket)."""
        from build123d import Align, Box, Pos

        lo = (Align.MIN, Align.MIN, Align.MIN)
        reach, t = TONGUE
        into = 0.5  # into the wall (a rebate in the other piece), and 4 mm back into its own piece
        c = self.cut_at()
        x0 = c - reach if self.side == "white" else c - 4.0
        length = reach + 4.0
        out = Pos(x0, T - into, 3.0) * Box(length, t + into, 17.0, align=lo)  # the front wall, under the face
        out += Pos(x0, DEPTH - T - t, 3.0) * Box(length, t + into, 7.0, align=lo)  # the rear wall, low
        out += Pos(x0, DEPTH - T - t, 67.0) * Box(length, t + into, H_REAR - T + into - 67.0, align=lo)  # under the top
        return out

    def pieces(self):
        """The shell's two printed pieces, each as it prints: standing on its end wall (the
        outer end's, the joint's), the cut up. {"outer": part, "joint": part}"""
        from build123d import Align, Box, Pos

        whole = self.shell()
        c = self.cut_at()
        big = 3 * HALF
        below = Pos(c, -HALF, -HALF) * Box(big, big, big, align=(Align.MAX, Align.MIN, Align.MIN))
        above = Pos(c, -HALF, -HALF) * Box(big, big, big, align=(Align.MIN, Align.MIN, Align.MIN))
        tongue = self.tongues()
        if self.side == "white":  # outer end at x = 0, the joint at HALF; the tongue on the joint's piece
            outer, joint = (whole & below) - tongue, (whole & above) + tongue
            return {"outer": laid(outer, "-x"), "joint": laid(joint, "+x")}
        joint, outer = (whole & below) + tongue, (whole & above) - tongue
        return {"outer": laid(outer, "+x"), "joint": laid(joint, "-x")}

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

    # ----- the lever

    def lever_stop(self):
        """The heights of the lever at rest and at its stop: (the head's underside, the stem's
        bottom) at rest, and the same pressed; the stop is the stem's bottom on the bracket's
        stops (the rib and two lugs round the switch), the head HEAD_GAP over the top."""
        head, stem = H_REAR + LEVER_TRAVEL + HEAD_GAP, H_REAR - T - STEM_BELOW
        return (head, stem), (head - LEVER_TRAVEL, stem - LEVER_TRAVEL)

    def lever_stops(self):
        """Where the pressed stem rests: the stops' rectangles on the bracket, (x0, y0, x1,
        y1) in CAD coordinates, their tops at the pressed stem's bottom: the rib's top and two
        lugs across the switch's ends, out to the stem's edge."""
        lx, ly = self.lever_at()
        rx, rt = BRACKET["rib"]
        y0, y1 = self._rib_y()
        lug = BRACKET["lug"]
        edge = lx + LEVER / 2
        return [(lx + rx, y0, lx + rx + rt, y1), (lx + rx, y0, edge, y0 + lug), (lx + rx, y1 - lug, edge, y1)]

    def _rib_y(self):
        return BRACKET["switch_y"] - SWITCH[0] / 2 - BRACKET["lug"] - 0.3, DEPTH - T - BRACKET["back"][0]

    def switch_lever_at(self):
        """Where the cap presses the switch's lever: over the middle of its body (x, y)."""
        x0, y0, _, x1, y1, _ = self.switch_box()
        return (x0 + x1) / 2, (y0 + y1) / 2

    def lever_tilt(self):
        """The most the cap can tilt (radians), guided by the top's hole round its stem and
        by its screw in the shelf's hole: a pin in two bushings tilts by the sum of their
        clearances a side over the span between their outer ends."""
        c_top = LEVER_CLEAR / 2
        c_shelf = (LEVER_SCREW[0] - M3_MAJOR) / 2
        span = H_REAR - (SHELF_TOP - 3.0)
        return math.atan((c_top + c_shelf) / span)

    def edge_press(self):
        """A press anywhere on the cap, at its worst: (the tilt in degrees, how far above the
        seated cap the switch's lever is left). Pressed outside the stops, the cap pivots
        about their outline and tilts until its guides stop it: every point inside the
        outline rises, the farther from the pivot the more; a point outside it (a switch
        beside the stops) is left up by its distance from the far side."""
        ax, ay = self.switch_lever_at()
        x0 = min(r[0] for r in self.lever_stops())
        y0 = min(r[1] for r in self.lever_stops())
        x1 = max(r[2] for r in self.lever_stops())
        y1 = max(r[3] for r in self.lever_stops())
        theta = self.lever_tilt()
        # The pivot: an edge or a corner of the stops' outline; the lever rises by its
        # distance from it in the direction of the tilt, at most its distance to a corner.
        reach = max(math.hypot(ax - cx, ay - cy) for cx in (x0, x1) for cy in (y0, y1))
        return math.degrees(theta), reach * math.sin(theta)


    def switch_holes_z(self):
        """The switch's holes' centre line: (lowest, middle, highest) the slots allow."""
        (_, _), (_, stem_down) = self.lever_stop()
        middle = stem_down + SWITCH_SET - SWITCH_OP[0]
        return middle - SWITCH_SLOT, middle, middle + SWITCH_SLOT

    def switch_box(self, holes_z=None):
        """Where the lever's microswitch stands, its holes' line at holes_z (the middle of
        its slots unless given): (x0, y0, z0, x1, y1, z1). It hangs on the bracket's rib,
        under the cap's stem, beside the spring."""
        lx, ly = self.lever_at()
        ln, wd, h, _ = SWITCH
        z = self.switch_holes_z()[1] if holes_z is None else holes_z
        x0 = lx + BRACKET["rib"][0] + BRACKET["rib"][1]
        yc = BRACKET["switch_y"]
        z0 = z - SWITCH_HOLES[1]
        return x0, yc - ln / 2, z0, x0 + wd, yc + ln / 2, z0 + h

    def bracket_screws(self):
        """The two M3 screws through the rear wall into the bracket's back plate: (x, z)."""
        lx, _ = self.lever_at()
        z = (BRACKET["back"][1] + BRACKET["back"][2]) / 2
        return [(lx - 10.0, z), (lx + 4.0, z)]

    def bracket(self):
        """The lever's bracket, where it is screwed (CAD coordinates): a back plate against
        the rear wall, the shelf under the cap (the spring's seat; the cap's screw through
        it), and the rib the switch hangs on in two upright slots."""
        from build123d import Align, Box, Cylinder, Pos, Rot

        lo = (Align.MIN, Align.MIN, Align.MIN)
        mid = (Align.CENTER, Align.CENTER, Align.CENTER)
        lx, ly = self.lever_at()
        inner = DEPTH - T
        thick, z0, z1 = BRACKET["back"]
        half_w = BRACKET["width"] / 2
        part = Pos(lx - half_w, inner - thick, z0) * Box(2 * half_w, thick, z1 - z0, align=lo)
        sw = BRACKET["shelf"]
        part += Pos(lx - sw, ly - sw, SHELF_TOP - 3.0) * Box(2 * sw, inner - thick - ly + sw, 3.0, align=lo)
        part -= Pos(lx, ly, SHELF_TOP) * Cylinder(LEVER_SCREW[0] / 2, 10, align=mid)
        rx, rt = BRACKET["rib"]
        ry0, ry1 = self._rib_y()
        (_, _), (_, stem_down) = self.lever_stop()
        part += Pos(lx + rx, ry0, z0) * Box(rt, ry1 - ry0, stem_down - z0, align=lo)
        ox, ot = BRACKET["outer"]
        part += Pos(lx + ox, ry0, z0) * Box(ot, ry1 - ry0, stem_down - z0, align=lo)
        depth = BRACKET["lug_depth"]
        for y in (ry0, ry1 - BRACKET["lug"]):
            part += Pos(lx + rx, y, stem_down - depth) * Box(ox + ot - rx, BRACKET["lug"], depth, align=lo)
        lowest, _, highest = self.switch_holes_z()
        for dy in (-SWITCH_HOLES[0] / 2, SWITCH_HOLES[0] / 2):
            y = BRACKET["switch_y"] + dy
            slot = Box(rt + 2, 2.2, highest - lowest, align=mid) + Pos(0, 0, (highest - lowest) / 2) * Rot(0, 90, 0) * \
                Cylinder(1.1, rt + 2, align=mid) + Pos(0, 0, -(highest - lowest) / 2) * Rot(0, 90, 0) * \
                Cylinder(1.1, rt + 2, align=mid)
            part -= Pos(lx + rx + rt / 2, y, (lowest + highest) / 2) * slot
            wide = BRACKET["outer_slot"]
            part -= Pos(lx + ox + ot / 2, y, (lowest + highest) / 2) * Box(ot + 2, wide, highest - lowest + wide,
                                                                          align=mid)
        for x, z in self.bracket_screws():
            part -= Pos(x, inner, z) * Rot(90, 0, 0) * Cylinder(LEVER_SCREW[1] / 2, 2 * thick - 1.0, align=mid)
        return part

    def spring(self, pressed=False):
        """The return spring between the shelf and the cap's stem, as a cylinder."""
        from build123d import Align, Cylinder, Pos

        (_, rest), (_, down) = self.lever_stop()
        top = down if pressed else rest
        lx, ly = self.lever_at()
        return Pos(lx, ly, SHELF_TOP) * Cylinder(SPRING[0] / 2, top - SHELF_TOP, align=(Align.CENTER, Align.CENTER, Align.MIN))

    def spring_force(self, pressed=False):
        """The spring's push (N) at rest and pressed; ValueError if it would go solid."""
        (_, rest), (_, down) = self.lever_stop()
        length = (down if pressed else rest) - SHELF_TOP
        if length < SPRING[2]:
            raise ValueError("the lever's spring would be solid (%.1f mm, solid at %.1f)" % (length, SPRING[2]))
        return (SPRING[1] - length) * SPRING[3]

    def lever_faults(self) -> list[str]:
        """What would make the lever's switch its stop, or leave a press unread: [] when
        the stem lands on the bracket's stops first (the head still clear of the top), at
        every setting of the switch's slots, for any switch within its datasheet's
        tolerance; a press anywhere on the cap, tilting it as far as its guides let it,
        still takes the switch past its operating position; the spring returns the cap and
        never goes solid."""
        faults = []
        (head_up, stem_up), (head_down, stem_down) = self.lever_stop()
        if head_down <= H_REAR + 1e-9:
            faults.append("the head lands on the top before the stem lands on its stops")
        ax, ay = self.switch_lever_at()
        stops = self.lever_stops()
        inside = (min(r[0] for r in stops) <= ax <= max(r[2] for r in stops)
                  and min(r[1] for r in stops) <= ay <= max(r[3] for r in stops))
        if not inside:
            faults.append("the switch's lever lies outside its stops' outline: a press on the far side tilts the "
                          "cap up off it")
        tilt, short = self.edge_press()
        if short >= SWITCH_SET:
            faults.append("a press at the cap's edge tilts it %.2f degrees (guided %.1f mm, %.2f mm play) and leaves "
                          "the switch's lever %.2f mm up, more than the %.2f mm it is set past its operating position: "
                          "the press is missed" % (tilt, H_REAR - SHELF_TOP + 3.0, LEVER_CLEAR / 2, short, SWITCH_SET))
        lx, ly = self.lever_at()
        if any(not (lx - LEVER / 2 <= x0 and x1 <= lx + LEVER / 2 and ly - LEVER / 2 <= y0 and y1 <= ly + LEVER / 2)
               for x0, y0, x1, y1 in stops):
            faults.append("a stop reaches beyond the stem")
        lowest, middle, highest = self.switch_holes_z()
        body_top = highest - SWITCH_HOLES[1] + SWITCH[2]
        if body_top >= stem_down:
            faults.append("the switch's body (its top at %.1f mm with the slots at their highest) stands in the "
                          "stem's way (down to %.1f mm)" % (body_top, stem_down))
        if SHELF_TOP >= stem_down:
            faults.append("the shelf stands in the stem's way")
        for op in (SWITCH_OP[0] - SWITCH_OP[1], SWITCH_OP[0], SWITCH_OP[0] + SWITCH_OP[1]):
            setting = stem_down + SWITCH_SET - op  # clicks at the stop, raised SWITCH_SET
            if not lowest <= setting <= highest:
                faults.append("a switch operating at %.1f mm cannot be set in the slots (%.1f..%.1f, needs %.1f)"
                              % (op, lowest, highest, setting))
            if SWITCH_SET > SWITCH_OT:
                faults.append("the switch is pressed %.2f mm past its operating position at the stop, more than "
                              "its minimum overtravel %.2f" % (SWITCH_SET, SWITCH_OT))
            if stem_up < setting + op + SWITCH_MD:
                faults.append("at rest the cap still holds a switch operating at %.1f mm" % op)
        try:
            rest, down = self.spring_force(), self.spring_force(pressed=True)
        except ValueError as e:
            faults.append(str(e))
        else:
            weight = lever_cap().volume / 1000 * PLA_G_PER_CM3 * 9.81 / 1000  # N
            if rest < 2 * weight:
                faults.append("the spring holds the cap up with %.2f N, under twice its weight (%.2f N)" % (rest, weight))
            if down > 3.0:
                faults.append("the lever needs %.1f N at its stop (a player's press: at most 3 N)" % down)
        return faults

    def cap(self, pressed=False):
        """The lever cap where it is (CAD coordinates)."""
        from build123d import Pos

        (_, rest), (_, down) = self.lever_stop()
        lx, ly = self.lever_at()
        return Pos(lx, ly, down if pressed else rest) * lever_cap()

    # ----- the bottom

    def bottom(self):
        """The bottom plate as a solid (for the STEP assembly and the fit check): cut from a
        3 mm sheet with the playing surface (bottoms_dxf())."""
        from build123d import Align, Box, Cylinder, Pos

        c = (Align.CENTER, Align.CENTER, Align.MIN)
        part = Pos(0, 0, -BOTTOM) * Box(HALF, DEPTH, BOTTOM, align=(Align.MIN, Align.MIN, Align.MIN))
        for x, y, d in self.bottom_holes():
            part -= Pos(x, y, -BOTTOM - 1) * Cylinder(d / 2, BOTTOM + 2, align=c)
        return part

    def bottom_holes(self):
        """The plate's holes: (x, y, diameter): the bosses' countersunk M3, and on Black's the
        controller's standoffs' M2.5."""
        out = [(x, y, 3.4) for x, y in self.boss_at()]
        if self.side == "black":
            out += [(x, y, 2.9) for x, y in self.standoffs()]
        return out

    def holder_corners(self):
        """The two printed corners that hold the cells' holder, diagonally opposite, where
        they stand: [(x, y, turned)]: the corner of the L and whether it is turned half round."""
        hx, hy, _ = BATTERY_HOLDER
        bx, by = self.battery_at()
        return [(bx, by, False), (bx + hx, by + hy, True)]

    def battery_at(self):
        """The cells' holder's corner (x, y), at White's outer end, clear of the bosses."""
        return T + 4.0, 12.0

    def controller_at(self):
        """The controller board's corner (x, y), at Black's outer end (its USB socket at the
        end wall's slot)."""
        return HALF - T - 1.0 - CONTROLLER_BOARD[0], 10.0

    def usb_at(self, from_rear=CONTROLLER_USB[0]):
        """The clock's USB socket's mouth, on the PCB: (x, y, z) of its centre (Black's half;
        from_rear: the socket's centre from the controller's rear edge)."""
        cx, cy = self.controller_at()
        w, d, t = CONTROLLER_BOARD
        return cx + w + USB_MOUTH, cy + d - from_rear, STANDOFF + t + CONTROLLER_USB[1]

    def usb_slot(self):
        """The end wall's slot for the USB plug: (y, z from, z to, width)."""
        _, y, z = self.usb_at()
        m = USB_SLOT_MARGIN
        return y, z - USB_PLUG[1] / 2 - m, z + ADAPTER_LIFT + USB_PLUG[1] / 2 + m, USB_PLUG[0] + 2 * m

    def usb_faults(self, from_rear=CONTROLLER_USB[0]) -> list[str]:
        """Why a plug through the slot would not reach the socket (none: it does), for a
        socket from_rear mm from the controller's rear edge (the PCB puts it at CONTROLLER_USB)."""
        if self.side != "black":
            return []
        x, y, z = self.usb_at(from_rear)
        sy, z0, z1, w = self.usb_slot()
        inner = HALF - T
        pw, pt = USB_PLUG
        out = []
        if not inner - 1.0 <= x <= inner:
            out.append("the socket's mouth is %.1f mm from the wall's inside (at most 1 mm, never in it)" % (inner - x))
        for lift, where in ((0.0, "PCB"), (ADAPTER_LIFT, "perfboard's adapter")):
            if not (sy - w / 2 <= y - pw / 2 and y + pw / 2 <= sy + w / 2 and
                    z0 <= z + lift - pt / 2 and z + lift + pt / 2 <= z1):
                out.append("a plug into the %s socket at y %.1f, z %.1f misses the slot (y %.1f-%.1f, z %.1f-%.1f)"
                           % (where, y, z + lift, sy - w / 2, sy + w / 2, z0, z1))
        jy, jz = JACK_AT
        if abs(jy - sy) < w / 2 + JACK[0] / 2 and z0 - JACK[0] / 2 < jz < z1 + JACK[0] / 2:
            out.append("the slot runs into the headphone socket's hole")
        return out

    def guard_at(self):
        """The cable guard's corner (x, y) in Black's half: beside the controller, behind
        the face, clear of the bosses."""
        return 8.6, DEPTH - T - 6.5 - GUARD_BOARD[1]

    def standoffs(self):
        """The standoffs of the boards on Black's bottom: the controller's, the guard's."""
        out = []
        for (cx, cy), (w, d, _) in ((self.controller_at(), CONTROLLER_BOARD), (self.guard_at(), GUARD_BOARD)):
            out += [(cx + 3.5, cy + 3.5), (cx + w - 3.5, cy + 3.5), (cx + 3.5, cy + d - 3.5), (cx + w - 3.5, cy + d - 3.5)]
        return out

    def contents(self):
        """What goes inside, as boxes and solids: {name: part}; the fit check keeps them clear
        of the shell and of one another."""
        from build123d import Align, Box, Cylinder, Pos, Rot

        lo = (Align.MIN, Align.MIN, Align.MIN)
        out = {}
        x0, y0, z0, x1, y1, z1 = self.switch_box()
        out["switch"] = Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=lo)
        out["lever bracket"] = self.bracket()
        out["lever spring"] = self.spring(pressed=True)
        out["lever cap, pressed"] = self.cap(pressed=True)
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
            out["speaker"] = Pos(HALF / 2, DEPTH - T - 3.0, SPEAKER_Z) * Rot(90, 0, 0) * Cylinder(SPEAKER / 2, 6.0)
            for k, corner in enumerate(self.holder_corner_parts()):
                out["holder corner %d" % (k + 1)] = corner
        else:
            cx, cy = self.controller_at()
            w, d, t = CONTROLLER_BOARD
            out["controller"] = Pos(cx, cy, STANDOFF) * Box(w, d, t + CONTROLLER_PARTS, align=lo)
            gx, gy = self.guard_at()
            w, d, t = GUARD_BOARD
            out["cable guard"] = Pos(gx, gy, STANDOFF) * Box(w, d, t + GUARD_PARTS, align=lo)
        return out

    def holder_corner_parts(self):
        from build123d import Pos, Rot

        out = []
        for x, y, turned in self.holder_corners():
            part = holder_corner()
            out.append(Pos(x, y, 0) * (Rot(0, 0, 180) * part if turned else part))
        return out


# The lever's bracket (mm): its back plate (thickness, from z, to z), its width, the shelf's
# half side round the cap's screw, the rib's x from the lever's centre and thickness, the
# switch's middle along y.
BRACKET = {"back": (4.0, 56.0, 66.0), "width": 42.0, "shelf": 7.0, "rib": (8.0, 2.5), "switch_y": 85.0,
           # the stops' lugs across the switch's ends (along y), their depth, and the outer
           # rib they bridge to (x from the lever's centre, thickness), with slots for the
           # switch's screws and a driver
           "lug": 1.7, "lug_depth": 3.0, "outer": (18.5, 2.0), "outer_slot": 5.0}


def lever_cap():
    """The lever: a square stem through the top's hole under a head LEVER_RIM wider all
    round; its M3 pilot hole from below. Origin: the stem's bottom, centred."""
    from build123d import Align, Box, Cylinder, Pos

    lo = (Align.CENTER, Align.CENTER, Align.MIN)
    stem = T + STEM_BELOW + LEVER_TRAVEL + HEAD_GAP
    head = LEVER_UP - LEVER_TRAVEL - HEAD_GAP
    part = Box(LEVER, LEVER, stem, align=lo) + Pos(0, 0, stem) * Box(LEVER + 2 * LEVER_RIM, LEVER + 2 * LEVER_RIM,
                                                                      head, align=lo)
    return part - Pos(0, 0, -0.01) * Cylinder(LEVER_SCREW[1] / 2, LEVER_SCREW[2] + 0.01, align=lo)


def holder_corner():
    """A corner that holds the cells' holder, glued on the bottom where its outline is
    engraved: an L 23 mm each way, 3 mm walls, 5 mm high. Origin: the holder's corner."""
    from build123d import Align, Box, Pos

    lo = (Align.MIN, Align.MIN, Align.MIN)
    return Pos(-3, -3, 0) * Box(3, 23, 5, align=lo) + Pos(-3, -3, 0) * Box(23, 3, 5, align=lo)


def laid(part, down: str):
    """The part turned so that its face looking `down` ("-x", "+x", "-y", "+y", "-z", "+z")
    lies on the bed, its lowest corner at the origin: as it prints."""
    from build123d import Pos, Rot

    turn = {"-z": Rot(0, 0, 0), "+z": Rot(180, 0, 0), "-x": Rot(0, -90, 0), "+x": Rot(0, 90, 0),
            "-y": Rot(90, 0, 0), "+y": Rot(-90, 0, 0)}[down]
    turned = turn * part
    box = turned.bounding_box()
    return Pos(-box.min.X, -box.min.Y, -box.min.Z) * turned



# ===================================================================== output

def parts(pitch: float = G.PITCH, bed: float = BED):
    """Every printed part, lying as it prints: {name: (part, how many)}; and the
    enclosure objects."""
    board = BoardEnclosure(pitch, bed)
    tray = board.tray()
    out = {name: (part, 1) for name, part in board.tiles(tray).items()}
    out["board-joiner"] = (laid(board.joiner(), "-z"), board.joiners_needed())
    for side in ("white", "black"):
        for name, piece in ClockHalf(side).pieces().items():
            out["clock-%s-shell-%s" % (side, name)] = (piece, 1)
    out["clock-lever-cap"] = (laid(lever_cap(), "+z"), 2)  # on its head
    out["clock-lever-bracket"] = (laid(ClockHalf("white").bracket(), "+y"), 2)  # on its back plate
    out["clock-holder-corner"] = (holder_corner(), 2)
    return out, board, tray


def clock_assembly():
    """The clock as it stands: both halves, bottoms, brackets, caps."""
    from build123d import Compound, Pos

    children = []
    for side, dx in (("white", 0.0), ("black", HALF)):
        half = ClockHalf(side)
        parts_ = [half.shell(), half.bottom(), half.bracket(), half.cap()] + \
            (half.holder_corner_parts() if side == "white" else [])
        children += [Pos(dx, 0, 0) * p for p in parts_]
    return Compound(children=children)


def bottoms_dxf(path: Path) -> None:
    """The clock's two bottom plates for the laser (with the playing surface): layer CUT
    (outlines, the bosses' holes to countersink, the controller's standoffs), layer ENGRAVE
    (where the cells' holder's corners are glued). White's plate at the origin, Black's
    beside it, 10 mm apart, both seen from inside the clock."""
    import ezdxf

    ezdxf.options.write_fixed_meta_data_for_testing = True
    doc = ezdxf.new("R2010", setup=False)
    doc.header["$INSUNITS"] = 4
    doc.layers.add("CUT", color=1)
    doc.layers.add("ENGRAVE", color=5)
    msp = doc.modelspace()
    for side, dx in (("white", 0.0), ("black", HALF + 10.0)):
        half = ClockHalf(side)
        msp.add_lwpolyline([(dx, 0), (dx + HALF, 0), (dx + HALF, DEPTH), (dx, DEPTH)], close=True,
                           dxfattribs={"layer": "CUT"})
        for x, y, d in half.bottom_holes():
            msp.add_circle((dx + x, y), d / 2, dxfattribs={"layer": "CUT"})
        if side == "white":
            for x, y, turned in half.holder_corners():
                k = -1 if turned else 1
                pts = [(0, 0), (23, 0), (23, 3), (3, 3), (3, 23), (0, 23)]
                msp.add_lwpolyline([(dx + x + k * (px - 3), y + k * (py - 3)) for px, py in pts], close=True,
                                   dxfattribs={"layer": "ENGRAVE"})
    doc.saveas(str(path))


def write_all(pitch: float = G.PITCH, bed: float = BED, out: Path = OUT) -> list[Path]:
    from build123d import Compound, export_step, export_stl

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
    export_step(clock_assembly(), str(out / "clock.step"))
    _undated(out / "clock.step")
    board.dxf(out / "board-top.dxf")
    bottoms_dxf(out / "clock-bottoms.dxf")
    written += [out / "board.step", out / "clock.step", out / "board-top.dxf", out / "clock-bottoms.dxf"]
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
    clock = Compound(children=[ClockHalf("white").shell(), ClockHalf("white").cap(),
                               Pos(HALF, 0, 0) * ClockHalf("black").shell(), Pos(HALF, 0, 0) * ClockHalf("black").cap()])
    fig = plt.figure(figsize=(17, 5.4))
    ax = fig.add_subplot(1, 4, 1)
    c = board.x0 + board.side / 2
    draw(ax, [(tiles, "#5d4037", 0.5), (strips, "#2e7d32", 0.5)], (c - 900, c - 1400, 1300),
         "The board's tray (%d printed tiles) with the\neight sensor strips on its 24 pins" % board.tiles_per_side ** 2)
    ax = fig.add_subplot(1, 4, 2)
    draw(ax, [(clock, "#263238", 0.6)], (HALF - 500, -700, 500),
         "The clock from the players' side: the faces'\nwindows, the levers' holes, the lights")
    ax = fig.add_subplot(1, 4, 3)
    draw(ax, [(clock, "#263238", 0.6)], (HALF + 500, DEPTH + 700, 400),
         "From the arbiter's side: the speaker (White's half),\nthe menu buttons and reset (Black's), the ribbon's slot")
    ax = fig.add_subplot(1, 4, 4)
    half = ClockHalf("white")
    inside = half.contents()
    lx, ly = half.lever_at()
    lever = Compound(children=[half.cap(), inside["lever bracket"], inside["switch"], half.spring()])
    draw(ax, [(lever, "#263238", 0.6)], (lx + 400, ly - 500, 150),
         "The lever (under the top): the cap, its stop the head\non the top; the spring, the bracket, the switch in its slots")
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
        for side in ("white", "black"):
            faults = ClockHalf(side).lever_faults()
            if faults:
                raise ValueError("%s's lever: %s" % (side, "; ".join(faults)))
            faults = ClockHalf(side).usb_faults()
            if faults:
                raise ValueError("%s's USB: %s" % (side, "; ".join(faults)))
        from hardware import printability

        for path in write_all(a.pitch, a.bed, Path(a.out)):
            print(path)
            if path.suffix == ".stl":
                bad = printability.overhangs(printability.read_stl(path))
                if bad:
                    raise ValueError("%s needs support: %s" % (path.name, bad[0]))
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{ap.prog}: error: {e}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
