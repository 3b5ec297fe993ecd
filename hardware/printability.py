"""Whether a printed part prints as it lies in its STL, with no support: the check a slicer's
"support" preview makes, over the mesh itself.

A face that looks down at more than OVERHANG_DEG from the vertical (a roof, a ledge, the
top of a hole) is laid on air unless something stands under it. Such faces are gathered
into connected overhangs; each overhang's rim is sorted into edges that stand on the part
(a wall goes down from them: the sides of a hole, the wall a ledge grows from) and edges
in the air. An overhang prints if every point of it is either

- within LEDGE_MM of an edge that stands (a ledge: the printer's perimeters step out that
  far and hold), or
- on a straight line, along one of eight directions, from one standing edge to another
  no longer than BRIDGE_MM (a bridge: the strand is drawn taut between its two ends).

Faces on the bed (the part's lowest plane) are not overhangs. Units: millimetres, the
STL's z the printer's up.

    python -m hardware.printability FILE.stl ...
"""
from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

OVERHANG_DEG = 45.0  # the steepest overhang from the vertical that prints without support
LEDGE_MM = 2.0  # how far a layer may reach out over air from what stands
BRIDGE_MM = 25.0  # the longest strand drawn between two standing ends (PLA bridges 50 mm with care)
CELL_MM = 0.4  # the raster an overhang is checked on
BED_MM = 0.05  # faces this close to the lowest plane lie on the bed

# The eight directions a bridge may run (opposites paired): (dx, dy) in cells.
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def read_stl(path) -> "numpy.ndarray":
    """A binary STL's triangles, shape (n, 3, 3)."""
    import numpy as np

    data = Path(path).read_bytes()
    (n,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * n:
        raise ValueError("%s is not a binary STL" % path)
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                        count=n, offset=84)
    return rec["v"].astype(np.float64)


class Overhang:
    """One overhang that does not print: where it is and how far it reaches over air."""

    def __init__(self, z: float, box, worst: float, area: float):
        self.z, self.box, self.worst, self.area = z, box, worst, area

    def __repr__(self):
        (x0, y0), (x1, y1) = self.box
        return "overhang at z %.1f over x %.1f..%.1f, y %.1f..%.1f (%.0f mm2): %.1f mm from what stands" % (
            self.z, x0, x1, y0, y1, self.area, self.worst)


def inside(tris, points) -> "numpy.ndarray":
    """Whether each point is inside the closed mesh: the parity of a ray's crossings (a ray
    a little off the vertical, so that it meets no edge of an axis-aligned mesh)."""
    import numpy as np

    d = np.array([0.0123, 0.0317, 1.0])
    d /= np.linalg.norm(d)
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    e1, e2 = b - a, c - a
    p = np.cross(d, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    out = []
    for q in np.atleast_2d(points):
        s = q - a
        u = np.einsum("ij,ij->i", s, p) * inv
        qv = np.cross(s, e1)
        v = (qv @ d) * inv
        t = np.einsum("ij,ij->i", e2, qv) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
        out.append(int(hit.sum()) % 2 == 1)
    return np.array(out, dtype=bool)


def _regions(tris, faces):
    """The overhanging faces (indices) gathered into groups that share an edge."""
    key = lambda p: (round(p[0], 3), round(p[1], 3), round(p[2], 3))  # noqa: E731
    parent = {f: f for f in faces}

    def root(f):
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    owner = {}
    for f in faces:
        vs = [key(tris[f][i]) for i in range(3)]
        for i in range(3):
            e = frozenset((vs[i], vs[(i + 1) % 3]))
            if e in owner:
                parent[root(f)] = root(owner[e])
            else:
                owner[e] = f
    groups = {}
    for f in faces:
        groups.setdefault(root(f), []).append(f)
    return list(groups.values())


def _rim(tris, region):
    """The region's rim: [(a, b, centroid of its face)] for the edges no other face of the
    region shares."""
    key = lambda p: (round(p[0], 3), round(p[1], 3), round(p[2], 3))  # noqa: E731
    count, where = {}, {}
    for f in region:
        t = tris[f]
        for i in range(3):
            a, b = t[i], t[(i + 1) % 3]
            e = frozenset((key(a), key(b)))
            count[e] = count.get(e, 0) + 1
            where[e] = (a, b, t.mean(axis=0))
    return [where[e] for e, n in count.items() if n == 1]


def _check_region(tris, region, z0):
    import numpy as np

    faces = tris[region]
    lo = faces[:, :, :2].reshape(-1, 2).min(axis=0) - 2 * CELL_MM
    hi = faces[:, :, :2].reshape(-1, 2).max(axis=0) + 2 * CELL_MM
    nx, ny = (int(math.ceil(v)) for v in (hi - lo) / CELL_MM)
    xs = lo[0] + (np.arange(nx) + 0.5) * CELL_MM
    ys = lo[1] + (np.arange(ny) + 0.5) * CELL_MM
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    cover = np.zeros((nx, ny), dtype=bool)
    for t in faces[:, :, :2]:
        (x0, y0), (x1, y1), (x2, y2) = t
        den = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
        if abs(den) < 1e-12:
            continue
        l0 = ((y1 - y2) * (gx - x2) + (x2 - x1) * (gy - y2)) / den
        l1 = ((y2 - y0) * (gx - x2) + (x0 - x2) * (gy - y2)) / den
        cover |= (l0 >= -1e-9) & (l1 >= -1e-9) & (l0 + l1 <= 1 + 1e-9)
    if not cover.any():
        return None  # finer than the raster: nothing to hang
    # The rim's edges that stand on the part: just outside the edge and just below it is
    # the part itself (or the bed).
    anchor = np.zeros_like(cover)
    rim = _rim(tris, region)
    queries, edges = [], []
    for a, b, c in rim:
        m = (a + b) / 2
        e = b[:2] - a[:2]
        length = float(np.hypot(*e))
        if length < 1e-9:
            continue
        o = np.array([-e[1], e[0]]) / length
        if np.dot(o, m[:2] - c[:2]) < 0:
            o = -o
        edges.append((a, b, o, length))
        queries.append([m[0] + 0.3 * o[0], m[1] + 0.3 * o[1], m[2] - 0.3])
    if not edges:
        return None
    on_bed = [min(a[2], b[2]) <= z0 + BED_MM for a, b, _, _ in edges]
    stands = inside(tris, np.array(queries)) | np.array(on_bed)
    for (a, b, o, length), ok in zip(edges, stands):
        if not ok:
            continue
        for s in np.linspace(0, 1, max(2, int(length / (CELL_MM / 2)) + 1)):
            for out in (0.1, 0.5, 0.9):  # the first cell past the edge, wherever the edge cuts its cell
                p = a[:2] + (b[:2] - a[:2]) * s + o * out * CELL_MM
                i, j = int((p[0] - lo[0]) // CELL_MM), int((p[1] - lo[1]) // CELL_MM)
                if 0 <= i < nx and 0 <= j < ny and not cover[i, j]:
                    anchor[i, j] = True
    # For each cell and direction: how many cells to the rim, and whether the rim there stands.
    best_ledge = np.full(cover.shape, np.inf)
    bridged = np.zeros_like(cover)
    for dx, dy in _DIRECTIONS:
        step = CELL_MM * math.hypot(dx, dy)
        runs = []
        for sx, sy in ((dx, dy), (-dx, -dy)):
            dist, held = _run(cover, anchor, sx, sy)
            runs.append((dist, held))
            best_ledge = np.where(cover & held, np.minimum(best_ledge, (dist + 0.5) * step), best_ledge)
        (d1, h1), (d2, h2) = runs
        bridged |= cover & h1 & h2 & ((d1 + d2 + 1) * step <= BRIDGE_MM)
    bad = cover & ~bridged & ~(best_ledge <= LEDGE_MM)
    if not bad.any():
        return None
    worst = float(np.max(np.where(bad, best_ledge, 0)))
    pts = faces.reshape(-1, 3)
    return Overhang(float(pts[:, 2].min()), (tuple(pts[:, :2].min(axis=0)), tuple(pts[:, :2].max(axis=0))),
                    worst, float(cover.sum()) * CELL_MM ** 2)


def _run(cover, anchor, sx, sy):
    """For every cell of `cover`: how many more cells of it lie ahead in direction (sx, sy),
    and whether the first cell past them is an anchor."""
    import numpy as np

    nx, ny = cover.shape
    dist = np.zeros((nx, ny))
    held = np.zeros((nx, ny), dtype=bool)
    pad_c = np.zeros((nx + 2, ny + 2), dtype=bool)
    pad_c[1:-1, 1:-1] = cover
    pad_a = np.zeros_like(pad_c)
    pad_a[1:-1, 1:-1] = anchor
    pd = np.zeros((nx + 2, ny + 2))
    ph = np.zeros_like(pad_c)
    # Sweep from the far side so that a cell's next cell is done before it.
    order_i = range(nx, 0, -1) if sx > 0 else range(1, nx + 1)
    if sx != 0:
        for i in order_i:
            ni = i + sx
            nxt_c = np.roll(pad_c[ni], -sy)
            nxt_d = np.roll(pd[ni], -sy)
            nxt_h = np.roll(ph[ni], -sy)
            nxt_a = np.roll(pad_a[ni], -sy)
            pd[i] = np.where(nxt_c, nxt_d + 1, 0)
            ph[i] = np.where(nxt_c, nxt_h, nxt_a)
    else:
        order_j = range(ny, 0, -1) if sy > 0 else range(1, ny + 1)
        for j in order_j:
            nj = j + sy
            pd[:, j] = np.where(pad_c[:, nj], pd[:, nj] + 1, 0)
            ph[:, j] = np.where(pad_c[:, nj], ph[:, nj], pad_a[:, nj])
    dist[:] = pd[1:-1, 1:-1]
    held[:] = ph[1:-1, 1:-1]
    return dist, held


def overhangs(tris) -> list[Overhang]:
    """The overhangs of a mesh (as it lies: z up) that would not print without support."""
    import numpy as np

    tris = np.asarray(tris, dtype=np.float64)
    z0 = tris[:, :, 2].min()
    n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    norm = np.linalg.norm(n, axis=1)
    ok = norm > 1e-12
    nz = np.where(ok, n[:, 2] / np.where(ok, norm, 1), 0)
    down = ok & (nz < -math.sin(math.radians(90 - OVERHANG_DEG)) - 1e-6)
    on_bed = tris[:, :, 2].max(axis=1) <= z0 + BED_MM
    faces = [int(f) for f in np.nonzero(down & ~on_bed)[0]]
    out = []
    for region in _regions(tris, faces):
        bad = _check_region(tris, region, z0)
        if bad is not None:
            out.append(bad)
    return out


def main(argv=None) -> int:
    status = 0
    for name in (argv if argv is not None else sys.argv[1:]):
        bad = overhangs(read_stl(name))
        print("%s: %s" % (name, "prints without support" if not bad else "%d overhangs" % len(bad)))
        for o in bad:
            print("   ", o)
        status |= bool(bad)
    return status


if __name__ == "__main__":
    sys.exit(main())
