"""What closes a reed switch, where the switch lies on its square, and the pieces' magnets.

    python -m hardware.magnets      # the model's figures, the candidates and the choice

A reed switch closes on the magnetomotive force across its contacts. Its two blades are the
flux's path; what drives flux along them is the difference of the magnetic potential psi
(H = -grad psi) between their outer ends - the line integral of H along the glass, blade
end to blade end. A test coil as long as the glass puts exactly NI ampere-turns along it,
which is how a switch's pull-in and drop-out are given: so the model compares
psi(one end) - psi(the other), in amperes, with the datasheet's AT directly, with no
conversion to tesla and no rule of thumb for one pole or two.

The magnet is a uniformly magnetised disc, magnetised through its thickness: its faces carry
the magnetic charge +M and -M (M = Br / mu0), and psi is their potential, summed over each
face (Gauss-Legendre across the radius, evenly round). On the axis psi has a closed form
(on_axis_potential), and the field B (by Biot-Savart on the side's surface current, field)
integrated along the glass gives the same difference of potential: the tests hold all
three together.

The null: a disc magnet anywhere on the plane that bisects the glass gives both ends the
same potential, so however strong it is the switch does not close. A glass under the middle
of its square - or 5 mm off it, along the file - has that plane through the part of the
square where pieces stand. Here the glass lies along the square's diagonal, its centre
REED_OFFSET from the square's centre (hardware/geometry.py), its near end towards the
centre: the plane is beyond where a piece stands, and the neighbours along the files and
ranks, which stand nearly equally far from both ends, hardly move it.

What is required, at every pitch the generator allows (hardware/geometry.py, PITCH_RANGE):
- a piece anywhere within READ_RADIUS of its square's centre gives its switch at least
  MARGIN times the highest pull-in of the switches bought;
- a piece anywhere within READ_RADIUS of any other square's centre gives this switch at most
  the least drop-out over MARGIN (it can neither close it nor hold it closed).
The switch is Littelfuse's MACD-14 (a 14 mm glass) in its 15-20 AT band: a close-differential
switch, whose drop-out is at least 70 % of its pull-in (so the least, at 15 AT, is 10.5 AT).
Its 10-15 AT band would want a magnet that reads a piece 10 mm off centre and spares the
next square by less than 1 % at 48 mm squares; 15-20 leaves 9 %. The choice is the magnet
with the widest margin over both requirements at the smallest pitch. The self-test's
map (`selftest map`, hardware/README.md) measures each square of the built board against
this model.
"""
from __future__ import annotations

import math

from hardware import geometry as G

MU0 = 4e-7 * math.pi
SWITCH = "Littelfuse MACD-14 15-20"
PULL_IN = (15.0, 20.0)  # AT, the band bought
DROP_OUT_RATIO = 0.70  # a close-differential switch drops out at 70 % of its pull-in or more
MARGIN = 2.0
READ_RADIUS = 10.0  # mm: a piece this far off its square's centre is still read
GRADES = {"N35": 1.17, "N42": 1.29, "N52": 1.43}  # remanence Br, tesla (typical)
SIZES = [(6, 2), (6, 3), (8, 2), (8, 3), (10, 2), (10, 3), (10, 4), (12, 3), (12, 4)]  # diameter x thickness, mm


def needed() -> tuple[float, float]:
    """(at least from a piece on its own square, at most from a piece on another), AT."""
    return MARGIN * PULL_IN[1], DROP_OUT_RATIO * PULL_IN[0] / MARGIN


# ----- the magnet's potential and field

def potential(points, diameter, thickness, br, radial=16, round_=64):
    """psi (amperes) at points [(x, y, z), ...] (mm; the magnet's lower face centred at the
    origin, magnetised along +z): the faces' magnetic charges +-M, summed."""
    import numpy as np

    a, h, m = diameter / 2000, thickness / 1000, br / MU0
    p = np.asarray(points, dtype=float).reshape(-1, 3) / 1000
    x, w = np.polynomial.legendre.leggauss(radial)
    rho = (x + 1) / 2 * a
    phi = (np.arange(round_) + 0.5) * 2 * np.pi / round_
    sx = (rho[:, None] * np.cos(phi)[None, :]).ravel()
    sy = (rho[:, None] * np.sin(phi)[None, :]).ravel()
    area = (w * a / 2 * rho)[:, None].repeat(round_, 1).ravel() * (2 * np.pi / round_)
    dx, dy = p[:, 0, None] - sx[None, :], p[:, 1, None] - sy[None, :]
    out = np.zeros(len(p))
    for zf, sign in ((h, 1.0), (0.0, -1.0)):
        dz = p[:, 2, None] - zf
        out += sign * m / (4 * np.pi) * np.sum(area[None, :] / np.sqrt(dx * dx + dy * dy + dz * dz), axis=1)
    return out


def on_axis_potential(distance, diameter, thickness, br):
    """psi on the axis, `distance` mm below the lower face: the closed form."""
    a, h, z, m = diameter / 2000, thickness / 1000, -distance / 1000, br / MU0
    return m / 2 * ((math.hypot(a, z - h) - abs(z - h)) - (math.hypot(a, z) - abs(z)))


def field(point, diameter, thickness, br, rings=24, steps=72):
    """B (tesla, (bx, by, bz)) at `point` (mm, as potential's): the side's surface current
    K = Br / mu0, by Biot-Savart over `rings` x `steps` segments (independent of potential)."""
    import numpy as np

    r = diameter / 2 / 1000
    h = thickness / 1000
    p = np.asarray(point, dtype=float) / 1000
    phi = np.linspace(0, 2 * np.pi, steps, endpoint=False) + np.pi / steps
    z = (np.arange(rings) + 0.5) * h / rings
    dphi = 2 * np.pi / steps
    x = r * np.cos(phi)[None, :]
    y = r * np.sin(phi)[None, :]
    zz = z[:, None] + 0 * x
    dlx = -r * np.sin(phi)[None, :] * dphi
    dly = r * np.cos(phi)[None, :] * dphi
    rx, ry, rz = p[0] - x, p[1] - y, p[2] - zz
    d3 = (rx * rx + ry * ry + rz * rz) ** 1.5
    k = br / (4 * np.pi) * (h / rings)
    return (float(k * np.sum(dly * rz / d3)), float(k * np.sum(-dlx * rz / d3)),
            float(k * np.sum((dlx * ry - dly * rx) / d3)))


def on_axis(distance, diameter, thickness, br):
    """Bz on the axis, `distance` mm below the lower face: the closed form (field's check)."""
    r, L, z = diameter / 2, thickness, distance
    return br / 2 * ((z + L) / math.hypot(z + L, r) - z / math.hypot(z, r))


# ----- the switch under its square

def glass_ends(offset=None, axis=None):
    """The glass's two ends (x, y), mm from its square's centre (x towards file h, y
    towards White): the glass along `axis`, its centre `offset` from the centre."""
    offset = G.REED_OFFSET if offset is None else offset
    ux, uy = G.REED_AXIS if axis is None else axis
    half = G.REED_GLASS[0] / 2
    return ((offset - half) * ux, (offset - half) * uy), ((offset + half) * ux, (offset + half) * uy)


def mmf(magnets, diameter, thickness, br, depth=None, offset=None, axis=None):
    """The ampere-turns across a switch's contacts from a magnet at each of `magnets`
    [(x, y), ...] (its centre line, mm from the switch's square's centre): |psi(one end) -
    psi(the other)|, the glass's axis `depth` mm below the magnet's lower face."""
    import numpy as np

    depth = G.magnet_to_reed() if depth is None else depth
    (ax, ay), (bx, by) = glass_ends(offset, axis)
    m = np.asarray(magnets, dtype=float).reshape(-1, 2)
    pts = np.concatenate([np.stack([ax - m[:, 0], ay - m[:, 1], -depth + 0 * m[:, 0]], 1),
                          np.stack([bx - m[:, 0], by - m[:, 1], -depth + 0 * m[:, 0]], 1)])
    psi = potential(pts, diameter, thickness, br)
    n = len(m)
    return np.abs(psi[:n] - psi[n:])


def spots(radius, step=1.0, round_=48):
    """Where a piece may stand within `radius` of a square's centre: the centre, rings every
    `step` mm, the edge itself."""
    out = [(0.0, 0.0)]
    for k in range(1, math.ceil(radius / step - 1e-9) + 1):
        r = min(k * step, radius)
        out += [(r * math.cos(2 * math.pi * j / round_), r * math.sin(2 * math.pi * j / round_)) for j in range(round_)]
    return out


def own_least(diameter, thickness, br, radius=READ_RADIUS, depth=None, offset=None, axis=None):
    """The least a switch gets from a piece anywhere within `radius` of its square's centre (AT)."""
    return float(mmf(spots(radius), diameter, thickness, br, depth, offset, axis).min())


def others(pitch=G.PITCH, reach=2):
    """The other squares' centres round a square, `reach` squares each way (the squares
    further off give less than a hundredth of what the nearest do)."""
    return [(df * pitch, dr * pitch) for df in range(-reach, reach + 1) for dr in range(-reach, reach + 1)
            if (df, dr) != (0, 0)]


def neighbour_most(diameter, thickness, br, pitch=G.PITCH, radius=READ_RADIUS, depth=None, offset=None, axis=None):
    """(the most a switch gets from a piece anywhere within `radius` of another square's
    centre, AT; that square as (files, ranks) from the switch's)."""
    import numpy as np

    near = spots(radius, step=radius / 2 if radius else 1.0, round_=24)
    best, where = 0.0, (0, 0)
    for cx, cy in others(pitch):
        got = float(np.max(mmf([(cx + x, cy + y) for x, y in near], diameter, thickness, br, depth, offset, axis)))
        if got > best:
            best, where = got, (round(cx / pitch), round(cy / pitch))
    return best, where


def check(diameter, thickness, br, pitch=G.PITCH, radius=READ_RADIUS, depth=None, offset=None, axis=None) -> dict:
    """The two requirements at one pitch: what a switch gets and what it may."""
    lo, hi = needed()
    own = own_least(diameter, thickness, br, radius, depth, offset, axis)
    most, where = neighbour_most(diameter, thickness, br, pitch, radius, depth, offset, axis)
    return {"own": own, "at least": lo, "neighbour": most, "from": where, "at most": hi,
            "ok": own >= lo and most <= hi}


def reads(diameter, thickness, br, depth=None, offset=None, axis=None, pitches=None) -> bool:
    """Whether the magnet meets both requirements at every pitch the generator allows."""
    lo, hi = needed()
    if own_least(diameter, thickness, br, READ_RADIUS, depth, offset, axis) < lo:
        return False
    return all(neighbour_most(diameter, thickness, br, p, READ_RADIUS, depth, offset, axis)[0] <= hi
               for p in (pitches or (G.PITCH_RANGE[0], G.PITCH, G.PITCH_RANGE[1])))


def tolerance(diameter, thickness, br, pitch=G.PITCH, depth=None, offset=None, axis=None, step=0.25):
    """How far from its square's centre (mm) a piece may stand and be read, with the other
    squares' pieces as far off theirs and unread: None if not even centred."""
    lo, hi = needed()

    def good(r):
        return (own_least(diameter, thickness, br, r, depth, offset, axis) >= lo
                and neighbour_most(diameter, thickness, br, pitch, r, depth, offset, axis)[0] <= hi)
    if not good(0.0):
        return None
    a, b = 0.0, pitch / 2
    while b - a > step:
        mid = (a + b) / 2
        a, b = (mid, b) if good(mid) else (a, mid)
    return a


def margin(diameter, thickness, br, depth=None, offset=None, axis=None) -> float:
    """How far the magnet meets both requirements at the smallest pitch (where the other
    squares are nearest): the smaller of own / needed and allowed / neighbour; under 1, it
    fails one."""
    lo, hi = needed()
    own = own_least(diameter, thickness, br, READ_RADIUS, depth, offset, axis)
    most = neighbour_most(diameter, thickness, br, G.PITCH_RANGE[0], READ_RADIUS, depth, offset, axis)[0]
    return min(own / lo, hi / most) if most else own / lo


def candidates(depth=None):
    """[(grade, diameter, thickness, margin)] for every size and grade, smallest magnets first."""
    return [(grade, d, t, margin(d, t, GRADES[grade], depth))
            for d, t in sorted(SIZES, key=lambda s: (s[0] * s[0] * s[1], s[0])) for grade in ("N35", "N42", "N52")]


def choose(depth=None):
    """The magnet with the widest margin over both requirements (the smaller of two equals),
    checked at every pitch: (grade, diameter, thickness, how far off centre a piece is read
    at 55 mm squares)."""
    best = None
    for grade, d, t, m in candidates(depth):
        if m >= 1.0 and (best is None or m > best[3] + 1e-9):
            best = (grade, d, t, m)
    if best is None or not reads(best[1], best[2], GRADES[best[0]], depth):
        raise ValueError("no common disc magnet reads a piece %.0f mm off its square's centre through %.2f mm "
                         "and spares the other squares' switches"
                         % (READ_RADIUS, G.magnet_to_reed() if depth is None else depth))
    grade, d, t, _ = best
    return grade, d, t, tolerance(d, t, GRADES[grade], depth=depth)


def main():
    lo, hi = needed()
    print("switch: %s, pull-in %g-%g AT, drop-out at least %d %% of it; the glass along the square's diagonal, "
          "its centre %.1f mm from the square's centre" % (SWITCH, PULL_IN[0], PULL_IN[1], DROP_OUT_RATIO * 100,
                                                           G.REED_OFFSET))
    print("magnet to the glass's axis: %.2f mm (felt %.1f, playing surface %.1f, air and the glass)"
          % (G.magnet_to_reed(), G.FELT, G.TOP_PLATE))
    print("needed: at least %.1f AT from a piece within %.0f mm of its square's centre, at most %.1f AT from a "
          "piece on any other square" % (lo, READ_RADIUS, hi))
    print("%-5s %-6s %8s  %s" % ("grade", "size", "own (AT)", "another square's, at 48 / 55 / 65 mm (AT)"))
    for d, t in sorted(SIZES, key=lambda s: (s[0] * s[0] * s[1], s[0])):
        for grade in ("N35", "N42", "N52"):
            br = GRADES[grade]
            own = own_least(d, t, br)
            near = [neighbour_most(d, t, br, p)[0] for p in (G.PITCH_RANGE[0], G.PITCH, G.PITCH_RANGE[1])]
            print("%-5s %-6s %8.1f  %5.2f / %5.2f / %5.2f" % (grade, "%dx%d" % (d, t), own, *near))
    grade, d, t, tol = choose()
    print("choice: %d x %d mm %s disc, magnetised through its thickness: a piece is read within %.1f mm of its "
          "square's centre at 55 mm squares (%.0f mm at every pitch), and read on no other square"
          % (d, t, grade, tol, READ_RADIUS))


if __name__ == "__main__":
    main()
