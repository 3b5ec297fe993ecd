"""The controller on a 9 x 7 cm perfboard: where each part goes and every wire under it,
made from the circuit (hardware/circuit.py), so that the layout cannot drift from it.

    python -m hardware.perfboard     # hardware/perfboard/: controller, face-white, face-black
                                     # (.txt: parts and wires by hole; .png: the picture)

The board holds the Pico (on sockets), the clock's micro-USB socket at its right edge (the
clock's outer end) and its ESD clamp, the 74HC138, the
pull-ups, the I2C level shifter, the transistor drivers with their flyback diodes, the
buzzer, the power path (the charger and regulator modules on their pins) and a connector
for everything elsewhere: the sensor strips' ribbon (the strips' J1 order: ranks 1-8, files
a-h), each face (VSYS, GND, SDA, SCL), the voice board (the DFPlayer and its bridge on a
small board of their own by the speaker), the arbiter's buttons, the two 10 mm LEDs, the
power switch, the cells, the levers and the motors. Parts sit on a 2.54 mm grid of holes,
columns 0-34 from the left (the Pico's USB on the right), rows 0-26 from the top; wires run
underneath, each net's holes joined by the shortest tree.

The checks (tests/hardware/test_perfboard.py): every pin of the circuit that lives on this board has
a hole of its own; no part overlaps another or the mounting screws; the wires join each net
of the circuit and never two nets; every line that leaves the board has its connector pin.
"""
from __future__ import annotations

import sys
from pathlib import Path

from firmware.hal import pinmap as P
from hardware.circuit import VOICE
from hardware.routedpcb import turn

HERE = Path(__file__).resolve().parent
OUT = HERE / "perfboard"

# Footprints: pins as (number, dx, dy) in holes from the part's first pin, its body as a
# rectangle (x0, y0, x1, y1) in holes, both before rotation.
def _line(n, body=0.5):
    return [(str(i + 1), i, 0) for i in range(n)], (-0.5, -body, n - 0.5, body)


# The Pico seen from above, in mm from its centre, its USB end towards -y (its datasheet's
# mechanical drawing, as the KiCad libraries for the Pico place its pads): pin 1 and pin 40
# at the USB end, 17.78 mm apart, the pins 2.54 mm apart down each side; its test points
# on its underside by its USB socket, TP1 ground, TP2 D-, TP3 D+.
PICO_PIN1 = (-8.89, -24.13)
PICO_TEST_PADS = {"TP1": (0.0, -21.0), "TP2": (1.0, -24.3), "TP3": (-1.0, -24.3)}


def pico_hole(x, y):
    """The hole (in the PICO footprint's holes: pin 1 at (0, 0), pin 20 at (-19, 0), pin 40
    at (0, 7)) nearest a point of the Pico given in mm as PICO_TEST_PADS: the Pico lies with
    its USB to the right, turned a quarter, not mirrored."""
    return round(-(y - PICO_PIN1[1]) / 2.54), round((x - PICO_PIN1[0]) / 2.54)


# A six-pin chip on its adapter to DIP-6: pins 1-3 below, 4-6 above, counted round.
_DIP6 = ([("1", 0, 3), ("2", 1, 3), ("3", 2, 3), ("4", 2, 0), ("5", 1, 0), ("6", 0, 0)], (-0.5, 0.4, 2.5, 2.6))

FOOTPRINTS = {
    "R": ([("1", 0, 0), ("2", 1, 0)], (-0.49, -0.49, 0.49, 0.49)),  # standing: the body over pin 1
    "D41": ([("1", 0, 0), ("2", 4, 0)], (0.4, -0.6, 3.6, 0.6)),  # 1N5819 lying flat, its band (K) at pin 1
    "C": ([("1", 0, 0), ("2", 1, 0)], (-0.5, -0.5, 1.5, 0.5)),
    "CP": ([("1", 0, 0), ("2", 2, 0)], (-1.0, -2.0, 3.0, 2.0)),  # 10 mm radial
    "TO92": ([("1", 0, 0), ("2", 1, 0), ("3", 2, 0)], (-0.5, -0.8, 2.5, 0.8)),
    "SOT23": ([("1", 0, 0), ("2", 1, 0), ("3", 2, 0)], (-0.5, -0.8, 2.5, 0.8)),  # on an adapter
    "DIP6": _DIP6,  # an SC-70-6 on its adapter
    "SOT236": _DIP6,  # a SOT-23-6 on its adapter
    # the micro-USB socket on its adapter board (about 10 x 12 mm): VBUS, D-, D+, ID, GND down
    # a row of pins, the board reaching right to the perfboard's edge, where the socket's mouth is
    "USB5": ([(str(i + 1), 0, i) for i in range(5)], (-0.5, -0.4, 3.6, 4.2)),
    # a SOT-23-5 on a SOT-23-6 adapter: its pins 4 and 5 where the adapter has 4 and 6
    "SOT235": ([("1", 0, 3), ("2", 1, 3), ("3", 2, 3), ("4", 2, 0), ("5", 0, 0)], (-0.5, 0.4, 2.5, 2.6)),
    "DIP16": ([(str(i + 1), i, 3) for i in range(8)] + [(str(16 - i), i, 0) for i in range(8)],
              (-0.5, 0.4, 7.5, 2.6)),
    # the Pico on its sockets, its USB to the right; under it, by its USB, the holes for the
    # wires from its test points TP1 (ground), TP2 (D-) and TP3 (D+), each the hole under its pad
    "PICO": ([(str(k), -(k - 1), 0) for k in range(1, 21)] + [(str(k), -19 + (k - 21), 7) for k in range(21, 41)]
             + [(tp,) + pico_hole(*at) for tp, at in sorted(PICO_TEST_PADS.items())], (-19.9, -0.6, 0.9, 7.6)),
    "BUZZER": ([("1", 0, 0), ("2", 3, 0)], (-1.0, -2.4, 4.0, 2.4)),
    # a 0.8-inch character: segments A to G2 on top, H to N, DP and its common below (as bom.csv
    # numbers them: map to the chosen display's own pinout)
    "CHAR": ([(str(i + 1), i, 0) for i in range(8)] + [(str(9 + i), i, 6) for i in range(8)], (-0.5, -2.0, 7.5, 8.0)),
    "SOP28": ([(str(i + 1), i, 6) for i in range(14)] + [(str(28 - i), i, 0) for i in range(14)],
              (-0.5, 0.4, 13.5, 5.6)),  # on a SOP-28 to DIP adapter, rows 0.6 inch apart
    "LED3": ([("1", 0, 0), ("2", 1, 0)], (-0.1, -0.6, 1.1, 0.6)),  # 3 mm, K then A
    "D35": ([("1", 0, 0), ("2", 3, 0)], (0.4, -0.4, 2.6, 0.4)),  # DO-35 lying flat, its band at pin 1
    # a 12 mm push button: its two legs on each side joined inside (1 and 1b, 2 and 2b)
    "PUSH12": ([("1", 0, 0), ("2", 5, 0), ("1b", 0, 2), ("2b", 5, 2)], (0.1, -1.4, 4.9, 3.4)),
    # the DFPlayer Mini in two 8-pin sockets 20.32 mm apart (its pins counted round)
    "DFPLAYER": ([(str(i + 1), 0, i) for i in range(8)] + [(str(16 - i), 8, i) for i in range(8)],
                 (-0.7, -0.7, 8.7, 7.7)),
    # the cells' fuse, Bourns MF-R250, standing (its datasheet, "MF-R Series", REV. AL, page 3):
    # its leads 5.1 mm apart (two holes, 5.08 mm), its body 12.0 mm wide along them (centred
    # between them) and 3.0 mm thick across at most (E; style 2, page 4: straight leads in one plane)
    "PTC_MFR250": ([("1", 0, 0), ("2", 2, 0)], (1 - 6.0 / 2.54, -1.55 / 2.54, 1 + 6.0 / 2.54, 1.55 / 2.54)),
    # the SC16IS750 module on its 11 pins, its board standing over the holes above them
    "SC16IS750": ([(str(i + 1), i, 0) for i in range(11)], (-0.5, -7.5, 10.5, 0.5)),
}
for n in (2, 3, 4, 5, 6, 16, 20):
    FOOTPRINTS["H%d" % n] = _line(n)

# Where each part of the controller goes: its key in the circuit -> (footprint, column, row,
# rotation); a connector for what is elsewhere by its own name.
CONTROLLER_PLACES = {
    "pico": ("PICO", 33, 3, 0),
    "decoder": ("DIP16", 3, 3, 0), "c_decoder": ("C", 11, 4, 90),
    # the I2C level shifter: BSS138s on SOT-23 adapters, the pull-ups on either side
    "q_shift_sda": ("SOT23", 3, 8, 0), "q_shift_scl": ("SOT23", 7, 8, 0),
    "r_sda": ("R", 3, 10, 90), "r_scl": ("R", 4, 10, 90),
    "r_face_sda": ("R", 7, 10, 90), "r_face_scl": ("R", 8, 10, 90),
    # the power path, down the left side
    "battery": ("H2", 1, 13, 90), "charger": ("H6", 3, 13, 90), "J_SWITCH": ("H2", 5, 13, 90),
    "r_bat_top": ("R", 7, 13, 90), "r_bat_bottom": ("R", 8, 13, 90), "c_bat_adc": ("C", 9, 13, 90),
    "regulator": ("H4", 3, 20, 90),
    "ideal_battery": ("DIP6", 5, 22, 0), "ideal_usb": ("DIP6", 10, 8, 0), "fuse_battery": ("PTC_MFR250", 1, 16, 90),
    "c_vsys": ("CP", 10, 23, 0),
    # USB's soft start: its P-MOSFET on a SOT-23 adapter, its gate's capacitors and pull-down
    "soft_start": ("SOT23", 7, 17, 0), "c_soft_gs": ("C", 7, 19, 0), "c_soft_gd": ("C", 10, 19, 0),
    "r_soft": ("R", 11, 17, 90), "d_soft": ("D35", 8, 20, 0),
    # pull-ups for the files, the levers and the buttons
    **{"r_col_" + f: ("R", 14 + i, 12, 90) for i, f in enumerate("abcdefgh")},
    "r_button_white": ("R", 22, 12, 90), "r_button_black": ("R", 23, 12, 90),
    "r_button_plus": ("R", 24, 12, 90), "r_button_minus": ("R", 25, 12, 90),
    "r_button_ok": ("R", 26, 12, 90), "r_button_menu": ("R", 27, 12, 90),
    # the drivers: a transistor, its base resistor and pull-down (or the LED's resistor)
    "q_motor_white": ("TO92", 14, 16, 0), "r_base_motor_white": ("R", 14, 18, 90),
    "r_pull_motor_white": ("R", 15, 18, 90),
    "q_motor_black": ("TO92", 18, 16, 0), "r_base_motor_black": ("R", 18, 18, 90),
    "r_pull_motor_black": ("R", 19, 18, 90),
    "q_buzzer": ("TO92", 22, 16, 0), "r_base_buzzer": ("R", 22, 18, 90), "r_pull_buzzer": ("R", 23, 18, 90),
    "q_led_white": ("TO92", 26, 16, 0), "r_base_led_white": ("R", 26, 18, 90), "r_led_white": ("R", 27, 18, 90),
    "q_led_black": ("TO92", 30, 16, 0), "r_base_led_black": ("R", 30, 18, 90), "r_led_black": ("R", 31, 18, 90),
    "flyback_motor_white": ("D41", 14, 21, 0), "flyback_motor_black": ("D41", 19, 21, 0),
    "flyback_buzzer": ("D41", 24, 21, 0),
    "buzzer": ("BUZZER", 29, 22, 0),
    # USB: the socket at the right edge (the clock's end wall), its clamp beside it
    "usb_socket": ("USB5", 31, 11, 0), "usb_clamp": ("SOT236", 28, 11, 0),
    # connectors for what is elsewhere (the circuit's own connectors, and the groups below)
    "J_LED_W": ("H2", 28, 19, 0), "J_LED_B": ("H2", 32, 18, 90),
    "motor_white": ("H2", 14, 24, 0), "motor_black": ("H2", 17, 24, 0),
    "button_white": ("H2", 14, 26, 0), "button_black": ("H2", 17, 26, 0),
    "J_FACE_W": ("H4", 20, 24, 0), "J_FACE_B": ("H4", 20, 26, 0),
    "J_VOICE": ("H5", 25, 26, 0), "J_BUTTONS": ("H6", 7, 26, 0),
    "J_GUARD": ("H20", 12, 0, 0),
}

def _on_strips(key):
    """A part of the sensor strips: a square's switches (reed_a1, reed2_a1, ...) or diode."""
    return key.startswith(("reed", "diode_")) and key[-1].isdigit() and key[-2] in "abcdefgh"


# The cable guard: every line that leaves the clock for the board passes it (a series
# resistor and a TVS channel on each matrix line; the LEDs' data lifted to 5 V).
GUARD_PARTS = {"r_guard_rank_%d" % (k + 1) for k in range(8)} | {"r_guard_col_" + f for f in "abcdefgh"} | {
    "tvs_cable_%d" % (k + 1) for k in range(5)} | {"led_buffer", "c_led_buffer", "r_led_pull", "r_led_data",
                                                   "square_leds"}

# What lives elsewhere, and the connector on the controller that stands for it.
CONTROLLER_ELSEWHERE = {
    "J_FACE_W": lambda ref, key: key.startswith(("face_white", "char_white", "ind_white", "c_face_white",
                                                  "cp_face_white", "d_ask_white", "ask_white", "d_draw_white",
                                                  "draw_white")),
    "J_FACE_B": lambda ref, key: key.startswith(("face_black", "char_black", "ind_black", "c_face_black",
                                                  "cp_face_black", "r_addr_black", "d_addr_black",
                                                  "d_ask_black", "ask_black", "d_draw_black", "draw_black")),
    "J_VOICE": lambda ref, key: key in VOICE,
    "J_BUTTONS": lambda ref, key: key in ("button_plus", "button_minus", "button_ok", "button_menu",
                                          "button_reset"),
    "J_LED_W": lambda ref, key: key == "led_white",
    "J_LED_B": lambda ref, key: key == "led_black",
    "J_SWITCH": lambda ref, key: key == "power_switch",
    "J_GUARD": lambda ref, key: key in GUARD_PARTS or _on_strips(key),
}


CONTROLLER_ORDER = {
    "J_FACE_W": ["VSYS", "GND", "FACE_SDA", "FACE_SCL"], "J_FACE_B": ["VSYS", "GND", "FACE_SDA", "FACE_SCL"],
    "J_VOICE": ["VSYS", "+3V3", "GND", "I2C_SDA", "I2C_SCL"],
    "J_BUTTONS": ["BUTTON_PLUS", "BUTTON_MINUS", "BUTTON_OK", "BUTTON_MENU", "RUN", "GND"],
    "J_LED_W": ["LED_A_WHITE", "LED_K_WHITE"], "J_LED_B": ["LED_A_BLACK", "LED_K_BLACK"],
    "J_SWITCH": ["BOOST_EN", "GND"],
    "J_GUARD": ["RANK_%d" % (k + 1) for k in range(8)] + ["COL_%s" % f for f in "abcdefgh"]
               + ["SQUARE_LEDS", "VSYS", "VBUS", "GND"],
}


def _face_places(side):
    """A face on a 180 x 50 mm perfboard seen from the front: its eight characters in a row
    (COM0 on the left), the indicator lights under them (their labels printed beside), and
    on the back the HT16K33 on its adapter, its capacitors, the address parts (Black's) and
    the 4-pin connector to the controller."""
    k = "white" if side == "w" else "black"
    places = {"char_%s_%d" % (k, i): ("CHAR", 3 + 8 * i, 4, 0) for i in range(8)}
    names = ["0a", "0b", "1a", "1b"] + [str(i) for i in range(2, 8)]
    places.update({"ind_%s_%s" % (k, n): ("LED3", 4 + 6 * i, 14, 0) for i, n in enumerate(names)})
    places.update({"face_" + k: ("SOP28", 26, 12, 0, "B"), "c_face_" + k: ("C", 42, 12, 0, "B"),
                   "cp_face_" + k: ("CP", 45, 15, 0, "B"), "J_CLOCK": ("H4", 60, 17, 0, "B"),
                   # the keys' diodes, and the four wires to the keys in the clock's top
                   "d_ask_" + k: ("D35", 8, 12, 0, "B"), "d_draw_" + k: ("D35", 8, 13, 0, "B"),
                   "J_KEYS": ("H4", 14, 17, 0, "B")})
    if side == "b":
        places.update({"r_addr_black": ("R", 42, 14, 0, "B"), "d_addr_black": ("D35", 51, 12, 0, "B")})
    return places


class Layout:
    """One perfboard: its size in holes, its corners kept free for screws, where its parts
    go, and which parts of the circuit live elsewhere behind which of its connectors (in
    what pin order)."""

    def __init__(self, name, title, cols, rows, places, elsewhere, order):
        self.name, self.title, self.cols, self.rows = name, title, cols, rows
        self.places, self.elsewhere, self.order = places, elsewhere, order
        self.screws = [(1, 1), (cols - 2, 1), (1, rows - 2), (cols - 2, rows - 2)]

    def with_places(self, places):
        return Layout(self.name, self.title, self.cols, self.rows, places, self.elsewhere, self.order)


def _face_layout(side):
    k = "white" if side == "w" else "black"
    K = k[0].upper()
    mine = ("face_%s" % k, "char_%s" % k, "ind_%s" % k, "c_face_%s" % k, "cp_face_%s" % k, "d_ask_%s" % k,
            "d_draw_%s" % k) + (("r_addr_black", "d_addr_black") if side == "b" else ())
    keys = ("ask_" + k, "draw_" + k)
    return Layout("face-" + k, "%s's face on a 180 x 50 mm perfboard" % k.capitalize(), 70, 19, _face_places(side),
                  {"J_KEYS": lambda ref, part: part in keys,
                   "J_CLOCK": lambda ref, part: not part.startswith(mine) and part not in keys},
                  {"J_CLOCK": ["VSYS", "GND", "FACE_SDA", "FACE_SCL"],
                   "J_KEYS": ["FACE_%s_ASK" % K, "FACE_%s_ROW%d" % (K, P.ASK_KEY_ROW),
                              "FACE_%s_DRAW" % K, "FACE_%s_ROW%d" % (K, P.DRAW_KEY_ROW)]})


def _buttons_layout():
    """The arbiter's buttons on a strip of perfboard behind Black's rear wall, nine holes
    apart as the wall's holes are (hardware/enclosure.py): +, -, ok, menu, reset."""
    keys = ("button_plus", "button_minus", "button_ok", "button_menu", "button_reset")
    places = {k: ("PUSH12", 2 + 9 * i, 3, 0) for i, k in enumerate(keys)}
    places["J_CONTROLLER"] = ("H6", 36, 6, 0, "B")
    return Layout("buttons", "The arbiter's buttons on a 122 x 20 mm perfboard", 48, 8, places,
                  {"J_CONTROLLER": lambda ref, key: key not in keys},
                  {"J_CONTROLLER": list(CONTROLLER_ORDER["J_BUTTONS"])})


def _voice_layout():
    """The optional voice on a 76 x 40 mm perfboard by the speaker: the DFPlayer in its
    sockets, the I2C-UART bridge module, their capacitors, the 1 kohm, the player's supply
    diode, the speaker's
    connector and the lead to the controller's J_VOICE."""
    ears = ("ear_white", "ear_black")
    keys = VOICE - set(ears)
    places = {"audio_player": ("DFPLAYER", 3, 3, 0), "audio_bridge": ("SC16IS750", 14, 12, 0),
              "r_audio_rx": ("R", 13, 2, 90), "c_audio_bridge": ("C", 14, 2, 0), "cp_audio": ("CP", 18, 2, 0),
              "speaker": ("H2", 23, 2, 0), "J_CONTROLLER": ("H5", 20, 14, 0), "J_EARS": ("H3", 5, 13, 0),
              "d_audio": ("D41", 8, 13, 0), "tvs_ears": ("SOT235", 26, 5, 0)}
    return Layout("voice", "The voice on a 76 x 40 mm perfboard", 30, 15, places,
                  {"J_EARS": lambda ref, key: key in ears,
                   "J_CONTROLLER": lambda ref, key: key not in keys and key not in ears},
                  {"J_CONTROLLER": list(CONTROLLER_ORDER["J_VOICE"]), "J_EARS": ["EAR_WHITE", "EAR_BLACK", "GND"]})


def _guard_layout():
    """The cable guard on a 98 x 39 mm perfboard by the board's cable slot: the strips'
    16-way cable on J_BOARD, then the TVS arrays next to it, then a 220 ohm in each line,
    then J_CONTROLLER to the controller's J_GUARD; on the right the LEDs' buffer, its
    resistor, the chain's connector and reservoir."""
    from hardware.pcb import CONTROLLER as STRIPS

    places = {"J_BOARD": ("H16", 4, 0, 0), "J_CONTROLLER": ("H20", 4, 11, 0)}
    places.update({"tvs_cable_%d" % (k + 1): ("SOT235", 4 + 4 * k, 2, 0) for k in range(4)})
    places["tvs_cable_5"] = ("SOT235", 24, 2, 0)
    lines = ["r_guard_rank_%d" % (k + 1) for k in range(8)] + ["r_guard_col_" + f for f in "abcdefgh"]
    places.update({key: ("R", 4 + i, 7, 90) for i, key in enumerate(lines)})
    places.update({"led_buffer": ("SOT235", 28, 2, 0), "c_led_buffer": ("C", 28, 7, 90),
                   "r_led_data": ("R", 24, 7, 90), "r_led_pull": ("R", 26, 7, 90),
                   "square_leds": ("H3", 33, 8, 90)})
    return Layout("guard", "The cable guard on a 98 x 39 mm perfboard", 38, 15, places,
                  {"J_BOARD": lambda ref, key: _on_strips(key),
                   "J_CONTROLLER": lambda ref, key: key not in GUARD_PARTS and not _on_strips(key)},
                  {"J_BOARD": list(STRIPS), "J_CONTROLLER": list(CONTROLLER_ORDER["J_GUARD"])})


CONTROLLER = Layout("controller", "The controller on a 9 x 7 cm perfboard", 35, 27, CONTROLLER_PLACES,
                    CONTROLLER_ELSEWHERE, CONTROLLER_ORDER)
LAYOUTS = [CONTROLLER, _face_layout("w"), _face_layout("b"), _buttons_layout(), _voice_layout(), _guard_layout()]
COLS, ROWS = CONTROLLER.cols, CONTROLLER.rows  # the controller's, 90 x 70 mm
SCREWS = CONTROLLER.screws


class Perfboard:
    """The layout as data: parts with their holes and bodies, the connectors' nets, the
    wires."""

    def __init__(self, layout=None, board=None, places=None):
        from hardware.circuit import Board

        self.layout = layout or CONTROLLER
        if places is not None:
            self.layout = self.layout.with_places(places)
        self.circuit = board or Board()
        self.places = self.layout.places
        self.sides = {}  # part -> "F" (from above) or "B" (under the board)
        self.pins = {}  # (part, pin number) -> (col, row)
        self.nets = {}  # (part, pin number) -> net
        self.bodies = {}  # part -> (x0, y0, x1, y1)
        self.headers = {}  # connector -> [net per pin]
        self.elsewhere = {}  # circuit part key -> connector
        self._sort()
        self._place()
        self.wires = self._wires()

    def _sort(self):
        elsewhere = self.layout.elsewhere
        crossing = {j: set() for j in elsewhere}
        here_nets = set()
        for key, part in self.circuit.parts.items():
            group = next((j for j, f in elsewhere.items() if f(part.ref, key)), None)
            nets = {p.nets[0].name for p in part.pins if p.nets and not p.nets[0].name.startswith("__")}
            if group:
                self.elsewhere[key] = group
                crossing[group] |= nets
            else:
                here_nets |= nets
        order = self.layout.order
        for j, nets in crossing.items():
            leaving = nets & here_nets
            if set(order[j]) != leaving:
                raise ValueError("%s carries %s, the circuit needs %s" % (j, sorted(order[j]), sorted(leaving)))
            self.headers[j] = order[j]

    def _place(self):
        for key, (fp, col, row, rot, *side) in self.places.items():
            self.sides[key] = side[0] if side else "F"
            pins, (x0, y0, x1, y1) = FOOTPRINTS[fp]
            if key in self.headers:
                nets = {str(i + 1): n for i, n in enumerate(self.headers[key])}
            else:
                part = self.circuit.parts[key]
                nets = {p.num: (p.nets[0].name if p.nets else None) for p in part.pins}
                extra = set(nets) - {n for n, _, _ in pins}
                if any(nets[n] and not nets[n].startswith("__") for n in extra):
                    raise ValueError("%s: pins %s have no hole" % (key, sorted(extra)))
            for number, dx, dy in pins:
                rx, ry = turn(dx, dy, rot)
                self.pins[(key, number)] = (col + rx, row + ry)
                net = nets.get(number)
                self.nets[(key, number)] = None if net is None or net.startswith("__") else net
            corners = [turn(x, y, rot) for x, y in ((x0, y0), (x1, y1))]
            self.bodies[key] = (col + min(c[0] for c in corners), row + min(c[1] for c in corners),
                                col + max(c[0] for c in corners), row + max(c[1] for c in corners))

    def _wires(self):
        """Each net's holes joined by the shortest tree (Prim's, by the wire's length)."""
        by_net = {}
        for pin, net in self.nets.items():
            if net:
                by_net.setdefault(net, set()).add(self.pins[pin])
        wires = []
        for net in sorted(by_net):
            holes = sorted(by_net[net])
            joined = {holes[0]}
            rest = set(holes[1:])
            while rest:
                a, b = min(((a, b) for a in joined for b in rest),
                           key=lambda ab: (abs(ab[0][0] - ab[1][0]) + abs(ab[0][1] - ab[1][1]), ab))
                wires.append((net, a, b))
                joined.add(b)
                rest.discard(b)
        return wires

    # ----- what the checks and the maker read

    def problems(self):
        """Everything wrong with the layout, in words (empty: none)."""
        out = []
        seen = {}
        for pin, hole in self.pins.items():
            x, y = hole
            if not (0 <= x < self.layout.cols and 0 <= y < self.layout.rows):
                out.append("%s pin %s off the board at %s" % (pin[0], pin[1], hole))
            if hole in seen:
                out.append("%s pin %s and %s pin %s share hole %s" % (pin + seen[hole] + (hole,)))
            seen[hole] = pin
        keys = sorted(self.bodies)
        for i, a in enumerate(keys):
            ax0, ay0, ax1, ay1 = self.bodies[a]
            for b in keys[i + 1:]:
                if self.sides[a] != self.sides[b]:
                    continue  # one above the board, one under it
                bx0, by0, bx1, by1 = self.bodies[b]
                if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                    out.append("%s overlaps %s" % (a, b))
            for sx, sy in self.layout.screws:
                if ax0 - 0.5 < sx < ax1 + 0.5 and ay0 - 0.5 < sy < ay1 + 0.5:
                    out.append("%s covers the mounting hole at %s" % (a, (sx, sy)))
        placed = set(self.places)
        for key in self.circuit.parts:
            if key not in self.elsewhere and key not in placed:
                out.append("%s has no place" % key)
        return out

    @staticmethod
    def hole_name(hole):
        """A hole as the maker finds it: column letter(s) and row number (A1 top left)."""
        x, y = hole
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        name = letters[x] if x < 26 else letters[x // 26 - 1] + letters[x % 26]
        return "%s%d" % (name, y + 1)

    def wiring_text(self):
        last = self.hole_name((self.layout.cols - 1, self.layout.rows - 1))
        lines = ["%s (hardware/perfboard.py), seen from the front: holes named by column (A.." % self.layout.title,
                 "%s, left to right) and row (1..%s, top to bottom); parts marked (under) go on the" % (
                     "".join(c for c in last if c.isalpha()), "".join(c for c in last if c.isdigit())),
                 "other side.", "", "PARTS"]
        for key in sorted(self.places):
            fp = self.places[key][0]
            part = self.circuit.parts.get(key)
            names = {p.num: p.name for p in part.pins} if part is not None else {}
            holes = ", ".join("%s %s" % (names.get(n, n), self.hole_name(h))
                              for (k, n), h in sorted(self.pins.items(), key=lambda kv: kv[1]) if k == key)
            under = " (under)" if self.sides[key] == "B" else ""
            lines.append("  %-20s %-9s %-6s %s%s" % (key, part.ref if part is not None else "", fp, holes, under))
        lines += ["", "CONNECTORS (pin 1 first)"]
        for j, nets in self.headers.items():
            lines.append("  %-10s %s" % (j, ", ".join(nets)))
        lines += ["", "WIRES (underneath; insulated where they cross)"]
        for net, a, b in self.wires:
            lines.append("  %-18s %-5s - %s" % (net, self.hole_name(a), self.hole_name(b)))
        return "\n".join(lines) + "\n"


def picture(board: Perfboard, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols, rows = board.layout.cols, board.layout.rows
    fig, ax = plt.subplots(figsize=(12, 12 * (rows + 3) / (cols + 2)))
    ax.set_aspect("equal")
    ax.set_xlim(-1.5, cols + 0.5)
    ax.set_ylim(rows + 0.5, -1.5)
    ax.axis("off")
    ax.add_patch(plt.Rectangle((-0.5, -0.5), cols, rows, color="#c8a96e", alpha=0.35))
    for x in range(cols):
        for y in range(rows):
            ax.plot(x, y, ".", color="#8d6e63", ms=1.5)
    for x in range(cols):
        ax.text(x, -1.1, Perfboard.hole_name((x, 0))[:-1], ha="center", fontsize=5)
    for y in range(rows):
        ax.text(-1.2, y, str(y + 1), va="center", fontsize=5)
    for sx, sy in board.layout.screws:
        ax.add_patch(plt.Circle((sx, sy), 0.6, fill=False, color="black", lw=0.8))
    palette = {"GND": "#212121", "VSYS": "#c62828", "+3V3": "#ef6c00", "VBUS": "#ad1457"}
    for net, (ax_, ay), (bx, by) in board.wires:
        ax.plot([ax_, bx], [ay, by], color=palette.get(net, "#1565c0"), lw=0.8, alpha=0.75)
    for key, (x0, y0, x1, y1) in board.bodies.items():
        under = board.sides[key] == "B"
        ax.add_patch(plt.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, color="#6a1b9a" if under else "#2e7d32",
                                   lw=0.9, ls="--" if under else "-"))
        label = board.circuit.parts[key].ref if key in board.circuit.parts else key
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, label, ha="center", va="center", fontsize=5.5,
                color="#4a148c" if under else "#1b5e20")
    for (key, number), (x, y) in board.pins.items():
        ax.plot(x, y, "o", ms=3, color="#b8860b")
    ax.set_title("%s (hardware/perfboard.py), from the front: parts green, those under the board purple and "
                 "dashed;\nwires underneath (GND black, VSYS red, 3V3 orange, VBUS pink, signals blue)"
                 % board.layout.title, fontsize=8)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def write_all(out: Path = OUT) -> list:
    from hardware.circuit import Board

    circuit = Board()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for layout in LAYOUTS:
        board = Perfboard(layout, circuit)
        wrong = board.problems()
        if wrong:
            raise ValueError("%s: the layout is wrong: %s" % (layout.name, "; ".join(wrong)))
        (out / (layout.name + ".txt")).write_text(board.wiring_text())
        picture(board, out / (layout.name + ".png"))
        made += [out / (layout.name + ".txt"), out / (layout.name + ".png")]
    return made


def main(argv=None):
    try:
        for path in write_all():
            print(path)
    except ValueError as e:
        raise SystemExit("python -m hardware.perfboard: error: %s" % e) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
