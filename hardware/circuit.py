"""The board's circuit in SKiDL: a Raspberry Pi Pico, the 8x8 reed-switch matrix (three
switches in parallel and one Schottky diode per square) scanned through a 74HC138, the clock and menu buttons, two
HT16K33 7-segment clock faces on I2C, a vibration motor per player and a buzzer behind
transistors with flyback diodes, the running-side LEDs, the optional WS2812 chain (one LED
per square) and the battery power path. Every GPIO comes from firmware/hal/pinmap.py, the
pin map the firmware's rp2 HAL reads: change a pin there and the circuit follows.

    python -m hardware            # writes hardware/board.net, hardware/bom.csv, hardware/wiring.png

The parts are defined here (no KiCad library is needed to build, check or export it); each
carries a KiCad footprint and a common part number for the bill of materials.
"""
from __future__ import annotations

import os

from skidl import POWER, SKIDL, TEMPLATE, Circuit, Net, Part, Pin  # noqa: E402
from skidl.logger import erc_logger, rt_logger  # noqa: E402


def _no_log_files():
    # SKiDL opens log files in the working folder when it is imported; this project reads
    # the counts instead. Two processes (parallel tests) share one file name, so each
    # removes it tolerating the other having done so.
    for logger in (rt_logger, erc_logger):
        for handler in list(logger.log_file_handlers):
            name, handler.filename = handler.filename, None
            handler.close()
            logger.removeHandler(handler)
            if name:
                try:
                    os.remove(name)
                except OSError:
                    pass


_no_log_files()

from firmware.hal import pinmap as P  # noqa: E402
from hardware import geometry as G  # noqa: E402
from hardware import power as PW  # noqa: E402
from firmware.hal.face import COLON_HM as FACE_COLON_HM, COLON_MS as FACE_COLON_MS, INDICATORS  # noqa: E402

T = Pin.types
FILES = "abcdefgh"
# The optional voice's parts (their cost is the voice's; they live on the voice board but the
# headphone sockets, in the clock's end walls).
VOICE = frozenset({"audio_bridge", "c_audio_bridge", "audio_player", "d_audio", "r_audio_rx", "speaker", "cp_audio",
                   "ear_white", "ear_black", "tvs_ears"})
# A face character's segments, in the order of the HT16K33's rows (firmware/hal/face.py).
SEGMENTS = ("A", "B", "C", "D", "E", "F", "G1", "G2", "H", "J", "K", "L", "M", "N", "DP")

# The Raspberry Pi Pico's 40 header pins, by number.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6",
    10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13",
    18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19",
    26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND",
    34: "GP28", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
HEADER_GPIOS = [int(n[2:]) for n in PICO_PINS.values() if n.startswith("GP")]
# Its test points under the board by its micro-USB socket that carry its USB (its datasheet:
# "TP1, TP2 and TP3 can be used to access the USB signals instead of using the micro-USB
# port"): the board's own socket, clamped, reaches the RP2040 through them.
PICO_TEST_POINTS = {"TP1": "GND", "TP2": "USB_DM", "TP3": "USB_DP"}


def _pico_pin_type(name):
    if name in ("GND", "AGND"):
        return T.PWRIN
    if name == "3V3":
        return T.PWROUT
    if name == "VBUS":
        return T.PWRIN  # USB's 5 V, from the board's own socket (into the Pico's Schottky to VSYS)
    if name == "VSYS":
        return T.PWRIN
    if name in ("RUN", "3V3_EN", "ADC_VREF"):
        return T.INPUT
    return T.BIDIR


def _template(name, prefix, pins, footprint, mpn, description, **kw):
    p = Part(name=name, tool=SKIDL, dest=TEMPLATE, ref_prefix=prefix, footprint=footprint, **kw)
    p.fields["MPN"] = mpn
    p.fields["Description"] = description
    for num, pin_name, func in pins:
        p += Pin(num=num, name=pin_name, func=func)
    return p


def _parts():
    two = [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)]
    diode = [(1, "K", T.PASSIVE), (2, "A", T.PASSIVE)]
    polar = [(1, "+", T.PASSIVE), (2, "-", T.PASSIVE)]
    return {
        "pico": _template("Raspberry_Pi_Pico", "U", [(n, s, _pico_pin_type(s)) for n, s in PICO_PINS.items()]
                          + [(tp, s, T.PWRIN if s == "GND" else T.BIDIR) for tp, s in PICO_TEST_POINTS.items()],
                          "Module:RaspberryPi_Pico_Common_THT", "SC0915",
                          "Raspberry Pi Pico (RP2040), on 2x20 female headers"),
        "decoder": _template("74HC138", "U", [
            (1, "A0", T.INPUT), (2, "A1", T.INPUT), (3, "A2", T.INPUT), (4, "E1", T.INPUT),
            (5, "E2", T.INPUT), (6, "E3", T.INPUT), (7, "Y7", T.OUTPUT), (8, "GND", T.PWRIN),
            (9, "Y6", T.OUTPUT), (10, "Y5", T.OUTPUT), (11, "Y4", T.OUTPUT), (12, "Y3", T.OUTPUT),
            (13, "Y2", T.OUTPUT), (14, "Y1", T.OUTPUT), (15, "Y0", T.OUTPUT), (16, "VCC", T.PWRIN)],
            "Package_DIP:DIP-16_W7.62mm", "SN74HC138N", "3-to-8 line decoder: drives one rank low"),
        "reed": _template("Reed", "SW", two, "Button_Switch_THT:SW_Reed_CT10-XXXX-G1",
                          "MACD-14 15-20", "reed switch, normally open, close-differential, 14 mm glass, pull-in 15-20 AT "
                          "(three per square in parallel: hardware/magnets.py)"),
        "schottky": _template("D_Schottky", "D", diode,
                              "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "BAT85",
                              "Schottky diode, 200 mA, DO-35"),
        "flyback": _template("D", "D", diode,
                             "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal", "1N5819",
                             "Schottky diode, 1 A, DO-41"),
        "r": _template("R", "R", two, "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                       "CFR-25", "resistor, 1/4 W, 5%"),
        "c": _template("C", "C", two, "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "K104K15X7RF5TL2",
                       "ceramic capacitor, 50 V, X7R"),
        "cpol": _template("CP", "C", polar,
                          "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", "UVR1A102MPD",
                          "electrolytic capacitor, 10 V"),
        "button": _template("SW_Push", "SW", two, "Button_Switch_THT:SW_PUSH_12mm", "B3F-4055",
                            "push button, 12 mm"),
        "clock_button": _template("SW_Lever", "SW", two, "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical",
                                  "D2F-01L", "clock lever: microswitch with hinge lever, gold contacts for a signal's "
                                  "microamps (hardware/enclosure.py sets it under the cap), on a 2-pin JST XH lead"),
        "npn": _template("Q_NPN_CBE", "Q", [(1, "C", T.PASSIVE), (2, "B", T.PASSIVE), (3, "E", T.PASSIVE)],
                         "Package_TO_SOT_THT:TO-92_Inline", "BC337-40",
                         "NPN transistor, 800 mA; its TO-92 legs C, B, E (flat face towards you, legs down: the "
                         "collector on the left)"),
        "motor": _template("Motor", "M", polar,
                           "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical", "Seeed 316040001",
                           "coin vibration motor, 3 V, 10 mm, on a JST XH lead (in the player's clock side)"),
        "buzzer": _template("Buzzer", "BZ", polar,
                            "Buzzer_Beeper:Buzzer_12x9.5RM7.6", "CEM-1203(42)",
                            "magnetic buzzer, 3-5 V, passive (PWM)"),
        "led": _template("LED", "D", diode,
                         "LED_THT:LED_D10.0mm", "WP813SRD", "LED, 10 mm, high brightness (seen from 10 m)"),
        "ht16k33": _template("HT16K33", "U", [(1, "VSS", T.PWRIN)] + [(2 + i, "COM%d" % i, T.OUTPUT) for i in range(8)]
                             + [(25 - r, "ROW%d" % r, T.OUTPUT) for r in range(16)]
                             + [(26, "SCL", T.INPUT), (27, "SDA", T.BIDIR), (28, "VDD", T.PWRIN)],
                             "Package_SO:SOIC-28W_7.5x17.9mm_P1.27mm", "HT16K33-28SOP",
                             "LED driver, 16 rows x 8 commons, I2C (28-pin SOP: every row); pin numbers "
                             "from the datasheet's 28SOP assignment"),
        "char14": _template("Char_14seg_CC", "DS", [(i + 1, n, T.PASSIVE) for i, n in enumerate(SEGMENTS)]
                            + [(16, "CC", T.PASSIVE)],
                            "Connector_PinHeader_2.54mm:PinHeader_2x08_P2.54mm_Vertical", "PSC08-11SRWA",
                            "0.8-inch (20 mm) single 14-segment LED character with point, common cathode, "
                            "red (pins here in segment order A..N, DP, common: map them to the chosen "
                            "display's own pinout when laying out the face)"),
        "indicator": _template("LED_3mm", "D", diode, "LED_THT:LED_D3.0mm", "WP710A10ID",
                               "LED, 3 mm, red, diffused (a face's indicator, its label printed beside it)"),
        "signal_diode": _template("D_Small", "D", diode, "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "1N4148",
                                  "signal diode, DO-35"),
        "nmos": _template("Q_NMOS_GSD", "Q", [(1, "G", T.PASSIVE), (2, "S", T.PASSIVE), (3, "D", T.PASSIVE)],
                          "Package_TO_SOT_SMD:SOT-23", "BSS138",
                          "N-channel MOSFET, SOT-23: the I2C level shifter (3.3 V Pico, 5 V faces)"),
        "charger": _template("Charger_Module", "U", [(1, "IN+", T.PWRIN), (2, "IN-", T.PWRIN), (3, "B+", T.PASSIVE),
                                                     (4, "B-", T.PASSIVE), (5, "OUT+", T.PWROUT),
                                                     (6, "OUT-", T.PASSIVE)],
                             "Connector_PinHeader_2.54mm:PinHeader_1x06_P2.54mm_Vertical", "TP4056 + DW01A module",
                             "1-cell Li-ion charger module with protection (TP4056 + DW01A + FS8205A); "
                             "its R_PROG (1.2 kohm, 1 A, as sold) changed for 2.7 kohm: 0.44 A, within a USB "
                             "2.0 port's 500 mA (hardware/power.py, hardware/powersim.py)"),
        "boost": _template("Boost_5V", "U", [(1, "EN", T.INPUT), (2, "VIN", T.PWRIN), (3, "GND", T.PWRIN),
                                             (4, "VOUT", T.PWROUT)],
                           "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical", "Pololu S7V8F5",
                           "5 V step-up/step-down regulator module, 2.7-11.8 V in, about 1 A, with an "
                           "enable input (low: off)"),
        "conn2": _template("Conn_01x02", "J", two, "Connector_JST:JST_PH_B2B-PH-K_1x02_P2.00mm_Vertical",
                           "B2B-PH-K-S", "battery connector, JST PH 2-pin, to a holder of %d 18650 Li-ion cells in "
                           "parallel (1S%dP, %d mAh each; %d without the voice: hardware/power.py)"
                           % (PW.VOICE_CELLS, PW.VOICE_CELLS, PW.CELL_MAH, PW.CELLS)),
        "conn3": _template("Conn_01x03", "J", [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE), (3, "3", T.PASSIVE)],
                           "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical", "B3B-XH-A",
                           "square LED chain connector: 5 V, data, GND"),
        "uart_bridge": _template("SC16IS750_Module", "U", [
            (1, "VCC", T.PWRIN), (2, "GND", T.PWRIN), (3, "RESET", T.INPUT), (4, "A0", T.INPUT),
            (5, "A1", T.INPUT), (6, "IRQ", T.OUTPUT), (7, "I2C/SPI", T.INPUT), (8, "SCL", T.INPUT),
            (9, "SDA", T.BIDIR), (10, "TX", T.OUTPUT), (11, "RX", T.INPUT)],
            "Connector_PinHeader_2.54mm:PinHeader_1x11_P2.54mm_Vertical", "SC16IS750 module",
            "I2C-to-UART bridge module, SC16IS750 with a 14.7456 MHz crystal (the audio module's "
            "serial line on the I2C bus: no GPIO is free); A0 and A1 to GND: address 0x4D; pins "
            "here by name: wire them to the chosen module's own order"),
        "mp3": _template("DFPlayer_Mini", "U", [
            (1, "VCC", T.PWRIN), (2, "RX", T.INPUT), (3, "TX", T.OUTPUT), (4, "DAC_R", T.OUTPUT),
            (5, "DAC_L", T.OUTPUT), (6, "SPK1", T.OUTPUT), (7, "GND", T.PWRIN), (8, "SPK2", T.OUTPUT),
            (9, "IO1", T.INPUT), (10, "GND2", T.PWRIN), (11, "IO2", T.INPUT), (12, "ADKEY1", T.INPUT),
            (13, "ADKEY2", T.INPUT), (14, "USB+", T.BIDIR), (15, "USB-", T.BIDIR), (16, "BUSY", T.OUTPUT)],
            "Connector_PinSocket_2.54mm:PinSocket_1x08_P2.54mm_Vertical", "DFPlayer Mini (DFR0299)",
            "MP3 player module with micro SD slot and 3 W amplifier, in two 8-pin sockets 20.32 mm "
            "apart (the board's own voice: python -m host_tools audiocard makes its card)"),
        "speaker": _template("Speaker", "LS", [(1, "1", T.PASSIVE), (2, "2", T.PASSIVE)],
                             "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical", "CDS-40-8",
                             "speaker, 8 ohm, 2 W, 40 mm, on a 2-pin JST XH lead (in the clock's front)"),
        "jack": _template("AudioJack3", "J", [(1, "S", T.PASSIVE), (2, "T", T.PASSIVE), (3, "R", T.PASSIVE)],
                          "Connector_Audio:Jack_3.5mm_CUI_SJ1-3523N_Horizontal", "PJ-392",
                          "3.5 mm stereo jack, panel mount (a player's headphones: his channel into both "
                          "earpieces)"),
        # (KiCad's Bourns footprints are the MF-RG's and MF-RHT's, their second pad 1.2 mm off
        # the line; the MF-R250's leads stand in one line 5.1 mm apart, its datasheet's page 3 (C; style 2,
        # drawn on page 4 with straight leads in one plane):
        # KiCad's in-line 5.08 mm radial fuse, 1.0 mm holes for its 0.81 mm leads; its courtyard,
        # 9 mm long, is shorter than the MF-R250's 12 mm body: keep 1.5 mm clear at each end)
        "ptc": _template("Polyfuse", "F", two, "Fuse:Fuse_Littelfuse_395Series", "MF-R250",
                         "resettable fuse (PTC), 2.5 A hold, 5.0 A trip at 23 C, 30 V, at most 0.07 ohm after "
                         "a trip, radial, 5.1 mm leads (Bourns MF-R series): the cells' short-circuit guard, "
                         "sized for the heaviest load on empty cells warm inside the clock, and low enough "
                         "in resistance to keep the regulator's input up (hardware/powersim.py)"),
        "ideal_diode": _template("LM66100", "U", [(1, "VIN", T.PWRIN), (2, "GND", T.PWRIN), (3, "CE", T.INPUT),
                                                  (4, "N.C.", T.NOCONNECT), (5, "ST", T.OPENCOLL),
                                                  (6, "VOUT", T.PASSIVE)],  # (its datasheet's pin 4 N.C., 5 ST)
                                 "Package_TO_SOT_SMD:SOT-363_SC-70-6", "LM66100DCKR",
                                 "ideal diode, 1.5-5.5 V, 1.5 A, 79 mohm (SC-70-6, on an SC-70-6 to DIP-6 adapter "
                                 "on the perfboard): OR-ing the 5 V sources into VSYS without a Schottky's drop"),
        "supply_diode": _template("D_Supply", "D", [(1, "K", T.PWROUT), (2, "A", T.PWRIN)],
                                  "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal", "1N5819",
                                  "Schottky diode, 1 A, DO-41: a module's supply kept under its maximum"),
        "tvs4": _template("SP0504BAHT", "D", [(1, "IO1", T.PASSIVE), (2, "GND", T.PWRIN), (3, "IO2", T.PASSIVE),
                                               (4, "IO3", T.PASSIVE), (5, "IO4", T.PASSIVE)],
                          "Package_TO_SOT_SMD:SOT-23-5", "SP0504BAHTG",
                          "TVS diode array, 4 lines to ground, 5.5 V working, 30 kV contact discharge (SOT-23-5, "
                          "on a SOT-23-6 adapter): what a spark on the board's cable meets first"),
        "buffer": _template("74AHCT1G125", "U", [(1, "~OE", T.INPUT), (2, "A", T.INPUT), (3, "GND", T.PWRIN),
                                                 (4, "Y", T.OUTPUT), (5, "VCC", T.PWRIN)],
                            "Package_TO_SOT_SMD:SOT-23-5", "SN74AHCT1G125DBVR",
                            "single buffer with TTL inputs at 5 V (SOT-23-5, on a SOT-23-6 adapter): a 3.3 V "
                            "signal lifted to 5 V"),
        "usb": _template("USB_B_Micro", "J", [(1, "VBUS", T.PWROUT), (2, "D-", T.BIDIR), (3, "D+", T.BIDIR),
                                              (4, "ID", T.PASSIVE), (5, "GND", T.PWRIN)],
                         "Connector_USB:USB_Micro-B_Molex-105017-0001", "105017-0001",
                         "micro-USB B socket, right angle, its shell's legs through the board (on a micro-USB "
                         "to DIP-5 adapter board on the perfboard): the clock's USB, at its end wall"),
        "usb_clamp": _template("USBLC6-2SC6", "U", [(1, "IO1", T.PASSIVE), (2, "GND", T.PWRIN), (3, "IO2", T.PASSIVE),
                                                     (4, "IO2'", T.PASSIVE), (5, "VBUS", T.PWRIN),
                                                     (6, "IO1'", T.PASSIVE)],
                               "Package_TO_SOT_SMD:SOT-23-6", "USBLC6-2SC6",
                               "USB ESD protection: two data lines and VBUS, IEC 61000-4-2 level 4, a few pF "
                               "(SOT-23-6, on a SOT-23-6 adapter on the perfboard)"),
        "pmos": _template("Q_PMOS_GSD", "Q", [(1, "G", T.INPUT), (2, "S", T.PWRIN), (3, "D", T.PWROUT)],
                          "Package_TO_SOT_SMD:SOT-23", "AO3401A",
                          "P-channel MOSFET, 30 V, 4 A, SOT-23 (Alpha & Omega AO3401A, its datasheet Rev 3 page 1: "
                          "pin 1 gate, 2 source, 3 drain; on a SOT-23 adapter on the perfboard): USB's soft start"),
        "switch": _template("SW_SPDT", "SW", [(1, "A", T.PASSIVE), (2, "B", T.PASSIVE), (3, "C", T.PASSIVE)],
                            "Button_Switch_THT:SW_Slide_1P2T_CK_OS102011MS2Q", "OS102011MS2QN1",
                            "slide switch: the regulator's enable (microamps), on/off"),
    }


class Board:
    """The circuit, built in its own SKiDL Circuit; nets and parts by name for the checks."""

    def __init__(self):
        self.circuit = Circuit()
        self.parts = {}
        self.nets = {}
        with self.circuit:
            self._build()

    def _net(self, name, power=False):
        n = Net(name)
        if power:
            n.drive = POWER
        self.nets[name] = n
        return n

    def _part(self, key, template, role=None, mpn=None, **kw):
        # A tag per part keeps its KiCad timestamp from one netlist to the next, so that a
        # PCB laid out from it keeps its placement when the netlist is read again.
        p = template(tag=key, **kw)
        if mpn:
            p.fields["MPN"] = mpn
        if role:
            p.fields["Role"] = role  # what it is on this board (the diagram, the netlist)
        self.parts[key] = p
        return p

    def _build(self):
        t = _parts()
        # The rails are driven by the pins that supply them (the Pico's 3V3 and VBUS, the
        # charger's and the regulator's outputs); only the ground and VSYS, the OR of the
        # two 5 V sources through the ideal diodes, carry a power flag.
        gnd = self._net("GND", power=True)
        v33 = self._net("+3V3")
        vsys = self._net("VSYS", power=True)
        vbus = self._net("VBUS")
        pico = self._part("pico", t["pico"])
        self.pico = pico
        for n, name in PICO_PINS.items():
            if name in ("GND", "AGND"):
                pico[n] += gnd
        pico["3V3"] += v33
        pico["VSYS"] += vsys
        pico["VBUS"] += self._net("VBUS_SOFT")  # (its Schottky to VSYS, behind the soft start: below)

        def gpio(signal, pin):
            net = self._net(signal)
            pico["GP%d" % pin] += net
            return net

        # ----- the reed matrix: ranks driven low one at a time through the 74HC138, files
        # read through pull-ups; a Schottky diode per switch (anode to the file, cathode to
        # the rank) so that no current runs back through other closed switches: no ghosts.
        # The sixteen lines leave the clock on the board's cable through the cable guard:
        # each through 220 ohm (the pull-up's low stays under 0.4 V) and clamped to ground by
        # a TVS array at the connector, so that a spark on the cable meets the clamp first.
        dec = self._part("decoder", t["decoder"])
        dec["VCC"] += v33
        dec["GND"] += gnd
        dec["E1"] += gnd
        dec["E2"] += gnd
        dec["E3"] += v33
        self._part("c_decoder", t["c"], value="100n")["1", "2"] += v33, gnd
        for i, pin in enumerate(P.ROW_SELECT):
            dec["A%d" % i] += gpio("ROW_A%d" % i, pin)
        cable = []  # the board's cable, as the strips' J1 has it: ranks 1-8, files a-h
        ranks = []
        for r in range(8):
            rank = self._net("RANK_%d" % (r + 1))
            dec["Y%d" % r] += rank
            out = self._net("BOARD_RANK_%d" % (r + 1))
            self._part("r_guard_rank_%d" % (r + 1), t["r"], value="220", role="cable guard")["1", "2"] += rank, out
            ranks.append(out)
            cable.append(out)
        files = []
        matrix = []  # (square, file line, the switch's side of its diode)
        for f, pin in enumerate(P.COLUMNS):
            col = gpio("COL_%s" % FILES[f], pin)
            self._part("r_col_%s" % FILES[f], t["r"], value="10k")["1", "2"] += v33, col
            out = self._net("BOARD_COL_%s" % FILES[f])
            self._part("r_guard_col_%s" % FILES[f], t["r"], value="220", role="cable guard")["1", "2"] += col, out
            files.append(out)
            cable.append(out)
            for r in range(8):
                sq = "%s%d" % (FILES[f], r + 1)
                sw = self._part("reed_" + sq, t["reed"], value="reed NO", role="square " + sq)
                d = self._part("diode_" + sq, t["schottky"], value="BAT85", role="square " + sq)
                mid = self._net("SQ_" + sq)
                sw["1"] += out
                sw["2"] += mid
                matrix.append((sq, out, mid))
                d["A"] += mid
                d["K"] += ranks[r]
        self.cable = cable

        # ----- buttons: to ground, pulled up (the firmware also debounces)
        for name, pin in P.BUTTONS:
            net = gpio("CLOCK_%s" % name.upper() if name in ("white", "black") else "BUTTON_%s" % name.upper(), pin)
            kind = "clock_button" if name in ("white", "black") else "button"
            sw = self._part("button_" + name, t[kind], value="lever" if kind == "clock_button" else "12 mm",
                            role=name)
            sw["1"] += net
            sw["2"] += gnd
            self._part("r_button_" + name, t["r"], value="10k")["1", "2"] += v33, net
        reset = self._part("button_reset", t["button"], value="12 mm", role="reset")
        run = self._net("RUN")
        pico["RUN"] += run
        reset["1", "2"] += run, gnd

        # ----- clock faces (firmware/hal/face.py): on each, one HT16K33 drives eight 14-
        # segment characters (character i on COM i, its segments on ROW0-13, its point on
        # ROW14) and eight indicator lights (ROW15 on COM i; the colons are two LEDs each).
        # White's answers at 0x70; Black's at 0x71: A0 (ROW2) tied to AD (COM0) through a
        # diode and 39k, as the datasheet sets an address bit. The faces run from VSYS (the
        # HT16K33 needs 4.5-5.5 V); two BSS138 shift the Pico's 3.3 V I2C to them.
        sda = gpio("I2C_SDA", P.I2C_SDA)
        scl = gpio("I2C_SCL", P.I2C_SCL)
        self._part("r_sda", t["r"], value="4k7")["1", "2"] += v33, sda
        self._part("r_scl", t["r"], value="4k7")["1", "2"] += v33, scl
        bus5 = {}
        for name, low in (("SDA", sda), ("SCL", scl)):
            high = self._net("FACE_" + name)
            q = self._part("q_shift_" + name.lower(), t["nmos"], value="BSS138", role="I2C level shifter " + name)
            q["G"] += v33
            q["S"] += low
            q["D"] += high
            # 2.7k: a 180 ns rise on the faces' leads at 400 kHz (300 ns allowed), 2.4 mA
            # with the 3.3 V side's for the pin pulling low (3 mA allowed): hardware/i2c.py
            self._part("r_face_" + name.lower(), t["r"], value="2k7")["1", "2"] += vsys, high
            bus5[name] = high
        for side, addr in (("white", P.DISPLAY_WHITE), ("black", P.DISPLAY_BLACK)):
            k = side[0].upper()
            u = self._part("face_" + side, t["ht16k33"], value="HT16K33 0x%02X" % addr,
                           role="%s's clock face" % side)
            u["VDD"] += vsys
            u["VSS"] += gnd
            u["SDA"] += bus5["SDA"]
            u["SCL"] += bus5["SCL"]
            self._part("c_face_" + side, t["c"], value="100n")["1", "2"] += vsys, gnd
            self._part("cp_face_" + side, t["cpol"], value="100u", mpn="UVR1A101MDD")["+", "-"] += vsys, gnd
            coms = [self._net("FACE_%s_COM%d" % (k, i)) for i in range(8)]
            rows = [self._net("FACE_%s_ROW%d" % (k, r)) for r in range(16)]
            for i in range(8):
                u["COM%d" % i] += coms[i]
            for r in range(16):
                u["ROW%d" % r] += rows[r]
            for i in range(8):
                ch = self._part("char_%s_%d" % (side, i), t["char14"], value="14-seg 0.8in",
                                role="%s's face, character %d" % (side, i + 1))
                for r, seg in enumerate(SEGMENTS):
                    ch[seg] += rows[r]
                ch["CC"] += coms[i]
                for n in range(2 if i in (FACE_COLON_HM, FACE_COLON_MS) else 1):
                    led = self._part("ind_%s_%d%s" % (side, i, "ab"[n] if i < 2 else ""), t["indicator"],
                                     value="red 3 mm", role="%s's face: %s" % (side, INDICATORS[i]))
                    led["A"] += rows[15]
                    led["K"] += coms[i]
            # The player's ask key (appendix D: he asks for his time, never with his lever)
            # and his draw key (9.1.2): the HT16K33 scans them between COM1 (KS0, driven in
            # the key scan) and ROW3 (K1), ROW4 (K2) (read), each through a diode that keeps
            # it out of the display's multiplexing (COM low, row high there: the diode is
            # reversed). The keys sit in the clock's top beside the lever, on four wires to
            # the face board.
            for name, row, role in (("ask", P.ASK_KEY_ROW, "ask key (appendix D)"),
                                    ("draw", P.DRAW_KEY_ROW, "draw key (9.1.2)")):
                d = self._part("d_%s_%s" % (name, side), t["signal_diode"], value="1N4148",
                               role="%s's %s" % (side, role))
                key = self._part("%s_%s" % (name, side), t["button"], value="12 mm", role="%s's %s" % (side, role))
                through = self._net("FACE_%s_%s" % (k, name.upper()))
                d["A"] += coms[P.ASK_KEY_COM]
                d["K"] += through
                key["1"] += through
                key["2"] += rows[row]
            if addr & 1:  # A0 set
                d = self._part("d_addr_" + side, t["signal_diode"], value="1N4148", role="%s's face: A0" % side)
                r = self._part("r_addr_" + side, t["r"], value="39k")
                mid = self._net("FACE_%s_A0" % k)
                d["A"] += coms[0]
                d["K"] += mid
                r["1", "2"] += mid, rows[2]

        # ----- optional: the board's own voice (firmware/access/voice.py). A DFPlayer Mini
        # plays the phrases from its card through a speaker; its serial line comes from an
        # SC16IS750 on the 3.3 V side of the I2C bus (all 26 GPIOs are taken), at 0x4D.
        # A 1k in the player's RX, as its maker advises against hum; its TX back to the
        # bridge tells when a phrase has finished. Left off, the board is silent, as before.
        bridge = self._part("audio_bridge", t["uart_bridge"], value="SC16IS750 0x%02X" % P.AUDIO_BRIDGE,
                            role="the audio module's serial line, on I2C (optional)")
        bridge["VCC"] += v33
        bridge["GND"] += gnd
        bridge["SDA"] += sda
        bridge["SCL"] += scl
        bridge["I2C/SPI"] += v33  # I2C mode
        bridge["A0"] += gnd
        bridge["A1"] += gnd
        bridge["RESET"] += v33
        bridge["IRQ"] += self.circuit.NC
        self._part("c_audio_bridge", t["c"], value="100n")["1", "2"] += v33, gnd
        mp3 = self._part("audio_player", t["mp3"], value="DFPlayer Mini", role="the board's voice (optional)")
        # Its supply is 3.2-5.0 V: a Schottky from VSYS (up to 5.25 V on a strong USB port)
        # keeps it under 5.0 and over 4.2 (hardware/power.py checks every part's range).
        audio_v = self._net("AUDIO_V")
        d_audio = self._part("d_audio", t["supply_diode"], value="1N5819", role="the voice's supply")
        d_audio["A"] += vsys
        d_audio["K"] += audio_v
        mp3["VCC"] += audio_v
        mp3["GND"] += gnd
        mp3["GND2"] += gnd
        rx = self._net("AUDIO_RX")
        self._part("r_audio_rx", t["r"], value="1k")["1", "2"] += bridge["TX"], rx
        mp3["RX"] += rx
        mp3["TX"] += bridge["RX"]
        spk = self._part("speaker", t["speaker"], value="8 ohm 2 W", role="the board's voice")
        spk["1", "2"] += mp3["SPK1"], mp3["SPK2"]
        self._part("cp_audio", t["cpol"], value="100u", mpn="UVR1A101MDD")["+", "-"] += audio_v, gnd
        # A headphone socket per player (access ears=on: his answers into his ears alone):
        # the module's left channel to White's, the right to Black's, each into both
        # earpieces (tip and ring), in the outer end wall of the player's half.
        for side, pin in (("white", "DAC_L"), ("black", "DAC_R")):
            ear = self._net("EAR_" + side.upper())
            mp3[pin] += ear
            jack = self._part("ear_" + side, t["jack"], value="3.5 mm", role="%s's headphones (optional)" % side)
            jack["T", "R", "S"] += ear, ear, gnd
        # The headphones' cable is touched: both lines clamped at the voice board.
        tvs = self._part("tvs_ears", t["tvs4"], value="SP0504 ears", role="the headphones' guard (optional)")
        tvs["GND"] += gnd
        tvs["IO1"] += self.nets["EAR_WHITE"]
        tvs["IO2"] += self.nets["EAR_BLACK"]
        tvs["IO3"] += self.circuit.NC
        tvs["IO4"] += self.circuit.NC
        for pin in ("IO1", "IO2", "ADKEY1", "ADKEY2", "USB+", "USB-", "BUSY"):
            mp3[pin] += self.circuit.NC

        # ----- motors and buzzer: low-side NPN switches from VSYS, a flyback diode across
        # each coil (the coil's kick must not reach the transistor or the Pico)
        def low_side(key, signal, pin, load_key, value):
            net = gpio(signal, pin)
            q = self._part("q_" + key, t["npn"], value="BC337")
            rb = self._part("r_base_" + key, t["r"], value="1k")
            rb["1", "2"] += net, self._net("BASE_" + key.upper())
            q["B"] += rb["2"].net
            q["E"] += gnd
            coil = self._net("COIL_" + key.upper())
            q["C"] += coil
            load = self._part(key, t[load_key], value="3 V" if load_key == "motor" else "passive", role=value)
            load["+"] += vsys
            load["-"] += coil
            fly = self._part("flyback_" + key, t["flyback"], value="1N5819")
            fly["K"] += vsys
            fly["A"] += coil
            self._part("r_pull_" + key, t["r"], value="100k")["1", "2"] += net, gnd  # off at reset

        low_side("motor_white", "MOTOR_WHITE", P.MOTOR_WHITE, "motor", "vibration motor White")
        low_side("motor_black", "MOTOR_BLACK", P.MOTOR_BLACK, "motor", "vibration motor Black")
        low_side("buzzer", "BUZZER", P.BUZZER, "buzzer", "buzzer")

        # ----- running-side LEDs: 20 mA from VSYS through an NPN (brighter than a GPIO can):
        # 150 ohm for the LED's 1.85 V at 20 mA (hardware/power.py: led_ma)
        for side, pin in (("white", P.LED_WHITE), ("black", P.LED_BLACK)):
            net = gpio("LED_%s" % side.upper(), pin)
            q = self._part("q_led_" + side, t["npn"], value="BC337")
            rb = self._part("r_base_led_" + side, t["r"], value="2k2")
            base = self._net("BASE_LED_" + side.upper())
            rb["1", "2"] += net, base
            q["B"] += base
            q["E"] += gnd
            led = self._part("led_" + side, t["led"], value="red 10 mm", role="%s's clock runs" % side)
            rl = self._part("r_led_" + side, t["r"], value="150")
            anode = self._net("LED_A_" + side.upper())
            rl["1", "2"] += vsys, anode
            led["A"] += anode
            cath = self._net("LED_K_" + side.upper())
            led["K"] += cath
            q["C"] += cath

        # ----- optional: one WS2812 per square, a chain on its own 5 V supply leads, on the
        # cable guard: the data lifted to 5 V by a 74AHCT1G125 (a WS2812 wants 0.7 VDD,
        # 3.5 V: more than a 3.3 V pin gives), then a series resistor and a TVS channel like
        # the matrix's lines.
        data = gpio("SQUARE_LEDS", P.SQUARE_LEDS)
        buf = self._part("led_buffer", t["buffer"], value="74AHCT1G125", role="cable guard: the LEDs' data to 5 V")
        buf["~OE"] += gnd
        buf["A"] += data
        buf["GND"] += gnd
        buf["VCC"] += vsys  # (on the cells too: its output stays low into the unpowered chain)
        lifted = self._net("LED_DATA_5V")
        buf["Y"] += lifted
        self._part("c_led_buffer", t["c"], value="100n")["1", "2"] += vsys, gnd
        self._part("r_led_pull", t["r"], value="100k")["1", "2"] += data, gnd  # low while the Pico starts
        j = self._part("square_leds", t["conn3"], value="JST XH 3", role="WS2812 chain, one per square (optional)")
        rd = self._part("r_led_data", t["r"], value="330")
        dout = self._net("LED_DATA")
        rd["1", "2"] += lifted, dout
        j["1", "2", "3"] += vbus, dout, gnd
        # (no reservoir across the chain's supply: USB allows 10 uF on VBUS at plug-in,
        # USB 2.0 7.2.4.1, and the charger module's own input capacitor takes it all)
        # The TVS arrays: four lines each, the sixteen of the matrix and the LEDs' data.
        lines = cable + [dout]
        for k in range(5):
            tvs = self._part("tvs_cable_%d" % (k + 1), t["tvs4"], value="SP0504", role="cable guard")
            tvs["GND"] += gnd
            for ch in range(4):
                i = 4 * k + ch
                tvs["IO%d" % (ch + 1)] += lines[i] if i < len(lines) else self.circuit.NC

        # ----- power (hardware/power.py sizes it and checks every part's supply): three 18650
        # cells in parallel, through a resettable fuse, behind a charger with protection,
        # charged from USB; a 5 V regulator from them, switched by its enable input (the
        # slide switch carries microamps, not the cells' current), into VSYS through an
        # ideal diode. USB's VBUS feeds VSYS through the other ideal diode (and the Pico's
        # own Schottky, beside it). The regulator stays on while USB is in: whichever source
        # is higher carries VSYS, so that pulling or plugging USB hands over with nothing to
        # switch (an NPN that held the regulator off until VBUS fell under 0.7 V let VSYS
        # follow VBUS down and reset the clock: hardware/powersim.py). The cells' voltage
        # reaches GP28 (ADC2) halved.
        bat = self._part("battery", t["conn2"], value="JST PH 2", role="battery: %d x 18650 in parallel" % PW.VOICE_CELLS)
        chg = self._part("charger", t["charger"], value="TP4056 module", role="charger and protection")
        # Its charge current, by R_PROG (hardware/power.py): the TP4056 has no input-voltage
        # regulation, and the 1 A the modules come set for pulls a USB port's VBUS, and VSYS
        # with it, under the faces' 4.5 V while the clock runs from USB (hardware/powersim.py).
        chg.fields["R_PROG"] = "%gk" % (PW.R_PROG_OHM / 1000)
        bplus = self._net("CELL+")
        fused = self._net("CELL_FUSED")
        bminus = self._net("CELL-")
        bat["1", "2"] += bplus, bminus
        self._part("fuse_battery", t["ptc"], value="2.5 A", role="the cells' fuse")["1", "2"] += bplus, fused
        chg["B+"] += fused
        chg["B-"] += bminus
        chg["IN+"] += self.nets["VBUS_SOFT"]  # (behind the soft start: its module's 10 uF too)
        chg["IN-"] += gnd
        chg["OUT-"] += gnd
        bout = self._net("BAT_OUT")
        chg["OUT+"] += bout
        reg = self._part("regulator", t["boost"], value="5 V", role="5 V from the cells")
        reg["VIN"] += bout
        reg["GND"] += gnd
        v5 = self._net("BOOST_5V")
        reg["VOUT"] += v5
        en = self._net("BOOST_EN")  # pulled up inside the module: on unless held low
        reg["EN"] += en
        sw = self._part("power_switch", t["switch"], value="SPDT", role="on/off: the regulator's enable")
        sw["A"] += gnd  # off: enable held low
        sw["B"] += en
        sw["C"] += self.circuit.NC  # on: enable left to its pull-up
        soft = self.nets["VBUS_SOFT"]
        for key, source, role in (("ideal_battery", v5, "VSYS from the regulator"), ("ideal_usb", soft, "VSYS from USB")):
            u = self._part(key, t["ideal_diode"], value="LM66100", role=role)
            u["VIN"] += source
            u["GND"] += gnd
            u["CE"] += gnd  # enabled (active low)
            u["VOUT"] += vsys
            u["ST"] += self.circuit.NC
            u["N.C."] += self.circuit.NC
        self._part("c_vsys", t["cpol"], value="100u", mpn="UVR1A101MDD")["+", "-"] += vsys, gnd
        adc = gpio("BATTERY_ADC", P.BATTERY_ADC)
        self._part("r_bat_top", t["r"], value="100k")["1", "2"] += bout, adc
        self._part("r_bat_bottom", t["r"], value="100k")["1", "2"] += adc, gnd
        self._part("c_bat_adc", t["c"], value="100n")["1", "2"] += adc, gnd
        # USB's soft start: with the clock off VSYS is empty, and its ~410 uF would charge
        # from the plug at once through the USB ideal diode and the Pico's Schottky (the port
        # dips ~1.4 V; USB 2.0 7.2.4.1 allows what 10 uF || 44 ohm makes it dip). A P-MOSFET
        # between the socket's VBUS and what VSYS draws from USB (VBUS_SOFT) turns on slowly:
        # at plug-in 100 nF gate-source holds its gate with its source (|VGS| ~0.45 V, under
        # its least threshold 0.5 V), 1 Mohm then pulls the gate down, and 10 nF gate-drain
        # (a Miller integrator) lets the drain rise only as fast as 1 Mohm's few microamps
        # charge it: ~0.3 V/ms, VSYS's capacitors charging at ~0.15 A (hardware/powersim.py
        # simulates it). Fully on, the gate at 0 V: |VGS| 5 V, 47-60 mohm, carrying the
        # charge and VSYS's load (~1.9 A of its 4 A). The charger sits behind it too: its
        # module's own 10 uF alone is all USB allows at plug-in, so the port meets only the
        # soft start's gate capacitors (~10 nF) and the clamp.
        q = self._part("soft_start", t["pmos"], value="AO3401A", role="USB's soft start")
        gate = self._net("SOFT_GATE")
        q["S", "G", "D"] += vbus, gate, soft
        self._part("c_soft_gs", t["c"], value="100n", role="USB's soft start: the gate held at plug-in")[
            "1", "2"] += vbus, gate
        self._part("c_soft_gd", t["c"], value="10n", mpn="K103K15X7RF5TL2",
                   role="USB's soft start: the drain's slew")["1", "2"] += gate, soft
        self._part("r_soft", t["r"], value="1M", role="USB's soft start: the gate's pull-down")["1", "2"] += gate, gnd
        # Pulled out, VBUS falls and the gate with it, below ground by the 5 V its 100 nF
        # held: a Schottky from ground to the gate empties that capacitor as VBUS falls, so
        # that a plug pushed back in at once starts as softly (without it, the gate still
        # near -5 V when plugged back within ~0.3 s turns the MOSFET fully on).
        d = self._part("d_soft", t["schottky"], value="BAT85", role="USB's soft start: the gate's clamp")
        d["A", "K"] += gnd, gate

        # ----- USB (the relay's line and the charger's supply): the clock's own micro-USB
        # socket at its end wall, its two data lines and VBUS clamped by a USBLC6-2SC6 beside
        # it, the data then wired to the Pico's test points TP2 and TP3 (TP1 its ground), so
        # that a spark on the cable meets the clamp, not the RP2040. The Pico's own socket
        # stays inside the clock.
        usb = self._part("usb_socket", t["usb"], value="micro-USB B", role="USB: the relay's line, the charger")
        dm, dp = self._net("USB_DM"), self._net("USB_DP")
        usb["VBUS", "D-", "D+", "GND"] += vbus, dm, dp, gnd
        usb["ID"] += self.circuit.NC
        clamp = self._part("usb_clamp", t["usb_clamp"], value="USBLC6-2SC6", role="USB guard")
        clamp[1, 6, 3, 4] += dp, dp, dm, dm  # (by number: I/O1 is pins 1 and 6, I/O2 pins 3 and 4)
        clamp["GND", "VBUS"] += gnd, vbus
        pico["TP1", "TP2", "TP3"] += gnd, dm, dp

        # Pins the board leaves free.
        for name in ("3V3_EN", "ADC_VREF"):
            pico[name] += self.circuit.NC

        # Each square's other reed switches, in parallel with its first on the one matrix
        # cell (hardware/magnets.py); made last, so that every other part keeps its reference.
        for i in range(1, len(G.SQUARE_REEDS)):
            for sq, out, mid in matrix:
                sw = self._part("reed%d_%s" % (i + 1, sq), t["reed"], value="reed NO", role="square " + sq)
                sw["1"] += out
                sw["2"] += mid

    # ----- checks and outputs

    def unguarded(self):
        """What a spark on a cable would reach unguarded. Each of the board's cable's lines (the
        matrix's sixteen and the LEDs' data) needs a TVS channel, and nothing on it but the
        strips' switches and diodes, its clamp, its series resistor and its connector; each of
        USB's data lines needs the USB clamp, and nothing on it but the socket, the clamp and
        the Pico's test point."""
        out = []
        for name in ("USB_DM", "USB_DP"):
            parts = {p.part for p in self.nets[name].pins}
            if not any(p.name == "USBLC6-2SC6" for p in parts):
                out.append("%s has no USB clamp" % name)
            out += ["%s (%s) sits on %s beside the USB clamp" % (p.ref, p.name, name) for p in parts
                    if p.name not in ("USBLC6-2SC6", "USB_B_Micro") and p is not self.pico]
        lines = list(self.cable) + [self.nets["LED_DATA"]]
        for net in lines:
            parts = {p.part for p in net.pins}
            if not any(p.name == "SP0504BAHT" for p in parts):
                out.append("%s has no TVS channel" % net.name)
            for p in parts:
                role = p.fields.get("Role", "")
                if p.name in ("SP0504BAHT", "Reed", "D_Schottky", "Conn_01x03") or role == "cable guard" or \
                        p is self.parts.get("r_led_data"):
                    continue
                out.append("%s (%s) sits on %s with no series resistor" % (p.ref, p.name, net.name))
        return out

    def erc(self):
        """(errors, warnings) of SKiDL's electrical rules check."""
        from skidl.logger import erc_logger

        self.circuit.no_files = True
        self.circuit.ERC()
        return erc_logger.error.count, erc_logger.warning.count

    def pico_nets(self):
        """{GPIO number: net name} of every header GPIO the circuit uses."""
        out = {}
        for g in HEADER_GPIOS:
            pin = self.pico["GP%d" % g]
            nets = [n for n in pin.nets if n is not self.circuit.NC]
            if pin.is_connected() and nets:
                out[g] = nets[0].name
        return out
