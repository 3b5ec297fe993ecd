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

import csv
import heapq
import io
import math
import sys
from pathlib import Path

from hardware import enclosure as E
from hardware import pcb as STRIP

HERE = Path(__file__).resolve().parent
OUT = HERE / "pcb"
BOARD_FILE = OUT / "face.kicad_pcb"
DRC_FILE = OUT / "face-drc.rpt"
FAB = OUT / "gerber-face"
PICTURE = OUT / "face.png"

GRID = 0.635
TRACK, CLEARANCE = 0.25, 0.2
VIA = (0.6, 0.3)
EDGE = 0.5
W, H = E.FACE_BOARD[0], E.FACE_BOARD[1]
HOLE = 2.7  # the M2.5 screws behind the window (enclosure.FACE_SCREWS)
VIA_COST = 12

# SMD parts: (KiCad footprint, pad size, pad centres from the part's centre, LCSC number)
SMD = {
    "SOIC-28W": ("Package_SO:SOIC-28W_7.5x17.9mm_P1.27mm", (0.6, 2.0), None, "C180029"),
    "0805": ("Resistor_SMD:R_0805_2012Metric", (1.0, 1.3), [(-0.9525, 0.0), (0.9525, 0.0)], None),
    "SOD-123": ("Diode_SMD:D_SOD-123", (0.9, 1.2), [(-1.5875, 0.0), (1.5875, 0.0)], "C81598"),
}
# The surface-mount parts' order for an assembly service: (value, footprint) -> (MPN, LCSC)
ASSEMBLY = {
    ("HT16K33", "SOIC-28W"): ("HT16K33-28SOP", "C180029"),
    ("100n", "0805"): ("CL21B104KBCNNNC", "C28233"),
    ("39k", "0805"): ("0805W8F3902T5E", "C25826"),
    ("1N4148", "SOD-123"): ("1N4148W", "C81598"),
}


class Pad:
    def __init__(self, part, number, x, y, net, size, layers, drill=0.0, rect=False):
        self.part, self.number, self.x, self.y, self.net = part, number, x, y, net
        self.size, self.layers, self.drill, self.rect = size, layers, drill, rect  # layers: "FB", "B"

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


class Face:
    """The face board as data: parts and pads (mm, y down, the front seen from the front),
    then the routed tracks and vias."""

    def __init__(self, board=None):
        from hardware.circuit import Board

        self.circuit = board or Board()
        self.parts: list[Part] = []
        self.holes = [(W / 2 + sx * E.FACE_SCREWS[0] / abs(sx), H / 2 + sy * E.FACE_SCREWS[1] / abs(sy))
                      for sx in (-1, 1) for sy in (-1, 1)]
        self.tracks = []  # (x1, y1, x2, y2, layer "F"/"B", net)
        self.vias = []  # (x, y, net)
        self._place()

    # ----- the parts, from Black's face in the circuit (the superset: its address parts)

    def _net(self, key, pin):
        p = self.circuit.parts[key][pin]
        name = p.nets[0].name if p.nets else None
        if not name or name.startswith("__"):
            return None
        return name.replace("FACE_B_", "").replace("FACE_", "")

    def _tht(self, ref, key, value, fp, pins, drill=1.0, size=1.7, side="F"):
        x, y = pins[0][1], pins[0][2]
        part = Part(ref, key, value, side, fp, x, y)
        for number, px, py, net in pins:
            part.pads.append(Pad(part, number, px, py, net, (size, size), "FB", drill, rect=number == "1"))
        self.parts.append(part)
        return part

    def _smd(self, ref, key, value, kind, x, y, nets, rot=0):
        fp, size, offsets, _ = SMD[kind]
        part = Part(ref, key, value, "B", fp, x, y, rot)
        if kind == "SOIC-28W":
            offsets = [(-(6.5 - i) * 1.27, 4.65) for i in range(14)] + [((6.5 - i) * 1.27, -4.65) for i in range(14)]
            size_ = (size[0], size[1])
        else:
            size_ = size if rot in (0, 180) else (size[1], size[0])
        for k, (dx, dy) in enumerate(offsets):
            if rot == 90:
                dx, dy = -dy, dx
            part.pads.append(Pad(part, str(k + 1), x + dx, y + dy, nets[k], size_, "B", rect=True))
        self.parts.append(part)
        return part

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
            x, y = 20 * GRID + 26 * GRID * i, 64 * GRID
            self._tht("D%d" % (i + 10), key, "red 3 mm", "LED_D3.0mm",
                      [("1", x, y, self._net(key, "K")), ("2", x + 4 * GRID, y, self._net(key, "A"))], drill=0.9, size=1.6)
        # The back: the HT16K33 between the characters' rows, its capacitors beside it.
        chip = c["face_" + k]
        nets = [self._net("face_" + k, str(n)) for n in range(1, 29)]
        self._smd("U1", "face_" + k, "HT16K33", "SOIC-28W", 141 * GRID, 32 * GRID, nets)
        self._smd("C1", "c_face_" + k, "100n", "0805", 172 * GRID, 32 * GRID,
                  [self._net("c_face_" + k, "1"), self._net("c_face_" + k, "2")], rot=90)
        cp = "cp_face_" + k
        self._tht("C2", cp, "100u", "CP_Radial_D6.3mm_P2.50mm",
                  [("1", 262 * GRID, 33 * GRID, self._net(cp, "+")), ("2", 266 * GRID, 33 * GRID, self._net(cp, "-"))],
                  drill=0.8, size=1.6, side="B")
        # The keys' diodes and the address diode and resistor, by the keys' connector.
        for ref, key, x in (("D1", "d_ask_" + k, 18), ("D2", "d_draw_" + k, 27), ("D3", "d_addr_" + k, 36)):
            self._smd(ref, key, "1N4148", "SOD-123", x * GRID, 32 * GRID, [self._net(key, "K"), self._net(key, "A")])
        self._smd("R1", "r_addr_" + k, "39k", "0805", 45 * GRID, 32 * GRID,
                  [self._net("r_addr_" + k, "1"), self._net("r_addr_" + k, "2")])
        # The connectors, on the back: J1 to the controller, J2 to the keys.
        order = ["VSYS", "GND", "SDA", "SCL"]
        self._tht("J1", "J_CLOCK", "1x4", "PinHeader_1x04_P2.54mm_Vertical",
                  [(str(n + 1), 276 * GRID, (26 + 4 * n) * GRID, order[n]) for n in range(4)], side="B")
        keys = ["ASK", "ROW3", "DRAW", "ROW4"]
        self._tht("J2", "J_KEYS", "1x4", "PinHeader_1x04_P2.54mm_Vertical",
                  [(str(n + 1), 7 * GRID, (26 + 4 * n) * GRID, keys[n]) for n in range(4)], side="B")

    def pads(self):
        return [p for part in self.parts for p in part.pads]

    # ----- routing

    def route(self):
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
        for hx, hy in self.holes:
            for i, j in cells_near(hx, hy, HOLE / 2 + reach + 0.1):
                if math.hypot(i * GRID - hx, j * GRID - hy) < HOLE / 2 + reach:
                    owner[0][i][j] = owner[1][i][j] = WALL
        pads = self.pads()
        for p in pads:
            n = ids.get(p.net, WALL) if p.net else WALL
            r = max(p.size) / 2 + reach + 0.1
            for i, j in cells_near(p.x, p.y, r):
                d = p.distance(i * GRID, j * GRID)
                if d >= reach:
                    continue
                for layer in ((0, 1) if p.layers == "FB" else (1,)):
                    o = owner[layer][i][j]
                    if d == 0.0:
                        continue
                    owner[layer][i][j] = n if o in (FREE, n) else WALL
        for p in pads:  # the pads' own cells: their net's, whatever else
            n = ids.get(p.net, WALL) if p.net else WALL
            own = [(i, j) for i, j in cells_near(p.x, p.y, max(p.size) / 2 + 0.1)
                   if p.distance(i * GRID, j * GRID) == 0.0]
            if not own:
                raise ValueError("%s pad %s holds no grid point" % (p.part.ref, p.number))
            inside[p] = own
            for i, j in own:
                for layer in ((0, 1) if p.layers == "FB" else (1,)):
                    owner[layer][i][j] = n
        via_at = {}  # (i, j) -> net id: vias placed
        via_room = VIA[0] / 2 + CLEARANCE  # a via's copper and its clearance, from other copper

        def via_ok(i, j, n):
            if owner[0][i][j] not in (FREE, n) or owner[1][i][j] not in (FREE, n):
                return False
            x, y = i * GRID, j * GRID
            for q in near_pads.get((i // 8, j // 8), ()):
                if q.net != names[n] if n >= 0 else True:
                    if q.distance(x, y) < via_room + 0.001:
                        return False
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    m = via_at.get((i + di, j + dj))
                    if m is not None and m != n:
                        return False
            return True

        near_pads = {}
        for p in pads:
            r = max(p.size) / 2 + via_room + GRID * 8
            for bi in range(int((p.x - r) / GRID) // 8, int((p.x + r) / GRID) // 8 + 1):
                for bj in range(int((p.y - r) / GRID) // 8, int((p.y + r) / GRID) // 8 + 1):
                    near_pads.setdefault((bi, bj), []).append(p)

        # Cells close to a pin cost more (a route that hugs a row of pins walls in the rest).
        crowd = [[0] * ny for _ in range(nx)]
        for p in pads:
            for i, j in cells_near(p.x, p.y, max(p.size) / 2 + 1.0):
                if p.distance(i * GRID, j * GRID) < 0.9:
                    crowd[i][j] = 3
        self._crowd = crowd
        by_net = {}
        for p in pads:
            if p.net:
                by_net.setdefault(p.net, []).append(p)
        # The longest nets first (the character rows), then by name.
        order = sorted((n for n in by_net if len(by_net[n]) > 1), key=lambda n: (-len(by_net[n]), n))
        for name in order:
            n = ids[name]
            members = sorted(by_net[name], key=lambda p: (p.x, p.y))
            tree = set()
            for layer, (i, j) in [(l, c) for l in ((0, 1) if members[0].layers == "FB" else (1,))
                                  for c in inside[members[0]]]:
                tree.add((layer, i, j))
            todo = members[1:]
            while todo:
                # the nearest pin still apart
                target = min(todo, key=lambda p: min(abs(p.x - i * GRID) + abs(p.y - j * GRID) for _, i, j in tree))
                todo.remove(target)
                goal = {(l, i, j) for l in ((0, 1) if target.layers == "FB" else (1,)) for i, j in inside[target]}
                path = self._astar(tree, goal, owner, n, target, via_ok)
                if path is None:
                    raise ValueError("no route for %s to %s pad %s" % (name, target.part.ref, target.number))
                for a, b in zip(path, path[1:]):
                    if a[0] != b[0]:
                        via_at[(a[1], a[2])] = n
                        self.vias.append((a[1] * GRID, a[2] * GRID, name))
                    else:
                        self.tracks.append((a[1] * GRID, a[2] * GRID, b[1] * GRID, b[2] * GRID, "FB"[a[0]], name))
                for layer, i, j in path:
                    owner[layer][i][j] = n
                tree |= set(path) | goal
        self._merge()
        return self

    def _astar(self, sources, goal, owner, n, target, via_ok):
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
            crowd = self._crowd
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = i + di, j + dj
                if 0 <= a < nx and 0 <= b < ny and owner[layer][a][b] in (-1, n):
                    # the back runs along the board, the front across it
                    along = (dj == 0) == (layer == 1)
                    steps.append(((layer, a, b), (1 if along else 4) + crowd[a][b]))
            if via_ok(i, j, n):
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
                x1, y1, x2, y2, layer, net = out[-1]
                a1, b1, a2, b2, l2, n2 = t
                if (l2, n2) == (layer, net) and (x2, y2) == (a1, b1) and (
                        (x1 == x2 == a2) or (y1 == y2 == b2)):
                    out[-1] = (x1, y1, a2, b2, layer, net)
                    continue
            out.append(t)
        self.tracks = out

    # ----- KiCad

    def kicad(self, pcbnew):
        pcbnew.KIID.SeedGenerator(19)
        b = pcbnew.BOARD()
        mm = pcbnew.FromMM
        pt = lambda x, y: pcbnew.wxPoint(mm(x), mm(y))  # noqa: E731
        ds = b.GetDesignSettings()
        ds.m_CopperEdgeClearance = mm(EDGE)
        ds.SetBoardThickness(mm(1.6))
        nc = ds.GetNetClasses().GetDefault()
        nc.SetClearance(mm(CLEARANCE))
        nc.SetTrackWidth(mm(TRACK))
        nc.SetViaDiameter(mm(VIA[0]))
        nc.SetViaDrill(mm(VIA[1]))
        ds.m_ViasMinSize = mm(VIA[0])
        ds.m_MinThroughDrill = mm(VIA[1])
        nets = {}

        def net(name):
            if name not in nets:
                nets[name] = pcbnew.NETINFO_ITEM(b, name)
                b.Add(nets[name])
            return nets[name]

        for part in self.parts:
            fp = pcbnew.FOOTPRINT(b)
            fp.SetReference(part.ref)
            fp.SetValue(part.value)
            fp.SetPosition(pt(part.x, part.y))
            b.Add(fp)
            back = part.side == "B"
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
                    pad.SetShape(pcbnew.PAD_SHAPE_RECT if p.rect else pcbnew.PAD_SHAPE_CIRCLE)
                    pad.SetDrillSize(pcbnew.wxSize(mm(p.drill), mm(p.drill)))
                    pad.SetLayerSet(pad.PTHMask())
                else:
                    pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
                    pad.SetShape(pcbnew.PAD_SHAPE_RECT)
                    ls = pcbnew.LSET()
                    for layer in (pcbnew.B_Cu, pcbnew.B_Paste, pcbnew.B_Mask):
                        ls.AddLayer(layer)
                    pad.SetLayerSet(ls)
                pad.SetPos0(pt(p.x - part.x, p.y - part.y))
                pad.SetPosition(pt(p.x, p.y))
                if p.net:
                    pad.SetNet(net(p.net))
                fp.Add(pad)
            ref = fp.Reference()
            ref.SetPosition(pt(*self._label_at(part)))
        for x1, y1, x2, y2, layer, n in self.tracks:
            t = pcbnew.PCB_TRACK(b)
            t.SetStart(pt(x1, y1))
            t.SetEnd(pt(x2, y2))
            t.SetWidth(mm(TRACK))
            t.SetLayer(pcbnew.F_Cu if layer == "F" else pcbnew.B_Cu)
            t.SetNet(net(n))
            b.Add(t)
        for x, y, n in self.vias:
            v = pcbnew.PCB_VIA(b)
            v.SetPosition(pt(x, y))
            v.SetWidth(mm(VIA[0]))
            v.SetDrill(mm(VIA[1]))
            v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            v.SetNet(net(n))
            b.Add(v)
        for k, (x, y) in enumerate(self.holes):
            fp = pcbnew.FOOTPRINT(b)
            fp.SetReference("H%d" % (k + 1))
            fp.SetValue("M2.5")
            fp.Reference().SetVisible(False)
            fp.Value().SetVisible(False)
            fp.SetPosition(pt(x, y))
            b.Add(fp)
            pad = pcbnew.PAD(fp)
            pad.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
            pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
            pad.SetSize(pcbnew.wxSize(mm(HOLE), mm(HOLE)))
            pad.SetDrillSize(pcbnew.wxSize(mm(HOLE), mm(HOLE)))
            pad.SetLayerSet(pad.UnplatedHoleMask())
            pad.SetPosition(pt(x, y))
            fp.Add(pad)

        def segment(x1, y1, x2, y2, layer, width):
            e = pcbnew.PCB_SHAPE(b)
            e.SetShape(pcbnew.SHAPE_T_SEGMENT)
            e.SetStart(pt(x1, y1))
            e.SetEnd(pt(x2, y2))
            e.SetLayer(layer)
            e.SetWidth(mm(width))
            b.Add(e)

        for x1, y1, x2, y2 in ((0, 0, W, 0), (W, 0, W, H), (W, H, 0, H), (0, H, 0, 0)):
            segment(x1, y1, x2, y2, pcbnew.Edge_Cuts, 0.1)
        # Polarity: the electrolytic's + and the diodes' bands on the back's silkscreen.
        for part in self.parts:
            if part.ref == "C2":
                p = part.pads[0]
                segment(p.x - 0.5, p.y - 1.6, p.x + 0.5, p.y - 1.6, pcbnew.B_SilkS, 0.15)
                segment(p.x, p.y - 2.1, p.x, p.y - 1.1, pcbnew.B_SilkS, 0.15)
            if part.value == "1N4148":
                k = part.pads[0]
                segment(k.x + 0.8, k.y - 0.9, k.x + 0.8, k.y + 0.9, pcbnew.B_SilkS, 0.2)
        t = pcbnew.PCB_TEXT(b)
        t.SetText("clock face (White: D3, R1 left off)")
        t.SetPosition(pt(W / 2, H - 3.0))
        t.SetLayer(pcbnew.B_SilkS)
        t.SetMirrored(True)
        t.SetTextSize(pcbnew.wxSize(mm(1.2), mm(1.2)))
        t.SetTextThickness(mm(0.15))
        b.Add(t)
        return b

    def _label_at(self, part):
        xs = [p.x for p in part.pads]
        ys = [p.y for p in part.pads]
        if part.ref.startswith("DS") or part.ref == "U1":  # between its rows of pins
            return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        return (min(xs) + max(xs)) / 2, min(ys) - max(p.size[1] for p in part.pads) / 2 - 0.9

    # ----- the assembly service's files

    def assembly_rows(self):
        """The surface-mount parts: BOM rows (comment, designators, footprint, LCSC) and
        placement rows (designator, x, y, layer, rotation), in mm from the board's lower
        left corner as assembly services read them."""
        bom, cpl = {}, []
        for part in self.parts:
            if part.side != "B" or not part.pads or part.pads[0].layers != "B":
                continue
            kind = next(k for k, v in SMD.items() if v[0] == part.fp)
            mpn, lcsc = ASSEMBLY[(part.value, kind)]
            bom.setdefault((part.value, mpn, part.fp, lcsc), []).append(part.ref)
            cpl.append((part.ref, "%.3f" % part.x, "%.3f" % (H - part.y), "bottom", "%d" % part.rot))
        return ([(v, " ".join(sorted(refs)), fp.split(":")[1], lcsc, mpn) for (v, mpn, fp, lcsc), refs in sorted(bom.items())],
                sorted(cpl))


def write_assembly(face: Face, out: Path) -> list[Path]:
    bom, cpl = face.assembly_rows()
    paths = []
    for name, header, rows in (("face-bom.csv", ["Comment", "Designator", "Footprint", "LCSC", "MPN"], bom),
                               ("face-cpl.csv", ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"], cpl)):
        s = io.StringIO()
        w = csv.writer(s, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        (out / name).write_text(s.getvalue())
        paths.append(out / name)
    return paths


def picture(face: Face, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(14, 4.6))
    for x1, y1, x2, y2, layer, _ in face.tracks:
        ax.plot([x1, x2], [y1, y2], color="#c62828" if layer == "F" else "#1565c0", lw=0.8, alpha=0.8)
    for x, y, _ in face.vias:
        ax.add_patch(plt.Circle((x, y), VIA[0] / 2, color="#555555"))
    for p in face.pads():
        if p.layers == "B":
            ax.add_patch(plt.Rectangle((p.x - p.size[0] / 2, p.y - p.size[1] / 2), *p.size, color="#8e24aa", alpha=0.7))
        else:
            ax.add_patch(plt.Circle((p.x, p.y), p.size[0] / 2, color="#c9a227"))
    for part in face.parts:
        ax.text(*face._label_at(part), part.ref, fontsize=6, ha="center", va="center")
    for x, y in face.holes:
        ax.add_patch(plt.Circle((x, y), HOLE / 2, fill=False, color="black"))
    ax.plot([0, W, W, 0, 0], [0, 0, H, H, 0], color="black", lw=1)
    ax.set_xlim(-2, W + 2)
    ax.set_ylim(H + 2, -2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("A clock face's PCB from the front (hardware/facepcb.py): top copper red, bottom blue, "
                 "THT pads gold, the back's SMD pads purple", fontsize=9)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def write_all(out: Path = OUT) -> tuple[int, int]:
    pcbnew = STRIP.pcbnew_module()
    out.mkdir(parents=True, exist_ok=True)
    face = Face().route()
    path = out / BOARD_FILE.name
    pcbnew.SaveBoard(str(path), face.kicad(pcbnew))
    result = STRIP.drc(pcbnew, path, out / DRC_FILE.name)
    fab = out / FAB.name
    STRIP.plot(pcbnew, path, fab, ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "B_SilkS", "B_Paste", "Edge_Cuts"))
    write_assembly(face, fab)
    picture(face, out / PICTURE.name)
    return result


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.facepcb", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(OUT), help="the folder (default: hardware/pcb)")
    a = ap.parse_args(argv)
    try:
        violations, unconnected = write_all(Path(a.out))
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{ap.prog}: error: {e}") from None
    out = Path(a.out)
    print(out / BOARD_FILE.name, f"DRC: {violations} violations, {unconnected} unconnected ({out / DRC_FILE.name})",
          out / FAB.name, out / PICTURE.name, sep="\n")
    return 1 if violations or unconnected else 0


if __name__ == "__main__":
    sys.exit(main())
