"""The blind player's board (#39 item 1, appendix D.1; hardware/tactile.py): a peg hole in
the middle of every square over its reed switch, the dark squares raised, pegged pieces
whose magnet closes their own square's switch and spares the neighbours', the black
pieces marked by touch, every printed part a closed solid that fits the bed, and the
committed files what the code makes."""
import math
from pathlib import Path

import pytest

from hardware import geometry as G
from hardware import magnets as M

pytest.importorskip("build123d", reason="build123d is missing (pip install build123d)")
from hardware import enclosure as E  # noqa: E402
from hardware import tactile as T  # noqa: E402
from tests.hardware.test_enclosure import _drawing, _triangles, closed  # noqa: E402


def test_every_hole_is_at_its_squares_centre_and_read_there():
    # The peg holds the magnet at the square's centre, where an ordinary piece stands: on
    # the plane that bisects the centre switch's glass (which it leaves open), between the
    # two switches along the rank, which read it.
    board = E.BoardEnclosure()
    assert len(T.holes()) == 64
    d, t = T.MAGNET
    br = M.GRADES["N42"]
    for k, (x, y) in enumerate(T.holes()):
        f, r = k % 8, k // 8
        assert (x, y) == pytest.approx(board.to_cad(*G.square_centre(f, r)))  # the square's centre
    centre, *beside = G.square_reeds()
    assert centre[0] == (0.0, 0.0)
    assert M.mmf([(0.0, 0.0)], d, t, br, centre)[0] < 0.01  # the centre switch: nothing
    assert max(M.mmf([(0.0, 0.0)], d, t, br, reed)[0] for reed in beside) >= M.needed()[0]
    assert 8 * G.PITCH >= 200  # D.1: at least 20 cm


def test_the_pegged_magnet_closes_its_own_switch_and_spares_the_neighbours():
    got = T.check_magnets()
    # Standing on a raised dark square (the furthest: as far as on the ordinary board)...
    assert T.magnet_depth(True) == pytest.approx(G.magnet_to_reed())
    assert got["own"] >= got["at least"]
    # ...and in a light square's hole (the nearest, 3 mm closer), no neighbour read.
    assert T.magnet_depth(False) == pytest.approx(G.magnet_to_reed() - T.TILE)
    assert got["neighbour"] <= got["at most"]
    # Not a blind check: the 8 x 3 mm magnet the pegs held before the three switches is not
    # read at the centre on a dark square.
    assert M.own_least(8, 3, M.GRADES["N42"], depth=T.magnet_depth(True), where=M.spots(0.3))[0] < got["at least"]


@pytest.mark.parametrize("name", ["dark-square", "peg-base", "black-marker"])
def test_every_printed_part_is_a_closed_solid_that_fits_the_bed(name):
    tris = _triangles(T.OUT / (name + ".stl"))
    assert closed(tris), name
    xs, ys, zs = ([p[i] for t in tris for p in t] for i in range(3))
    size = sorted(max(v) - min(v) for v in (xs, ys, zs))
    assert size[2] <= E.BED, (name, size)
    if name == "dark-square":
        assert size[2] == pytest.approx(G.PITCH - T.TILE_GAP, abs=0.01) and size[0] == pytest.approx(T.TILE)
    if name == "peg-base":
        assert size[0] == pytest.approx(T.BASE[1] + T.PEG[1], abs=0.01)  # the disc and its peg


def test_the_surface_has_a_hole_per_square_and_the_ordinary_screws():
    drawn = _drawing(T.OUT / "tactile-top.dxf")
    holes = [g for kind, layer, g in drawn if kind == "CIRCLE" and layer == "CUT" and g[1] == pytest.approx(T.HOLE / 2)]
    assert sorted((round(c[0], 3), round(c[1], 3)) for c, _ in holes) == \
        sorted((round(x, 3), round(y, 3)) for x, y in T.holes())
    screws = [g for kind, layer, g in drawn if kind == "CIRCLE" and layer == "CUT" and g[1] == pytest.approx(1.7)]
    assert len(screws) == len(E.BoardEnclosure().screws())
    assert T.HOLE > T.PEG[0] and T.PEG[1] < G.TOP_PLATE  # the peg goes in, and never through


def test_the_generated_files_are_up_to_date(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "hardware.tactile", "--out", str(tmp_path)], capture_output=True,
                       text=True, timeout=600, cwd=str(Path(T.__file__).parent.parent))
    assert r.returncode == 0, r.stdout + r.stderr
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in T.OUT.iterdir())
    for name in made:
        if name.endswith(".dxf"):
            assert _drawing(tmp_path / name) == _drawing(T.OUT / name), "hardware/tactile/%s is stale" % name
        else:
            assert (tmp_path / name).read_bytes() == (T.OUT / name).read_bytes(), \
                "hardware/tactile/%s is stale: run python -m hardware.tactile" % name
