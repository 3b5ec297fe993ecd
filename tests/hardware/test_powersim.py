"""The power path simulated with ngspice (hardware/powersim.py): the netlist is written from
the circuit, so these tests hold the circuit's wiring, not a figure typed beside it. USB
pulled and plugged at full and empty cells, the motors starting and the voice speaking:
every part at or above its datasheet's minimum at every instant; the cells' fuse holding
what it carries at the clock's inside temperature (its datasheet's figures); USB's 10 uF at
plug-in. Each check also runs on the circuit as it was (git history) or with a part left out,
and must fail there. Skipped where ngspice is missing."""
import importlib.util
import subprocess
import sys

import pytest

from hardware import pcb
from hardware import powersim as S

pytestmark = pytest.mark.skipif(bool(S.ngspice_missing()), reason=S.ngspice_missing())

OLD = "46a7568"  # the circuit before: an NPN held the regulator off while VBUS was above ~0.7 V


@pytest.fixture(scope="module")
def board():
    from hardware.circuit import Board

    return Board()


@pytest.fixture(scope="module")
def runs(board):
    return [S.simulate(sc, board) for sc in S.SCENARIOS]


@pytest.fixture(scope="module")
def old_board(tmp_path_factory):
    text = subprocess.run(["git", "show", "%s:hardware/circuit.py" % OLD], capture_output=True, text=True,
                          cwd=str(pcb.HERE.parent))
    if text.returncode != 0:
        pytest.skip("the old circuit is not in this clone's history")
    path = tmp_path_factory.mktemp("old") / "old_circuit.py"
    path.write_text(text.stdout)
    spec = importlib.util.spec_from_file_location("old_circuit", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_circuit"] = module
    spec.loader.exec_module(module)
    return module.Board()


def test_no_part_falls_under_its_datasheet_minimum(runs):
    assert [f for run in runs for f in run.faults()] == []
    for run in runs:  # and VSYS never even dips towards the HT16K33's 4.5 V
        assert run.lowest("vsys") > 4.5


def test_the_old_handover_reset_the_clock_and_blanked_the_faces(old_board):
    pulled = S.simulate(S.SCENARIOS[0], old_board)  # USB pulled, cells full
    faults = pulled.faults()
    assert any("Pico's minimum" in f for f in faults) and any("HT16K33" in f for f in faults), faults
    assert pulled.lowest("vsys") < 1.8


def test_without_the_batterys_ideal_diode_the_clock_dies_when_usb_goes(board):
    run = S.simulate(S.SCENARIOS[0], board, without={"ideal_battery"})
    assert run.lowest("vsys") < 1.8 and run.faults()


def test_the_fuse_holds_what_it_carries_warm_inside_the_clock(board, runs, old_board):
    fuse = S.fuse_of(board)
    hold, trip, _ = S.FUSES[fuse]
    carried = S.fuse_current(runs)
    assert carried >= S.CHARGE_A  # (the charge goes through it)
    assert carried <= S.rerated(hold)
    # The MF-R110 the clock had holds 1.1 A at 20 C, less than the charge once warm:
    assert S.fuse_of(old_board) == "MF-R110" and S.rerated(S.FUSES["MF-R110"][0]) < S.CHARGE_A
    # and the new one still trips on a short: the cells give far more than its trip current.
    assert trip < 10


def test_usb_meets_no_more_than_10_uF_at_plug_in(board, old_board):
    assert S.vbus_farads(board, clock_on=True) <= S.USB_DEVICE_UF * 1e-6 + 1e-12
    assert S.vbus_farads(old_board, clock_on=True) > 100e-6  # its 1000 uF across the LEDs' supply


def test_usb_inrush_is_held_to_usbs_reference_load(board):
    # USB 2.0 7.2.4.1: at plug-in a device may dip the port no further than 10 uF || 44 ohm
    # does (simulated in ngspice against the same port). With the clock on, VSYS is already
    # up and the port meets VBUS's capacitors alone: within it. With the clock switched off
    # VSYS is empty, and its ~410 uF charge through the USB ideal diode and the Pico's
    # Schottky at once: the port dips several times as far. This is still open (no surge
    # limiting on VBUS: hardware/README.md says so); the check finds it, and would pass the
    # reference load itself.
    on, allowed = S.inrush(board, clock_on=True)
    off, _ = S.inrush(board, clock_on=False)
    assert 0.1 < allowed < 1.0
    assert on < allowed
    assert off > 3 * allowed
    assert S.vbus_farads(board, clock_on=False) > 300e-6
