"""Footprints from KiCad's own library (Debian's kicad-footprints, or the folder named by
KICAD6_FOOTPRINT_DIR), placed and, for a part on the back, flipped by KiCad itself
(FOOTPRINT.Flip: a part on the back is the front's footprint mirrored, so its pin 1 and
its pins' order come out as they are when the part is soldered there). The routed boards
take their pads from the footprint so placed; nothing here types a pad's position.

The footprints used are read from the library at generation time; their licence is the
KiCad libraries' (CC-BY-SA 4.0 with the exception that a design made with them is not
bound by it); none is copied into the repository.
"""
from __future__ import annotations

import os
from pathlib import Path

DIRS = [Path(d) for d in (os.environ.get("KICAD6_FOOTPRINT_DIR", ""), "/usr/share/kicad/footprints") if d]


def library_dir() -> Path:
    """The library's folder; ImportError saying how to get it."""
    for d in DIRS:
        if (d / "Package_SO.pretty").is_dir():
            return d
    raise ImportError("KiCad's footprint library is missing (Debian: apt-get install kicad-footprints)")


def load(pcbnew, fpid: str):
    """The library's footprint "Library:Name", as the library has it (at the origin, on the
    front)."""
    lib, name = fpid.split(":")
    fp = pcbnew.FootprintLoad(str(library_dir() / (lib + ".pretty")), name)
    if fp is None:
        raise ValueError("KiCad's library has no footprint %s" % fpid)
    fp.SetFPID(pcbnew.LIB_ID(lib, name))
    return fp


_SCRATCH = []  # a board for footprints placed only to read their pads (KiCad flips a footprint on a board)


def place(pcbnew, fpid: str, x: float, y: float, rot: int = 0, back: bool = False, board=None):
    """The footprint at (x, y) mm on board (else a scratch board), turned rot degrees
    counter-clockwise as seen from the front, then, on the back, flipped by KiCad (top to
    bottom, about its own centre: KiCad's default)."""
    fp = load(pcbnew, fpid)
    if board is None:
        if not _SCRATCH:
            _SCRATCH.append(pcbnew.BOARD())
        board = _SCRATCH[0]
    board.Add(fp)
    fp.SetPosition(pcbnew.wxPoint(pcbnew.FromMM(x), pcbnew.FromMM(y)))
    fp.SetOrientationDegrees(rot)
    if back:
        fp.Flip(fp.GetPosition(), False)
    return fp


def pads(pcbnew, fp):
    """The placed footprint's pads: (number, x, y, (w, h) of its copper as the board's axes
    see it, layers "FB"/"F"/"B", drill diameter (0 for a surface pad), slot (w, h) or None,
    round)."""
    out = []
    for p in fp.Pads():
        box = p.GetBoundingBox()
        w, h = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
        x, y = pcbnew.ToMM(p.GetPosition())
        if p.GetAttribute() in (pcbnew.PAD_ATTRIB_PTH, pcbnew.PAD_ATTRIB_NPTH):
            layers = "FB"
        else:
            layers = "B" if p.IsOnLayer(pcbnew.B_Cu) else "F"
        dx, dy = pcbnew.ToMM(p.GetDrillSize())
        slot = None
        if layers == "FB" and abs(dx - dy) > 1e-6:
            turned = round(p.GetOrientationDegrees()) % 180 == 90
            slot = (dy, dx) if turned else (dx, dy)
        out.append((p.GetNumber(), round(x, 4), round(y, 4), (round(w, 4), round(h, 4)), layers, min(dx, dy) if layers == "FB" else 0.0,
                    slot, p.GetShape() == pcbnew.PAD_SHAPE_CIRCLE))
    return out


def silk_box(pcbnew, fp):
    """The box (x0, y0, x1, y1) mm round the placed footprint's silkscreen drawing, or None."""
    boxes = [g.GetBoundingBox() for g in fp.GraphicalItems()
             if g.GetLayer() in (pcbnew.F_SilkS, pcbnew.B_SilkS) and g.GetClass() != "PCB_TEXT"
             and not g.GetClass().endswith("TEXT")]
    if not boxes:
        return None
    return (min(pcbnew.ToMM(b.GetLeft()) for b in boxes), min(pcbnew.ToMM(b.GetTop()) for b in boxes),
            max(pcbnew.ToMM(b.GetRight()) for b in boxes), max(pcbnew.ToMM(b.GetBottom()) for b in boxes))
