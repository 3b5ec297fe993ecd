"""Trying it without a board (docs/broadcaster.md, "Without a board"): the sample games and
trace in samples/ are what they say, the trace replays to its game, the round file names
two simulated boards by the serials `sim --serial` gives them, and a simulated board says
its serial in its hello. A bad --serial is one line and no board."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import serial

from host_tools.relay.round import RoundInfo

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _game(name):
    with open(SAMPLES / name) as f:
        return chess.pgn.read_game(f)


def test_the_sample_games_are_whole_games():
    for name, white in (("opera-1858.pgn", "Paul Morphy"), ("legal-1750.pgn", "Legal de Kermeur")):
        game = _game(name)
        assert not game.errors and game.headers["White"] == white
        board = game.end().board()
        assert board.is_checkmate() and game.headers["Result"] == "1-0"


def test_the_shipped_trace_replays_to_its_game(tmp_path):
    out = tmp_path / "opera.pgn"
    r = subprocess.run([sys.executable, "-m", "host_tools", "replay", "--trace", str(SAMPLES / "opera-1858.trace"),
                        "--pgn-out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got = chess.pgn.read_game(open(out))
    want = _game("opera-1858.pgn")
    assert [m.uci() for m in got.mainline_moves()] == [m.uci() for m in want.mainline_moves()]
    assert got.headers["Result"] == "1-0"


def test_the_sample_round_names_two_simulated_boards():
    rnd = RoundInfo.load(SAMPLES / "round.json")
    assert {b["serial"] for b in rnd.boards.values()} == {"sample-1", "sample-2"}
    assert rnd.boards[1]["white"] == _game("opera-1858.pgn").headers["White"]


def test_sim_serial_is_the_boards_serial(tmp_path, processes):
    link = tmp_path / "board"
    proc = processes.start([sys.executable, "-m", "host_tools", "sim", "--pgn", str(SAMPLES / "legal-1750.pgn"),
                             "--serial", "sample-2", "--link", str(link)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while not link.exists() and time.monotonic() < end:
            time.sleep(0.1)
        got = b""
        with serial.Serial(str(link), timeout=0.2) as port:
            port.write(b"\nhello\n")
            while b"hello proto=" not in got and time.monotonic() < end:
                got += port.read(256)
            while not got.endswith(b"\n") and time.monotonic() < end:
                got += port.read(256)
        hello = next(ln for ln in got.decode().splitlines() if ln.startswith("hello proto="))
        assert " board=sample-2" in hello
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert not link.exists()


def test_a_bad_serial_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--serial", "a b", "--link", str(tmp_path / "x")],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and r.stderr.strip().count("\n") == 0
    assert r.stderr.startswith("python -m host_tools sim: error: --serial")
    assert not os.path.lexists(tmp_path / "x")
