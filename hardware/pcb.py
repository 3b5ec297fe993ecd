"""The sensor strip, generated with KiCad's own Python API (pcbnew, from Debian's `kicad`):
one rank of the board, 24 reed switches (three in parallel a square) and eight diodes on the square grid
(hardware/geometry.py), routed by this generator (a matrix needs no autorouter). Eight
identical strips, side by side, make the board: a 464 mm square board is too large to
order cheaply, a 465.5 x 54.5 mm strip is not (one order of ten covers a board and two
spares).

Each strip has two 16-pin headers at its left end, beyond file a: J1 (at its White edge)
goes to the controller or to the strip below, J2 (at its Black edge) to the strip above,
pin for pin, with a 16-way 2.54 mm ribbon. The eight file lines run straight from J1 to J2,
and each strip's file lines join them: the files are common to all strips. The rank lines
shift by one pin from J1 to J2: J1's pin 1 is the strip's own rank line, J1's pin k+1 is
J2's pin k, the rank line of the k-th strip above. So the first strip's J1 carries ranks 1
to 8 and files a to h, what the controller reads, and no strip needs setting apart from
the others. Nets: COL_a..COL_h, RANK+0 (the strip's own rank) to RANK+7, SQ_<file>. Three
unplated holes, where no copper runs, take the enclosure's pins (hardware/enclosure.py).

    python -m hardware.pcb        # hardware/pcb/: sensor.kicad_pcb, its DRC report, Gerbers and
                                  # drill files, and sensor.png (pictures for the guide)

KiCad's design rules check runs on the result (its report beside the board); the Gerber
and Excellon drill files in hardware/pcb/gerber/ are what a board house asks for.
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
# Both headers' pins, left to right: the rank lines (+0 is the strip's own), then the files.
J1 = ["RANK+%d" % k for k in range(8)] + ["COL_%s" % f for f in FILES]
J2 = ["RANK+%d" % (k + 1) for k in range(7)] + [None] + ["COL_%s" % f for f in FILES]
# What the first strip's J1 brings to the clock (the cable guard's J_BOARD), pin by pin.
CONTROLLER = ["BOARD_RANK_%d" % (k + 1) for k in range(8)] + ["BOARD_COL_%s" % f for f in FILES]


def board_net(net: str, rank: int) -> str:
    """A strip's net as the circuit names it, on the strip of rank `rank` (0..7)."""
    if net.startswith("RANK+"):
        return "BOARD_RANK_%d" % (rank + 1 + int(net[5:]))
    if net.startswith("SQ_"):
        return net + str(rank + 1)
    return net


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


class SensorStrip:
    """One strip as data first (pads, tracks, vias, the outline, in mm), then as a KiCad
    board."""

    def __init__(self, pitch: float = G.PITCH):
        self.pitch = G.check_pitch(pitch)
        self.size = G.strip_size(pitch)
        self.parts = []  # (reference, value, [(number, x, y, net)])
        self.tracks = []  # (x1, y1, x2, y2, layer "F"/"B", net)
        self.vias = []  # (x, y, net)
        self.texts = []  # (x, y, text)
        self.silk = []  # (x1, y1, x2, y2): the parts' outlines on the silkscreen
        self.labels = []  # (x, y, text): the parts' names on the silkscreen
        self.holes = G.strip_mount_holes(pitch)  # (x, y): unplated, for the tray's pins
        self._squares()
        self._headers()

    def _squares(self):
        """Each square's three reed switches in parallel (hardware/geometry.py,
        SQUARE_REEDS), their file line's pads joined on the top copper towards file a, their
        diode's pads towards file h; the diode lying flat to the right of the lowest
        switch's pad, the cathode (banded) towards file h; the rank line below the diodes on
        the bottom copper."""
        p = self.pitch
        y_rank = self.rank_y()
        for f in range(8):
            cx, cy = G.strip_square_centre(f, p)
            pads = G.reed_pads(cx, cy, p)
            col, mid = "COL_" + FILES[f], "SQ_" + FILES[f]
            for i, (a, b) in enumerate(pads):
                ref = ("reed_" if i == 0 else "reed%d_" % (i + 1)) + FILES[f]
                self.parts.append((ref, "reed NO", [("1", a[0], a[1], col), ("2", b[0], b[1], mid)]))
                self._outline_reed(cx, cy, f, i)
            # the file line's pads, from the top one down; the diode's, the same
            files = sorted((a for a, _ in pads), key=lambda q: q[1])
            diodes = sorted((b for _, b in pads), key=lambda q: q[1])
            for (x1, y1), (x2, y2) in zip(files, files[1:]):
                self.tracks.append((x1, y1, x2, y2, "F", col))
            for (x1, y1), (x2, y2) in zip(diodes, diodes[1:]):
                self.tracks.append((x1, y1, x2, y2, "F", mid))
            bx_, by_ = diodes[-1]
            anode = bx_ + G.DIODE_GAP
            cathode = anode + G.DIODE_PADS
            self.parts.append(("diode_" + FILES[f], "BAT85", [("A", anode, by_, mid), ("K", cathode, by_, "RANK+0")]))
            self.tracks.append((bx_, by_, anode, by_, "F", mid))  # switches to diode
            self.tracks.append((cathode, by_, cathode, y_rank, "B", "RANK+0"))  # diode to the rank line
            self._outline_diode(cathode, anode, by_, f)
        # The rank line, on the bottom, from J1's first pin to the last diode.
        last = self.diode_x(7)
        self.tracks.append((G.header_x(0), y_rank, last, y_rank, "B", "RANK+0"))

    def diode_x(self, f):
        """File f's diode's cathode, on the strip."""
        cx, cy = G.strip_square_centre(f, self.pitch)
        return max(b for _, b in G.reed_pads(cx, cy, self.pitch))[0] + G.DIODE_GAP + G.DIODE_PADS

    def _outline_reed(self, cx, cy, f, i):
        """A glass on the silkscreen (its two sides) and its name (the square's file, and
        the switch's number after the first)."""
        (x, y), (ux, uy) = G.square_reeds(self.pitch)[i]
        half, r = G.REED_GLASS[0] / 2, G.REED_GLASS[1] / 2 + 0.15
        for side in (-1, 1):
            ox, oy = -uy * r * side, ux * r * side
            self.silk.append((cx + x - half * ux + ox, cy + y - half * uy + oy,
                              cx + x + half * ux + ox, cy + y + half * uy + oy))
        name = "S%s" % FILES[f] + ("" if i == 0 else str(i + 1))
        self.labels.append((cx + x - 2.5 * uy + 1.5 * ux, cy + y + 2.5 * ux + 1.5 * uy, name))

    def _outline_diode(self, cathode, anode, y, f):
        """The diode's body between its pads, its band at the cathode's end, and its name."""
        x0, x1, h = anode + G.PAD / 2 + 0.4, cathode - G.PAD / 2 - 0.4, 1.0
        self.silk += [(x0, y - h, x1, y - h), (x1, y - h, x1, y + h), (x1, y + h, x0, y + h), (x0, y + h, x0, y - h)]
        self.silk += [(x1 - 0.5, y - h, x1 - 0.5, y + h), (x1 - 0.8, y - h, x1 - 0.8, y + h)]  # the band: cathode
        self.labels.append(((x0 + x1) / 2, y - h - 1.4, "D%s" % FILES[f]))

    def rank_y(self):
        """Where the rank line runs: below the diodes."""
        cx, cy = G.strip_square_centre(0, self.pitch)
        return max(b for _, b in G.reed_pads(cx, cy, self.pitch))[1] + G.RANK_BELOW

    def file_level(self, f):
        """Where file f's line runs along the strip to the headers' bus: above the switches."""
        return G.HEADER_INSET + G.PAD / 2 + 1.2 + f * G.LEVEL_STEP

    def _headers(self):
        """J1 along the White edge, J2 along the Black edge, both at the left end; the
        lines between them on the top copper, the rank lines stepping one pin left on the
        way up; each file's line along the strip on the bottom copper into its bus line."""
        _, width = self.size
        y1, y2 = width - G.HEADER_INSET, G.HEADER_INSET
        self.parts.append(("J1", "1x16 to the controller or the strip below",
                           [(str(k + 1), G.header_x(k), y1, n) for k, n in enumerate(J1)]))
        self.parts.append(("J2", "1x16 to the strip above",
                           [(str(k + 1), G.header_x(k), y2, n or "") for k, n in enumerate(J2)]))
        # The files' bus lines, straight up.
        for f in range(8):
            x = G.header_x(8 + f)
            col = "COL_" + FILES[f]
            self.tracks.append((x, y1, x, y2, "F", col))
            # The strip's own file line: along the strip on the bottom, then down its file.
            level = self.file_level(f)
            cx, cy = G.strip_square_centre(f, self.pitch)
            fx = cx - G.FILE_TRACK
            tx, ty = min((a for a, _ in G.reed_pads(cx, cy, self.pitch)), key=lambda q: q[1])  # the top switch's file pad
            self.vias.append((x, level, col))
            self.tracks.append((x, level, fx, level, "B", col))
            self.vias.append((fx, level, col))
            self.tracks.append((fx, level, tx, ty, "F", col))
        # The rank lines: J1 pin k+1 up to J2 pin k, one step left (a 45-degree jog, all
        # in parallel, high on the strip where nothing else runs).
        jog = self.file_level(7) - G.HEADER_PITCH
        for k in range(1, 8):
            net = "RANK+%d" % k
            x, left = G.header_x(k), G.header_x(k - 1)
            self.tracks.append((x, y1, x, jog + G.HEADER_PITCH, "F", net))
            self.tracks.append((x, jog + G.HEADER_PITCH, left, jog, "F", net))
            self.tracks.append((left, jog, left, y2, "F", net))
        # The strip's own rank line down to J1's first pin.
        self.tracks.append((G.header_x(0), self.rank_y(), G.header_x(0), y1, "B", "RANK+0"))
        self.texts.append((G.header_x(4), y1 - 3.2, "J1: controller / strip below"))
        self.texts.append((G.header_x(4), y2 + 3.2, "J2: strip above"))
        cx, _ = G.strip_square_centre(3, self.pitch)
        self.texts.append((cx + 10, self.rank_y() + 2.5, "rank strip (8 identical): rank 1 nearest the clock"))

    # ----- KiCad

    def kicad(self, pcbnew):
        """The board as KiCad's BOARD, with deterministic identifiers (the same file from
        the same sources)."""
        from hardware.kicadboard import KiBoard

        k = KiBoard(pcbnew, 17, G.EDGE_CLEARANCE, G.PCB_THICKNESS)
        b, mm, pt = k.board, k.mm, k.pt
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
                header = ref in ("J1", "J2")  # 0.64 mm square pins: 0.91 mm across, a 1.0 mm hole
                size, drill = (G.HEADER_PAD, G.HEADER_DRILL) if header else (G.PAD, G.DRILL)
                pad.SetSize(pcbnew.wxSize(mm(size), mm(size)))
                pad.SetDrillSize(pcbnew.wxSize(mm(drill), mm(drill)))
                pad.SetLayerSet(pad.PTHMask())
                pad.SetPos0(pt(x - ox, y - oy))
                pad.SetPosition(pt(x, y))
                if n:
                    pad.SetNet(k.net(n))
                fp.Add(pad)
        for x1, y1, x2, y2, layer, n in self.tracks:
            if (x1, y1) != (x2, y2):
                k.track(x1, y1, x2, y2, layer, n, G.TRACK)
        for i, (x, y) in enumerate(self.holes):
            k.hole("H%d" % (i + 1), "mounting hole %.1f mm" % G.MOUNT_HOLE, x, y, G.MOUNT_HOLE)
        for x, y, n in self.vias:
            k.via(x, y, n, *G.VIA)
        for x1, y1, x2, y2 in self.silk:
            k.segment(x1, y1, x2, y2, pcbnew.F_SilkS, 0.15)
        for x, y, words in self.labels:
            k.text(x, y, words, 1.0, 0.15, pcbnew.F_SilkS)
        for x, y, words in self.texts:
            k.text(x, y, words, 1.5, 0.2, pcbnew.F_SilkS, left=True)
        k.outline(*self.size)
        return b


def drc(pcbnew, path: Path, report: Path) -> tuple[int, int]:
    """KiCad's design rules check of the saved board: (violations, unconnected items)."""
    board = pcbnew.LoadBoard(str(path))
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text()
    found = [int(line.split()[2]) for line in text.splitlines() if line.startswith("** Found") and "DRC violations" in line]
    unconnected = [int(line.split()[2]) for line in text.splitlines() if line.startswith("** Found") and "unconnected" in line]
    return (found[0] if found else -1), (unconnected[0] if unconnected else 0)


def plot(pcbnew, path: Path, out: Path, layers=("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "Edge_Cuts")) -> list[Path]:
    """Gerber files of the layers named (pcbnew's names; the files take KiCad's own:
    F_Silkscreen for F_SilkS), and the Excellon drill."""
    out.mkdir(parents=True, exist_ok=True)
    board = pcbnew.LoadBoard(str(path))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out))
    po.SetUseGerberX2format(True)
    po.SetCreateGerberJobFile(False)
    po.SetIncludeGerberNetlistInfo(False)
    for layer_name in layers:
        name = layer_name.replace("SilkS", "Silkscreen")
        pc.SetLayer(getattr(pcbnew, layer_name))
        pc.OpenPlotfile(name, pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
    pc.ClosePlot()
    ew = pcbnew.EXCELLON_WRITER(board)
    ew.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    ew.SetFormat(True)
    ew.CreateDrillandMapFilesSet(str(out), True, False)
    return sorted(out.iterdir())


def picture(strip: SensorStrip, path: Path) -> None:
    """The strip as a maker sees it before soldering (whole, and its left end close up: the
    headers and the lines between them), and the eight strips laid as the board with their
    ribbons: top copper red, bottom blue, pads gold, the squares dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    length, width = strip.size
    p = strip.pitch
    left = G.strip_left(p)
    fig = plt.figure(figsize=(12, 9))
    whole = fig.add_axes([0.01, 0.76, 0.98, 0.22])
    close = fig.add_axes([0.01, 0.0, 0.42, 0.72])
    board = fig.add_axes([0.45, 0.0, 0.54, 0.72])

    def draw(ax, labels):
        ax.set_aspect("equal")
        ax.axis("off")
        ax.add_patch(plt.Rectangle((0, 0), length, width, color="#2e7d32", alpha=0.12))
        ax.add_patch(plt.Rectangle((0, 0), length, width, fill=False, color="black", lw=1))
        for i in range(9):
            ax.plot([left + i * p] * 2, [0, width], color="#777", lw=0.6, ls="--")
        for x1, y1, x2, y2, layer, _ in strip.tracks:
            ax.plot([x1, x2], [y1, y2], color="#c62828" if layer == "F" else "#1565c0", lw=0.9, alpha=0.85)
        for x1, y1, x2, y2 in strip.silk:
            ax.plot([x1, x2], [y1, y2], color="#333", lw=0.5)
        for x, y, _ in strip.vias:
            ax.add_patch(plt.Circle((x, y), G.VIA[0] / 2, color="#555"))
        for x, y in strip.holes:
            ax.add_patch(plt.Circle((x, y), G.MOUNT_HOLE / 2, fill=False, color="black", lw=0.8))
        for ref, _, pads in strip.parts:
            for number, x, y, n in pads:
                ax.add_patch(plt.Circle((x, y), G.PAD / 2, color="#b8860b"))
                if labels and ref in ("J1", "J2"):
                    name = (n or "nc").replace("RANK", "R").replace("COL_", "")
                    ax.text(x, y + (2.2 if ref == "J1" else -2.2), name, ha="center",
                            va="top" if ref == "J1" else "bottom", fontsize=5, rotation=90)
        for f in range(8):
            ax.text(G.strip_square_centre(f, p)[0], -2, FILES[f], ha="center", va="bottom", fontsize=8, clip_on=True)

    draw(whole, False)
    whole.set_xlim(-3, length + 3)
    whole.set_ylim(width + 3, -9)
    whole.set_title("One rank strip (hardware/pcb.py), %.1f x %.1f mm, eight make the board: %.0f mm squares; "
                    "top copper red, bottom blue" % (length, width, p), fontsize=9)
    draw(close, True)
    close.set_xlim(-2, left + 0.75 * p)
    close.set_ylim(width + 9, -9)
    close.set_title("Its left end: J1 (to the controller or the strip below) and J2 (to the strip above);\n"
                    "the files run straight through, the ranks step one pin left (R+k: k strips up)", fontsize=8)
    # The board: eight strips, the ribbons between them, and the one to the controller.
    board.set_aspect("equal")
    board.axis("off")
    for r in range(8):
        ox, oy = G.strip_origin(r, p)
        board.add_patch(plt.Rectangle((ox, oy), length, width, color="#2e7d32", alpha=0.15))
        board.add_patch(plt.Rectangle((ox, oy), length, width, fill=False, color="black", lw=0.8))
        board.text(8 * p + 4, oy + width / 2, str(r + 1), va="center", fontsize=9)
        for f in range(8):
            for (x, y), (_, (ux, uy)) in zip(G.reed_centres(f, r, p), G.square_reeds(p)):
                hx, hy = G.REED_GLASS[0] / 2 * ux, G.REED_GLASS[0] / 2 * uy
                board.plot([x - hx, x + hx], [y - hy, y + hy], color="#444", lw=1.2)
        x0, x1 = ox + G.header_x(0), ox + G.header_x(15)
        y_j1 = oy + width - G.HEADER_INSET
        board.plot([x0, x1], [y_j1] * 2, color="#b8860b", lw=3)
        board.plot([x0, x1], [oy + G.HEADER_INSET] * 2, color="#b8860b", lw=3)
        if r:
            board.add_patch(plt.Rectangle((x0, y_j1), x1 - x0, p - width + 2 * G.HEADER_INSET,
                                          color="#9e9e9e", alpha=0.8))
    for i in range(9):
        board.plot([i * p] * 2, [0, 8 * p], color="#777", lw=0.5, ls="--")
        board.plot([0, 8 * p], [i * p] * 2, color="#777", lw=0.5, ls="--")
    ox, oy = G.strip_origin(0, p)
    cable = oy + width - G.HEADER_INSET
    board.add_patch(plt.Rectangle((ox + G.header_x(0), cable), G.header_x(15) - G.header_x(0), 30,
                                  color="#9e9e9e", alpha=0.8))
    board.text(ox + G.header_x(8), cable + 34, "16-way ribbon to the controller", ha="center", va="top", fontsize=8)
    board.set_xlim(-left - 5, 8 * p + 12)
    board.set_ylim(8 * p + 45, -5)
    board.set_title("The board from above: the strips side by side (rank 1 nearest White), reed glass under each "
                    "square,\na short ribbon (grey) from each strip's J2 to the next strip's J1", fontsize=8)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def write_all(pitch: float = G.PITCH, out: Path = OUT) -> tuple[int, int]:
    """Writes the strip, its DRC report, Gerbers and drill, and its picture; returns the
    DRC's (violations, unconnected items)."""
    pcbnew = pcbnew_module()
    out.mkdir(parents=True, exist_ok=True)
    path = out / BOARD_FILE.name
    strip = SensorStrip(pitch)
    pcbnew.SaveBoard(str(path), strip.kicad(pcbnew))
    result = drc(pcbnew, path, out / DRC_FILE.name)
    plot(pcbnew, path, out / GERBERS.name)
    picture(strip, out / PICTURE.name)
    return result


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.pcb", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pitch", type=float, default=G.PITCH, help="a square's side in mm (%g-%g; %%(default)s)" % G.PITCH_RANGE)
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
