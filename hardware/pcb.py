"""The sensor PCB, generated with KiCad's own Python API (pcbnew, from Debian's `kicad`):
the 64 reed switches and their diodes on the square grid (hardware/geometry.py), the file
lines on the top copper and the rank lines on the bottom, routed by this generator (a
matrix needs no autorouter), fanned in to a 16-pin header at the bottom-left corner for the
cable to the controller. Its nets are the circuit's (hardware/circuit.py): COL_a..COL_h,
RANK_1..RANK_8 and a SQ_<square> between each switch and its diode.

    python -m hardware.pcb        # hardware/pcb/: sensor.kicad_pcb, its DRC report, Gerbers and
                                  # drill files, and sensor.png (a picture of it for the guide)

KiCad's design rules check runs on the result (its report beside the board); the Gerber
and Excellon drill files in hardware/pcb/gerber/ are what a board house asks for. At the
default 55 mm pitch the board is 464 mm square, too large to order cheaply: splitting it
into identical strips joined by connectors is not done yet (hardware/README.md).
"""
from __future__ import annotations

import sys
from pathlib import Path

from hardware import geometry as G

HERE = Path(__file__).resolve().parent
OUT = HERE / "pcb"
BOARD_FILE = OUT / "sensor.kicad_pcb"
DRC_FILE = OUT / "sensor-drc.rpt"
GERBERS = OUT / "gerber"
PICTURE = OUT / "sensor.png"
FILES = "abcdefgh"
# The header's pins, left to right: the ranks from 8 down to 1, then the files a..h (the
# order the lines arrive in, so that none crosses another).
HEADER = ["RANK_%d" % r for r in range(8, 0, -1)] + ["COL_%s" % f for f in FILES]


def pcbnew_module():
    """KiCad's pcbnew, where Debian's kicad puts it; ImportError saying how to get it."""
    try:
        import pcbnew
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import pcbnew
        except ImportError:
            raise ImportError("KiCad's pcbnew module is missing (Debian: apt-get install kicad)") from None
    return pcbnew


class SensorPcb:
    """The board as data first (pads, tracks, the outline, in mm), then as a KiCad board."""

    def __init__(self, pitch: float = G.PITCH):
        if not 40 <= pitch <= 65:
            raise ValueError("the square pitch is 40 to 65 mm")
        self.pitch = pitch
        self.size = G.board_size(pitch)
        self.parts = []  # (reference, value, [(number, x, y, net)])
        self.tracks = []  # (x1, y1, x2, y2, layer "F"/"B", net)
        self._squares()
        self._fan_in()

    def _squares(self):
        p = self.pitch
        for r in range(8):
            rank = "RANK_%d" % (r + 1)
            y_rank = self._rank_y(r)
            for f in range(8):
                sq = FILES[f] + str(r + 1)
                cx, cy = G.square_centre(f, r, p)
                y1 = cy + G.REED_OFFSET - G.REED_PADS / 2
                y2 = cy + G.REED_OFFSET + G.REED_PADS / 2
                ax = cx + G.DIODE_GAP
                kx = ax + G.DIODE_PADS
                col, mid = "COL_" + FILES[f], "SQ_" + sq
                self.parts.append(("reed_" + sq, "reed NO", [("1", cx, y1, col), ("2", cx, y2, mid)]))
                self.parts.append(("diode_" + sq, "BAT85", [("A", ax, y2, mid), ("K", kx, y2, rank)]))
                self.tracks.append((cx, y2, ax, y2, "F", mid))  # switch to diode
                self.tracks.append((cx, y1, cx - G.FILE_TRACK, y1, "F", col))  # switch to its file line
                self.tracks.append((kx, y2, kx, y_rank, "B", rank))  # diode to its rank line
            # The rank line, on the bottom, from its leg in the left border to the last diode.
            leg = self._rank_leg(r)
            self.tracks.append((leg, y_rank, G.BORDER + 7.5 * p + G.DIODE_GAP + G.DIODE_PADS, y_rank, "B", rank))

    def _rank_y(self, r):
        """Where rank r's line runs: below its diodes."""
        _, cy = G.square_centre(0, r, self.pitch)
        return cy + G.REED_OFFSET + G.REED_PADS / 2 + G.RANK_BELOW

    @staticmethod
    def _rank_leg(r):
        """Rank r's leg in the left border: rank 1 innermost, rank 8 outermost (so that no
        rank line crosses another's leg)."""
        return G.BORDER - 1.5 - r * G.FAN_STEP

    def _fan_in(self):
        """The lines down to the header: the file lines on the top copper, the rank legs on
        the bottom, each turning at its own level so that none crosses another (those
        nearest their pin turn first)."""
        p = self.pitch
        # The fan's levels lie below the lowest rank line; the header's pins below them.
        lowest = self._rank_y(0)
        level = lambda k: lowest + 1.5 * G.FAN_STEP + k * G.FAN_STEP  # noqa: E731
        pin_y = level(7) + 2.5
        x0 = G.BORDER + 2.0
        pins = [(name, x0 + i * G.HEADER_PITCH, pin_y) for i, name in enumerate(HEADER)]
        self.parts.append(("sensor_header", "1x16 header", [(str(i + 1), x, y, n) for i, (n, x, y) in enumerate(pins)]))
        pin_x = {n: x for n, x, _ in pins}
        # Ranks: all move right to their pins; rank 1 (innermost leg) turns first.
        for r in range(8):
            rank = "RANK_%d" % (r + 1)
            leg = self._rank_leg(r)
            y_rank = self._rank_y(r)
            y = level(r)
            self.tracks.append((leg, y_rank, leg, y, "B", rank))
            self.tracks.append((leg, y, pin_x[rank], y, "B", rank))
            self.tracks.append((pin_x[rank], y, pin_x[rank], pin_y, "B", rank))
        # Files: file a moves right to its pin, the others left; the nearest turns first.
        order = sorted(range(8), key=lambda f: abs(G.square_centre(f, 0, p)[0] - G.FILE_TRACK - pin_x["COL_" + FILES[f]]))
        for k, f in enumerate(order):
            col = "COL_" + FILES[f]
            cx, _ = G.square_centre(f, 7, p)
            x = cx - G.FILE_TRACK
            top = G.square_centre(f, 7, p)[1] + G.REED_OFFSET - G.REED_PADS / 2  # rank 8's switch
            y = level(k)
            self.tracks.append((x, top, x, y, "F", col))
            self.tracks.append((x, y, pin_x[col], y, "F", col))
            self.tracks.append((pin_x[col], y, pin_x[col], pin_y, "F", col))

    # ----- KiCad

    def kicad(self, pcbnew):
        """The board as KiCad's BOARD, with deterministic identifiers (the same file from
        the same sources)."""
        pcbnew.KIID.SeedGenerator(17)
        b = pcbnew.BOARD()
        mm = pcbnew.FromMM
        pt = lambda x, y: pcbnew.wxPoint(mm(x), mm(y))  # noqa: E731
        ds = b.GetDesignSettings()
        ds.m_CopperEdgeClearance = mm(G.EDGE_CLEARANCE)
        ds.SetBoardThickness(mm(1.6))
        nets = {}

        def net(name):
            if name not in nets:
                nets[name] = pcbnew.NETINFO_ITEM(b, name)
                b.Add(nets[name])
            return nets[name]

        for ref, value, pads in self.parts:
            fp = pcbnew.FOOTPRINT(b)
            fp.SetReference(ref)
            fp.SetValue(value)
            fp.Reference().SetVisible(False)
            fp.Value().SetVisible(False)
            ox, oy = pads[0][1], pads[0][2]
            fp.SetPosition(pt(ox, oy))
            b.Add(fp)
            for number, x, y, n in pads:
                pad = pcbnew.PAD(fp)
                pad.SetNumber(number)
                pad.SetShape(pcbnew.PAD_SHAPE_RECT if number in ("1", "K") else pcbnew.PAD_SHAPE_CIRCLE)
                pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
                pad.SetSize(pcbnew.wxSize(mm(G.PAD), mm(G.PAD)))
                pad.SetDrillSize(pcbnew.wxSize(mm(G.DRILL), mm(G.DRILL)))
                pad.SetLayerSet(pad.PTHMask())
                pad.SetPos0(pt(x - ox, y - oy))
                pad.SetPosition(pt(x, y))
                pad.SetNet(net(n))
                fp.Add(pad)
        for x1, y1, x2, y2, layer, n in self.tracks:
            if (x1, y1) == (x2, y2):
                continue
            t = pcbnew.PCB_TRACK(b)
            t.SetStart(pt(x1, y1))
            t.SetEnd(pt(x2, y2))
            t.SetWidth(mm(G.TRACK))
            t.SetLayer(pcbnew.F_Cu if layer == "F" else pcbnew.B_Cu)
            t.SetNet(net(n))
            b.Add(t)
        s = self.size
        for x1, y1, x2, y2 in ((0, 0, s, 0), (s, 0, s, s), (s, s, 0, s), (0, s, 0, 0)):
            e = pcbnew.PCB_SHAPE(b)
            e.SetShape(pcbnew.SHAPE_T_SEGMENT)
            e.SetStart(pt(x1, y1))
            e.SetEnd(pt(x2, y2))
            e.SetLayer(pcbnew.Edge_Cuts)
            e.SetWidth(mm(0.1))
            b.Add(e)
        return b


def drc(pcbnew, path: Path, report: Path) -> tuple[int, int]:
    """KiCad's design rules check of the saved board: (violations, unconnected items)."""
    board = pcbnew.LoadBoard(str(path))
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text()
    found = [int(line.split()[2]) for line in text.splitlines() if line.startswith("** Found") and "DRC violations" in line]
    unconnected = [int(line.split()[2]) for line in text.splitlines() if line.startswith("** Found") and "unconnected" in line]
    return (found[0] if found else -1), (unconnected[0] if unconnected else 0)


def plot(pcbnew, path: Path, out: Path) -> list[Path]:
    """Gerber files of the copper, mask, silkscreen and outline, and the Excellon drill."""
    out.mkdir(parents=True, exist_ok=True)
    board = pcbnew.LoadBoard(str(path))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out))
    po.SetUseGerberX2format(True)
    po.SetCreateGerberJobFile(False)
    po.SetIncludeGerberNetlistInfo(False)
    layers = (("F_Cu", pcbnew.F_Cu), ("B_Cu", pcbnew.B_Cu), ("F_Mask", pcbnew.F_Mask),
              ("B_Mask", pcbnew.B_Mask), ("F_Silkscreen", pcbnew.F_SilkS), ("Edge_Cuts", pcbnew.Edge_Cuts))
    for name, layer in layers:
        pc.SetLayer(layer)
        pc.OpenPlotfile(name, pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
    pc.ClosePlot()
    ew = pcbnew.EXCELLON_WRITER(board)
    ew.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    ew.SetFormat(True)
    ew.CreateDrillandMapFilesSet(str(out), True, False)
    return sorted(out.iterdir())


def picture(pcb: SensorPcb, path: Path) -> None:
    """The board as a maker sees it before soldering: the outline, the squares (dashed),
    the pads, the top copper red and the bottom blue, the header's pins named."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = pcb.size
    fig, ax = plt.subplots(figsize=(11, 11.6))
    ax.set_aspect("equal")
    ax.set_xlim(-8, s + 8)
    ax.set_ylim(s + 8, -16)
    ax.axis("off")
    ax.add_patch(plt.Rectangle((0, 0), s, s, fill=True, color="#2e7d32", alpha=0.12))
    ax.add_patch(plt.Rectangle((0, 0), s, s, fill=False, color="black", lw=1))
    p = pcb.pitch
    for i in range(9):
        ax.plot([G.BORDER + i * p] * 2, [G.BORDER, G.BORDER + 8 * p], color="#777", lw=0.6, ls="--")
        ax.plot([G.BORDER, G.BORDER + 8 * p], [G.BORDER + i * p] * 2, color="#777", lw=0.6, ls="--")
    for f in range(8):
        ax.text(G.BORDER + (f + 0.5) * p, G.BORDER - 3, FILES[f], ha="center", fontsize=9)
    for r in range(8):
        ax.text(G.BORDER + 8 * p + 3, G.BORDER + (7 - r + 0.5) * p, str(r + 1), va="center", fontsize=9)
    for x1, y1, x2, y2, layer, _ in pcb.tracks:
        ax.plot([x1, x2], [y1, y2], color="#c62828" if layer == "F" else "#1565c0", lw=0.9, alpha=0.85)
    for ref, _, pads in pcb.parts:
        for number, x, y, n in pads:
            ax.add_patch(plt.Circle((x, y), G.PAD / 2, color="#b8860b"))
            if ref == "sensor_header":
                ax.text(x, y + 2.2, n.replace("RANK_", "").replace("COL_", ""), ha="center", va="top", fontsize=4.5)
    ax.set_title("The sensor PCB (hardware/pcb.py): %.0f mm squares, %.0f mm square board; top copper red "
                 "(file lines), bottom blue (rank lines); one reed switch and diode per square" % (p, s), fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def write_all(pitch: float = G.PITCH, out: Path = OUT) -> tuple[int, int]:
    """Writes the board, its DRC report, Gerbers and drill, and its picture; returns the
    DRC's (violations, unconnected items)."""
    pcbnew = pcbnew_module()
    out.mkdir(parents=True, exist_ok=True)
    path = out / BOARD_FILE.name
    pcb = SensorPcb(pitch)
    pcbnew.SaveBoard(str(path), pcb.kicad(pcbnew))
    result = drc(pcbnew, path, out / DRC_FILE.name)
    plot(pcbnew, path, out / GERBERS.name)
    picture(pcb, out / PICTURE.name)
    return result


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.pcb", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pitch", type=float, default=G.PITCH, help="a square's side in mm (40-65; %(default)s)")
    ap.add_argument("--out", default=str(OUT), help="the folder (default: hardware/pcb)")
    a = ap.parse_args(argv)
    try:
        violations, unconnected = write_all(a.pitch, Path(a.out))
    except (ImportError, ValueError) as e:
        raise SystemExit(f"{ap.prog}: error: {e}") from None
    out = Path(a.out)
    print(out / BOARD_FILE.name, f"DRC: {violations} violations, {unconnected} unconnected ({out / DRC_FILE.name})",
          out / GERBERS.name, out / PICTURE.name, sep="\n")
    return 1 if violations or unconnected else 0


if __name__ == "__main__":
    sys.exit(main())
