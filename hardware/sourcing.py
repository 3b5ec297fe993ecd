"""Where every part is ordered: its manufacturer and part number, a distributor's order
number, and a unit price in euros; and the fittings the circuit's own parts need but do not
name (the mating housings and crimps of each connector, the sockets and adapters of each
module and small chip, the leads between the boards), counted from the netlist and the
perfboard layouts, so that an order cannot miss a housing or a crimp.

    python -m hardware.sourcing      # hardware/order.csv, order-face-board.csv

The rest of the bill of materials (hardware/parts.py, mechanical.csv) takes its sources from
the same catalogue, by its lines' names.

`checked` says how far an order number was checked: "seen" (found as this distributor's
number for this part in published bills of materials), "scheme" (the distributor's
manufacturer prefix and the manufacturer's number, as that distributor forms them: check it
on the page before ordering), "fab" (made to our files by a service: the PCBs, the laser-cut
sheet), "standard" (a fastener by its ISO designation, which any fastener supplier fills),
or "marketplace" (a generic module or material no distributor stocks under one number:
bought by its description). Prices are the project's estimates at PRICED for the quantity
ordered here, not quotes: a distributor's basket gives the day's figure.
"""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = HERE / "order.csv"
FACE_ORDER = HERE / "order-face-board.csv"
PRICED = "2026-11-27"

MOUSER, DIGIKEY, LCSC, MARKET = "Mouser", "DigiKey", "LCSC", "marketplace"
BOARD_HOUSE = "a PCB board house (JLCPCB, PCBWay, Aisler)"
FASTENERS = "a fastener supplier"
ANY = "any"
FILAMENT_EUR_PER_G = 0.022
CHECKED = ("seen", "scheme", "fab", "standard", "marketplace")

def _fastener(eur: float, *designations: str) -> tuple:
    """A fastener's source: its ISO designations (with their nuts and washers), which any
    fastener supplier fills."""
    spec = "; ".join(designations)
    return ANY, spec, FASTENERS, spec, eur, "standard"


# Part -> (manufacturer, manufacturer's part number, distributor, order number, EUR each, checked).
# Keys: the circuit's MPN field (bom.csv), or a fitting's name below.
CATALOGUE = {
    "SC0915": ("Raspberry Pi", "SC0915", MOUSER, "358-SC0915", 4.00, "seen"),
    "SN74HC138N": ("Texas Instruments", "SN74HC138N", MOUSER, "595-SN74HC138N", 0.50, "seen"),
    "MACD-14 15-20": ("Littelfuse", "MACD-14 15-20", MOUSER, "934-MACD-1415-20", 0.60, "scheme"),  # (a distributor number has no spaces)
    "BAT85": ("Vishay", "BAT85S", MOUSER, "78-BAT85S", 0.06, "seen"),
    "1N5819": ("Vishay", "1N5819-E3/54", MOUSER, "625-1N5819-E3", 0.10, "seen"),
    "1N4148": ("onsemi", "1N4148", MOUSER, "512-1N4148", 0.03, "seen"),
    "K104K15X7RF5TL2": ("Vishay BCcomponents", "K104K15X7RF5TL2", MOUSER, "594-K104K15X7RF5TL2", 0.10, "seen"),
    "UVR1A102MPD": ("Nichicon", "UVR1A102MPD", MOUSER, "647-UVR1A102MPD", 0.40, "scheme"),
    "UVR1A101MDD": ("Nichicon", "UVR1A101MDD", MOUSER, "647-UVR1A101MDD", 0.22, "seen"),
    "B3F-4055": ("Omron", "B3F-4055", MOUSER, "653-B3F-4055", 0.30, "seen"),
    "D2F-01L": ("Omron", "D2F-01L", DIGIKEY, "SW154-ND", 1.60, "seen"),
    "BC337-40": ("onsemi", "BC33740BU", MOUSER, "512-BC33740BU", 0.08, "scheme"),
    "Seeed 316040001": ("Seeed Technology", "316040001", MOUSER, "713-316040001", 1.10, "scheme"),
    "CEM-1203(42)": ("CUI Devices", "CEM-1203(42)", MOUSER, "490-CEM-1203(42)", 1.00, "scheme"),
    "WP813SRD": ("Kingbright", "WP813SRD", MOUSER, "604-WP813SRD", 0.25, "scheme"),
    "WP710A10ID": ("Kingbright", "WP710A10ID", MOUSER, "604-WP710A10ID", 0.08, "seen"),
    "HT16K33-28SOP": ("Holtek", "HT16K33-28SOP", LCSC, "HT16K33-28SOP", 1.50, "scheme"),  # (by part number)
    "PSC08-11SRWA": ("Kingbright", "PSC08-11SRWA", MOUSER, "604-PSC08-11SRWA", 1.80, "scheme"),
    "BSS138": ("onsemi", "BSS138", MOUSER, "512-BSS138", 0.10, "seen"),
    "AO3401A": ("Alpha & Omega", "AO3401A", LCSC, "C15127", 0.05, "seen"),  # (USB's soft start)
    "K103K15X7RF5TL2": ("Vishay BCcomponents", "K103K15X7RF5TL2", DIGIKEY, "BC1078CT-ND", 0.30, "seen"),
    "TP4056 + DW01A module": ("generic", "TP4056 + DW01A 1-cell charger module", MARKET,
                              "TP4056 charger module with protection (DW01A, FS8205A)", 0.80, "marketplace"),
    "Pololu S7V8F5": ("Pololu", "S7V8F5 (item 2119)", "Pololu", "2119", 7.50, "seen"),
    "B2B-PH-K-S": ("JST", "B2B-PH-K-S(LF)(SN)", MOUSER, "306-B2B-PH-K-S", 0.15, "seen"),
    "B3B-XH-A": ("JST", "B3B-XH-A(LF)(SN)", MOUSER, "306-B3BXHALFSNP", 0.15, "scheme"),
    "SC16IS750 module": ("generic", "SC16IS750 I2C/SPI-UART module (CJMCU-750)", MARKET,
                         "SC16IS750 module with 14.7456 MHz crystal", 4.00, "marketplace"),
    "DFPlayer Mini (DFR0299)": ("DFRobot", "DFR0299", MOUSER, "426-DFR0299", 5.50, "scheme"),
    "CDS-40-8": ("CUI Devices", "CDS-40-8", MOUSER, "490-CDS-40-8", 2.00, "scheme"),
    "PJ-392": ("CUI Devices", "PJ-392", MOUSER, "490-PJ-392", 0.40, "scheme"),
    "MF-R250": ("Bourns", "MF-R250", MOUSER, "652-MF-R250", 0.30, "scheme"),
    # The charger module's R_PROG, changed (hardware/power.py): an 0603, 1 %
    "R_PROG 2.7k": ("Yageo", "RC0603FR-072K7L", MOUSER, "603-RC0603FR-072K7L", 0.10, "scheme"),
    "LM66100DCKR": ("Texas Instruments", "LM66100DCKR", MOUSER, "595-LM66100DCKR", 0.80, "seen"),
    "OS102011MS2QN1": ("C&K", "OS102011MS2QN1", DIGIKEY, "CKN9565-ND", 0.55, "seen"),
    "SP0504BAHTG": ("Littelfuse", "SP0504BAHTG", LCSC, "C10675", 0.15, "seen"),
    "SN74AHCT1G125DBVR": ("Texas Instruments", "SN74AHCT1G125DBVR", LCSC, "C7484", 0.20, "seen"),
    "USBLC6-2SC6": ("STMicroelectronics", "USBLC6-2SC6", MOUSER, "511-USBLC6-2SC6", 0.40, "seen"),
    "105017-0001": ("Molex", "105017-0001", DIGIKEY, "WM1399CT-ND", 0.90, "seen"),
    # The faces' recommended route (hardware/README.md, step 2C): Adafruit's quad
    # alphanumeric backpack, red (its product 1911); Mouser numbers Adafruit's products
    # 485-<product>.
    "Adafruit 1911": ("Adafruit", "1911", MOUSER, "485-1911", 9.50, "scheme"),
    # ----- fittings: what the circuit's parts need to be plugged or seated
    "XHP-2": ("JST", "XHP-2", MOUSER, "306-XHP-2", 0.10, "seen"),
    "XHP-3": ("JST", "XHP-3", MOUSER, "306-XHP-3", 0.10, "scheme"),
    "B2B-XH-A": ("JST", "B2B-XH-A(LF)(SN)", MOUSER, "306-B2BXHALFSNP", 0.13, "seen"),
    "SXH-001T-P0.6": ("JST", "SXH-001T-P0.6", MOUSER, "306-SXH-001T-P0.6", 0.10, "seen"),
    "PHR-2": ("JST", "PHR-2", MOUSER, "306-PHR-2", 0.05, "seen"),
    "SPH-002T-P0.5S": ("JST", "SPH-002T-P0.5S", MOUSER, "306-SPH-002T-P0.5S", 0.08, "seen"),
    "KK header": ("Molex", "22-27-2{n:02d}1", MOUSER, "538-22-27-2{n:02d}1", 0.25, "seen"),
    "KK housing": ("Molex", "22-01-3{n:02d}7", MOUSER, "538-22-01-3{n:02d}7", 0.15, "seen"),
    "KK crimp": ("Molex", "08-50-0114", MOUSER, "538-08-50-0114", 0.08, "seen"),
    "pin header 1x40": ("Harwin", "M20-9994045", MOUSER, "855-M20-9994045", 0.60, "seen"),
    "socket 1x20": ("Harwin", "M20-7822046", MOUSER, "855-M20-7822046", 1.10, "seen"),
    "socket 1x8": ("Harwin", "M20-7820846", MOUSER, "855-M20-7820846", 0.50, "scheme"),
    "socket DIP-16": ("TE Connectivity", "1-2199298-4", MOUSER, "571-1-2199298-4", 0.25, "seen"),
    "adapter SOT-23": ("generic", "SOT-23 to 2.54 mm adapter board", MARKET, "SOT-23 breakout PCB", 0.20, "marketplace"),
    "adapter SOT-23-6": ("generic", "SOT-23-6 to DIP-6 adapter board", MARKET, "SOT-23-6 breakout PCB", 0.20,
                         "marketplace"),
    "adapter micro-USB": ("generic", "micro-USB B to DIP-5 adapter board, bare (VBUS, D-, D+, ID, GND on 2.54 mm)",
                          MARKET, "micro USB to DIP 2.54 mm adapter PCB", 0.30, "marketplace"),
    "adapter SC-70-6": ("generic", "SC-70-6 (SOT-363) to DIP-6 adapter board", MARKET, "SOT-363 breakout PCB", 0.20,
                        "marketplace"),
    "adapter SOP-28": ("generic", "SOP-28 to DIP-28 adapter board, 0.6 inch rows", MARKET, "SOP28 to DIP28 adapter", 0.50,
                       "marketplace"),
    # Resistors by value: Yageo's carbon film, 1/4 W, 5 %: CFR-25JB-52-<value>.
    "CFR-25": ("Yageo", "CFR-25JB-52-{v}", MOUSER, "603-CFR-25JB-52-{v}", 0.02, "seen"),
    # ----- the rest (mechanical.csv, by its part's name): made to our files, standard
    # fasteners, and the parts a distributor lists.
    "sensor strip PCB": (BOARD_HOUSE, "sensor strip, hardware/pcb/gerber", BOARD_HOUSE,
                         "Gerber upload: 2 layers, 1.6 mm, HASL, 10 pieces", 5.00, "fab"),
    "playing surface": ("a laser-cutting service", "board-top.dxf, clock-bottoms.dxf", "a laser-cutting service",
                        "3 mm birch plywood or acrylic, cut and engraved from the DXF files", 12.00, "fab"),
    "ribbon 16-way": ("3M", "3365/16", DIGIKEY, "3365/16 by the foot (DigiKey product 22532519)", 1.20, "seen"),
    "header 1x16 right-angle": ("Samtec", "TSW-116-08-G-S-RA", MOUSER, "200-TSW11608GSRA", 1.10, "scheme"),
    "standoff M2.5x6": ("Würth Elektronik", "970060144", MOUSER, "710-970060144", 0.30, "scheme"),
    "rubber foot": ("3M", "SJ-5003 (black)", DIGIKEY, "SJ5003-0-ND", 0.15, "scheme"),
    "cell holder 4x18650": ("MPD", "BK-18650-PC8", DIGIKEY, "BK-18650-PC8-ND", 5.60, "seen"),
    "screw M3x10 countersunk": _fastener(0.06, "ISO 7046-1 M3x10 A2"),
    "screw M3x8 countersunk": _fastener(0.06, "ISO 7046-1 M3x8 A2"),
    "bolt M3x16 + nut": _fastener(0.08, "ISO 7045 M3x16 A2", "ISO 4032 M3 A2"),
    "screw M2.5x12 + nut": _fastener(0.07, "ISO 7045 M2.5x12 A2", "ISO 4032 M2.5 A2"),
    "screw M2.5x6": _fastener(0.05, "ISO 7045 M2.5x6 A2 (8)", "ISO 7046-1 M2.5x6 A2 (8)"),
    "screw M2x10 + nut": _fastener(0.07, "ISO 7045 M2x10 A2", "ISO 7089 2 A2", "ISO 4032 M2 A2"),
    "screw M3x20 pan": _fastener(0.06, "ISO 7045 M3x20 A2"),
    "screw M3x6 pan": _fastener(0.05, "ISO 7045 M3x6 A2"),
    "screw M2.5x8 + nut": _fastener(0.06, "ISO 7045 M2.5x8 A2", "ISO 4032 M2.5 A2"),
    # The square LEDs (optional): WS2812B (Worldsemi) on a strip of 30 a metre, its 100 nF
    # beside each LED, cut at its marks; the bare LED is LCSC C114586 (WS2812B-B/W), as
    # published bills of materials list it, for a maker who solders his own carriers.
    "WS2812B strip 30/m": (ANY, "WS2812B strip, 30 LEDs/m, 10 mm, IP30, 5 V, 1 m", MARKET,
                           "WS2812B LED strip 30 LEDs/m IP30 5V 1m", 4.50, "marketplace"),
    "magnet 12x2 N42": (ANY, "disc 12 x 2 mm, N42, Ni-Cu-Ni, magnetised axially", MARKET,
                        "neodymium disc magnet 12 x 2 mm N42", 0.20, "marketplace"),
    "magnet 12x3 N35": (ANY, "disc 12 x 3 mm, N35, Ni-Cu-Ni, magnetised axially", MARKET,
                        "neodymium disc magnet 12 x 3 mm N35", 0.22, "marketplace"),
    "magnet 12x3 N42": (ANY, "disc 12 x 3 mm, N42, Ni-Cu-Ni, magnetised axially", MARKET,
                        "neodymium disc magnet 12 x 3 mm N42", 0.25, "marketplace"),
    "chess pieces": (ANY, "Staunton, king 95 mm, felted", MARKET, "Staunton chess pieces, king 95 mm", 25.00,
                     "marketplace"),
    "felt": (ANY, "self-adhesive felt, A4, 1 mm", MARKET, "self-adhesive felt sheet A4", 2.00, "marketplace"),
    "filament (g)": (ANY, "PLA or PETG, 1.75 mm, 1 kg spools", MARKET, "PLA filament 1.75 mm", FILAMENT_EUR_PER_G,
                     "marketplace"),
    "spring 6x11": (ANY, "compression spring 6 x 11 mm, 0.6 mm wire", MARKET, "compression spring assortment",
                    0.20, "marketplace"),
    "perfboard 90x70": (ANY, "perfboard 2.54 mm", MARKET, "perfboard 2.54 mm, at least 90 x 70 mm",
                        0.80, "marketplace"),
    "perfboard 180x50": (ANY, "perfboard 2.54 mm", MARKET, "perfboard 2.54 mm, at least 180 x 50 mm",
                         1.50, "marketplace"),
    "perfboard 122x20": (ANY, "perfboard 2.54 mm", MARKET, "perfboard 2.54 mm, at least 122 x 20 mm",
                         0.50, "marketplace"),
    "perfboard 76x40": (ANY, "perfboard 2.54 mm", MARKET, "perfboard 2.54 mm, at least 76 x 40 mm",
                        0.50, "marketplace"),
    "perfboard 98x39": (ANY, "perfboard 2.54 mm", MARKET, "perfboard 2.54 mm, at least 98 x 39 mm",
                        0.50, "marketplace"),
    "18650 cell": ("Samsung SDI", "INR18650-30Q", MARKET, "Samsung INR18650-30Q, flat top", 4.00, "marketplace"),
    "wire and sleeving": (ANY, "hook-up wire 0.25 mm2 (24 AWG), wire-wrap wire 30 AWG, heat-shrink 1.6-4.8 mm", MARKET,
                          "hook-up wire set, wire-wrap wire and heat-shrink assortment", 3.50, "marketplace"),
    "glue": (ANY, "cyanoacrylate, or two-part epoxy", MARKET, "cyanoacrylate glue", 3.00, "marketplace"),
    "micro SD card": (ANY, "microSDHC, any size", MARKET, "microSD card", 3.00, "marketplace"),
    "USB cable": (ANY, "USB 2.0 A or C to micro-B, with data lines", MARKET, "USB micro-B data cable", 2.00,
                  "marketplace"),
}

# What a footprint of the circuit needs besides itself: [(fitting, how many per part)], the
# pins counted from the part where it says "pins".
FITTINGS = {
    "Connector_JST:JST_XH_B2B-XH-A": [("B2B-XH-A", 1), ("XHP-2", 1), ("SXH-001T-P0.6", "pins")],
    "Connector_JST:JST_XH_B3B-XH-A": [("XHP-3", 1), ("SXH-001T-P0.6", "pins")],
    "Connector_JST:JST_PH_B2B-PH-K": [("PHR-2", 1), ("SPH-002T-P0.5S", "pins")],
    "Module:RaspberryPi_Pico": [("socket 1x20", 2), ("pin header 1x40", 1)],  # (its own pins: a 40 in two)
    "Package_DIP:DIP-16": [("socket DIP-16", 1)],
    "Connector_PinSocket_2.54mm:PinSocket_1x08": [("socket 1x8", 2)],
    "Package_TO_SOT_SMD:SOT-23-5": [("adapter SOT-23-6", 1)],
    "Package_TO_SOT_SMD:SOT-23-6": [("adapter SOT-23-6", 1)],
    "Connector_USB:USB_Micro-B": [("adapter micro-USB", 1)],
    "Package_TO_SOT_SMD:SOT-23": [("adapter SOT-23", 1)],
    "Package_TO_SOT_SMD:SOT-363_SC-70-6": [("adapter SC-70-6", 1)],
    "Package_SO:SOIC-28W": [("adapter SOP-28", 1)],
}
# Footprints that need nothing more (their leads solder in, or the module comes with its pins).
NOTHING_MORE = ("Resistor_THT:", "Capacitor_THT:", "Diode_THT:", "LED_THT:", "Button_Switch_THT:",
                "Buzzer_Beeper:", "Package_TO_SOT_THT:", "Connector_Audio:", "Fuse:",
                "Connector_PinHeader_2.54mm:PinHeader_2x08",  # the characters solder in
                "Connector_PinHeader_2.54mm:PinHeader_1x04", "Connector_PinHeader_2.54mm:PinHeader_1x06",
                "Connector_PinHeader_2.54mm:PinHeader_1x11")  # modules sold with their pins
# The perfboard leads: a connector on one board -> where its other end goes ("board:connector"
# for a lead with a housing at each end, or None: its wires solder to the parts at the far end).
LEADS = {"controller:J_FACE_W": "face-white:J_CLOCK", "controller:J_FACE_B": "face-black:J_CLOCK",
         "controller:J_BUTTONS": "buttons:J_CONTROLLER", "controller:J_VOICE": "voice:J_CONTROLLER",
         "controller:J_GUARD": "guard:J_CONTROLLER",
         "controller:J_LED_W": None, "controller:J_LED_B": None, "controller:J_SWITCH": None,
         "face-white:J_KEYS": None, "face-black:J_KEYS": None, "voice:J_EARS": None,
         "guard:J_BOARD": "strip:J1"}  # the board's cable: onto plain pins at both ends (no KK header)
# The KK sizes whose distributor number was seen in published bills of materials; the rest
# are formed as Molex numbers the series (22-27-2{nn}1, 22-01-3{nn}7) and Mouser prefixes
# Molex's (538-): look those up before ordering. (The 10-way 22-27-2101 and 22-01-3107 are
# Molex's numbers in published designs; their Mouser numbers were not seen.)
SEEN_SIZES = {"KK header": (2, 3, 4, 5, 6), "KK housing": (2, 3, 4, 5, 6, 8)}
# What was looked up for each line still marked "scheme" (issue 47: every number checked
# where a published list shows it), with the search tools' stored public pages (the
# distributors' own catalogue pages are not among them, so no Mouser or LCSC order number
# could be seen there): catalogue key -> (what was found, where). A new "scheme" line needs
# its entry (tests/hardware/test_sourcing.py).
_NONE = "no distributor page for it among the stored pages; its number stays formed, not seen"
LOOKED_UP = {
    "MACD-14 15-20": ("the series (10-30 AT) in Littelfuse's MACD-14 datasheet (rev. 02/08/17), its 15-20 AT "
                      "part's own number not in the stored excerpts; Mouser's number not seen: order by the "
                      "distributor's own number, no spaces. Its DROP-OUT NOT FOUND: page 1 (the only one the "
                      "stored copies show) calls the series close-differential with no drop-out figure, nor do "
                      "Littelfuse's MDSR-7 (rev. 10/09/15) and MDSR-10 pages; the sensing takes 70 % of the "
                      "pull-in and keeps its 1.5 margin over it (hardware/magnets.py): ask Littelfuse for the "
                      "band's least drop-out", "pdfslide.us and xonelec.com, 'MACD-14 14mm Close-Differential "
                      "Reed Switch' (Littelfuse datasheet); dtsheet.com/doc/1456696 and "
                      "pdf.product.network/7f8b1c89/hamlin.com (MDSR-7); reed-sensor.com/glossary/close-differential"),
    "UVR1A102MPD": (_NONE, ""),
    "BC337-40": ("BC33740BU is the maker's number for the BC337-40 in TO-92, bulk (the datasheet's ordering "
                 "table); Mouser's 512- number not seen", "dtsheet.com/doc/1360434 (BC337/BC338 datasheet, "
                 "Ordering Information)"),
    "Seeed 316040001": (_NONE, ""),
    "CEM-1203(42)": (_NONE, ""),
    "WP813SRD": ("NOT FOUND: no stored page or repository holds Kingbright's WP813SRD datasheet (searched by "
                 "its number, as a 10 mm T-3 1/4 lamp and by its super-bright-red GaAlAs chip; Kingbright's "
                 "datasheets reached are other lamps: WP7113LSYCK/J3, WP7113SEC/J4-AMT, WP937EGW, KPH-1608), so "
                 "its forward voltage and intensity stay the SRD family's figures as printed elsewhere, unverified. "
                 "The 150 ohm does not lean on them: any red LED's 1.6-2.6 V (a generic red lamp's range, "
                 "GB-413's datasheet; Kingbright's WP937EGW red: 2.0 typ, 2.5 max at 20 mA) gives 11-24 mA "
                 "over VSYS's 4.5-5.25 V, under the 30 mA maximum (tests/hardware/test_hardware.py); Mouser's "
                 "number not seen", "pdf.support (Kingbright WP7113 datasheets); arietiform.com mirror of "
                 "scribd 738161354 (WP937EGW, DSAF1535 V.9A, page 1-2)"),
    "HT16K33-28SOP": ("no LCSC C-number for the 28-pin SOP found (published KiCad designs name the part "
                      "HT16K33-28SOP, with no distributor number): search LCSC by that part number; the face "
                      "PCB leaves it to the maker's iron", "hardware/README.md, 'The faces' PCB'"),
    "PSC08-11SRWA": ("NOT REACHED (2026-11-28): no datasheet pin table of the PSC08-11, nor of any stocked 14- or "
                     "16-segment alphanumeric display, in the sources reachable from here: KiCad's own libraries "
                     "(Debian's kicad-symbols and kicad-footprints; KiCad's GitHub mirrors, last commit 2020-10-02) "
                     "have no 14- or 16-segment character; the stored pages hold only the openings of third-party "
                     "rewrites of Lite-On's LTP-3784 and LTP-3862 sheets (their pin sections cut off) and nothing "
                     "of Kingbright's PSC08-11 or PSA08-11 or Luckylight's KWA-541. Published designs use the "
                     "PSC08-11 as a 16-segment part (16 segments and a point, one common: 18 pins), not the "
                     "14-segment character the face's footprint draws: check the sheet before ordering. The one "
                     "published pinout reached is another part's: Luckylight's KWA-541CBB (0.54-inch, two "
                     "characters) in Adafruit's open quad alphanumeric backpack (tests/hardware/test_facepcb.py, "
                     "KWA_541CBB). The faces' recommended route stays the backpacks",
                     "KiCad/kicad-symbols Display_Character.kicad_sym and KiCad/kicad-footprints Display*.pretty "
                     "(GitHub mirrors at 4e17d75, 7ebfa6b); smdled.org, LTP-3784JD-01 and LTP-3784KS pages; "
                     "adafruit/Adafruit-LED-Backpacks at a58b392, 'Adafruit 0.54 Alphanumeric STEMMA QT.sch'; a "
                     "published HT16K33 design with nine PSC08-11SURKWA (its README: 16-segment, common cathode)"),
    "B3B-XH-A": (_NONE, ""),
    "Adafruit 1911": ("Adafruit's 'Quad Alphanumeric Display - Red 0.54\" Digits w/ I2C Backpack' is its product "
                      "1911 (1912 the blue), in the guide's Featured Products; Mouser's number is formed as "
                      "published bills of materials show Mouser's for Adafruit's products (485-3954, 485-4739: "
                      "485- and the product number), 485-1911 itself not seen; about USD 10 (a published design "
                      "that uses it)", "learn.adafruit.com/adafruit-led-backpack (Featured Products: "
                      "www.adafruit.com/product/1911, /1912); mouser.com/ProductDetail/485-3954 and 485-4739 in "
                      "published READMEs"),
    "DFPlayer Mini (DFR0299)": (_NONE, ""),
    "CDS-40-8": (_NONE, ""),
    "PJ-392": (_NONE, ""),
    "MF-R250": ("Bourns' MF-R datasheet (REV. AL, 05/21) lists the MF-R250: 2.50 A hold, 5.00 A trip at 23 C, "
                "30 V, 40 A, 0.025-0.048 ohm initial, R1max 0.07 ohm (page 1); 12.0 x 18.3 mm, leads 0.81 mm on "
                "5.1 mm (page 3); 1.93 A hold at 50 C (page 4, Thermal Derating Table); and the MF-R250-0-10 "
                "with the same figures. Mouser's 652- number not seen. Littelfuse's RUEF250 has the same "
                "figures (its RUEF datasheet, revised 10/22/18, page 1). The fuse before, Littelfuse 16R185BU, "
                "is the USBR datasheet's 16R185B (revised July 12, 2010: 1.85 A, R1max 0.09 ohm), 50 mV from "
                "the faces' minimum on empty cells (hardware/powersim.py)",
                "github.com/nic/nic-av-switch, datasheets/mfr.pdf at de9477b (Bourns MF-R Series, REV. AL); "
                "pdf.product.network/d36d6b36/bourns.com/MF-R025-0.html and dtsheet.com/doc/1638939 (its first "
                "page, older revisions); pdf.datasheet.live/dc2034c4/littelfuse.com/RUEF300-AP.html (Littelfuse "
                "RUEF Series); cdn.shopify.com/s/files/1/0174/1800/files/Littelfuse_PTC_USBR-40993.pdf "
                "(Littelfuse USBR Series)"),
    "R_PROG 2.7k": ("RC0603FR-072K7L is Yageo's RC series number for 2.7 kohm (RC0603, F: 1 %, R: reel, 07: "
                    "7 inch, 2K7, L), as Yageo forms it; Mouser's 603- prefix is Yageo's, as on the CFR-25 lines "
                    "seen: this number formed, not seen", ""),
    "XHP-3": (_NONE, ""),
    "socket 1x8": ("M20-782 is Harwin's female vertical PC-tail single row, ordered as M20-782 + contacts per "
                   "row + finish (its catalogue's 'how to order'): M20-7820846 is 8 contacts, finish 46; "
                   "Mouser's 855- number not seen", "dtsheet.com/doc/1289250 (Harwin connector catalogue, M20 "
                   "mating profiles); dtsheet.com/doc/1289112 (Harwin C00115, M20 order code)"),
    "header 1x16 right-angle": (_NONE, ""),
    "standoff M2.5x6": (_NONE, ""),
    "rubber foot": ("3M's bumper is SJ-5003, its colour a word after it (not part of the number); DigiKey's "
                    "SJ5003-0-ND not seen", ""),
    "KK header": ("22-27-2101 (10 circuits) is Molex's number in published designs; Mouser's 538- number "
                  "not seen", ""),
    "KK housing": ("22-01-3107 (10 circuits) is Molex's number in published designs; Mouser's 538- number "
                   "not seen", ""),
}
# A KK row longer than this is made of shorter ones end to end (a KK header's body and a
# housing are each 2.54 mm a circuit, so two stand side by side on one row of pins): the
# common sizes, never a rare long one.
KK_LONGEST = 10


def kk_sizes(n: int) -> list[int]:
    """The KK headers (or housings) that make a row of n circuits: as few as can, as equal
    as can be (20: 10 and 10; 16: 8 and 8)."""
    k = -(-n // KK_LONGEST)
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def source(mpn: str, value: str = "", n: int = 0) -> dict:
    """The order line's source for a part of the circuit (its MPN; a resistor's value) or a
    fitting (a KK part's pins, n): KeyError if the catalogue has none."""
    if mpn not in CATALOGUE:
        raise KeyError("no source for %r: add it to hardware/sourcing.py" % mpn)
    v = value + "R" if value.isdigit() else value.upper()  # a resistor's: 100 and 330 are ohms (100R), 4k7 4K7
    maker, part, dist, order, eur, checked = CATALOGUE[mpn]
    if "{n" in part and n not in SEEN_SIZES.get(mpn, ()) and checked == "seen":
        checked = "scheme"
    return {"manufacturer": maker, "mpn": part.format(v=v, n=n), "distributor": dist,
            "order_number": order.format(v=v, n=n), "eur_each": eur, "checked": checked}


def fittings(board=None, layouts=None) -> list[dict]:
    """What the netlist's parts and the perfboards' connectors need besides themselves:
    [{"qty", "part", "for", **source}], one line per fitting and what it is for."""
    from hardware import perfboard
    from hardware.circuit import VOICE, Board

    board = board or Board()
    layouts = layouts if layouts is not None else perfboard.LAYOUTS
    count: dict[tuple, int] = {}  # (fitting, what for, the voice's, route) -> how many
    sources = {}  # fitting -> its source

    def add(name, n, why, voice, src=None, route=""):
        sources[name] = src or source(name)
        count[(name, why, voice, route)] = count.get((name, why, voice, route), 0) + n

    for key, part in sorted(board.parts.items()):
        fp = part.footprint
        if part.fields.get("R_PROG"):  # (a charger module's programming resistor, changed)
            add("R_PROG %s" % part.fields["R_PROG"], 1, "%s (%s): its R_PROG, in place of the module's own"
                % (part.fields.get("Role") or part.name, part.ref), key in VOICE)
        rule = next((r for prefix, r in FITTINGS.items() if fp.startswith(prefix)), None)
        if rule is None:
            if fp.startswith(NOTHING_MORE):
                continue
            raise KeyError("%s (%s): no fittings known for its footprint %s" % (key, part.ref, fp))
        role = "%s (%s)" % (part.fields.get("Role") or part.name, part.ref)
        for name, n in rule:
            add(name, len(part.pins) if n == "pins" else n, role, key in VOICE,
                route=FACE_BOARD if face_board_only(key) else "")
    # The perfboards' connectors: a KK header on the board; each lead's housing and crimps.
    header_pins = 0
    for layout in layouts:
        for name, (fp, *_rest) in sorted(layout.places.items()):
            if not name.startswith("J_"):
                continue
            n = int(fp[1:])
            where = "%s:%s" % (layout.name, name)
            far = LEADS.get(where)
            if where not in LEADS and where not in LEADS.values():
                raise KeyError("the perfboard connector %s has no lead in hardware/sourcing.py LEADS" % where)
            voice = layout.name == "voice" or name == "J_VOICE"
            if where == "guard:J_BOARD":
                header_pins += n  # plain pins, as the strip's J1: the cable's housings fit both
            else:
                for size in kk_sizes(n):
                    add("KK header %d" % size, 1, "%s (%s)" % (name, layout.name), voice,
                        source("KK header", n=size))
            if where in LEADS:  # the lead starts here: its housing(s) and crimps
                ends = 2 if far else 1
                for size in kk_sizes(n):
                    add("KK housing %d" % size, ends, "the lead from %s" % where, voice,
                        source("KK housing", n=size))
                add("KK crimp", ends * n, "the lead from %s" % where, voice)
    if header_pins:
        add("pin header 1x40", math.ceil(header_pins / 40), "J_BOARD (%d pins, broken off a 40)" % header_pins,
            False)
    return [{"qty": n, "part": name, "for": why, "voice": voice, "route": route, **sources[name]}
            for (name, why, voice, route), n in sorted(count.items())]


FIELDS = ["qty", "part", "value", "manufacturer", "mpn", "distributor", "order_number", "eur_each", "eur", "for",
          "voice", "checked"]

# The faces: the recommended route is the ready-made backpacks (hardware/README.md, step 2C;
# the face PCB says "do not order" until its characters follow a display's datasheet), so
# the default order buys them and leaves out what only a face board takes: its HT16K33 and
# that chip's SOP-28 adapter, the characters, the indicator LEDs, the 100 nF and 100 uF,
# Black's address diode and 39 kohm, and the controller's two 2.7 kohm faces'-side pull-ups
# (12 kohm in their place with the backpacks' own 10 kohm, hardware/i2c.py). Those go to
# order-face-board.csv, which is not in the totals. The carrier perfboard, the J_CLOCK and
# J_KEYS headers and leads, the keys and their two 1N4148 stay in both.
FACE_BOARD = "face board"
FACE_BOARD_ONLY = ("face_white", "face_black", "c_face_", "cp_face_", "char_", "ind_", "d_addr_", "r_addr_", "r_face_")
BACKPACK = "Adafruit 1911"


def face_board_only(key: str) -> bool:
    """Whether a circuit part (by its key) is one only the face board takes."""
    return key.startswith(FACE_BOARD_ONLY)


def backpack_rows(board=None) -> list[dict]:
    """What the backpack route buys besides the parts both routes share: the four backpacks
    and the 12 kohm fitted in place of the faces'-side 2.7 kohm (README, step 2C)."""
    from hardware import i2c
    from hardware.circuit import Board

    board = board or Board()
    pulls = sorted((p.ref for k, p in board.parts.items() if k.startswith("r_face_")), key=_ref_key)
    rows = [{"qty": i2c.BACKPACKS, "part": "HT16K33 backpack", "value": "quad 14-segment 0.54in red",
             **source(BACKPACK), "for": "the faces: two a face (step 2C)", "voice": False},
            {"qty": len(pulls), "part": "R", "value": i2c.BACKPACK_SIDE_PULLUP,
             **source("CFR-25", i2c.BACKPACK_SIDE_PULLUP),
             "for": "%s, in place of the 2k7 (step 2C)" % " ".join(pulls), "voice": False}]
    for r in rows:
        r["eur"] = round(r["qty"] * r["eur_each"], 2)
    return rows


def _ref_key(ref: str):
    head = ref.rstrip("0123456789")
    return head, int(ref[len(head):] or 0)


def circuit_rows(bom: Path = HERE / "bom.csv", board=None) -> list[dict]:
    """Every part of the circuit (bom.csv) and its fittings, each with its source, quantity,
    cost and route: "" for a part every build takes, FACE_BOARD for one only the face board
    takes (a bom.csv line with both is split in two). Dated PRICED."""
    from hardware.circuit import VOICE, Board

    board = board or Board()
    voice = {p.ref for key, p in board.parts.items() if key in VOICE}  # (a line is the voice's if all its parts are)
    faces = {p.ref for key, p in board.parts.items() if face_board_only(key)}
    rows = []
    with open(bom, newline="") as f:
        for r in csv.DictReader(f):
            try:
                s = source(r.get("mpn", ""), r["value"])
            except KeyError:
                raise KeyError("no source for %s %s (%s): add it to hardware/sourcing.py"
                               % (r["part"], r["value"], r.get("mpn", ""))) from None
            refs = r["references"].split()
            for route, mine in (("", [x for x in refs if x not in faces]), (FACE_BOARD, [x for x in refs if x in faces])):
                if mine:
                    rows.append({"qty": len(mine), "part": r["part"], "value": r["value"], **s,
                                 "for": " ".join(mine), "voice": set(mine) <= voice, "route": route})
    for r in fittings(board):
        rows.append({"value": "", **r})
    for r in rows:
        r["eur"] = round(r["qty"] * r["eur_each"], 2)
    return rows


def order_rows(bom: Path = HERE / "bom.csv", board=None) -> list[dict]:
    """The electronic order, the faces on backpacks (the recommended route): the circuit's
    parts and fittings but the face board's, and the backpacks' own lines."""
    from hardware.circuit import Board

    board = board or Board()
    return [r for r in circuit_rows(bom, board) if r["route"] != FACE_BOARD] + backpack_rows(board)


def face_board_rows(bom: Path = HERE / "bom.csv", board=None) -> list[dict]:
    """What the faces on face boards (perfboard, step 2 item 7) take instead of the
    backpacks' lines: order-face-board.csv, not in the totals."""
    return [r for r in circuit_rows(bom, board) if r["route"] == FACE_BOARD]


def _write(rows, path: Path) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, FIELDS, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({**r, "eur_each": "%.3f" % r["eur_each"], "eur": "%.2f" % r["eur"],
                    "voice": "yes" if r["voice"] else ""})
    path.write_text(out.getvalue())
    return out.getvalue()


def write(path: Path = ORDER, face_path: Path | None = None) -> str:
    """order.csv (the default order) and, beside it, order-face-board.csv."""
    from hardware.circuit import Board

    board = Board()
    text = _write(order_rows(board=board), path)
    _write(face_board_rows(board=board), face_path or path.with_name(FACE_ORDER.name))
    return text


def main():
    write()
    print(ORDER)
    print(FACE_ORDER)


if __name__ == "__main__":
    main()
