"""The circuit's electrical rules (hardware/erc.py) on its own netlist: clean as built, and
each real fault refused: a reversed supply diode, a reversed flyback diode, a reversed
matrix diode, D+ and D- crossed, an ideal diode left out (either), a 5 V-only part fed
from the 3.3 V rail. Each mutation is made on the circuit's netlist, as a slip of the
soldering iron or of the generator would make it."""
import copy

import pytest

from hardware import erc


@pytest.fixture(scope="module")
def netlist():
    from hardware.circuit import Board

    return erc.model(Board())


def changed(m, key, **pins):
    """The netlist with part key's named pins moved to other nets (None: left unconnected)."""
    m = copy.deepcopy(m)
    tpl, named, numbered = m[key]
    for pin, net in pins.items():
        pin = pin.replace("_plus", "+").replace("_minus", "-")
        if net is None:
            named.pop(pin, None)
        else:
            named[pin] = net
    return m


def without(m, key):
    m = copy.deepcopy(m)
    del m[key]
    return m


def test_the_circuit_is_clean(netlist):
    assert erc.faults(netlist) == []


def test_a_reversed_supply_diode_leaves_the_voice_dead(netlist):
    a, k = netlist["d_audio"][1]["A"], netlist["d_audio"][1]["K"]
    found = erc.faults(changed(netlist, "d_audio", A=k, K=a))
    assert any("audio_player" in f and "no supply" in f for f in found), found


def test_a_reversed_flyback_diode_is_refused(netlist):
    a, k = netlist["flyback_motor_white"][1]["A"], netlist["flyback_motor_white"][1]["K"]
    found = erc.faults(changed(netlist, "flyback_motor_white", A=k, K=a))
    assert any("flyback_motor_white" in f for f in found), found


def test_a_reversed_matrix_diode_is_refused(netlist):
    a, k = netlist["diode_a1"][1]["A"], netlist["diode_a1"][1]["K"]
    found = erc.faults(changed(netlist, "diode_a1", A=k, K=a))
    assert any("diode_a1" in f for f in found), found


def test_crossed_usb_lines_are_refused(netlist):
    s = netlist["usb_socket"][1]
    found = erc.faults(changed(netlist, "usb_socket", **{"D+": s["D-"], "D-": s["D+"]}))
    assert any("USB D+" in f for f in found) and any("USB D-" in f for f in found), found


def test_leaving_out_either_ideal_diode_is_refused(netlist):
    # the battery's: nothing carries the regulator's 5 V to VSYS on the cells
    found = erc.faults(without(netlist, "ideal_battery"))
    assert any("face_white" in f and "no supply on cells" in f for f in found), found
    # USB's: VSYS only through the Pico's Schottky, under the faces' 4.5 V on a weak port
    found = erc.faults(without(netlist, "ideal_usb"))
    assert any("face_white" in f and "cells cut off" in f and "outside its 4.5-5.5 V" in f for f in found), found


def test_a_5_volt_part_on_the_3_volt_rail_is_refused(netlist):
    found = erc.faults(changed(netlist, "face_black", VDD="+3V3"))
    assert any("face_black" in f and "outside its 4.5-5.5 V" in f for f in found), found
    found = erc.faults(changed(netlist, "led_buffer", VCC="+3V3"))
    assert any("led_buffer" in f for f in found), found


def test_a_reversed_or_ungated_soft_start_is_refused(netlist):
    q = netlist["soft_start"][1]
    found = erc.faults(changed(netlist, "soft_start", S=q["D"], D=q["S"]))
    assert any("soft_start" in f and "reversed" in f for f in found), found
    # its gate's pull-down left out: it never turns on, and USB alone leaves VSYS dead
    found = erc.faults(without(netlist, "r_soft"))
    assert any("face_white" in f and "no supply on USB, cells cut off" in f for f in found), found
