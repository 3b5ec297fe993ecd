"""The blind player's board (FIDE Laws, appendix D.1): the same tray and sensor strips under
a playing surface with a hole in the middle of every square, its dark squares raised, and
pieces that stand in the holes on a peg that carries their magnet, the black pieces marked
by touch.

    python -m hardware.tactile [--out DIR]     # hardware/tactile/

What it makes (sizes from hardware/geometry.py, as the ordinary surface):

- `tactile-top.dxf`: the 3 mm playing surface for a laser or a router: layer CUT (the
  outline, the eight countersunk screw holes, a peg hole at every square's centre), layer
  ENGRAVE (the squares);
- `dark-square.stl`: the raised dark square, 32 of them glued on the dark squares (3 mm
  high, its own peg hole over the surface's): a hand tells dark from light by height;
- `peg-base.stl`: a disc glued under each piece's base in place of its felt, with the peg
  that goes into the hole and holds the piece's magnet at its tip (32 of them);
- `black-marker.stl`: a dome glued on top of each black piece (16): black by touch.

A piece stands in its hole, so it is at its square's centre (within the peg's clearance),
over the middle of the square's centre switch, which it does not move: the two switches
above and below it read it. It takes the ordinary pieces' 12 x 2 mm magnet (an 8 x 3 mm one,
as before the three switches, is not enough there): the checks (tests/hardware/test_tactile.py)
hold the magnet against the reed switches with hardware/magnets.py - read under its own
square standing on a dark square (the furthest, as far as on the ordinary board), the other
squares' switches unread from a light square's hole (the nearest, 3 mm closer than on the
ordinary board).
"""
from __future__ import annotations

import sys
from pathlib import Path

from hardware import geometry as G
from hardware import magnets as M

HERE = Path(__file__).resolve().parent
OUT = HERE / "tactile"

MAGNET = (12.0, 2.0)  # the pegged pieces' magnet: the ordinary pieces' (parts.py, magnets.choose)
PEG = (14.0, 2.6)  # the peg's diameter and length: in the 3 mm surface with 0.4 mm to spare
HOLE = 14.6  # the peg's hole: 0.3 mm clearance round it
PEG_WALL = 0.6  # under the magnet, at the peg's tip
TILE = 3.0  # a dark square's height over the surface
TILE_GAP = 0.5  # a dark square is this much smaller than its square
BASE = (26.0, 2.0)  # the peg base's disc: diameter (a pawn's base at most 28 mm), thickness
MARKER = (8.0, 3.0)  # the black pieces' dome: diameter, height


def magnet_depth(dark: bool) -> float:
    """The magnet's lower face to the glass's axis (mm) for a piece standing in its hole:
    on a light square its base on the surface, on a dark one on the raised square."""
    tip_to_face = PEG[1] - PEG_WALL  # the magnet's lower face above the peg's tip
    surface_to_glass = G.TOP_PLATE + G.ABOVE_PCB - G.REED_GLASS[1] / 2  # the surface's top to the glass's axis
    stands = TILE if dark else 0.0
    return surface_to_glass + stands - tip_to_face


def check_magnets(grade: str = "N42") -> dict:
    """The magnet in its peg against the switches: its own square's field standing on a dark
    square (the furthest) and a neighbour's in a light square's hole (the nearest), each
    with the peg's clearance as the distance off centre; and what they must be."""
    br = M.GRADES[grade]
    d, t = MAGNET
    off = (HOLE - PEG[0]) / 2
    lo, hi = M.needed()
    where = M.spots(off)
    return {"own": M.own_least(d, t, br, depth=magnet_depth(True), where=where)[0],
            "neighbour": max(M.neighbour_most(d, t, br, p, depth=magnet_depth(False), where=where)[0]
                             for p in (G.PITCH_RANGE[0], G.PITCH)),
            "at least": lo, "at most": hi}


def holes(pitch: float = G.PITCH):
    """Every peg hole's centre (x, y) in the surface's own coordinates, a1's corner at 0:
    the square's centre, where an ordinary piece stands (over the middle of the square's
    centre switch: the two beside it read the piece, hardware/magnets.py)."""
    return [((f + 0.5) * pitch, (r + 0.5) * pitch) for r in range(8) for f in range(8)]


def dxf(path: Path, pitch: float = G.PITCH) -> None:
    """The tactile playing surface: the ordinary one's outline and screws, a peg hole per
    square (layer CUT), the squares (ENGRAVE, unhatched: the dark ones get their raised
    square)."""
    from hardware.enclosure import BoardEnclosure

    BoardEnclosure(pitch).dxf(path, holes(pitch), HOLE, hatched=False)


def parts(pitch: float = G.PITCH):
    """The printed parts: {name: (part, how many)}."""
    from build123d import Align, Box, Cylinder, Pos, Sphere

    lo = (Align.CENTER, Align.CENTER, Align.MIN)
    side = pitch - TILE_GAP
    tile = Box(side, side, TILE, align=lo) - Cylinder(HOLE / 2, TILE + 2, align=lo).moved(Pos(0, 0, -1))
    # The peg base: the disc, the peg under it, the magnet's pocket opening at the disc's
    # top (the magnet pushed down to the peg's tip before the base is glued on).
    base = Cylinder(BASE[0] / 2, BASE[1], align=lo)
    base += Pos(0, 0, -PEG[1]) * Cylinder(PEG[0] / 2, PEG[1], align=lo)
    pocket_depth = PEG[1] - PEG_WALL + BASE[1]
    base -= Pos(0, 0, BASE[1] - pocket_depth) * Cylinder(MAGNET[0] / 2 + 0.1, pocket_depth + 0.5, align=lo)
    r, h = MARKER[0] / 2, MARKER[1]
    cap = Sphere(r) & Pos(0, 0, r - h) * Box(2 * r, 2 * r, h, align=lo)  # a sphere's top, h high
    dome = Pos(0, 0, h - r) * cap
    from hardware.enclosure import laid

    # The peg base prints on its disc (the pocket opening on the bed), the peg up.
    return {"dark-square": (tile, 32), "peg-base": (laid(base, "+z"), 32), "black-marker": (dome, 16)}


def write_all(pitch: float = G.PITCH, out: Path = OUT) -> list[Path]:
    from build123d import export_stl

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (part, _) in sorted(parts(pitch).items()):
        path = out / (name + ".stl")
        export_stl(part, str(path), tolerance=0.05, angular_tolerance=0.2)
        written.append(path)
    dxf(out / "tactile-top.dxf", pitch)
    written.append(out / "tactile-top.dxf")
    return written


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.tactile", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(OUT), help="the folder (default: hardware/tactile)")
    a = ap.parse_args(argv)
    try:
        from hardware.enclosure import build123d_module

        build123d_module()
        found = check_magnets()
        if found["own"] < found["at least"] or found["neighbour"] > found["at most"]:
            raise ValueError("the magnet in its peg gives its switch %.1f AT (at least %.1f) and another square's "
                             "%.2f AT (at most %.2f)" % tuple(found[k] for k in ("own", "at least", "neighbour", "at most")))
        for path in write_all(out=Path(a.out)):
            print(path)
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{ap.prog}: error: {e}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
