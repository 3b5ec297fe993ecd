"""Appendix D in full on the real firmware (#39): `demo --appendix-d` - a sighted player's
board and a blind player's, two simulated boards paired in the round file, one game played
on both as the players play it (host_tools/simpair.py): every move made on one board and
repeated on the other, the sighted player pressing the one clock on the blind player's
board before his move is repeated there, a repetition late, one misheard and refused, put
right. The round PGN has one game - the moves, the clock of the blind player's board and
its result on time; both boards' games are the same; the misheard repetition reached the
arbiter within a second, named; and the blind player's board said each of the sighted
player's moves as it asked for it (D.2.1), the captures and the promotion's piece too."""
import io
import re

import chess
import chess.pgn

from firmware.access.phrases import NUMBERS, WORDS
from host_tools import demo
from host_tools import simpair as pairgame


def _said(outputs: str) -> str:
    """The board voice's phrases (the simulator's `say <folder> <track>`) as words."""
    tracks = [int(t) for t in re.findall(r"say \d+ (\d+)", outputs)]
    return " ".join(str(t - 1) if t <= NUMBERS else WORDS[t - NUMBERS - 1] for t in tracks)


def test_a_blind_versus_sighted_game_on_two_paired_boards(tmp_path, capsys):
    said = []
    out = tmp_path / "demo"
    assert demo.appendix_d(True, 0, out=out, log=said.append) == 0
    pgn = (out / "relay" / "round.pgn").read_text()
    assert pgn.count("[Event ") == 1  # one game: the blind player's board is the arbiter's only
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert [m.uci() for m in game.mainline_moves()] == [m.uci() for m in demo.italian_to_moves(demo.PAIR_GAME["moves"])]
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "time forfeit"
    assert game.headers["BlackClock"] == "0:00:00"  # the flag of the one clock, the blind player's board's
    clks = [n.clock() for n in game.mainline()]
    assert all(c is not None for c in clks) and clks[0] <= 30  # every move's time from that clock
    blind_pgn = chess.pgn.read_game(io.StringIO((out / "relay" / "board-1001.pgn").read_text()))
    assert [m.uci() for m in blind_pgn.mainline_moves()] == [m.uci() for m in game.mainline_moves()]
    relay_log = capsys.readouterr().out.splitlines()
    told = [line for line in relay_log if "ALERT D.2.9" in line]
    assert told == ["board 1: ALERT D.2.9: on the sighted player's board b8c6 was tried where Nbd7 was to be repeated"]
    summary = [line for line in said if line.startswith("board 1 (the public's game)")][0]
    seconds = float(re.search(r"told to the arbiter in ([0-9.]+) s", summary).group(1))
    assert seconds < 1.0
    assert "board 1001: relay sent 'expect d5c6'" in relay_log  # the lagging board asked for the move
    voice = _said((out / "tactile.outputs").read_text())
    assert "white P e takes d 5" in voice and "white P b 7 takes a 8 Q" in voice
    # The blind player, Black, sits at the left half of his clock: his board was told that
    # White sits at the right, and his seat - the left - is the blind one.
    import json

    seats = json.loads((out / "flash-tactile" / "access.json").read_text())
    assert seats["white"] == "right" and seats["blind"] == "l", seats


def test_a_repetition_forgotten_by_the_blind_player_reaches_the_arbiter_at_once(tmp_path):
    # White's 1.e4 is not repeated on the blind player's board: he plays 1...e5 there and
    # presses. The arbiter is told within a second; he takes e5 back, repeats e4, plays e5
    # again and presses, and the game goes on: one game, the same on both boards.
    moves = [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    out = tmp_path / "pair"
    happened = pairgame.run_pair(moves, out, "300+2", faults={"missing_ply": 0}, until_result=False, log=lambda t: None)
    assert "error" not in happened
    told = [a["text"] for a in happened["alerts"] if a["kind"] == "pair-differs"]
    assert told[0] == ("D.2.9: the blind player pressed on his board (board 1001) before e4 was repeated there: "
                       "his move was made without it")
    assert happened["missing"] is not None and happened["missing"] < 1.0 + 1.0  # his press came ~0.5 s after the move
    for n in (1, 1001):
        game = chess.pgn.read_game(io.StringIO((out / "relay" / f"board-{n}.pgn").read_text()))
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]


def test_sim_runs_a_pair_from_a_pgn_until_it_is_stopped(tmp_path, processes):
    # `python -m host_tools sim --pair --pgn`: the two boards and the relay, the game played
    # on both, the relay's round PGN with it; Ctrl-C (SIGINT) ends it all.
    import signal
    import subprocess
    import sys
    import time

    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "Sam"]\n[Black "Bea"]\n[TimeControl "600+5"]\n\n1. d4 d5 2. c4 dxc4 *\n')
    out = tmp_path / "pair"
    p = processes.start([sys.executable, "-m", "host_tools", "sim", "--pair", "--pgn", str(pgn), "--blind", "white",
                          "--port", "0", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        round_pgn = out / "relay" / "round.pgn"
        while time.monotonic() < deadline:
            if round_pgn.exists() and "dxc4" in round_pgn.read_text():
                break
            time.sleep(0.5)
        time.sleep(1.0)
        text = round_pgn.read_text()
    finally:
        p.send_signal(signal.SIGINT)
        said = p.communicate(timeout=30)[0]
    assert "1. d4 " in text and "2. c4 " in text and "dxc4" in text and text.count("[Event ") == 1, said
    assert '[White "Sam"]' in text and "relay sent 'pair w there'" in said and "relay sent 'pair b here'" in said
    assert p.returncode == 0


def test_play_pair_at_home_two_boards_one_game(tmp_path):
    # `python -m host_tools play pair SIGHTED BLIND`: no round file to write - the boards say
    # who they are, both get the game (control, names), the blind player's board his
    # seat (White at the left: his own) and where White sits; the relay keeps them as one
    # game while the two players play it.
    import argparse
    import asyncio
    import threading

    from host_tools import play
    from host_tools.sim import SimulatedBoard

    links = tmp_path / "lines"
    links.mkdir()
    sighted = SimulatedBoard(hands=True, link=str(links / "sighted"), board_id="home-sighted")
    blind = SimulatedBoard(hands=True, link=str(links / "blind"), board_id="home-tactile")
    moves = [chess.Move.from_uci(u) for u in ("d2d4", "g8f6", "c2c4", "e7e6")]
    got = {}

    async def until(relay):
        s = relay.sessions
        while not all(n in s and s[n].record is not None for n in (1, 1001)):
            await asyncio.sleep(0.1)
        t = threading.Thread(target=lambda: got.update(pairgame.play(moves, sighted.hands, blind.hands, chess.WHITE, s,
                                                                     alerts=relay.alerts_json, log=lambda x: None)))
        t.start()
        while t.is_alive():
            await asyncio.sleep(0.2)
        for _ in range(50):  # the last press's clock line, however busy the machine
            if s[1001].clock.running == "w" and s[1].clock.running == "w":
                break
            await asyncio.sleep(0.1)
        got["alerts"] = [(a["kind"], a["text"]) for a in relay.alerts_json()]
        got["blind_clock"] = s[1001].clock.running
        got["public_clock"] = s[1].clock.running

    a = argparse.Namespace(sighted=str(links / "sighted"), blind_board=str(links / "blind"), blind="white", seat="left",
                           tc="600+5", white="Gran", black="Dad", touches=False, out=str(tmp_path / "pair"), http_port=0)
    try:
        assert play._pair(a, "play", until=until) == 0
    finally:
        sighted.stop()
        blind.stop()
    game = chess.pgn.read_game(io.StringIO((tmp_path / "pair" / "relay" / "round.pgn").read_text()))
    assert game.headers["White"] == "Gran" and game.headers["TimeControl"] == "600+5"
    assert [m.uci() for m in game.mainline_moves()] == [m.uci() for m in moves]
    assert not [a for a in got["alerts"] if a[0] in ("pair-differs", "illegal-press")], got["alerts"]
    assert got["blind_clock"] == got["public_clock"] == "w"  # the one clock: White (blind) to move
