"""The rest of the bill of materials and the cost: everything that is not in the circuit's
bom.csv (the sensor strips, the magnets and pieces, the printed parts and their filament,
the playing surface, connectors, cables, screws, the cells and their holder), with the
quantities the other generators decide, and what the whole board costs.

    python -m hardware.parts     # hardware/mechanical.csv, order.csv and order-face-board.csv
                                 # (sourcing.py), and cost.csv

The electronic parts and their fittings are priced and sourced in hardware/sourcing.py
(order.csv: manufacturer, part number, distributor's order number). The mechanical lines
here are estimates in euros for single quantities from hobby shops and hardware suppliers
(2026), one line per part with a supplier-neutral description: what a maker should expect
to pay, not yet where to buy.
"""
from __future__ import annotations

import csv
import io
import math
import struct
from pathlib import Path

from hardware import geometry as G
from hardware import power as PW

HERE = Path(__file__).resolve().parent
MECHANICAL = HERE / "mechanical.csv"
COST = HERE / "cost.csv"
ENCLOSURE = HERE / "enclosure"
FIELDS = ["qty", "part", "description", "for", "manufacturer", "mpn", "distributor", "order_number", "checked",
          "eur_each", "eur"]
FOOT = 304.8  # mm: the ribbon is sold by the foot
RIBBON_JOIN = 80  # mm of ribbon between two strips
RIBBON_CABLE = 800  # mm: the board's cable, the longer way (a clock at White's right, along the front border)
PLA = 1.24  # g/cm3


def stl_volume(path: Path) -> float:
    """A closed binary STL's volume in mm3 (the divergence theorem over its triangles)."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<I", data, 80)
    total = 0.0
    for i in range(n):
        v = struct.unpack_from("<12f", data, 84 + 50 * i)
        a, b, c = v[3:6], v[6:9], v[9:12]
        total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                  + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return abs(total)


def printed(folder: Path = ENCLOSURE) -> dict:
    """{part name: (how many, grams of PLA)} from the committed STL files (solid: the walls
    are thin enough to print nearly solid)."""
    from hardware.enclosure import BoardEnclosure

    copies = {"board-joiner": BoardEnclosure().joiners_needed(), "clock-lever-cap": 2, "clock-lever-bracket": 2,
              "clock-holder-corner": 2}
    return {p.stem: (copies.get(p.stem, 1), stl_volume(p) / 1000 * PLA) for p in sorted(folder.glob("*.stl"))}


def mechanical_rows(magnet=None) -> list[dict]:
    """The mechanical bill of materials: one line per part."""
    from hardware import enclosure as E
    from hardware import magnets, sourcing

    grade, d, t, margin = magnet or magnets.choose()
    board = E.BoardEnclosure()
    length, width = G.strip_size()
    side = board.side
    grams = sum(n * g for n, g in printed().values())
    tiles = board.tiles_per_side ** 2
    ribbon = 7 * RIBBON_JOIN + RIBBON_CABLE  # mm
    rows = [
        # (qty, part, description, for): the source and the price from hardware/sourcing.py
        (8, "sensor strip PCB", "2-layer FR4 PCB, 1.6 mm, HASL, %.1f x %.1f mm, from hardware/pcb/gerber "
         "(order 10: two spares; about EUR 40 with shipping)" % (length, width), "the board's sensor"),
        (math.ceil(ribbon / FOOT), "ribbon 16-way", "flat ribbon cable, 16 wires at 1.27 mm, 28 AWG, by the foot "
         "(%d mm): seven %d mm pieces, their wires parted and soldered into one strip's J2 and the next strip's J1, "
         "pin 1 to pin 1; and the board's cable, %d mm (a clock at White's left needs 300), crimped into two 8-way "
         "KK housings side by side at each end (order.csv) keeping the order" % (ribbon, RIBBON_JOIN, RIBBON_CABLE),
         "joining the strips; the board to the clock"),
        (1, "header 1x16 right-angle", "pin header, 1 row, 16 pins, 2.54 mm, right-angle, fitted from underneath "
         "in the first strip's J1", "the board's cable"),
        (40, "magnet %dx%d %s" % (d, t, grade), "neodymium disc magnet, %d mm x %d mm, %s, magnetised through its "
         "thickness (32 pieces, 2 spare queens, 6 spare): hardware/magnets.py, a piece read wherever its base lies "
         "on its square, no other square's switch moved by one piece or by a crowd round it (x%.2f over all three)"
         % (d, t, grade, margin), "the pieces"),
        (1, "chess pieces", "Staunton pieces, king about 95 mm tall, its base 38-48 mm, a pawn's base %g-%g mm "
         "(no piece's smaller: the sensing is sized for %g mm; FIDE's standards: a square twice a pawn's base), "
         "felted; a %.1f x %.1f mm hole drilled in each base for its magnet, the same pole down on every piece"
         % (G.PIECE_BASE, G.PITCH / 2, G.PIECE_BASE, d + 0.2, t + 0.2), "playing"),
        (3, "WS2812B strip 30/m", "addressable RGB LED strip, WS2812B, 30 LEDs a metre, 10 mm wide, bare (IP30), "
         "self-adhesive, 5 V: cut at its marks into 64 single-LED pieces (%.1f mm), each stuck on its sensor strip "
         "along the rank below its square's reeds and diode, %.1f mm clear of their pads (geometry.led_piece), "
         "the pieces wired in the firmware's order (a1..h1, h2..a2, ...: firmware/hal/squareleds.py) by three short "
         "wires, the first to the cable guard's J3; seen through an opal acrylic playing surface"
         % (G.LED_PIECE[0], G.LED_CLEAR), "the square LEDs (optional)"),
        (1, "felt", "self-adhesive felt sheet, A4, 1 mm (new bases over the magnets)", "the pieces"),
        (1, "playing surface", "3 mm plywood or acrylic, %.0f x %.0f mm, laser-cut and engraved from "
         "hardware/enclosure/board-top.dxf (or cut by hand and the squares painted); the clock's two %.0f x %.0f mm "
         "bottoms from the same sheet (clock-bottoms.dxf)" % (side, side, E.HALF, E.DEPTH), "the board"),
        (round(grams), "filament (g)", "PLA or PETG, 1.75 mm: %d tray tiles, %d joiners, the clock's four shell "
         "pieces, two lever caps, two lever brackets, two holder corners (hardware/enclosure/*.stl)"
         % (tiles, board.joiners_needed()), "the enclosure"),
        (8, "screw M3x10 countersunk", "machine screw, M3 x 10 mm, countersunk head, cutting its thread in the printed pilot hole",
         "the playing surface to the tray"),
        (8, "screw M3x8 countersunk", "machine screw, M3 x 8 mm, countersunk head, into the bosses' %g mm pilot holes" % E.BOSS[1], "the clock's bottoms"),
        (4, "bolt M3x16 + nut", "machine screw M3 x 16 mm with hex nut", "the clock's halves together"),
        (8, "screw M2.5x12 + nut", "machine screw M2.5 x 12 mm with hex nut", "the faces behind their windows"),
        (8, "standoff M2.5x6", "hex standoff M2.5 x 6 mm, female-female, brass",
         "the controller and the cable guard over the bottom"),
        (16, "screw M2.5x6", "machine screw M2.5 x 6 mm, pan head (8 countersunk from under the bottom)",
         "the controller and the cable guard on their standoffs"),
        (4, "screw M2x10 + nut", "machine screw M2 x 10 mm, pan head, with washer and hex nut",
         "the levers' microswitches in their slots"),
        (2, "screw M3x%d pan" % E.LEVER_SCREW[3], "machine screw, M3 x %d mm, pan head, into the stem's %g mm pilot hole"
         % (E.LEVER_SCREW[3], E.LEVER_SCREW[1]), "each lever cap held down on its bracket"),
        (4, "screw M3x6 pan", "machine screw, M3 x 6 mm, pan head, cutting its thread in the bracket's pilot holes",
         "the levers' brackets, through the rear walls"),
        (2, "spring %gx%g" % (E.SPRING[0], E.SPRING[1]), "compression spring, %g mm outside, %g mm free, "
         "solid under %g mm, about %g N/mm, steel (an assortment's)" % E.SPRING, "the levers' return"),
        (2, "screw M2.5x8 + nut", "machine screw M2.5 x 8 mm with hex nut", "the speaker (voice)"),
        (8, "rubber foot", "self-adhesive bumper, 11.1 mm across, 5.1 mm high", "board (4), clock (4)"),
        (1, "perfboard 90x70", "perfboard, 2.54 mm, 90 x 70 mm: hardware/perfboard.py", "the controller"),
        (2, "perfboard 180x50", "perfboard, 2.54 mm, cut to %.0f x %.0f mm" % E.FACE_BOARD[:2],
         "the faces (the backpacks' carriers, or the face boards)"),
        (1, "perfboard 122x20", "perfboard, 2.54 mm, cut to 122 x 20 mm", "the arbiter's buttons"),
        (1, "perfboard 76x40", "perfboard, 2.54 mm, cut to 76 x 40 mm", "the voice"),
        (1, "perfboard 98x39", "perfboard, 2.54 mm, cut to 98 x 39 mm", "the cable guard"),
        (1, "cell holder 4x18650", "holder for four 18650 cells side by side (%g x %g x %g mm), its eight pins wired in parallel "
         "with short leads" % E.BATTERY_HOLDER,
         "power"),
        (PW.VOICE_CELLS, "18650 cell", "Li-ion cell 18650, %d mAh, flat top, matched (%d without the voice)"
         % (PW.CELL_MAH, PW.CELLS), "power"),
        (1, "wire and sleeving", "hook-up wire 0.25 mm2 in four colours, a little 30 AWG wire-wrap wire (the keys "
         "to a backpack's HT16K33, step 2C), heat-shrink sleeving", "wiring"),
        (1, "glue", "cyanoacrylate or two-part epoxy", "magnets, joiners"),
        (1, "micro SD card", "any size, FAT32 (python -m host_tools audiocard)", "the voice"),
        (1, "USB cable", "USB A or C to micro-B, data", "power, the laptop"),
    ]
    out = []
    for q, part, desc, use in rows:
        src = sourcing.source(part)
        out.append({"qty": q, "part": part, "description": desc, "for": use,
                    **{k: src[k] for k in ("manufacturer", "mpn", "distributor", "order_number", "checked")},
                    "eur_each": "%.3f" % src["eur_each"], "eur": "%.2f" % (q * src["eur_each"])})
    return out


def electronic_rows(bom: Path = HERE / "bom.csv") -> list[dict]:
    """The electronic order (hardware/sourcing.py): the circuit's parts and their fittings,
    each with its source and price."""
    from hardware import sourcing

    return sourcing.order_rows(bom)


ELECTRONICS = "electronics (order.csv, the faces on backpacks, without the voice)"
THE_VOICE = "the voice (DFPlayer, bridge, speaker, headphone sockets, card, a fourth cell)"
SQUARE_LEDS = "the square LEDs (optional: 64 WS2812B, strip pieces)"
OPTIONAL = (THE_VOICE, SQUARE_LEDS)
VOICE_MECHANICAL = {"screw M2.5x8 + nut", "micro SD card", "perfboard 76x40"}
# A mechanical part's section in cost.csv, by its name's beginning; the rest: the last.
SECTIONS = (("sensor strips (PCB)", ("sensor strip PCB",)),
            ("pieces and magnets", ("magnet", "chess pieces", "felt")),
            ("enclosure (filament, playing surface, screws, feet)", ("filament", "playing surface", "screw", "bolt",
                                                                     "rubber", "standoff", "spring")),
            ("connectors, cables, perfboard, cells, holder, glue", ("",)))


def _section(part: str) -> str:
    if part in VOICE_MECHANICAL:
        return THE_VOICE
    if part.startswith("WS2812B"):
        return SQUARE_LEDS
    return next(name for name, starts in SECTIONS if part.startswith(starts))


# What a maker pays besides the parts' prices: dated estimates (sourcing.PRICED) from the
# sources' published rates for one parcel to an address in the EU, not quotes; look at
# each source's page before ordering. (EUR, why)
SHIPPING = {
    "Mouser": (0.00, "free on orders over EUR 50 to the EU; the order is over it"),
    "DigiKey": (18.00, "its standard rate to the EU under EUR 50 (or find its few lines at Mouser)"),
    "LCSC": (9.00, "its global direct line, one small parcel"),
    "Pololu": (12.00, "its cheapest international post"),
    "marketplace": (0.00, "most marketplace sellers ship small parts free"),
    "a PCB board house (JLCPCB, PCBWay, Aisler)": (0.00, "in the strips' price (about EUR 40 with shipping)"),
    "a laser-cutting service": (8.00, "a flat parcel"),
    "a fastener supplier": (5.00, "a letter parcel"),
}
# The PCB route (hardware/README.md): five of each small board with the strips' order, and
# the board house's assembly of their surface-mount parts (JLCPCB's economic assembly:
# a setup and a stencil per design, a fee per kind of part not in its basic library, the
# parts; two boards of each design assembled). Dated estimates, EUR.
PCB_ROUTE = (
    ("five of each PCB: controller, cable guard, voice, buttons", 14.00),
    ("assembly: three designs' setup and stencils (3 x EUR 9)", 27.00),
    ("assembly: the surface-mount parts and a loading fee per kind and design (7)", 28.00),
    ("the heavier parcel with the strips", 5.00),
)
# The faces stay on perfboard on the PCB route (the backpacks' carriers; the face PCB waits
# until its characters follow their display's own pinout: hardware/README.md, "The faces'
# PCB"): their perfboards (and, on face boards, the HT16K33s' adapters) are still bought.
FACES_ON_PERFBOARD = ("perfboard 180x50", "adapter SOP-28")
SHIPPED = "shipping (estimates: one parcel per source)"
FACE_BOARDS = ("the faces on face boards instead of backpacks (order-face-board.csv less the backpacks and "
               "the 12 kohm; not in the totals)")
PCB_EXTRA = "the PCB route: five of each PCB but the faces', their surface-mount parts assembled (less the perfboards and adapters)"


def shipping(mechanical=None) -> float:
    """The shipping of the whole order: one parcel per source it names."""
    sources = {r["distributor"] for r in electronic_rows()} | {r["distributor"] for r in mechanical or mechanical_rows()}
    return round(sum(SHIPPING[s][0] for s in sources), 2)


def pcb_route(mechanical=None) -> float:
    """What the PCB route adds: its boards and their assembly, less what it replaces (the
    perfboards and the chips' adapters)."""
    mechanical = mechanical or mechanical_rows()
    saved = sum(float(r["eur"]) for r in mechanical
                if r["part"].startswith("perfboard") and r["part"] not in FACES_ON_PERFBOARD)
    saved += sum(r["eur"] for r in electronic_rows()
                 if r["part"].startswith("adapter") and r["part"] not in FACES_ON_PERFBOARD)
    return round(sum(eur for _, eur in PCB_ROUTE) - saved, 2)


def cost(mechanical=None) -> dict:
    """What the board costs, by section, in euros: with and without the optional voice."""
    mechanical = mechanical or mechanical_rows()
    sections = dict.fromkeys([ELECTRONICS, THE_VOICE, SQUARE_LEDS] + [name for name, _ in SECTIONS], 0.0)
    for r in electronic_rows():
        sections[THE_VOICE if r["voice"] else ELECTRONICS] += r["eur"]
    for r in mechanical:
        eur = float(r["eur"])
        if r["part"] == "18650 cell":  # the fourth cell is the voice's
            sections[THE_VOICE] += float(r["eur_each"])
            eur -= float(r["eur_each"])
        sections[_section(r["part"])] += eur
    out = {k: round(v, 2) for k, v in sections.items()}
    out["total without the voice"] = round(sum(v for k, v in out.items() if k not in OPTIONAL), 2)
    out["total with the voice"] = round(out["total without the voice"] + out[THE_VOICE], 2)
    pieces = sum(float(r["eur"]) for r in mechanical if r["part"] == "chess pieces")
    out["total without the voice or the pieces"] = round(out["total without the voice"] - pieces, 2)
    from hardware import sourcing

    out[FACE_BOARDS] = round(sum(r["eur"] for r in sourcing.face_board_rows())
                             - sum(r["eur"] for r in sourcing.backpack_rows()), 2)
    out[SHIPPED] = shipping(mechanical)
    out[PCB_EXTRA] = pcb_route(mechanical)
    out["perfboard route, shipped, without the voice"] = round(out["total without the voice"] + out[SHIPPED], 2)
    out["PCB route, shipped, without the voice"] = round(out["total without the voice"] + out[SHIPPED]
                                                         + out[PCB_EXTRA], 2)
    out["PCB route, shipped, with the voice"] = round(out["PCB route, shipped, without the voice"]
                                                      + out[THE_VOICE], 2)
    return out


def _csv(rows, fields) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fields, lineterminator="\n")
    w.writeheader()
    for row in rows:
        w.writerow(row)
    return out.getvalue()


def write_all(mechanical_path: Path = MECHANICAL, cost_path: Path = COST) -> tuple[str, str]:
    rows = mechanical_rows()
    mech = _csv(rows, FIELDS)
    money = _csv([{"section": k, "eur": "%.2f" % v} for k, v in cost(rows).items()], ["section", "eur"])
    mechanical_path.write_text(mech)
    cost_path.write_text(money)
    if mechanical_path == MECHANICAL:
        from hardware import sourcing

        sourcing.write()
    return mech, money


def main():
    write_all()
    print(MECHANICAL)
    print(HERE / "order.csv")
    print(HERE / "order-face-board.csv")
    print(COST)
    print(COST.read_text())


if __name__ == "__main__":
    main()
