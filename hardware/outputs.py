"""What the circuit gives a maker: the KiCad netlist (for a PCB in KiCad's Pcbnew), the bill
of materials (CSV) and the wiring diagram (PNG), all from hardware/circuit.py."""
from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from pathlib import Path

from firmware.hal import pinmap as P
from hardware import geometry as G
from hardware import power as PW
from hardware.circuit import FILES, PICO_PINS, Board

HERE = Path(__file__).resolve().parent
NETLIST = HERE / "board.net"
BOM = HERE / "bom.csv"
WIRING = HERE / "wiring.png"

# What each signal goes to, for the diagram's labels.
TO = {
    "ROW_A0": "74HC138 pin 1 (A0)", "ROW_A1": "74HC138 pin 2 (A1)", "ROW_A2": "74HC138 pin 3 (A2)",
    "CLOCK_WHITE": "White's clock lever, other side to GND", "CLOCK_BLACK": "Black's clock lever, other side to GND",
    "BUTTON_PLUS": "menu +, to GND", "BUTTON_MINUS": "menu -, to GND", "BUTTON_OK": "menu ok, to GND",
    "BUTTON_MENU": "menu, to GND", "MOTOR_WHITE": "1k -> BC337 base: White's motor",
    "MOTOR_BLACK": "1k -> BC337 base: Black's motor", "BUZZER": "1k -> BC337 base: buzzer",
    "LED_WHITE": "2k2 -> BC337 base: White's LED", "LED_BLACK": "2k2 -> BC337 base: Black's LED",
    "I2C_SDA": "4k7 to 3V3; BSS138 S-D: faces' SDA; voice",
    "I2C_SCL": "4k7 to 3V3; BSS138 S-D: faces' SCL; voice",
    "SQUARE_LEDS": "74AHCT1G125 (to 5 V) -> 330R -> the WS2812 chain's data (cable guard)",
    "BATTERY_ADC": "charger OUT+ -> 100k; 100k + 100n to GND",
}


def netlist(board: Board) -> str:
    """The KiCad netlist; its date blanked and its source named so that the file changes
    only with the circuit."""
    board.circuit.no_files = True
    text = str(board.circuit.generate_netlist(tool="kicad8", do_backup=False, track_src=False))
    text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/circuit.py")', text)
    return re.sub(r'\(date "[^"]*"\)', '(date "")', text)


def write_netlist(board: Board, path: Path = NETLIST) -> str:
    text = netlist(board)
    path.write_text(text)
    return text


def bom_rows(board: Board) -> list[dict]:
    groups = defaultdict(list)
    for p in board.circuit.parts:
        key = (p.name, str(p.value), p.fields.get("MPN", ""), p.fields.get("Description", ""), p.footprint)
        groups[key].append(p.ref)
    rows = []
    for (name, value, mpn, desc, fp), refs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        refs.sort(key=lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):] or 0)))
        rows.append({"qty": len(refs), "part": name, "value": value, "description": desc, "mpn": mpn,
                     "footprint": fp, "references": " ".join(refs)})
    return rows


def write_bom(board: Board, path: Path = BOM) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, ["qty", "part", "value", "description", "mpn", "footprint", "references"],
                       lineterminator="\n")
    w.writeheader()
    for row in bom_rows(board):
        w.writerow(row)
    path.write_text(out.getvalue())
    return out.getvalue()


def _ohm(value: str) -> str:
    """A resistor's value as the diagram writes it: 150 -> 150R, 2k2 stays."""
    return value + "R" if value.isdigit() else value


def _net(board: Board, key: str, pin: str) -> str:
    """The name of the net on a part's pin (the part by its key in Board.parts)."""
    nets = [n for n in board.parts[key][pin].nets if n is not board.circuit.NC]
    return nets[0].name if nets else "not connected"


def magnet_note() -> str:
    """The chosen magnet (hardware/magnets.py choose()) at the board's pitch."""
    from hardware import magnets

    grade, d, t, _ = magnets.choose()
    return "the magnet in the piece's base (%gx%g mm %s at %g mm squares) closes one of them" % (d, t, grade, G.PITCH)


def power_pin_label(board: Board, num: int, name: str) -> str:
    """What a Pico pin that is no GPIO goes to: its net's name in the circuit, then what is on it."""
    pin = board.pico[num]
    nets = [n for n in pin.nets if n is not board.circuit.NC]
    if not nets:
        return "not connected"
    net = nets[0].name
    if net == "GND":
        return "GND"
    soft = board.parts["soft_start"]
    return {
        "+3V3": "+3V3 out: pull-ups, 74HC138, BSS138 gates",
        "VSYS": "VSYS: USB or the 5 V regulator (ideal diodes), faces, motors, LEDs",
        _net(board, "soft_start", "D"): "%s: USB's VBUS after the %s soft start; charger, ideal diode" % (net, soft.value),
    }.get(net, net + (": reset button to GND" if net == "RUN" else ""))


def wiring_notes(board: Board) -> list:
    """The diagram's notes on the drivers, power, USB and voice: every value and connection from
    the circuit (its parts' values and nets), so that they change with it."""
    v = {k: p.value for k, p in board.parts.items()}
    soft_net = _net(board, "soft_start", "D")
    return [
        "Drivers (all grounds common; VSYS is USB's 5 V or the 5 V regulator's, whichever is higher):",
        "  Motors, buzzer: GPIO -> %s -> %s base; emitter to GND; collector to the motor's (buzzer's) - lead;"
        % (_ohm(v["r_base_motor_white"]), v["q_motor_white"]),
        "      its + lead to %s; a %s across it, band to %s (the coil's kick); %s from the GPIO to GND."
        % (_net(board, "motor_white", "+"), v["flyback_motor_white"], _net(board, "flyback_motor_white", "K"),
           _ohm(v["r_pull_motor_white"])),
        "  Side LEDs: GPIO -> %s -> %s base; emitter to GND; %s -> %s -> LED anode; LED cathode to the collector."
        % (_ohm(v["r_base_led_white"]), v["q_led_white"], _net(board, "r_led_white", "1"), _ohm(v["r_led_white"])),
        "  Faces: an HT16K33 (VDD %s, 100n + 100u) each; COM i -> character i's common cathode and indicator i's"
        % _net(board, "face_white", "VDD"),
        "      cathode; ROW0-13 -> segments A..N of all eight characters, ROW14 -> their points, ROW15 -> the",
        "      indicators' anodes (colons: two LEDs). Black's: COM0 -> 1N4148 -> 39k -> ROW2 (A0: address 0x71).",
        "  74HC138: VCC 3V3 + 100n to GND, E1 and E2 to GND, E3 to 3V3.   Buttons: GPIO to GND, 10k to 3V3.",
        "  Power: %d x 18650 in parallel (%d without the voice) -> %s polyfuse -> charger B+/B- (IN+ from %s);"
        % (PW.VOICE_CELLS, PW.CELLS, v["fuse_battery"], _net(board, "charger", "IN+")),
        "      OUT+ -> 5 V regulator VIN, its EN to GND by the switch (off); VOUT -> %s -> VSYS (100u) <- %s <- %s."
        % (v["ideal_battery"], v["ideal_usb"], _net(board, "ideal_usb", "VIN")),
        "  USB: the clock's micro-USB socket, D+ D- VBUS clamped by a %s, D+ -> the Pico's TP3, D- -> TP2,"
        % v["usb_clamp"],
        "      GND -> TP1 (wires to its test points under it); %s -> %s soft start -> %s -> pin 40"
        % (_net(board, "usb_socket", "VBUS"), v["soft_start"], soft_net),
        "      (its gate: %s to GND, %s to its source, %s to its drain, a %s from GND)."
        % (_ohm(v["r_soft"]), v["c_soft_gs"], v["c_soft_gd"], v["d_soft"]),
        "  Square LEDs (optional): WS2812 chain on %s and GND, data from GP%d -> %s -> %s."
        % (_net(board, "square_leds", "1"), P.SQUARE_LEDS, v["led_buffer"], _ohm(v["r_led_data"])),
        "  Voice (optional): SC16IS750 module on the 3V3 I2C (SDA, SCL; VCC 3V3, I2C/SPI and RESET to 3V3, A0 A1",
        "      to GND: 0x4D); its TX -> %s -> DFPlayer Mini RX, DFPlayer TX -> its RX;" % _ohm(v["r_audio_rx"]),
        "      %s -> %s -> DFPlayer VCC (%s, 100u); SPK1/SPK2 -> 8 ohm speaker. The card: python -m host_tools audiocard."
        % (_net(board, "d_audio", "A"), v["d_audio"], _net(board, "audio_player", "VCC")),
    ]



def write_wiring(board: Board, path: Path = WIRING) -> list:
    """Draws the diagram; returns every text drawn on it (what tests/hardware/test_wiring_text.py
    holds to the circuit)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch, Rectangle

    nets = board.pico_nets()
    fig = plt.figure(figsize=(17, 11), dpi=110)
    ax = fig.add_axes([0, 0.22, 0.56, 0.74])
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.axis("off")
    ax.set_title("Raspberry Pi Pico, seen from above (USB at the top): what each pin goes to", fontsize=12)
    ax.add_patch(FancyBboxPatch((40, 8), 20, 84, boxstyle="round,pad=0.5", fc="#2e7d32", ec="black"))
    ax.add_patch(Rectangle((46.5, 90), 7, 4, fc="#bbbbbb", ec="black"))
    ax.text(50, 50, "Pico", color="white", ha="center", va="center", fontsize=16, rotation=90)
    colours = {"ROW": "#1565c0", "COL": "#6a1b9a", "CLOCK": "#c62828", "BUTTON": "#ef6c00", "MOTOR": "#00838f",
               "BUZZER": "#00838f", "LED": "#f9a825", "I2C": "#2e7d32", "SQUARE": "#f9a825",
               "BATTERY": "#6d4c41"}
    for num, name in PICO_PINS.items():
        left = num <= 20
        row = num - 1 if left else 40 - num
        y = 88 - row * 4.1
        x = 40 if left else 60
        gp = int(name[2:]) if name.startswith("GP") else None
        sig = nets.get(gp) if gp is not None else None
        if sig is None:
            sig = power_pin_label(board, num, name)
        if sig.startswith("COL_"):
            label = "file %s: 10k to 3V3, 220R (cable guard) to file %s's switches" % (sig[-1], sig[-1])
        else:
            label = TO.get(sig, sig)
        colour = colours.get(sig.split("_")[0], "#555555")
        ax.plot([x, x - 4 if left else x + 4], [y, y], color=colour, lw=2.5)
        ax.text(x + (1 if left else -1), y, "%d %s" % (num, name), ha="left" if left else "right", va="center",
                fontsize=7, color="white")
        ax.text(x - 5 if left else x + 5, y, (sig + ": " if not sig.startswith(("GND", "+3V3", "VSYS", "VBUS", "not", "reset", "RUN"))
                                             and not sig.startswith("COL_") else "") + label,
                ha="right" if left else "left", va="center", fontsize=7.5, color=colour)
    # The matrix, and one square close up.
    bx = fig.add_axes([0.58, 0.36, 0.4, 0.6])
    bx.set_xlim(-2.5, 9)
    bx.set_ylim(-1.5, 9.2)
    bx.axis("off")
    bx.set_title("The reed matrix: ranks driven low in turn by the 74HC138,\n"
                 "files read through pull-ups; a diode under every square", fontsize=11)
    for r in range(8):
        bx.plot([-0.6, 7.6], [r, r], color="#1565c0", lw=1.5)
        bx.text(-0.8, r, "rank %d <- 74HC138 Y%d (pin %d)" % (r + 1, r, (15, 14, 13, 12, 11, 10, 9, 7)[r]),
                ha="right", va="center", fontsize=7, color="#1565c0")
    for f in range(8):
        bx.plot([f + 0.3, f + 0.3], [-0.6, 7.6], color="#6a1b9a", lw=1.5)
        bx.text(f + 0.3, 7.8, "%s\nGP%d" % (FILES[f], P.COLUMNS[f]), ha="center", va="bottom", fontsize=7,
                color="#6a1b9a")
    for r in range(8):
        for f in range(8):
            bx.add_patch(Rectangle((f + 0.05, r + 0.05), 0.2, 0.2, fc="#9e9e9e", ec="none"))
    bx.text(3.5, -1.2, "at each crossing: file -> 3 reed switches in parallel -> diode (anode) -> diode (cathode, the band) -> rank",
            ha="center", fontsize=8)
    cx = fig.add_axes([0.6, 0.04, 0.36, 0.28])
    cx.set_xlim(0, 10)
    cx.set_ylim(0, 5)
    cx.axis("off")
    cx.set_title("One square (e4), close up", fontsize=11)
    cx.plot([1, 1], [0.5, 4.5], color="#6a1b9a", lw=3)
    cx.text(1, 4.7, "file e (GP%d, 10k to 3V3)" % P.COLUMNS[4], ha="center", fontsize=8, color="#6a1b9a")
    cx.plot([1, 3], [3, 3], color="black")
    cx.add_patch(Rectangle((3, 2.7), 2, 0.6, fc="#e0f7fa", ec="black"))
    cx.text(4, 3, "%d reed switches\nin parallel" % len(G.SQUARE_REEDS), ha="center", va="center", fontsize=7)
    cx.plot([5, 6], [3, 3], color="black")
    cx.add_patch(Rectangle((6, 2.75), 1.2, 0.5, fc="#fff3e0", ec="black"))
    cx.add_patch(Rectangle((7.0, 2.75), 0.2, 0.5, fc="black"))
    cx.text(6.6, 2.3, "BAT85\n(band to the rank)", ha="center", va="top", fontsize=7)
    cx.plot([7.2, 8.5, 8.5], [3, 3, 1], color="black")
    cx.plot([0.5, 9.5], [1, 1], color="#1565c0", lw=3)
    cx.text(9.5, 0.6, "rank 4 (74HC138 Y3)", ha="right", fontsize=8, color="#1565c0")
    cx.text(5, 4.2, magnet_note() + "\n"
            "wherever the piece stands on its square (hardware/README.md: The magnets)", ha="center", fontsize=7.5)
    dx = fig.add_axes([0.02, 0.0, 0.54, 0.235])
    dx.axis("off")
    dx.text(0, 1, "\n".join(wiring_notes(board)), va="top", ha="left", fontsize=8, family="monospace")
    fig.savefig(path)
    from matplotlib.text import Text

    drawn = [t.get_text() for t in fig.findobj(Text) if t.get_text()]
    plt.close(fig)
    return drawn


def write_all() -> Board:
    board = Board()
    errors, warnings = board.erc()
    if errors or warnings:
        raise SystemExit(f"ERC: {errors} errors, {warnings} warnings: fix the circuit first")
    from hardware import erc  # the rules SKiDL's pin types cannot see (supplies, diodes, USB's lines)

    found = erc.faults(erc.model(board))
    if found:
        raise SystemExit("ERC (hardware/erc.py): " + "; ".join(found))
    write_netlist(board)
    write_bom(board)
    write_wiring(board)
    return board
