"""The pieces' magnets' model (hardware/magnets.py: the magnetic potential of a disc's
charged faces, the ampere-turns across a reed's glass as the difference of potential
between its ends) held to magpylib, a field library nobody here wrote: the same magnet's H
(magpylib's closed-form cylinder) integrated along the same glass gives the same
ampere-turns within a few per cent, for each of a square's three switches, a piece on its
square (its centre, its corner), off it, and on the next squares; at the smallest and the
largest pitch too; and a whole crowd of them round an empty square, magpylib's fields
summed."""
import numpy as np
import pytest

from hardware import geometry as G
from hardware import magnets as M

magpylib = pytest.importorskip("magpylib")

DIAMETER, THICKNESS, GRADE = 12, 2, "N42"  # the magnet the order buys (mechanical.csv; test_parts.py)


def magpylib_at(x, y, reed, diameter=DIAMETER, thickness=THICKNESS, br=M.GRADES[GRADE], depth=None):
    """|the line integral of H along the glass, end to end| (A) for a magnet whose centre
    line stands at (x, y) mm from the switch's square's centre, its lower face depth mm above
    the glass's axis: magpylib's cylinder in SI units."""
    depth = G.magnet_to_reed() if depth is None else depth
    magnet = magpylib.magnet.Cylinder(polarization=(0, 0, br), dimension=(diameter / 1000, thickness / 1000),
                                      position=(x / 1000, y / 1000, (depth + thickness / 2) / 1000))
    (ax, ay), (bx, by) = M.glass_ends(reed)
    n = 801
    t = np.linspace(0.0, 1.0, n)
    pts = np.stack([(ax + (bx - ax) * t) / 1000, (ay + (by - ay) * t) / 1000, np.zeros(n)], 1)
    h = magnet.getH(pts)
    dl = np.array([bx - ax, by - ay, 0.0]) / 1000 / (n - 1)
    along = h @ dl
    return abs(float(np.sum((along[1:] + along[:-1]) / 2)))


SPOTS = {  # where a piece's centre stands, from h = (pitch - smallest base) / 2 and the pitch p
    "centre": lambda h, p: (0.0, 0.0),
    "off centre": lambda h, p: (10.0, -4.0),
    "own corner": lambda h, p: (h, h),
    "own far corner": lambda h, p: (-h, -h),
    "own edge": lambda h, p: (-h, 0.3 * h),
    "next file, nearest": lambda h, p: (p - h, 0.0),
    "next rank, nearest": lambda h, p: (0.2 * h, -(p - h)),
    "diagonal, nearest": lambda h, p: (p - h, p - h),
    "two files away": lambda h, p: (-(2 * p - h), h),
}


@pytest.mark.parametrize("pitch", [G.PITCH_RANGE[0], G.PITCH, G.PITCH_RANGE[1]])
@pytest.mark.parametrize("where", sorted(SPOTS))
def test_the_model_gives_magpylibs_ampere_turns(where, pitch):
    x, y = SPOTS[where]((pitch - G.piece_base(pitch)) / 2, pitch)
    for reed in G.square_reeds(pitch):
        ours = float(M.mmf([(x, y)], DIAMETER, THICKNESS, M.GRADES[GRADE], reed)[0])
        theirs = magpylib_at(x, y, reed)
        assert ours == pytest.approx(theirs, rel=0.03, abs=0.1), (where, pitch, reed, ours, theirs)


def test_the_cross_check_can_fail():
    # a magnet half as thick in magpylib is far from the model's
    reed = G.square_reeds()[1]
    ours = float(M.mmf([(0, 0)], DIAMETER, THICKNESS, M.GRADES[GRADE], reed)[0])
    assert magpylib_at(0, 0, reed, thickness=THICKNESS / 2) < 0.8 * ours


def test_the_magnet_is_the_one_the_order_buys():
    assert M.choose()[:3] == (GRADE, DIAMETER, THICKNESS)


def magpylib_signed(x, y, reed):
    """The line integral of H along the glass from its first end to its second (A), signed."""
    magnet = magpylib.magnet.Cylinder(polarization=(0, 0, M.GRADES[GRADE]), dimension=(DIAMETER / 1000, THICKNESS / 1000),
                                      position=(x / 1000, y / 1000, (G.magnet_to_reed() + THICKNESS / 2) / 1000))
    (ax, ay), (bx, by) = M.glass_ends(reed)
    n = 801
    t = np.linspace(0.0, 1.0, n)
    pts = np.stack([(ax + (bx - ax) * t) / 1000, (ay + (by - ay) * t) / 1000, np.zeros(n)], 1)
    along = magnet.getH(pts) @ (np.array([bx - ax, by - ay, 0.0]) / 1000 / (n - 1))
    return float(np.sum((along[1:] + along[:-1]) / 2))


@pytest.mark.parametrize("pitch", [G.PITCH_RANGE[0], G.PITCH, G.PITCH_RANGE[1]])
def test_a_crowds_ampere_turns_are_magpylibs(pitch):
    # The crowd the model finds worst (hardware/magnets.py, crowd_worst: a piece on each of
    # the squares round an empty one, each at its own worst spot): magpylib's fields of those
    # magnets, summed along the switch, give the same ampere-turns.
    worst = M.crowd_worst(DIAMETER, THICKNESS, M.GRADES[GRADE], pitch)
    reed = G.square_reeds(pitch)[worst["reed"]]
    theirs = abs(sum(magpylib_signed(x, y, reed) for x, y in worst["spots"]))
    assert len(worst["spots"]) >= 8 and worst["most"] == pytest.approx(theirs, rel=0.03), (pitch, worst["most"], theirs)
