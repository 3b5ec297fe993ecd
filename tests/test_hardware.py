"""The circuit in hardware/ (SKiDL): a clean electrical rules check (and one that catches a
fault), the pin map agreeing with the firmware's pin by pin, every square a switch and a
diode the right way round (scanned through the circuit's own connections: no ghosts with
the diodes, ghosts without them), and the generated netlist and bill of materials up to
date with the circuit."""
import pytest

from firmware.hal import pinmap
from hardware import circuit as C
from hardware import outputs


@pytest.fixture(scope="module")
def board():
    return C.Board()


def _pins(net):
    return {(p.part.fields.get("Role") or p.part.name, p.part.ref, p.name) for p in net.pins}


def test_erc_is_clean_and_would_catch_a_fault(board):
    assert board.erc() == (0, 0)
    broken = C.Board()
    with broken.circuit:
        broken.parts["decoder"]["Y0"] += broken.nets["RANK_2"]  # two decoder outputs joined
    errors, warnings = broken.erc()
    assert errors >= 1


def test_the_circuit_uses_the_firmware_pin_map_pin_by_pin(board):
    used = board.pico_nets()
    assert used == {g: name for name, g in pinmap.header_pins().items()}
    assert len(used) <= len(C.HEADER_GPIOS) == 26  # the budget: 25 of the Pico's 26
    # Each signal reaches what the firmware drives or reads there.
    nets = board.nets
    for i in range(3):
        assert ("74HC138", board.parts["decoder"].ref, "A%d" % i) in _pins(nets["ROW_A%d" % i])
    for f in C.FILES:
        roles = {r for r, _, _ in _pins(nets["COL_" + f])}
        assert {"square %s%d" % (f, r) for r in range(1, 9)} <= roles
    assert "white" in {r for r, _, _ in _pins(nets["CLOCK_WHITE"])}
    assert "black" in {r for r, _, _ in _pins(nets["CLOCK_BLACK"])}
    for n in ("I2C_SDA", "I2C_SCL"):
        assert sum(1 for r, _, _ in _pins(nets[n]) if "clock face" in r) == 2
    for sig, load in (("MOTOR_WHITE", "motor_white"), ("MOTOR_BLACK", "motor_black"), ("BUZZER", "buzzer")):
        q = board.parts["q_" + load]
        rb = board.parts["r_base_" + load]
        assert any(p.part is rb for p in nets[sig].pins)
        assert q["B"].net is rb["2"].net  # through the base resistor to the transistor
        assert board.parts[load]["-"].net is q["C"].net  # which switches the motor
        fly = board.parts["flyback_" + load]
        assert fly["A"].net is q["C"].net and fly["K"].net is nets["VSYS"]  # the coil's kick


def test_changing_a_pin_in_the_pin_map_changes_the_circuit(monkeypatch):
    monkeypatch.setattr(pinmap, "BUZZER", pinmap.SPARE)
    monkeypatch.setattr(pinmap, "SPARE", 18)
    b = C.Board()
    assert b.pico_nets()[pinmap.BUZZER] == "BUZZER"
    assert 18 not in b.pico_nets()
    assert b.erc() == (0, 0)


def _matrix(board):
    """(file index, rank index, diode the right way round) of every square, read from the
    circuit's connections: file net - switch - diode - rank net."""
    cols = {board.nets["COL_" + f]: i for i, f in enumerate(C.FILES)}
    ranks = {board.nets["RANK_%d" % (r + 1)]: r for r in range(8)}
    squares = []
    for f in C.FILES:
        for r in range(1, 9):
            sw = board.parts["reed_%s%d" % (f, r)]
            d = board.parts["diode_%s%d" % (f, r)]
            ends = {sw["1"].net, sw["2"].net}
            col = next(n for n in ends if n in cols)
            mid = next(n for n in ends if n is not col)
            if d["A"].net is mid:
                forward = True  # file -> anode -> cathode -> rank: conducts into a low rank
                rank = d["K"].net
            else:
                forward = False
                rank = d["A"].net
            squares.append((cols[col], ranks[rank], forward))
    return squares


def _scan(squares, occupied, diodes=True):
    """What a scan reads through this wiring: with rank r driven low (the others high), file
    f reads low if a path of closed switches leads from f to the low rank, each diode
    crossed only from anode to cathode (without diodes: either way)."""
    seen = set()
    for low in range(8):
        for f in range(8):
            # Search over nets: files and ranks, joined by the occupied squares' switches.
            todo, reached = [("f", f)], {("f", f)}
            while todo:
                kind, i = todo.pop()
                if kind == "r" and i == low:
                    seen.add((f, low))
                    break
                for (sf, sr, forward) in squares:
                    if (sf, sr) not in occupied:
                        continue
                    if kind == "f" and sf == i:  # file -> rank: anode to cathode if forward
                        nxt = ("r", sr) if (forward or not diodes) else None
                    elif kind == "r" and sr == i:  # rank -> file: against the diode
                        nxt = ("f", sf) if not diodes else None
                    else:
                        continue
                    if nxt and nxt not in reached:
                        reached.add(nxt)
                        todo.append(nxt)
    return seen


def test_every_square_reads_and_no_ghosts_appear(board):
    squares = _matrix(board)
    assert len(squares) == 64 and {(f, r) for f, r, _ in squares} == {(f, r) for f in range(8) for r in range(8)}
    assert all(fw for _, _, fw in squares)  # every diode: anode to the file, band to the rank
    for sq in [(f, r) for f in range(8) for r in range(8)]:
        assert _scan(squares, {sq}) == {sq}
    corners = {(0, 0), (0, 7), (7, 0)}  # a1, a8, h1 occupied: h8 must stay empty
    assert _scan(squares, corners) == corners
    full = {(f, r) for f in range(8) for r in (0, 1, 6, 7)}  # the start position
    assert _scan(squares, full) == full
    # The same wiring without diodes: the fourth corner appears (what the diodes prevent).
    assert (7, 7) in _scan(squares, corners, diodes=False)


def test_generated_files_are_up_to_date(board, tmp_path):
    # regenerate with: python -m hardware
    assert outputs.netlist(board) == outputs.NETLIST.read_text()
    assert outputs.write_bom(board, tmp_path / "bom.csv") == outputs.BOM.read_text()
    outputs.write_wiring(board, tmp_path / "wiring.png")
    assert (tmp_path / "wiring.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = outputs.bom_rows(board)
    qty = {r["part"]: r["qty"] for r in rows}
    assert qty["Reed"] == 64 and qty["D_Schottky"] == 64 and qty["Raspberry_Pi_Pico"] == 1
    assert all(r["mpn"] and r["footprint"] for r in rows)
