"""The simulated board behind a pseudo-terminal, opened with pyserial as a real board
would be: the game arrives; unplugging and replugging the line mid-game loses lines, and
a resend gets every one of them back, none twice."""
import os
import random
import signal
import time

import chess
import serial

from host_tools import tracegen
from host_tools.board.record import GameRecord
from host_tools.protocol import DeviceParser, Event
from host_tools.sim import SimulatedBoard

LEGAL = "e4 e5 Nf3 d6 Bc4 Nc6 Nc3 Bg4 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#".split()


def _trace(tmp_path, seed=8):
    b = chess.Board()
    moves = []
    for san in LEGAL:
        moves.append(b.parse_san(san))
        b.push(moves[-1])
    p = tmp_path / "legal.trace"
    p.write_text(tracegen.trace_game(chess.Board(), moves, random.Random(seed)))
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
        port.write(b"\nhello\n")  # as our hosts begin: the board never speaks first
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


def test_a_simulator_the_host_starves_still_sees_every_move(tmp_path):
    """A busy test machine can leave the simulator unscheduled for a second or more. The
    simulated world waits for it (the trace's hands and the clock): were the time to jump,
    the next scan would see a lift and a place, or a press and the opponent's next lift,
    at once, which a chip scanning every 10 ms never sees. Here the process is stopped
    outright, again and again, at random instants of a game played in real time."""
    rng = random.Random(3)
    board = SimulatedBoard(_trace(tmp_path, seed=3), presets=str(tmp_path / "presets.json"))
    stalls = 0
    try:
        port = serial.Serial(board.path, timeout=0.05)
        port.write(b"\nhello\n")
        parser = DeviceParser()
        record = GameRecord(1)
        end = time.time() + 120
        while record.result == "*" and time.time() < end:
            _read(port, parser, record, lambda r: r.result != "*", rng.uniform(0.1, 1.0))
            os.kill(board.proc.pid, signal.SIGSTOP)  # the host runs something else
            time.sleep(rng.uniform(0.3, 1.5))
            os.kill(board.proc.pid, signal.SIGCONT)
            stalls += 1
        port.close()
    finally:
        board.stop()
    assert stalls >= 10
    assert [p.san for p in record.plies] == LEGAL
    assert record.result == "1-0" and record.termination == "checkmate"
