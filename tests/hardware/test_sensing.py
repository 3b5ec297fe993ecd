"""Sensing everywhere a piece can stand (issue 47, item 4; hardware/magnets.py): at every
pitch the generator allows and for the smallest base among the pieces bought, a piece whose
base lies wholly on its square gives its square's switches at least 1.5 x the highest pull-in
of the band bought, and a piece anywhere on any other square gives none of them more than
the least drop-out / 1.5 - nor does a crowd of them round an empty square. The grids here
are the tests' own (not magnets.standing), the switches read where the KiCad strip puts
them; one reed per square (the layout before) fails at every pitch, three in parallel pass;
outside the pitches the generator allows no magnet does."""
import math

import numpy as np
import pytest

from hardware import geometry as G
from hardware import magnets as M

PITCHES = [G.PITCH_RANGE[0], G.PITCH, 58.0, 60.0, G.PITCH_RANGE[1]]


def _on_square(pitch, step=0.5):
    """Every spot (a 0.5 mm grid, and the edges) where a piece's centre may be with its
    smallest base wholly on the square: |x|, |y| <= (pitch - base) / 2."""
    h = (pitch - G.piece_base(pitch)) / 2
    n = int(math.floor(h / step))
    g = sorted({k * step for k in range(-n, n + 1)} | {-h, h})
    return np.array([(x, y) for x in g for y in g])


def _switches_get(spots, grade, d, t, pitch, layout=None):
    """[the most any of the square's switches gets, for each spot] (AT)."""
    return np.max([M.mmf(spots, d, t, M.GRADES[grade], reed) for reed in G.square_reeds(pitch, layout)], axis=0)


def test_the_requirement_is_the_datasheets_band_with_margin_one_and_a_half():
    lo, hi = M.needed()
    assert M.PULL_IN == (15.0, 20.0) and M.DROP_OUT_RATIO == 0.70  # MACD-14 15-20, close differential
    assert lo == pytest.approx(1.5 * 20.0) and hi == pytest.approx(0.70 * 15.0 / 1.5)
    assert M.least_drop_out() == pytest.approx(10.5) and M.CROWD_REACH == 2
    assert G.piece_base(G.PITCH) == G.PIECE_BASE == 25.0 and G.piece_base(48.0) == 24.0


@pytest.mark.parametrize("pitch", PITCHES)
def test_three_switches_in_parallel_read_a_piece_anywhere_on_its_square_and_no_other(pitch):
    grade, d, t, _ = M.choose(pitch)
    lo, hi = M.needed()
    own = _on_square(pitch)
    got = _switches_get(own, grade, d, t, pitch)
    assert got.min() >= lo, (pitch, own[int(np.argmin(got))], float(got.min()))
    for df in range(-2, 3):
        for dr in range(-2, 3):
            if (df, dr) == (0, 0):
                continue
            other = _switches_get(own + np.array([df * pitch, dr * pitch]), grade, d, t, pitch)
            assert other.max() <= hi, (pitch, df, dr, float(other.max()))


@pytest.mark.parametrize("pitch", PITCHES)
def test_one_switch_per_square_cannot(pitch):
    # The layout before (one glass along the diagonal, 11 mm off the centre): whatever the
    # magnet, a piece standing wholly on its square near the glass's bisecting plane gives
    # it nothing - under 1 AT, against the 30 needed.
    (x, y), _ = G.square_reeds(pitch, G.SINGLE_REED)[0]
    assert math.hypot(x, y) == pytest.approx(11.0)
    for grade, d, t, _ in M.candidates(pitch, layout=G.SINGLE_REED):
        got = _switches_get(_on_square(pitch), grade, d, t, pitch, G.SINGLE_REED)
        assert got.min() < 0.1 * M.needed()[0], (pitch, grade, d, t)
    assert max(m for *_, m in M.candidates(pitch, layout=G.SINGLE_REED)) < 0.1


def test_the_reeds_lie_inside_their_square_clear_of_one_another_at_every_pitch():
    for pitch in PITCHES:
        reeds = G.square_reeds(pitch)
        pads = G.reed_pads(0.0, 0.0, pitch)
        assert len(reeds) == len(pads) == 3
        for (a, b) in pads:
            assert max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1])) < pitch / 2 - G.PAD
        # every glass at least its own radius and a pad's clear of every other switch's pads
        for i, reed in enumerate(reeds):
            (ax, ay), (bx, by) = M.glass_ends(reed)
            for j, (p, q) in enumerate(pads):
                if i == j:
                    continue
                for px, py in (p, q):
                    t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / G.REED_GLASS[0] ** 2))
                    gap = math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay))
                    assert gap > G.REED_GLASS[1] / 2 + G.PAD / 2 + 0.5, (pitch, i, j)


def _share(pitch, line, reeds, threshold):
    """How much of a square (share of the pitch) its cell reads a piece slid along `line`
    (a function of the distance along the slide), from one square before to one after."""
    grade, d, t, _ = M.choose(pitch)
    s = np.linspace(-pitch, pitch, 2001)
    spots = np.array([line(u) for u in s])
    got = np.max([M.mmf(spots, d, t, M.GRADES[grade], reed) for reed in reeds], axis=0)
    return float(np.count_nonzero(got >= threshold) * (s[1] - s[0]) / pitch)


@pytest.mark.parametrize("pitch", PITCHES)
def test_the_self_tests_three_slides_each_find_a_dead_switch(pitch):
    # firmware/app/sensormap.py: along the files through the centres (the centre switch),
    # along the ranks with the base against the White edge (White's switch), then the Black
    # edge (Black's): all three working, the square reads more than WEAK_PERCENT of the way
    # across at the band's highest pull-in; the one the slide tests dead, less, at its lowest.
    from firmware.app.sensormap import WEAK_PERCENT

    h = (pitch - G.piece_base(pitch)) / 2
    reeds = G.square_reeds(pitch)
    for dead, line in ((0, lambda u: (0.0, u)), (1, lambda u: (u, h)), (2, lambda u: (u, -h))):
        assert reeds[dead][0][1] * line(0.0)[1] >= 0  # the edge slid along is on the tested switch's side
        assert _share(pitch, line, reeds, M.PULL_IN[1]) * 100 >= WEAK_PERCENT + 5, (pitch, dead)
        rest = [r for i, r in enumerate(reeds) if i != dead]
        assert _share(pitch, line, rest, M.PULL_IN[0]) * 100 <= WEAK_PERCENT - 5, (pitch, dead)


def _crowd(spots_of, grade, d, t, pitch, reed):
    """What one switch gets from a crowd (AT, signed): each of the 24 squares round it
    occupied, its piece at the spot (on the test's own grid) that pushes this switch hardest
    the way `spots_of` picks (max: one way, min: the other); the potentials add."""
    total = 0.0
    for df in range(-2, 3):
        for dr in range(-2, 3):
            if (df, dr) == (0, 0):
                continue
            spots = _on_square(pitch, step=1.0) + np.array([df * pitch, dr * pitch])
            v = _signed(spots, grade, d, t, reed)
            total += spots_of(np.concatenate([v, [0.0]]))  # (a square that pushes the other way stays empty)
    return total


def _signed(spots, grade, d, t, reed):
    (ax, ay), (bx, by) = M.glass_ends(reed)
    r, psi = M.psi_table(d, t, M.GRADES[grade], G.magnet_to_reed())
    return (np.interp(np.hypot(spots[:, 0] - ax, spots[:, 1] - ay), r, psi, right=0.0)
            - np.interp(np.hypot(spots[:, 0] - bx, spots[:, 1] - by), r, psi, right=0.0))


def _crowd_most(grade, d, t, pitch):
    return max(max(_crowd(np.max, grade, d, t, pitch, reed), -_crowd(np.min, grade, d, t, pitch, reed))
               for reed in G.square_reeds(pitch))


@pytest.mark.parametrize("pitch", PITCHES)
def test_a_crowd_round_an_empty_square_neither_closes_its_switches_nor_holds_one_closed(pitch):
    # The 24 squares round an empty one all occupied, each piece pushed to its own worst
    # spot: none of its switches gets more than the least drop-out (10.5 AT) / 1.5 - a
    # switch of the lowest sensitivity opens when its own piece leaves, whatever the crowd.
    grade, d, t, _ = M.choose(pitch)
    got = _crowd_most(grade, d, t, pitch)
    assert got <= M.least_drop_out() / M.MARGIN, (pitch, got)
    assert got == pytest.approx(M.crowd(d, t, M.GRADES[grade], pitch), rel=0.02)


def test_a_design_whose_crowd_reaches_the_drop_out_is_refused():
    # The magnet chosen before the crowd counted (12 x 3 N42): a piece on its square and a
    # piece on another were within bounds, but a crowd gave a switch 9.4 AT - near the
    # least drop-out, over it / 1.5; a 12 x 4 N52 gives the crowd more than the drop-out.
    before = M.check(12, 3, M.GRADES["N42"])
    assert before["own"] >= M.needed()[0] and before["neighbour"] <= M.needed()[1]
    assert _crowd_most("N42", 12, 3, G.PITCH) > M.least_drop_out() / M.MARGIN and not before["ok"]
    assert _crowd_most("N52", 12, 4, G.PITCH) > M.least_drop_out()
    assert not M.check(12, 4, M.GRADES["N52"])["ok"]


@pytest.mark.parametrize("pitch", [G.PITCH_RANGE[0] - 2, G.PITCH_RANGE[1] + 2])
def test_outside_the_pitches_allowed_no_magnet_does_it(pitch):
    # Why PITCH_RANGE is 52-62 mm: at 50 and at 64 mm no candidate magnet reads a piece in
    # its square's corner and keeps the crowd under the drop-out / 1.5 (and the strips
    # refuse those pitches: tests/hardware/test_pcb.py).
    assert M.best_margin(pitch) < 1.0
    with pytest.raises(ValueError, match="no common disc magnet"):
        M.choose(pitch)
    with pytest.raises(ValueError, match="pitch"):
        G.check_pitch(pitch)
