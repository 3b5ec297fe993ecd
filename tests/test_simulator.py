"""The simulated board behind a pseudo-terminal, opened with pyserial as a real board
would be: the game arrives; unplugging and replugging the line mid-game loses lines, and
a resend gets every one of them back, none twice."""
import random
import time

import chess
import serial

from host_tools import tracegen
from host_tools.gamerecord import GameRecord
from host_tools.protocol import DeviceParser, Event
from host_tools.sim import SimulatedBoard

LEGAL = "e4 e5 Nf3 d6 Bc4 Nc6 Nc3 Bg4 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#".split()


def _trace(tmp_path):
    b = chess.Board()
    moves = []
    for san in LEGAL:
        moves.append(b.parse_san(san))
        b.push(moves[-1])
    p = tmp_path / "legal.trace"
    p.write_text(tracegen.trace_game(chess.Board(), moves, random.Random(8)))
    return p


def _read(port, parser, record, until, timeout):
    """Read and apply events; returns True once until(record) holds."""
    end = time.time() + timeout
    while time.time() < end:
        for m in parser.feed(port.read(4096)):
            if isinstance(m, Event):
                if record.game != m.game:
                    continue
                status = record.apply(m)
                if status == "gap":
                    port.write(f"resend {m.game}:{record.next_seq}\n".encode())
        if until(record):
            return True
    return False


def test_a_game_over_the_pty_with_an_unplug(tmp_path):
    board = SimulatedBoard(_trace(tmp_path), presets=str(tmp_path / "presets.json"))
    try:
        port = serial.Serial(board.path, timeout=0.1)
        parser = DeviceParser()
        record = GameRecord(1)
        assert _read(port, parser, record, lambda r: len(r.plies) >= 4, 30)
        port.close()
        board.unplug()  # the cable is out for a while: the board plays on
        time.sleep(4)
        path = board.plug()
        port = serial.Serial(path, timeout=0.1)
        port.write(f"resend 1:{record.next_seq}\n".encode())
        assert _read(port, parser, record, lambda r: r.result != "*", 40)
        port.close()
    finally:
        board.stop()
    assert [p.san for p in record.plies] == LEGAL
    assert record.result == "1-0" and record.termination == "checkmate"
    assert all(p.clk_ms for p in record.plies)
