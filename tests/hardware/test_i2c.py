"""The faces' I2C bus (hardware/i2c.py) at the firmware's own speed: each side of the level
shifter rises within the I2C standard's time (UM10204: 300 ns at 400 kHz) with the
capacitance of its pins (the standard's 10 pF each), the BSS138's (its datasheet) and its
leads; the pull-ups within the standard's 3 mA sink. The 10 kohm the faces' side had is
refused."""
import pytest

from hardware import i2c


@pytest.fixture(scope="module")
def board():
    from hardware.circuit import Board

    return Board()


def test_the_firmware_runs_the_bus_at_400_khz():
    assert i2c.firmware_hz() == 400_000


def test_every_line_rises_in_time_and_the_pins_can_pull_it_down(board):
    assert i2c.faults(board) == []
    for name, r, v, c in i2c.sides(board):
        assert i2c.rise_ns(r, c) <= 300
        assert c > 30  # (the leads and pins counted, not a bare board)


def test_the_old_pull_ups_are_refused():
    import importlib.util
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from hardware import pcb

    old = subprocess.run(["git", "show", "46a7568:hardware/circuit.py"], capture_output=True, text=True,
                         cwd=str(pcb.HERE.parent))
    if old.returncode != 0:
        pytest.skip("the old circuit is not in this clone's history")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "old_circuit_i2c.py"
        path.write_text(old.stdout)
        spec = importlib.util.spec_from_file_location("old_circuit_i2c", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["old_circuit_i2c"] = module
        spec.loader.exec_module(module)
        found = i2c.faults(module.Board())
    assert any("5 V side" in f and "over the 300 ns" in f for f in found), found


def test_with_backpacks_the_faces_side_pull_ups_are_12k(board):
    # Four backpacks' own 10 kohm pull-ups (2.5 kohm) alone rise too slowly; the controller's
    # 2.7 kohm beside them would ask more than 3 mA of the pin pulling low; 12 kohm beside them
    # does neither (hardware/README.md, step 2C).
    assert i2c.backpack_faults(board) == []
    assert i2c.BACKPACK_SIDE_PULLUP == "12k"
    alone = i2c.backpack_faults(board, fitted=None)
    assert len(alone) == 2 and all("ns rise" in f for f in alone), alone
    board_ones = [str(p.value) for k, p in board.parts.items() if p.name == "R" and any(
        q.nets and q.nets[0].name == "FACE_SDA" for q in p.pins)]
    fitted = i2c.backpack_faults(board, fitted=board_ones[0])
    assert len(fitted) == 2 and all("mA" in f for f in fitted), fitted
