"""A two-layer PCB as data, routed and written out with KiCad's Python API: the parts and
their pads (placed by a subclass from the circuit), a maze router for the tracks, the KiCad
board, the assembly service's BOM and placement files, a picture. hardware/facepcb.py (the
clock's faces) and hardware/layoutpcb.py (the controller and the small boards) are its
boards.

The router: a grid of 0.635 mm (a quarter of 2.54 mm, so through-hole pins sit on it) on
both copper layers; orthogonal tracks, 0.25 mm wide with 0.2 mm clearance (0.6 mm for the
nets that carry current: a wide track keeps one grid step clear of another and of a via);
vias 0.6/0.3 mm; the back runs along the board and the front across it; cells close to a
pin cost more, so that a route does not wall in the pins beside it. Each net grows from its
first pin to the nearest pin still apart (A*), the nets with the most pins first.
"""
from __future__ import annotations

import csv
import heapq
import io
import math
from pathlib import Path

GRID = 0.635
TRACK, CLEARANCE = 0.25, 0.2
WIDE = 0.8  # the current-carrying nets' tracks: 1.9 A in 35 um copper for a 10 K rise (ipc2221_mm)
NECK = 1.0  # how close to its own pad a wide track goes thin
VIA = (0.6, 0.3)
# The silkscreen of the parts drawn here: their outline OUTLINE beyond their pads' copper,
# lines SILK_W wide kept SILK_GAP from any pad's copper (the mask's opening and the
# silkscreen's clearance: KiCad's DRC), their value beside their reference.
OUTLINE = 0.45
SILK_W = 0.12
SILK_GAP = 0.3
COURTYARD = 0.25  # a hand-drawn part's courtyard beyond its pads' copper
# A pad's own grid points: inside its copper, or so close that a track's round end ending
# there still lies over the pad (KiCad's footprints' pads on a 0.95 or 0.65 mm pitch fall
# between the 0.635 mm grid's points)
REACH_IN = TRACK / 2 - 0.06
MASK_WEB = CLEARANCE  # a via keeps the clearance from a surface pad of its own net too
EDGE = 0.5
VIA_COST = 12
LAYERS = {"FB": (0, 1), "F": (0,), "B": (1,)}
# A wide track's neighbourhood kept clear of other nets: the eight cells round it (a
# diagonal neighbour is 0.9 mm away: a 0.8 mm track and a via there would be 0.2 mm apart)
AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))

# SMD footprints: (KiCad footprint, pad size, pad centres from the part's centre)
SMD = {
    "SOIC-28W": ("Package_SO:SOIC-28W_7.5x17.9mm_P1.27mm", (0.6, 2.0),
                 [(-(6.5 - i) * 1.27, 4.65) for i in range(14)] + [((6.5 - i) * 1.27, -4.65) for i in range(14)]),
    "0805": ("Resistor_SMD:R_0805_2012Metric", (1.0, 1.3), [(-0.9525, 0.0), (0.9525, 0.0)]),
    "SOD-123": ("Diode_SMD:D_SOD-123", (0.9, 1.2), [(-1.5875, 0.0), (1.5875, 0.0)]),
    # SOT-23: 1 and 2 below, 3 above (as the BSS138's G, S, D)
    "SOT-23": ("Package_TO_SOT_SMD:SOT-23", (0.8, 0.9), [(-0.9525, 1.1), (0.9525, 1.1), (0.0, -1.1)]),
    # SOT-23-5: 1-3 below left to right, 4 and 5 above right to left
    "SOT-23-5": ("Package_TO_SOT_SMD:SOT-23-5", (0.7, 1.0),
                 [(-0.95, 1.1), (0.0, 1.1), (0.95, 1.1), (0.95, -1.1), (-0.95, -1.1)]),
    # SC-70-6 (SOT-363): 1-3 below left to right, 4-6 above right to left
    "SC-70-6": ("Package_TO_SOT_SMD:SOT-363_SC-70-6", (0.4, 0.9),
                [(-0.65, 0.95), (0.0, 0.95), (0.65, 0.95), (0.65, -0.95), (0.0, -0.95), (-0.65, -0.95)]),
    # SOT-23-6: 1-3 below left to right, 4-6 above right to left
    "SOT-23-6": ("Package_TO_SOT_SMD:SOT-23-6", (0.7, 1.0),
                 [(-0.95, 1.1), (0.0, 1.1), (0.95, 1.1), (0.95, -1.1), (0.0, -1.1), (-0.95, -1.1)]),
    # Molex 105017-0001 micro-USB B, as its drawing lands it (KiCad's footprint of it): pins
    # 1-5 (VBUS, D-, D+, ID, GND) 0.65 mm apart, the mouth towards +y, 0.7 mm past the
    # board's edge at y = 1.8; its shell (SHELL below) on pin 5's net.
    "USB-MICRO-B": ("Connector_USB:USB_Micro-B_Molex-105017-0001", (0.4, 1.35),
                    [(-1.3 + 0.65 * k, -2.35) for k in range(5)]),
}
# The orientation KiCad gives its own footprint of each kind when the kind's pins stand as
# SMD lists them (found by placing KiCad's footprint every way round; the tests check it).
KICAD_TURN = {"SOIC-28W": 90, "0805": 0, "SOD-123": 0, "SOT-23": 90, "SOT-23-5": 90, "SC-70-6": 90, "SOT-23-6": 90,
              "USB-MICRO-B": 0}
USB_EDGE = 1.8  # the micro-USB footprint's centre from the board's edge
# Footprints that stand at the board's right edge, whatever their adapter's place on the
# perfboard: their centre's distance from the edge and their turn (the mouth out, +x).
AT_EDGE = {"USB-MICRO-B": (USB_EDGE, 270)}
# A footprint's shell (its pads numbered past the pins, in KiCad's footprint): the pin whose
# net it takes.
SHELL = {"USB-MICRO-B": "5"}


def ipc2221_mm(amps: float, rise_c: float = 10.0, copper_um: float = 35.0) -> float:
    """The width (mm) of an outer-layer track carrying amps with a temperature rise of rise_c
    (IPC-2221, its design chart's fit for external conductors: I = 0.048 dT^0.44 A^0.725,
    A the cross-section in square mils)."""
    area_mil2 = (amps / (0.048 * rise_c ** 0.44)) ** (1 / 0.725)
    return area_mil2 / (copper_um / 25.4) * 0.0254


def turn(dx, dy, rot):
    """An offset turned counter-clockwise on the screen (y down) by rot degrees (0, 90, 180,
    270): 90 takes +y to -x, 270 takes +y to +x."""
    return {0: (dx, dy), 90: (-dy, dx), 180: (-dx, -dy), 270: (dy, -dx)}[rot]


class Pad:
    def __init__(self, part, number, x, y, net, size, layers, drill=0.0, rect=False, slot=None):
        self.part, self.number, self.x, self.y, self.net = part, number, x, y, net
        self.size, self.layers, self.drill, self.rect = size, layers, drill, rect  # layers: "FB", "B"
        self.slot = slot  # a slotted hole's (w, h), instead of the round drill
        self.thin = False  # a wide net's pin that draws no current (its board's THIN), set when routed

    def distance(self, x, y):
        """From (x, y) to the pad's copper (0 inside)."""
        sx, sy = self.size
        if self.rect or sx != sy:
            dx, dy = max(abs(x - self.x) - sx / 2, 0.0), max(abs(y - self.y) - sy / 2, 0.0)
            return math.hypot(dx, dy)
        return max(math.hypot(x - self.x, y - self.y) - sx / 2, 0.0)


class Part:
    def __init__(self, ref, key, value, side, fp, x, y, rot=0):
        self.ref, self.key, self.value, self.side, self.fp, self.x, self.y, self.rot = ref, key, value, side, fp, x, y, rot
        self.pads = []
        self.library = False  # its footprint KiCad's own (hardware/kicadlib.py), placed and flipped by KiCad
        self.silk = None  # (x0, y0, x1, y1): the box round its footprint's silkscreen drawing


class RoutedBoard:
    """A board W x H mm: parts, pads, mounting holes [(x, y, diameter)], then tracks and
    vias; `wide`: the nets routed WIDE."""

    SEED = 19
    FIRST = ()  # nets routed before the rest
    THIN = frozenset()  # (part key, pad number): a wide net's pins that draw no current

    def __init__(self, width, height, holes=(), wide=()):
        self.W, self.H = width, height
        self.parts: list[Part] = []
        self.holes = list(holes)
        self.wide = set(wide)
        self.tracks = []  # (x1, y1, x2, y2, layer "F"/"B", net)
        self.vias = []  # (x, y, net)

    def _tht(self, ref, key, value, fp, pins, drill=1.0, size=1.7, side="F"):
        """A through-hole part drawn here (no KiCad footprint for it): its pads, and for the
        silkscreen its outline, a box OUTLINE clear of its pads (part.silk)."""
        x, y = pins[0][1], pins[0][2]
        part = Part(ref, key, value, side, fp, x, y)
        for number, px, py, net in pins:
            part.pads.append(Pad(part, number, px, py, net, (size, size), "FB", drill, rect=number == "1"))
        m = size / 2 + OUTLINE
        part.silk = (min(p.x for p in part.pads) - m, min(p.y for p in part.pads) - m,
                     max(p.x for p in part.pads) + m, max(p.y for p in part.pads) + m)
        self.parts.append(part)
        return part

    def outline(self, part, texts=()):
        """The hand-drawn part's outline on the silkscreen: [(x1, y1, x2, y2)], its box's
        sides with gaps where they would pass within SILK_GAP of a pad (its own or another
        part's), cross a text (texts: [(side, box)]) or leave the board."""
        x0, y0, x1, y1 = part.silk
        return self._clipped(part, ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)), texts)

    def _clipped(self, part, lines, texts=()):
        """lines on part's silkscreen, cut where they pass within SILK_GAP of a pad or a hole,
        cross a text (texts: [(side, box)]) or leave the board."""
        boxes = [b for side, b in texts if side == part.side]
        pads = self.pads()
        x0 = min(min(a[0], a[2]) for a in lines)
        x1 = max(max(a[0], a[2]) for a in lines)
        y0 = min(min(a[1], a[3]) for a in lines)
        y1 = max(max(a[1], a[3]) for a in lines)
        near = [q for q in pads if q.x + max(q.size) > x0 - 1 and q.x - max(q.size) < x1 + 1
                and q.y + max(q.size) > y0 - 1 and q.y - max(q.size) < y1 + 1]
        out = []
        for ax, ay, bx, by in lines:
            n = max(1, int(math.hypot(bx - ax, by - ay) / 0.05))
            run = None
            for k in range(n + 1):
                x, y = ax + (bx - ax) * k / n, ay + (by - ay) * k / n
                free = EDGE + SILK_W < x < self.W - EDGE - SILK_W and EDGE + SILK_W < y < self.H - EDGE - SILK_W and all(
                    q.distance(x, y) > SILK_GAP for q in near) and all(
                    math.hypot(x - hx, y - hy) > hd / 2 + SILK_GAP for hx, hy, hd in self.holes) and not any(
                    b[0] - 0.3 < x < b[2] + 0.3 and b[1] - 0.3 < y < b[3] + 0.3 for b in boxes)
                if free:
                    run = (run[0], run[1], x, y) if run else (x, y, x, y)
                if run and (not free or k == n):
                    if math.hypot(run[2] - run[0], run[3] - run[1]) >= 0.3:
                        out.append(tuple(round(v, 3) for v in run))
                    run = None
        return out

    def _library(self, ref, key, value, fpid, x, y, nets, rot=0, side="F"):
        """A part whose footprint is KiCad's own: placed at (x, y) turned rot degrees and,
        on the back, flipped by KiCad; its pads as KiCad puts them. nets: {pad number: net}."""
        from hardware import kicadlib, pcb

        pcbnew = pcb.pcbnew_module()
        fp = kicadlib.place(pcbnew, fpid, x, y, rot, side == "B")
        part = Part(ref, key, value, side, fpid, x, y, rot)
        part.library = True
        part.silk = kicadlib.silk_box(pcbnew, fp)
        for number, px, py, size, layers, drill, slot, round_ in kicadlib.pads(pcbnew, fp):
            part.pads.append(Pad(part, number, px, py, nets.get(number), size, layers, drill, rect=not round_, slot=slot))
        self.parts.append(part)
        return part

    def _smd_library(self, ref, key, value, kind, x, y, nets, rot=0, side="F"):
        """A surface part of SMD[kind] as KiCad's own footprint, turned so that its pins
        fall where the kind's (turned rot) do: KiCad's orientation is KICAD_TURN[kind] + rot,
        its origin moved by what the two footprints' origins differ."""
        from hardware import kicadlib, pcb

        pcbnew = pcb.pcbnew_module()
        fpid, _, offsets = SMD[kind]
        turn_ = (KICAD_TURN[kind] + rot) % 360
        lib = {n: (px, py) for n, px, py, *_ in kicadlib.pads(pcbnew, kicadlib.place(pcbnew, fpid, 0, 0, turn_))}
        want = [turn(dx, dy, rot) for dx, dy in offsets]
        n = len(want)
        tx = sum(want[k][0] - lib[str(k + 1)][0] for k in range(n)) / n
        ty = sum(want[k][1] - lib[str(k + 1)][1] for k in range(n)) / n
        pin = SHELL.get(kind, "")
        named = {str(k + 1): nets[k] for k in range(n)}
        for number in lib:  # a shell's pads (numbered past the pins) on its pin's net
            if number not in named and pin:
                named[number] = nets[int(pin) - 1]
        # pin 1's centre on the router's grid (its pads hold a grid point)
        p1x, p1y = x + tx + lib["1"][0], y + ty + lib["1"][1]
        tx += round(p1x / GRID) * GRID - p1x
        ty += round(p1y / GRID) * GRID - p1y
        return self._library(ref, key, value, fpid, round(x + tx, 4), round(y + ty, 4), named, turn_, side)

    def pads(self):
        return [p for part in self.parts for p in part.pads]

    # ----- routing

    def route(self):
        W, H = self.W, self.H
        nx, ny = int(W / GRID) + 1, int(H / GRID) + 1
        self.nx, self.ny = nx, ny
        FREE, WALL = -1, -2
        names = sorted({p.net for p in self.pads() if p.net})
        ids = {n: i for i, n in enumerate(names)}
        owner = [[[FREE] * ny for _ in range(nx)] for _ in range(2)]  # [layer][i][j]
        inside = {}  # pad -> its grid cells
        reach = CLEARANCE + TRACK / 2

        def cells_near(x, y, r):
            i0, i1 = max(0, int((x - r) / GRID)), min(nx - 1, int((x + r) / GRID) + 1)
            j0, j1 = max(0, int((y - r) / GRID)), min(ny - 1, int((y + r) / GRID) + 1)
            return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

        for i in range(nx):
            for j in range(ny):
                x, y = i * GRID, j * GRID
                if min(x, y, W - x, H - y) < EDGE + TRACK / 2:
                    owner[0][i][j] = owner[1][i][j] = WALL
        for hx, hy, hd in self.holes:
            for i, j in cells_near(hx, hy, hd / 2 + reach + 0.5):
                if math.hypot(i * GRID - hx, j * GRID - hy) < hd / 2 + reach + 0.3:
                    owner[0][i][j] = owner[1][i][j] = WALL
        pads = self.pads()
        for p in pads:  # the copper round a pad: its net's, or no one's where two nets' meet
            n = ids.get(p.net, WALL) if p.net else WALL
            for i, j in cells_near(p.x, p.y, max(p.size) / 2 + reach + 0.1):
                d = p.distance(i * GRID, j * GRID)
                if 0.0 < d < reach:
                    for layer in LAYERS[p.layers]:
                        owner[layer][i][j] = n if owner[layer][i][j] in (FREE, n) else WALL
        via_room = VIA[0] / 2 + CLEARANCE  # a via's copper and its clearance, from other copper
        near_pads = {}  # (i // 8, j // 8) -> the pads that may be near a cell of that block
        for p in pads:
            r = max(p.size) / 2 + via_room + GRID * 8
            for bi in range(int((p.x - r) / GRID) // 8, int((p.x + r) / GRID) // 8 + 1):
                for bj in range(int((p.y - r) / GRID) // 8, int((p.y + r) / GRID) // 8 + 1):
                    near_pads.setdefault((bi, bj), []).append(p)

        for p in pads:  # the pads' own cells: inside its copper, out of reach of another net's pad
            n = ids.get(p.net, WALL) if p.net else WALL
            own = [(i, j) for i, j in cells_near(p.x, p.y, max(p.size) / 2 + 0.1)
                   if p.distance(i * GRID, j * GRID) <= REACH_IN and not any(
                       q.net != p.net and set(LAYERS[q.layers]) & set(LAYERS[p.layers])
                       and q.distance(i * GRID, j * GRID) < reach for q in near_pads.get((i // 8, j // 8), ()))]
            if not own:
                raise ValueError("%s pad %s holds no grid point" % (p.part.ref, p.number))
            inside[p] = own
            for i, j in own:
                for layer in LAYERS[p.layers]:
                    owner[layer][i][j] = n
        via_at = {}  # (i, j) -> net id: vias placed

        def via_ok(i, j, n):
            if owner[0][i][j] not in (FREE, n) or owner[1][i][j] not in (FREE, n):
                return False
            x, y = i * GRID, j * GRID
            for q in near_pads.get((i // 8, j // 8), ()):  # clear of another net's pad; off its own
                if q.net != names[n] and q.distance(x, y) < via_room + 0.001:  # surface pads (a via in or
                    return False  # touching one wicks its solder away), a mask web between
                if q.layers != "FB" and q.distance(x, y) < VIA[0] / 2 + MASK_WEB:
                    return False
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    m = via_at.get((i + di, j + dj))
                    if m is not None and m != n:
                        return False
            for di, dj in AROUND:
                for layer in (0, 1):
                    cell = (layer, i + di, j + dj)
                    if cell in wide_cells and taken[cell] != n:
                        return False  # another net's wide track beside it
            return True

        def necked(layer, i, j, n):
            """Close to a pad of its own net: a wide net goes thin there (between a chip's
            pins)."""
            x, y = i * GRID, j * GRID
            return any(q.net == names[n] and layer in LAYERS[q.layers] and q.distance(x, y) < NECK
                       for q in near_pads.get((i // 8, j // 8), ()))

        def wide_ok(layer, i, j, n):
            """A cell a wide net may take: far enough from other nets' pads, no other net's
            track or via beside it."""
            if necked(layer, i, j, n):
                return True
            x, y = i * GRID, j * GRID
            for q in near_pads.get((i // 8, j // 8), ()):
                if q.net != names[n] and layer in LAYERS[q.layers] and q.distance(x, y) < CLEARANCE + WIDE / 2:
                    return False
            for di, dj in AROUND:
                a, b = i + di, j + dj
                m = taken.get((layer, a, b))
                if m is not None and m != n:
                    return False
                m = via_at.get((a, b))
                if m is not None and m != n:
                    return False
            return True

        taken = {}  # (layer, i, j) -> net id: cells of routed tracks
        wide_cells = set()  # the cells of wide tracks
        wide_ids = {ids[w] for w in self.wide if w in ids}

        # Cells close to a pin cost more (a route that hugs a row of pins walls in the rest).
        crowd = [[0] * ny for _ in range(nx)]
        for p in pads:
            for i, j in cells_near(p.x, p.y, max(p.size) / 2 + 1.0):
                if p.distance(i * GRID, j * GRID) < 0.9:
                    crowd[i][j] = 3
        by_net = {}
        for p in pads:
            p.thin = (p.part.key, p.number) in self.THIN
            if p.net:
                by_net.setdefault(p.net, []).append(p)
        # The nets named FIRST (a fine-pitch socket's lines, before anything walls its pads
        # in), then the longest (the character rows), then by name.
        order = sorted((n for n in by_net if len(by_net[n]) > 1),
                       key=lambda n: (n not in self.FIRST, -len(by_net[n]), n))
        for name in order:
            n = ids[name]
            members = sorted(by_net[name], key=lambda p: (p.x, p.y))
            tree = set()
            for layer, (i, j) in [(l, c) for l in LAYERS[members[0].layers] for c in inside[members[0]]]:
                tree.add((layer, i, j))
            todo = members[1:]
            while todo:
                # the nearest pin still apart; a pin that draws no current (THIN) last, on a
                # thin branch, so that the wide tree never runs through one
                target = min(todo, key=lambda p: (p.thin, min(abs(p.x - i * GRID) + abs(p.y - j * GRID)
                                                              for _, i, j in tree)))
                wide = n in wide_ids and not target.thin
                todo.remove(target)
                goal = {(l, i, j) for l in LAYERS[target.layers] for i, j in inside[target]}
                path = self._astar(tree, goal, owner, crowd, n, target, via_ok,
                                   wide_ok if wide else None, taken, wide_cells)
                if path is None:
                    raise ValueError("no route for %s to %s pad %s" % (name, target.part.ref, target.number))
                thin = {c for c in path if not wide or necked(c[0], c[1], c[2], n)}
                for a, b in zip(path, path[1:]):
                    if a[0] != b[0]:
                        via_at[(a[1], a[2])] = n
                        self.vias.append((a[1] * GRID, a[2] * GRID, name))
                    else:
                        width = TRACK if a in thin or b in thin else WIDE
                        self.tracks.append((a[1] * GRID, a[2] * GRID, b[1] * GRID, b[2] * GRID, "FB"[a[0]], name,
                                            width))
                        if width == WIDE:
                            wide_cells.update((a, b))
                for layer, i, j in path:
                    owner[layer][i][j] = n
                    taken[(layer, i, j)] = n
                tree |= set(path) | goal
        self._merge()
        return self

    def _astar(self, sources, goal, owner, crowd, n, target, via_ok, wide_ok=None, taken=None, wide_cells=()):
        tx, ty = target.x / GRID, target.y / GRID
        h = lambda i, j: abs(i - tx) + abs(j - ty)  # noqa: E731
        best = {}
        came = {}
        heap = []
        for s in sorted(sources):
            best[s] = 0
            heapq.heappush(heap, (h(s[1], s[2]), 0, s))
        nx, ny = self.nx, self.ny
        while heap:
            f, g, node = heapq.heappop(heap)
            if node in goal:
                path = [node]
                while path[-1] in came:
                    path.append(came[path[-1]])
                return path[::-1]
            if g > best.get(node, 1e18):
                continue
            layer, i, j = node
            steps = []
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = i + di, j + dj
                if 0 <= a < nx and 0 <= b < ny and owner[layer][a][b] in (-1, n):
                    if wide_ok is not None:
                        if not wide_ok(layer, a, b, n):
                            continue
                    elif wide_cells and owner[layer][a][b] != n and any(
                            (layer, a + ei, b + ej) in wide_cells and taken[(layer, a + ei, b + ej)] != n
                            for ei, ej in AROUND):
                        continue  # beside another net's wide track
                    # the back runs along the board, the front across it
                    along = (dj == 0) == (layer == 1)
                    steps.append(((layer, a, b), (1 if along else 4) + crowd[a][b]))
            if via_ok(i, j, n) and (wide_ok is None or wide_ok(1 - layer, i, j, n)):
                steps.append(((1 - layer, i, j), VIA_COST))
            for nxt, cost in steps:
                ng = g + cost
                if ng < best.get(nxt, 1e18):
                    best[nxt] = ng
                    came[nxt] = node
                    heapq.heappush(heap, (ng + h(nxt[1], nxt[2]), ng, nxt))
        return None

    def _merge(self):
        """Straight runs of grid steps joined into single tracks."""
        out = []
        for t in self.tracks:
            if out:
                x1, y1, x2, y2, layer, net, w = out[-1]
                a1, b1, a2, b2, l2, n2, w2 = t
                if (l2, n2, w2) == (layer, net, w) and (x2, y2) == (a1, b1) and (
                        (x1 == x2 == a2) or (y1 == y2 == b2)):
                    out[-1] = (x1, y1, a2, b2, layer, net, w)
                    continue
            out.append(t)
        self.tracks = out

    # ----- KiCad

    def kicad(self, pcbnew):
        W, H = self.W, self.H
        labels = self.labels()
        from hardware.kicadboard import KiBoard

        k = KiBoard(pcbnew, self.SEED, EDGE, 1.6)
        b, mm, pt, net = k.board, k.mm, k.pt, k.net
        ds = b.GetDesignSettings()
        nc = ds.GetNetClasses().GetDefault()
        nc.SetClearance(mm(CLEARANCE))
        nc.SetTrackWidth(mm(TRACK))
        nc.SetViaDiameter(mm(VIA[0]))
        nc.SetViaDrill(mm(VIA[1]))
        ds.m_ViasMinSize = mm(VIA[0])
        ds.m_MinThroughDrill = mm(VIA[1])

        from hardware import kicadlib

        for part in self.parts:
            back = part.side == "B"
            if part.library:  # KiCad's own footprint, placed and flipped as _library did
                fp = kicadlib.place(pcbnew, part.fp, part.x, part.y, part.rot, back, board=b)
                fp.SetReference(part.ref)
                fp.SetValue(part.value)
                nets = {p.number: p.net for p in part.pads}
                for pad in fp.Pads():
                    if nets.get(pad.GetNumber()):
                        pad.SetNet(net(nets[pad.GetNumber()]))
                ref = fp.Reference()
                ref.SetTextAngle(-fp.GetOrientation())  # read level on the board, however the part turns
                ref.SetTextSize(pcbnew.wxSize(mm(0.8), mm(0.8)))
                ref.SetTextThickness(mm(0.12))
                ref.SetPosition(pt(*labels[part.ref]))
                continue
            fp = pcbnew.FOOTPRINT(b)
            fp.SetReference(part.ref)
            fp.SetValue(part.value)
            fp.SetPosition(pt(part.x, part.y))
            b.Add(fp)
            for t, layer in ((fp.Reference(), pcbnew.B_SilkS if back else pcbnew.F_SilkS),):
                t.SetLayer(layer)
                t.SetTextSize(pcbnew.wxSize(mm(0.8), mm(0.8)))
                t.SetTextThickness(mm(0.12))
                t.SetMirrored(back)
            fp.Value().SetVisible(False)
            for p in part.pads:
                pad = pcbnew.PAD(fp)
                pad.SetNumber(p.number)
                sx, sy = p.size
                pad.SetSize(pcbnew.wxSize(mm(sx), mm(sy)))
                if p.layers == "FB":
                    pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
                    if p.slot:
                        pad.SetShape(pcbnew.PAD_SHAPE_OVAL)
                        pad.SetDrillShape(pcbnew.PAD_DRILL_SHAPE_OBLONG)
                        pad.SetDrillSize(pcbnew.wxSize(mm(p.slot[0]), mm(p.slot[1])))
                    else:
                        pad.SetShape(pcbnew.PAD_SHAPE_RECT if p.rect else pcbnew.PAD_SHAPE_CIRCLE)
                        pad.SetDrillSize(pcbnew.wxSize(mm(p.drill), mm(p.drill)))
                    pad.SetLayerSet(pad.PTHMask())
                else:
                    pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
                    pad.SetShape(pcbnew.PAD_SHAPE_RECT)
                    ls = pcbnew.LSET()
                    side = (pcbnew.B_Cu, pcbnew.B_Paste, pcbnew.B_Mask) if p.layers == "B" else (
                        pcbnew.F_Cu, pcbnew.F_Paste, pcbnew.F_Mask)
                    for layer in side:
                        ls.AddLayer(layer)
                    pad.SetLayerSet(ls)
                pad.SetPos0(pt(p.x - part.x, p.y - part.y))
                pad.SetPosition(pt(p.x, p.y))
                if p.net:
                    pad.SetNet(net(p.net))
                fp.Add(pad)
            # its courtyard: COURTYARD beyond its pads' copper (KiCad's DRC checks that no two
            # parts' courtyards overlap)
            m = max(max(q.size) for q in part.pads) / 2 + COURTYARD
            x0, y0 = min(q.x for q in part.pads) - m, min(q.y for q in part.pads) - m
            x1, y1 = max(q.x for q in part.pads) + m, max(q.y for q in part.pads) + m
            for a, c in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
                e = pcbnew.FP_SHAPE(fp)
                e.SetShape(pcbnew.SHAPE_T_SEGMENT)
                e.SetLayer(pcbnew.B_CrtYd if back else pcbnew.F_CrtYd)
                e.SetStart0(pt(a[0] - part.x, a[1] - part.y))
                e.SetEnd0(pt(c[0] - part.x, c[1] - part.y))
                e.SetWidth(mm(0.05))
                e.SetDrawCoord()
                fp.Add(e)
            ref = fp.Reference()
            ref.SetPosition(pt(*labels[part.ref]))
        for x1, y1, x2, y2, layer, n, width in self.tracks:
            k.track(x1, y1, x2, y2, layer, n, width)
        for x, y, n in self.vias:
            k.via(x, y, n, *VIA)
        for i, (x, y, d) in enumerate(self.holes):
            k.hole("H%d" % (i + 1), "M2.5", x, y, d)
        segment = k.segment
        k.outline(W, H)
        # Polarity on the silkscreen of the part's side: a + by an electrolytic's pin 1, a
        # bar by a diode's cathode (pin 1), a dot by a chip's pin 1.
        for part in self.parts:
            silk = pcbnew.B_SilkS if part.side == "B" else pcbnew.F_SilkS
            p = part.pads[0]
            kind = None if part.library else self.polarity(part)  # (KiCad's footprints mark their own)
            if kind == "+":
                segment(p.x - 0.5, p.y - 1.6, p.x + 0.5, p.y - 1.6, silk, 0.15)
                segment(p.x, p.y - 2.1, p.x, p.y - 1.1, silk, 0.15)
            elif kind == "band":
                d = (p.size[0] / 2 + 0.35) * (1 if part.pads[1].x > p.x else -1)  # towards the body
                segment(p.x + d, p.y - 0.9, p.x + d, p.y + 0.9, silk, 0.2)
            elif kind == "dot":
                segment(p.x - 0.1, p.y + (1.3 if p.y > part.y else -1.3), p.x + 0.1,
                        p.y + (1.3 if p.y > part.y else -1.3), silk, 0.3)
        # The outline and the value of each part drawn here (KiCad's footprints bring their
        # own): the outline on the silkscreen and the fabrication layer of its side, the
        # value on the silkscreen where it fits clear of every pad and label, else on the
        # fabrication layer only.
        values = self.values(labels)
        w0 = self.LABEL * 0.85
        texts = [(q.side, (x - len(t) * w0 / 2, y - self.LABEL / 2, x + len(t) * w0 / 2, y + self.LABEL / 2))
                 for q in self.parts for t, at in ((q.ref, labels.get(q.ref)), (q.value, values.get(q.ref))) if at
                 for x, y in [at]]
        for part in self.parts:
            if part.library or not part.silk:
                continue
            back = part.side == "B"
            silk = pcbnew.B_SilkS if back else pcbnew.F_SilkS
            fab = pcbnew.B_Fab if back else pcbnew.F_Fab
            for x1, y1, x2, y2 in self.outline(part, texts):
                segment(x1, y1, x2, y2, silk, SILK_W)
            if self.polarity(part) == "flat":  # a TO-92's flat face: a second line beyond its side
                a, c = part.pads[0], part.pads[-1]
                d = math.hypot(c.x - a.x, c.y - a.y)
                nx, ny = -(c.y - a.y) / d, (c.x - a.x) / d
                off = a.size[0] / 2 + OUTLINE + 0.35
                for line in self._clipped(part, [(a.x + nx * off, a.y + ny * off, c.x + nx * off, c.y + ny * off)], texts):
                    segment(*line, silk, 0.25)
            x0, y0, x1, y1 = part.silk
            for a in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
                segment(*a, fab, 0.1)
            at = values.get(part.ref)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            k.text(cx, cy, part.value, 0.8, 0.12, fab, mirrored=back)
            if at:
                k.text(at[0], at[1], part.value, self.LABEL, 0.12, silk, mirrored=back)
        if self.POUR:
            z = pcbnew.ZONE(b)
            ls = pcbnew.LSET()
            ls.AddLayer(pcbnew.F_Cu)
            ls.AddLayer(pcbnew.B_Cu)
            z.SetLayerSet(ls)
            z.SetNet(net(self.POUR))
            z.SetLocalClearance(mm(0.3))
            z.SetMinThickness(mm(0.25))
            z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
            z.SetThermalReliefGap(mm(0.4))
            z.SetThermalReliefSpokeWidth(mm(0.4))
            outline = z.Outline()
            outline.NewOutline()
            for x, y in ((EDGE, EDGE), (W - EDGE, EDGE), (W - EDGE, H - EDGE), (EDGE, H - EDGE)):
                outline.Append(mm(x), mm(y))
            b.Add(z)  # (filled once saved: fill_zones)
        if self.NOTE:
            x, y, words = self.NOTE
            k.text(x, y, words, 1.2, 0.15, pcbnew.B_SilkS, mirrored=True)
        return b

    NOTE = None  # (x, y, words) on the back's silkscreen
    POUR = None  # a net poured over both copper layers (after routing: its tracks connect it anyway)

    def polarity(self, part) -> str | None:
        """How the part's pin 1 is marked: "+", "band", "dot" or None."""
        return None

    LABEL = 0.8  # the references' text height (mm)

    def labels(self):
        """{reference: (x, y)}: where each part's reference goes: between its rows of pins if
        it says so, else above, below, left or right of its pads, the first place clear of
        every pad and of the references placed before it (on its side of the board)."""
        placed = []
        return {part.ref: self._place_label(part, placed) for part in self.parts}

    def values(self, labels):
        """{reference: (x, y)}: where each hand-drawn part's value goes on the silkscreen
        (beside its reference, clear of every pad, label, outline and value), for the parts
        it fits; the others have it on the fabrication layer only."""
        w0 = self.LABEL * 0.85
        placed = [(q.side, (x - len(q.ref) * w0 / 2 - 0.15, y - self.LABEL / 2 - 0.15,
                            x + len(q.ref) * w0 / 2 + 0.15, y + self.LABEL / 2 + 0.15))
                  for q in self.parts for (x, y) in [labels[q.ref]]]
        out = {}
        for part in self.parts:
            if part.library or not part.silk or not part.value:
                continue
            x, y = labels[part.ref]
            w, h = len(part.value) * w0, self.LABEL
            r = len(part.ref) * w0
            spots = [(x, y + h + 0.6), (x, y - h - 0.6), (x + r / 2 + w / 2 + 0.8, y), (x - r / 2 - w / 2 - 0.8, y)]
            for sx, sy in spots:
                box = (sx - w / 2 - 0.15, sy - h / 2 - 0.15, sx + w / 2 + 0.15, sy + h / 2 + 0.15)
                if self._clear(part, box, placed):
                    placed.append((part.side, box))
                    out[part.ref] = (sx, sy)
                    break
        return out

    def _clear(self, part, box, placed):
        """Whether a text's box on part's side is on the board, clear of pads, holes, the
        boxes placed, the outlines (hand-drawn parts') and footprint drawings, the dots."""
        if box[0] < EDGE or box[1] < EDGE or box[2] > self.W - EDGE or box[3] > self.H - EDGE:
            return False
        m = 0.25
        if any(q.x + q.size[0] / 2 + m > box[0] and q.x - q.size[0] / 2 - m < box[2] and
               q.y + q.size[1] / 2 + m > box[1] and q.y - q.size[1] / 2 - m < box[3] for q in self.pads()):
            return False
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(math.hypot(hx - cx, hy - cy) < hd / 2 + (box[2] - box[0]) / 2 + 0.3 for hx, hy, hd in self.holes):
            return False
        others = placed + self._dots()
        for q in self.parts:
            if q.silk:
                others.append((q.side, q.silk) if q.library else None)
                if not q.library:  # an outline is its four lines, not its inside
                    x0, y0, x1, y1 = q.silk
                    others += [(q.side, (x0 - 0.1, y0 - 0.1, x1 + 0.1, y0 + 0.1)), (q.side, (x0 - 0.1, y1 - 0.1, x1 + 0.1, y1 + 0.1)),
                               (q.side, (x0 - 0.1, y0 - 0.1, x0 + 0.1, y1 + 0.1)), (q.side, (x1 - 0.1, y0 - 0.1, x1 + 0.1, y1 + 0.1))]
        return not any(o and o[0] == part.side and o[1][0] < box[2] and box[0] < o[1][2] and o[1][1] < box[3]
                       and box[1] < o[1][3] for o in others)

    def _place_label(self, part, placed):
        xs = [p.x for p in part.pads]
        ys = [p.y for p in part.pads]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        if self.label_inside(part):
            return cx, cy
        w, h = len(part.ref) * self.LABEL * 0.85, self.LABEL
        pad = max(max(p.size) for p in part.pads) / 2
        spots = [(cx, min(ys) - pad - 0.9), (cx, max(ys) + pad + 0.9),
                 (min(xs) - pad - 0.6 - w / 2, cy), (max(xs) + pad + 0.6 + w / 2, cy)]
        if part.silk:  # beyond its footprint's drawing, then further out
            x0, y0, x1, y1 = part.silk
            for e in (0.35, 0.9, 1.5):
                spots += [(cx, y0 - h / 2 - e), (cx, y1 + h / 2 + e), (x0 - w / 2 - e, cy), (x1 + w / 2 + e, cy)]
        for x, y in spots:
            box = (x - w / 2 - 0.15, y - h / 2 - 0.15, x + w / 2 + 0.15, y + h / 2 + 0.15)
            if box[0] < EDGE or box[1] < EDGE or box[2] > self.W - EDGE or box[3] > self.H - EDGE:
                continue
            m = 0.25  # a pad's solder mask opening and the silkscreen's clearance from it
            if any(q.x + q.size[0] / 2 + m > box[0] and q.x - q.size[0] / 2 - m < box[2] and
                   q.y + q.size[1] / 2 + m > box[1] and q.y - q.size[1] / 2 - m < box[3] for q in self.pads()):
                continue
            if any(side == part.side and b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3]
                   for side, b in placed + [(q.side, q.silk) for q in self.parts if q.silk] + self._dots()):
                continue  # over another's label, a footprint's drawing or a pin 1's dot
            if any(math.hypot(hx - x, hy - y) < hd / 2 + w / 2 + 0.3 for hx, hy, hd in self.holes):
                continue
            placed.append((part.side, box))
            return x, y
        return spots[0]

    def _dots(self):
        """[(side, box)]: the dots that mark the hand-drawn chips' pin 1 (as kicad() draws them)."""
        out = []
        for part in self.parts:
            if not part.library and self.polarity(part) == "dot":
                p = part.pads[0]
                y = p.y + (1.3 if p.y > part.y else -1.3)
                out.append((part.side, (p.x - 0.3, y - 0.3, p.x + 0.3, y + 0.3)))
        return out

    def label_inside(self, part) -> bool:
        return False

    # ----- the assembly service's files

    ASSEMBLY = {}  # (value, SMD kind or footprint name) -> (MPN, LCSC number)

    def kicad_orientation(self, part) -> int:
        """The orientation KiCad gives the part's footprint (degrees, counter-clockwise):
        its turn on the front; on the back the turn KiCad's flip leaves, negated."""
        return part.rot % 360 if part.side == "F" else (-part.rot) % 360

    def assembly_rows(self):
        """The surface-mount parts, in JLCPCB's documented files (its BOM and CPL guides):
        BOM rows (Comment, Designator: comma-separated, Footprint, LCSC Part #, and the
        MPN) and placement rows (Designator, Mid X, Mid Y in mm from the board's lower left
        corner, Layer Top or Bottom, Rotation counter-clockwise), the rotation KiCad's
        corrected by KiBot's table for JLCPCB's zero orientations (jlc_rotation)."""
        bom, cpl = {}, []
        for part in self.parts:
            if not part.pads or part.pads[0].layers == "FB":
                continue
            name = part.fp.split(":")[1]
            kind = next((k for k, v in SMD.items() if v[0] == part.fp), name)
            mpn, lcsc = self.ASSEMBLY[(part.value, kind)]
            if not lcsc:
                continue  # no stocked number: soldered by hand (hand_parts)
            bom.setdefault((part.value, mpn, name, lcsc), []).append(part.ref)
            back = part.side == "B"
            cpl.append((part.ref, "%.3f" % part.x, "%.3f" % (self.H - part.y), "Bottom" if back else "Top",
                        "%d" % jlc_rotation(name, self.kicad_orientation(part), back)))
        return ([(v, ",".join(sorted(refs, key=_natural)), fp, lcsc, mpn) for (v, mpn, fp, lcsc), refs in sorted(bom.items())],
                sorted(cpl, key=lambda r: _natural(r[0])))


    def hand_parts(self):
        """The surface-mount parts the assembly service cannot fit (no stocked LCSC
        number): [(reference, value, MPN)], soldered by the maker (the guide says which)."""
        out = []
        for part in self.parts:
            if part.pads and part.pads[0].layers != "FB":
                kind = next((k for k, v in SMD.items() if v[0] == part.fp), part.fp.split(":")[1])
                mpn, lcsc = self.ASSEMBLY[(part.value, kind)]
                if not lcsc:
                    out.append((part.ref, part.value, mpn))
        return sorted(out)


def _natural(ref):
    """R2 before R10."""
    head = ref.rstrip("0123456789")
    return head, int(ref[len(head):] or 0)


def jlc_rotation(footprint: str, kicad_degrees: float, bottom: bool) -> int:
    """JLCPCB's rotation of a part whose KiCad footprint (its name, no library) KiCad
    turns kicad_degrees: KiBot's table of the footprints whose zero orientation differs
    at JLCPCB (kibot.misc.DEFAULT_ROTATIONS, first match), applied as KiBot's JLCPCB
    filter does: on top the angle added, on the bottom KiCad's angle mirrored first
    (180 - angle)."""
    import re

    from kibot.misc import DEFAULT_ROTATIONS

    extra = next((angle for pattern, angle in DEFAULT_ROTATIONS if re.search(pattern, footprint)), 0.0)
    turn_ = (180 - kicad_degrees + extra) if bottom else (kicad_degrees + extra)
    return int(round(turn_)) % 360


def fill_zones(pcbnew, path: Path) -> None:
    """The saved board's zones filled (pcbnew fills a board read from its file)."""
    board = pcbnew.LoadBoard(str(path))
    if board.Zones():
        board.BuildConnectivity()
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
        pcbnew.SaveBoard(str(path), board)


def write_assembly(board: RoutedBoard, out: Path, name: str) -> list[Path]:
    """The assembly service's BOM and placement files: <name>-bom.csv, <name>-cpl.csv."""
    bom, cpl = board.assembly_rows()
    paths = []
    for name, header, rows in ((name + "-bom.csv", ["Comment", "Designator", "Footprint", "LCSC Part #", "MPN"], bom),
                               (name + "-cpl.csv", ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"], cpl)):
        s = io.StringIO()
        w = csv.writer(s, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        (out / name).write_text(s.getvalue())
        paths.append(out / name)
    return paths


def picture(face: RoutedBoard, path: Path, title: str, size=(14, 4.6)) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    W, H = face.W, face.H
    fig, ax = plt.subplots(figsize=size)
    for x1, y1, x2, y2, layer, _, width in face.tracks:
        ax.plot([x1, x2], [y1, y2], color="#c62828" if layer == "F" else "#1565c0", lw=0.8 * width / TRACK if width > TRACK
                else 0.8, alpha=0.8)
    for x, y, _ in face.vias:
        ax.add_patch(plt.Circle((x, y), VIA[0] / 2, color="#555555"))
    for p in face.pads():
        if p.layers != "FB":
            ax.add_patch(plt.Rectangle((p.x - p.size[0] / 2, p.y - p.size[1] / 2), *p.size, color="#8e24aa", alpha=0.7))
        else:
            ax.add_patch(plt.Circle((p.x, p.y), p.size[0] / 2, color="#c9a227"))
    for ref, at in face.labels().items():
        ax.text(*at, ref, fontsize=6, ha="center", va="center")
    for x, y, d in face.holes:
        ax.add_patch(plt.Circle((x, y), d / 2, fill=False, color="black"))
    ax.plot([0, W, W, 0, 0], [0, 0, H, H, 0], color="black", lw=1)
    ax.set_xlim(-2, W + 2)
    ax.set_ylim(H + 2, -2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)




def files(name: str, out: Path):
    """A board's files: the KiCad board, its DRC report, its fab folder, its picture."""
    return out / (name + ".kicad_pcb"), out / (name + "-drc.rpt"), out / ("gerber-" + name), out / (name + ".png")


def write_board(board: RoutedBoard, name: str, out: Path, title: str, size=(14, 4.6)) -> tuple[int, int]:
    """The routed board written out: the KiCad board (its zones filled), its design rules
    check, the Gerbers (the paste of the side its surface-mount parts are on) and drill, the
    assembly service's files, the picture; the DRC's (violations, unconnected)."""
    from hardware import pcb

    pcbnew = pcb.pcbnew_module()
    out.mkdir(parents=True, exist_ok=True)
    path, drc, fab, pic = files(name, out)
    pcbnew.SaveBoard(str(path), board.kicad(pcbnew))
    fill_zones(pcbnew, path)
    result = pcb.drc(pcbnew, path, drc)
    paste = "B_Paste" if any(p.layers == "B" for p in board.pads()) else "F_Paste"
    pcb.plot(pcbnew, path, fab, ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "B_SilkS", paste, "Edge_Cuts"))
    write_assembly(board, fab, name)
    picture(board, pic, title, size=size)
    return result


def command(prog: str, doc: str, write_all, out: Path, files, argv=None) -> int:
    """A board's command line: --out, then write_all(out); prints what it made and the DRC's
    figures; 1 unless the check is clean. files: its files (files())."""
    import argparse

    ap = argparse.ArgumentParser(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(out), help="the folder (default: hardware/pcb)")
    a = ap.parse_args(argv)
    try:
        violations, unconnected = write_all(Path(a.out))
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    board, drc, fab, picture_ = (Path(a.out) / f.name for f in files)
    print(board, f"DRC: {violations} violations, {unconnected} unconnected ({drc})", fab, picture_, sep="\n")
    return 1 if violations or unconnected else 0
