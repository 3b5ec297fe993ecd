"""Sizing the pieces' magnets against the reed switches and the board's layers.

    python -m hardware.magnets      # the candidates, their fields, and the choice

A reed switch's sensitivity is given in ampere-turns (AT) in a test coil, not in tesla,
and the two do not convert exactly (Littelfuse's application note AN102A: "an
order-of-magnitude approximation... could vary by a factor of 2"). So the sizing is an
estimate with its margins written out, and the self-test (hardware/README.md) confirms it
on the real board:

- A coil about as long as the glass (14 mm) gives B = mu0 * NI / L (a long solenoid, the
  magnet makers' rule): ~0.09 mT per AT.
- A magnet standing over one end of the glass closes it with one pole only, which takes
  about twice the field that both poles would (AN102A).
- Under its own square the least sensitive switch (20 AT, the BOM's 10-20 AT band) must
  see twice what that takes, wherever the piece stands within some distance of the
  square's centre (pieces are not set down exactly).
- Under the neighbouring squares, the most sensitive switch (10 AT) must see at most half
  of what would close it with both poles, the neighbour's piece pushed as far towards it.

A stronger magnet reads a piece further off its centre, but beyond a point it also reaches
the next square: the choice is the magnet that lets a piece stand furthest off its
centre with both held (the smaller of two equals).

The field is computed exactly for a uniformly magnetised disc (its equivalent surface
current, summed by Biot-Savart), at points along the glass's axis; the layers between the
magnet and the glass come from hardware/geometry.py, as the enclosure builds them.
"""
from __future__ import annotations

import math

from hardware import geometry as G

MU0 = 4e-7 * math.pi
TESLA_PER_AT = MU0 / (G.REED_GLASS[0] / 1000)  # ~0.09 mT per AT
AT_BAND = (10.0, 20.0)  # the reed switches' pull-in (bom.csv)
ONE_POLE = 2.0  # one pole over one end takes about twice the field (AN102A)
MARGIN = 2.0
GRADES = {"N35": 1.17, "N42": 1.29, "N52": 1.43}  # remanence Br, tesla (typical)
SIZES = [(5, 2), (6, 2), (6, 3), (8, 2), (8, 3), (10, 2), (10, 3), (12, 3)]  # disc diameter x thickness, mm


def field(point, diameter, thickness, br, rings=24, steps=72):
    """B (tesla, as (bx, by, bz)) at `point` (mm, the magnet's lower face centred at the
    origin, magnetised along +z) of a disc magnet: its side carries the surface current
    K = Br / mu0; Biot-Savart summed over `rings` x `steps` segments."""
    import numpy as np

    r = diameter / 2 / 1000
    h = thickness / 1000
    p = np.asarray(point, dtype=float) / 1000
    phi = np.linspace(0, 2 * np.pi, steps, endpoint=False) + np.pi / steps
    z = (np.arange(rings) + 0.5) * h / rings
    dphi = 2 * np.pi / steps
    # Segment positions and directions (counter-clockwise seen from +z: north up).
    x = r * np.cos(phi)[None, :]
    y = r * np.sin(phi)[None, :]
    zz = z[:, None] + 0 * x
    dlx = -r * np.sin(phi)[None, :] * dphi
    dly = r * np.cos(phi)[None, :] * dphi
    rx, ry, rz = p[0] - x, p[1] - y, p[2] - zz
    d3 = (rx * rx + ry * ry + rz * rz) ** 1.5
    # dl x r, dl having no z part
    cx = dly * rz
    cy = -dlx * rz
    cz = dlx * ry - dly * rx
    k = br / (4 * np.pi) * (h / rings)  # mu0/4pi * K * dz, with K = Br / mu0
    return (float(k * np.sum(cx / d3)), float(k * np.sum(cy / d3)), float(k * np.sum(cz / d3)))


def on_axis(distance, diameter, thickness, br):
    """The closed form on the axis, `distance` mm below the lower face (the check of
    field())."""
    r, L, z = diameter / 2, thickness, distance
    return br / 2 * ((z + L) / math.hypot(z + L, r) - z / math.hypot(z, r))


def _glass_points(pitch, n=15):
    """Points along a reed's glass axis, relative to its square's centre (y towards White)."""
    half = G.REED_GLASS[0] / 2
    return [(0.0, G.REED_OFFSET - half + i * 2 * half / (n - 1)) for i in range(n)]


def strength(x, y, depth, diameter, thickness, br):
    """|B| in tesla at (x, y) from the magnet's centre line, `depth` below its lower face."""
    bx, by, bz = field((x, y, -depth), diameter, thickness, br)
    return math.sqrt(bx * bx + by * by + bz * bz)


def own_field(diameter, thickness, br, pitch=G.PITCH, depth=None, off=None):
    """The least, over where a piece may stand on its square (within `off` mm of the
    centre, a quarter square unless given), of the most the glass under it sees."""
    depth = G.magnet_to_reed() if depth is None else depth
    off = pitch / 4 if off is None else off
    # the centre, and eight points round it (none when the piece stands at the centre)
    spots = [(0.0, 0.0)] + ([(off * math.cos(k * math.pi / 4), off * math.sin(k * math.pi / 4)) for k in range(8)]
                            if off else [])
    return min(max(strength(gx - mx, gy - my, depth, diameter, thickness, br) for gx, gy in _glass_points(pitch))
               for mx, my in spots)


def neighbour_field(diameter, thickness, br, pitch=G.PITCH, depth=None, off=None):
    """The most a glass sees from a piece on any of the eight squares around, pushed `off`
    mm (a quarter square unless given) towards it."""
    depth = G.magnet_to_reed() if depth is None else depth
    off = pitch / 4 if off is None else off
    worst = 0.0
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if df == dr == 0:
                continue
            n = math.hypot(df, dr)
            mx = df * pitch - df / n * off
            my = dr * pitch - dr / n * off
            worst = max(worst, max(strength(gx - mx, gy - my, depth, diameter, thickness, br)
                                   for gx, gy in _glass_points(pitch)))
    return worst


def needed():
    """(at least under its own square, at most under a neighbour), tesla."""
    return (MARGIN * ONE_POLE * AT_BAND[1] * TESLA_PER_AT, AT_BAND[0] * TESLA_PER_AT / MARGIN)


def tolerance(diameter, thickness, br, pitch=G.PITCH, depth=None, step=0.5):
    """How far from its square's centre (mm) a piece may stand and still be read, its
    neighbours standing as far towards this square and still not: None if not even
    centred."""
    lo, hi = needed()
    best = None
    off = 0.0
    while off <= pitch / 4:
        if own_field(diameter, thickness, br, pitch, depth, off) < lo:
            break
        if neighbour_field(diameter, thickness, br, pitch, depth, off) > hi:
            break
        best = off
        off += step
    return best


def candidates(pitch=G.PITCH, depth=None):
    """[(grade, diameter, thickness, tolerance mm or None)], smallest magnets first."""
    out = []
    for (d, t) in sorted(SIZES, key=lambda s: (s[0] * s[0] * s[1], s[0])):
        for grade in ("N35", "N42"):
            out.append((grade, d, t, tolerance(d, t, GRADES[grade], pitch, depth)))
    return out


MIN_TOLERANCE = 0.15  # of the pitch: a piece within 8 mm of the centre, at 55 mm squares


def choose(pitch=G.PITCH, depth=None):
    """The magnet that lets a piece stand furthest off its square's centre (the smaller
    of two equals: cheaper, less pull between pieces): (grade, diameter, thickness,
    tolerance)."""
    found = [c for c in candidates(pitch, depth) if c[3] is not None]
    if not found or max(c[3] for c in found) < MIN_TOLERANCE * pitch:
        raise ValueError("no common disc magnet closes the switch through %.1f mm, a piece %.0f mm off "
                         "centre, and spares its neighbours"
                         % (G.magnet_to_reed() if depth is None else depth, MIN_TOLERANCE * pitch))
    return max(found, key=lambda c: c[3])  # the first (smallest) of the best


def main():
    lo, hi = needed()
    print("magnet to the glass's axis: %.2f mm (felt %.1f, playing surface %.1f, air and the glass)"
          % (G.magnet_to_reed(), G.FELT, G.TOP_PLATE))
    print("needed: at least %.1f mT under its own square, at most %.2f mT under a neighbour" % (lo * 1e3, hi * 1e3))
    print("%-5s %-6s %s" % ("grade", "size", "a piece read within (mm of its square's centre)"))
    for grade, d, t, tol in candidates():
        print("%-5s %-6s %s" % (grade, "%dx%d" % (d, t), "-" if tol is None else "%.1f" % tol))
    grade, d, t, tol = choose()
    print("choice: %d x %d mm %s disc, axially magnetised: a piece is read within %.1f mm of its square's "
          "centre, and never on a neighbouring square up to %.1f mm towards it" % (d, t, grade, tol, tol))


if __name__ == "__main__":
    main()
