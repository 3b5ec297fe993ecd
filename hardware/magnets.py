"""What closes a reed switch, where the switches lie under a square, and the pieces' magnets.

    python -m hardware.magnets      # the model's figures per pitch, the candidates and the choice

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
three together, and the whole against magpylib (tests/hardware/test_magpylib.py). Under a
flat board psi at a glass's end depends only on how far, across the board, the end lies
from the magnet's axis: the model tabulates it once per magnet and depth (psi_table).

The null: a disc magnet anywhere on the plane that bisects a glass gives both its ends the
same potential, so however strong it is that switch does not close.

What is required, at every pitch the generator allows (hardware/geometry.py, PITCH_RANGE),
for a piece whose base is the smallest the pieces bought have (geometry.piece_base):
- a piece whose base lies wholly on its square gives its square's switch at least MARGIN
  times the highest pull-in of the switches bought;
- a piece whose base lies wholly on any other square gives each of this square's switches at
  most the least drop-out over MARGIN (it can neither close one nor hold it closed);
- every square round an empty one occupied at once (CROWD_REACH squares each way), each
  piece pushed to its own worst spot, gives none of its switches more than the least
  drop-out over MARGIN either (crowd): a switch of the lowest sensitivity opens when its own
  piece leaves, whatever stands round it. This one sets the pitches the board allows
  (geometry.PITCH_RANGE, 52-62 mm): below and above, no common magnet reads a piece in its
  square's corner and keeps a full crowd that far under the drop-out.
A piece's centre may then lie anywhere in a square of side pitch - base round its square's
centre: at 55 mm squares and a 25 mm base, 15 mm off it in both directions, into the corner.
One reed switch per square cannot do it (SINGLE_REED, the layout before: a pawn whose centre
lies near the plane that bisects the glass gives it nothing). Three in parallel on the
square's matrix cell can (geometry.SQUARE_REEDS): one along the diagonal through the centre,
two along the rank above and below it; wherever the piece stands one of them is near it and
far from its own null, and each stays far from the other squares.

The switch is Littelfuse's MACD-14 (a 14 mm glass) in its 15-20 AT band: a close-differential
switch, whose drop-out is taken as at least 70 % of its pull-in (so the least, at 15 AT, is
10.5 AT; the figure the datasheet's pages reached do not print: DROP_OUT_RATIO). With MARGIN
on both drop-out requirements the design holds for any drop-out down to 70 % / 1.5 = 47 % of
the pull-in - a standard-differential switch's, not only a close-differential one's.
The magnet is chosen for each pitch (choose): the common disc with the widest margin over
the three requirements. The self-test's map (`selftest map`, hardware/README.md) measures each
square of the built board against this model.
"""
from __future__ import annotations

import math

from hardware import geometry as G

MU0 = 4e-7 * math.pi
SWITCH = "Littelfuse MACD-14 15-20"
# The MACD-14's datasheet (Littelfuse, "MACD-14 14mm Close-Differential Reed Switch",
# revised 02/08/17, page 1, as stored at pdfslide.us and xonelec.com) gives the series'
# range, 10-30 AT, and calls it close-differential, "low hysteresis between Pull-In and
# Drop-Out", but its stored pages show no table of the bands' pull-in and drop-out. So the
# band (15-20 AT) is the order number's, and the drop-out ratio is the trade's meaning of
# "close differential", a differential of at least 70 % (reed-sensor.com's glossary,
# "Close Differential"), NOT a figure typed from Littelfuse's table. Searched again for
# issue 47 (the stored pages of Littelfuse's MACD-14 and MDSR-7/MDSR-10 datasheets, rev.
# 02/08/17 and 10/09/15: page 1 only, no drop-out; Littelfuse's and Standex's reed tutorials:
# the terms, no ratio per series; the one drop-out figure reached, Standex/OKI's ORD213,
# "Drop-out Value 5 AT min" for a 10-40 AT pull-in, is a 7 mm glass): not found. So the
# drop-out requirements carry MARGIN too: they hold down to 47 % of the pull-in.
PULL_IN = (15.0, 20.0)  # AT, the band bought (the order number MACD-14 15-20)
DROP_OUT_RATIO = 0.70  # "close differential": drop-out at least 70 % of pull-in (unverified for this part)
MARGIN = 1.5  # each way (issue 47): a switch's sensitivity spread, a magnet's, the pieces' felt
CROWD_REACH = 2  # the crowd: every square this far round an empty one (beyond, under 1 % of the nearest's)
READ_RADIUS = 10.0  # mm: the old requirement's circle (a piece within it was read): the tactile pegs
GRADES = {"N35": 1.17, "N42": 1.29, "N52": 1.43}  # remanence Br, tesla (typical)
OLD_MAGNET = ("N35", 12, 3)  # what the single reed's layout bought
SIZES = [(6, 2), (6, 3), (8, 2), (8, 3), (10, 2), (10, 3), (10, 4), (12, 2), (12, 3), (12, 4)]  # diameter x thickness, mm


def least_drop_out() -> float:
    """The least drop-out of the band bought, AT: a switch of the lowest pull-in opens below it."""
    return DROP_OUT_RATIO * PULL_IN[0]


def needed() -> tuple[float, float]:
    """(at least from a piece on its own square, at most from a piece on another - and from
    a whole crowd of them), AT."""
    return MARGIN * PULL_IN[1], least_drop_out() / MARGIN


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


# ----- the switches under a square

R_TABLE = (0.0, 260.0, 0.05)  # psi_table's radii: from, to, step (mm); beyond: nought


def _table(diameter, thickness, br, depth):
    import numpy as np

    lo, hi, step = R_TABLE
    r = np.arange(lo, hi + step / 2, step)
    return r, potential(np.stack([r, 0 * r, -depth + 0 * r], 1), diameter, thickness, br)


_TABLES = {}


def psi_table(diameter, thickness, br, depth):
    """(radii, psi): the potential `depth` mm below the magnet's lower face at each radius
    (mm) from its axis, from potential() (the disc is round: nothing else matters)."""
    key = (float(diameter), float(thickness), float(br), round(float(depth), 6))
    if key not in _TABLES:
        _TABLES[key] = _table(*key)
    return _TABLES[key]


def glass_ends(reed):
    """A glass's two ends (x, y), mm from its square's centre: `reed` is ((x, y) of its
    centre, (ux, uy) its direction), as geometry.square_reeds gives it."""
    (cx, cy), (ux, uy) = reed
    half = G.REED_GLASS[0] / 2
    return (cx - half * ux, cy - half * uy), (cx + half * ux, cy + half * uy)


def mmf(magnets, diameter, thickness, br, reed, depth=None):
    """The ampere-turns across one switch's contacts from a magnet at each of `magnets`
    [(x, y), ...] (its centre line, mm from the switch's square's centre): |psi(one end) -
    psi(the other)|, the glass's axis `depth` mm below the magnet's lower face."""
    import numpy as np

    depth = G.magnet_to_reed() if depth is None else depth
    r, psi = psi_table(diameter, thickness, br, depth)
    (ax, ay), (bx, by) = glass_ends(reed)
    m = np.asarray(magnets, dtype=float).reshape(-1, 2)
    pa = np.interp(np.hypot(m[:, 0] - ax, m[:, 1] - ay), r, psi, right=0.0)
    pb = np.interp(np.hypot(m[:, 0] - bx, m[:, 1] - by), r, psi, right=0.0)
    return np.abs(pa - pb)


def cell(magnets, diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None):
    """What a square's matrix cell gets from a magnet at each of `magnets`: the most any of
    its switches does (they are in parallel: the cell closes when one does), AT."""
    import numpy as np

    return np.max([mmf(magnets, diameter, thickness, br, reed, depth) for reed in G.square_reeds(pitch, layout)], axis=0)


def standing(pitch=G.PITCH, base=None, step=0.5):
    """Where a piece's centre may be with its base (`base` mm across, the smallest bought by
    default) wholly on its square: a grid of the square of side pitch - base round the
    square's centre, its edges and corners included."""
    import numpy as np

    base = G.piece_base(pitch) if base is None else base
    h = (pitch - base) / 2
    g = np.unique(np.concatenate([np.arange(-h, h, step), [h], -np.arange(0, h, step)]))
    x, y = np.meshgrid(g, g)
    return np.stack([x.ravel(), y.ravel()], 1)


def spots(radius, step=1.0, round_=48):
    """Where a piece may stand within `radius` of a square's centre (a pegged piece: its
    hole's clearance): the centre, rings every `step` mm, the edge itself."""
    out = [(0.0, 0.0)]
    for k in range(1, math.ceil(radius / step - 1e-9) + 1):
        r = min(k * step, radius)
        out += [(r * math.cos(2 * math.pi * j / round_), r * math.sin(2 * math.pi * j / round_)) for j in range(round_)]
    return out


def own_least(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None, where=None):
    """(the least the cell gets from a piece standing anywhere on its square (AT), that
    spot (x, y) mm from the square's centre). `where`: the spots (standing() by default)."""
    import numpy as np

    where = standing(pitch) if where is None else np.asarray(where, dtype=float)
    got = cell(where, diameter, thickness, br, pitch, depth, layout)
    k = int(np.argmin(got))
    return float(got[k]), (float(where[k][0]), float(where[k][1]))


def others(pitch=G.PITCH, reach=2):
    """The other squares' centres round a square, `reach` squares each way (the squares
    further off give less than a hundredth of what the nearest do)."""
    return [(df * pitch, dr * pitch) for df in range(-reach, reach + 1) for dr in range(-reach, reach + 1)
            if (df, dr) != (0, 0)]


def neighbour_most(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None, where=None):
    """(the most any of a square's switches gets from a piece standing anywhere on another
    square, AT; that square as (files, ranks) from the switch's)."""
    import numpy as np

    where = standing(pitch) if where is None else np.asarray(where, dtype=float)
    best, at = 0.0, (0, 0)
    for cx, cy in others(pitch):
        got = float(np.max(cell(where + np.array([cx, cy]), diameter, thickness, br, pitch, depth, layout)))
        if got > best:
            best, at = got, (round(cx / pitch), round(cy / pitch))
    return best, at


def crowd_worst(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None, reach=CROWD_REACH, step=1.0):
    """The worst crowd round an empty square: every other square `reach` squares each way
    occupied at once, each piece at its own worst spot (the potentials add, each piece's
    sign its own; all the magnets the same pole down). {"most": AT on one switch, "reed":
    which of the square's switches, "spots": [(x, y)] each piece's centre (mm from the
    empty square's centre)} - the spots the magpylib test sums its own field over."""
    import numpy as np

    depth = G.magnet_to_reed() if depth is None else depth
    r, psi = psi_table(diameter, thickness, br, depth)
    where = standing(pitch, step=step)
    worst = {"most": 0.0, "reed": 0, "spots": []}
    for i, reed in enumerate(G.square_reeds(pitch, layout)):
        (ax, ay), (bx, by) = glass_ends(reed)
        up = down = 0.0
        ups, downs = [], []
        for cx, cy in others(pitch, reach):
            m = where + np.array([cx, cy])
            v = (np.interp(np.hypot(m[:, 0] - ax, m[:, 1] - ay), r, psi, right=0.0)
                 - np.interp(np.hypot(m[:, 0] - bx, m[:, 1] - by), r, psi, right=0.0))
            hi, lo = int(np.argmax(v)), int(np.argmin(v))
            if v[hi] > 0:
                up += float(v[hi])
                ups.append((float(m[hi][0]), float(m[hi][1])))
            if v[lo] < 0:
                down -= float(v[lo])
                downs.append((float(m[lo][0]), float(m[lo][1])))
        for most, spots in ((up, ups), (down, downs)):
            if most > worst["most"]:
                worst = {"most": most, "reed": i, "spots": spots}
    return worst


def crowd(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None, reach=CROWD_REACH):
    """The most any of a square's switches gets from the other squares all occupied at once
    (`reach` squares each way), each piece at its own worst spot: AT (crowd_worst)."""
    return crowd_worst(diameter, thickness, br, pitch, depth, layout, reach)["most"]


def check(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None, where=None) -> dict:
    """The three requirements at one pitch: what the cell gets and what it may, and the
    margin (the smallest of own / at least, at most / neighbour and at most / crowd; under
    1, one fails)."""
    lo, hi = needed()
    own, spot = own_least(diameter, thickness, br, pitch, depth, layout, where)
    most, square = neighbour_most(diameter, thickness, br, pitch, depth, layout, where)
    many = crowd(diameter, thickness, br, pitch, depth, layout)
    m = min(own / lo, hi / most if most else float("inf"), hi / many if many else float("inf"))
    return {"own": own, "at": spot, "at least": lo, "neighbour": most, "from": square, "at most": hi,
            "crowd": many, "margin": m, "ok": m >= 1.0}


def margin(diameter, thickness, br, pitch=G.PITCH, depth=None, layout=None) -> float:
    return check(diameter, thickness, br, pitch, depth, layout)["margin"]


def candidates(pitch=G.PITCH, depth=None, layout=None):
    """[(grade, diameter, thickness, margin)] for every size and grade, smallest magnets first."""
    return [(grade, d, t, margin(d, t, GRADES[grade], pitch, depth, layout))
            for d, t in sorted(SIZES, key=lambda s: (s[0] * s[0] * s[1], s[0])) for grade in ("N35", "N42", "N52")]


def choose(pitch=G.PITCH, depth=None, layout=None):
    """The magnet with the widest margin over the three requirements at this pitch (the
    smaller of two equals): (grade, diameter, thickness, margin)."""
    best = None
    for grade, d, t, m in candidates(pitch, depth, layout):
        if m >= 1.0 and (best is None or m > best[3] + 1e-9):
            best = (grade, d, t, m)
    if best is None:
        raise ValueError("no common disc magnet reads a piece anywhere on its %g mm square through %.2f mm "
                         "and spares the other squares' switches, one piece or a crowd"
                         % (pitch, G.magnet_to_reed() if depth is None else depth))
    return best


def best_margin(pitch, depth=None, layout=None) -> float:
    """The widest margin any candidate magnet has at this pitch (under 1: none will do)."""
    return max(m for *_, m in candidates(pitch, depth, layout))


def pitches():
    """The pitches the tests and the table check: both ends of the range, the usual, and between."""
    lo, hi = G.PITCH_RANGE
    return sorted({lo, G.PITCH, 58.0, 60.0, hi})


def main():
    lo, hi = needed()
    print("switch: %s, pull-in %g-%g AT, drop-out taken as at least %d %% of it (%.1f AT); %d switches in parallel "
          "per square (geometry.SQUARE_REEDS)" % (SWITCH, PULL_IN[0], PULL_IN[1], DROP_OUT_RATIO * 100,
                                                   least_drop_out(), len(G.SQUARE_REEDS)))
    print("magnet to the glass's axis: %.2f mm (felt %.1f, playing surface %.1f, air and the glass)"
          % (G.magnet_to_reed(), G.FELT, G.TOP_PLATE))
    print("needed: at least %.1f AT from a piece whose base (%g mm, the smallest bought) lies wholly on its square, "
          "at most %.1f AT from a piece on any other square, and from every square %d round an empty one occupied "
          "at once, each piece at its worst spot" % (lo, G.PIECE_BASE, hi, CROWD_REACH))
    print("%5s  %-14s %-16s %-17s %-17s" % ("pitch", "magnet", "own: least (AT)", "other: most (AT)",
                                               "crowd: most (AT)"))
    for p in pitches():
        grade, d, t, _ = choose(p)
        c = check(d, t, GRADES[grade], p)
        one = check(*OLD_MAGNET[1:], GRADES[OLD_MAGNET[0]], p, layout=G.SINGLE_REED)
        print("%5g  %-14s %6.1f  x%.2f     %5.2f  x%.2f      %5.2f  x%.2f      (before: one reed, 12x3 N35: "
              "%.1f / %.2f AT)" % (p, "%dx%d %s" % (d, t, grade), c["own"], c["own"] / lo, c["neighbour"],
                                   hi / c["neighbour"], c["crowd"], hi / c["crowd"], one["own"], one["neighbour"]))
    lo_p, hi_p = G.PITCH_RANGE
    print("outside geometry.PITCH_RANGE (%g-%g mm), the best any magnet does: %s"
          % (lo_p, hi_p, ", ".join("x%.2f at %g mm" % (best_margin(p), p) for p in (lo_p - 2, hi_p + 2))))
    grade, d, t, m = choose()
    print("choice at %g mm squares: %d x %d mm %s disc, magnetised through its thickness (margin x%.2f)"
          % (G.PITCH, d, t, grade, m))


if __name__ == "__main__":
    main()
