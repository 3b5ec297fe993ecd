"""The DGT e-board protocol (docs/dgt.md) through the simulated board (the real firmware in
`micropython`, behind its pseudo-terminal) with a DGT host written from DGT's published
protocol description (tests/dgt_host.py), as DGT programs drive a DGT board: picochess's
start-up and LiveChess's, whole games made by a person's hands (captures, castling, en
passant, a promotion), the moves found from the field updates and board dumps, the clock
messages against the board's own faces, and the line protocol back afterwards with every
move of the game."""
from __future__ import annotations

import random
import time

import chess
import pytest

from tests import dgt_host as H


@pytest.fixture
def board(tmp_path):
    from host_tools.sim import SimulatedBoard

    sim = SimulatedBoard(hands=True, outputs=str(tmp_path / "outputs.txt"), link=str(tmp_path / "board"))
    sim.outputs = str(tmp_path / "outputs.txt")
    yield sim
    sim.stop()


def _faces(path: str) -> tuple[str, str] | None:
    """The faces' last display line in the simulator's outputs: (White's, Black's)."""
    last = None
    with open(path) as f:
        for line in f:
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] == "display":
                w, _, b = parts[2].rstrip("\n").partition(" | ")
                last = (w, b)
    return last


def _seconds(face: str) -> int:
    t = face.split()[0]
    if "." in t:
        return int(t.split(".")[0])
    parts = [int(p) for p in t.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def _play(sim, host: H.DgtHost, moves: list[chess.Move]) -> chess.Board:
    """The moves made by the hands of two players (each thinks a moment first); each one
    found by the DGT host before the next."""
    b = chess.Board()
    for m in moves:
        time.sleep(0.4)
        sim.hands.move(b, m, press=True)
        b.push(m)
        want = [x.uci() for x in b.move_stack]
        try:
            host.wait(lambda: host.moves == want)
        except AssertionError:
            raise AssertionError(f"the DGT host did not find {m.uci()}: it has {host.moves} and sees "
                                 f"{H.placement(host.codes)}, the board has {b.board_fen()}; the last updates: "
                                 f"{[d.hex() for i, d, _ in host.messages if i == H.FIELD_UPDATE][-10:]}") from None
    return b


# Both castlings, an en passant capture, captures, a promotion with capture.
GAME = ("e2e4 g8f6 e4e5 f6d5 g1f3 f7f5 e5f6 e7f6 f1e2 f8e7 e1g1 e8g8 a2a4 h7h6 a4a5 h6h5 a5a6 h5h4 "
        "a6b7 h4h3 b7a8q").split()


def test_picochess_start_up_and_a_whole_game_with_every_kind_of_move(board):
    sim = board
    host = H.DgtHost(sim.link, dump_on_update=True)
    try:
        # picochess: update nice and version; on the version, the board and the clock's version.
        host.send(H.SEND_UPDATE_NICE, H.SEND_VERSION)
        host.wait(lambda: host.last(H.VERSION))
        host.send(H.SEND_BRD, H.CLOCK_VERSION, H.RETURN_SERIALNR)
        host.wait(lambda: host.codes is not None and host.last(H.SERIALNR))
        assert H.placement(host.codes) == chess.Board().board_fen()
        acks = host.wait(lambda: [H.ack(d) for m, d, _ in host.messages if m == H.BWTIME and H.ack(d)])
        assert acks[0][:3] == (0x10, 0x09, 0x10)  # the clock's version: 1.0
        moves = [chess.Move.from_uci(u) for u in GAME]
        b = _play(sim, host, moves)
        assert host.moves == GAME and host.board.board_fen() == b.board_fen()
        assert host.noise == 0  # not one byte of text on the line
        # The clock as a DGT clock: what the faces show (White left, Black right).
        time.sleep(1.5)
        host.send(H.SEND_CLK)
        t0 = time.monotonic()
        host.wait(lambda: any(m == H.BWTIME and H.clock_seconds(d) and w > t0 for m, d, w in host.messages))
        left, right, status = H.clock_seconds(host.last(H.BWTIME))
        w, bl = _faces(sim.outputs)
        assert abs(left - _seconds(w)) <= 1 and abs(right - _seconds(bl)) <= 1
        assert status & 0x01 and status & 0x08 and not status & 0x10  # running, Black's turn (right)
    finally:
        host.close()
    # The line protocol afterwards: the game is all there.
    from host_tools.board.link import BoardLink

    link = BoardLink(sim.link, retry_s=0.2)
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            r = link.session.record
            if r is not None and len(r.plies) == len(GAME):
                break
            time.sleep(0.05)
        assert [p.uci for p in link.session.record.plies] == GAME
    finally:
        link.close()


def test_livechess_start_up_then_a_random_game_found_from_field_updates_alone(board):
    sim = board
    host = H.DgtHost(sim.link)
    try:
        host.send(H.RESET, H.RETURN_LONG_SERIALNR, H.SEND_VERSION, H.SEND_TRADEMARK, H.SEND_BATTERY_STATUS,
                  H.RETURN_SERIALNR)
        host.wait(lambda: host.last(H.SERIALNR))
        assert [m for m, _, _ in host.messages] == [H.LONG_SERIALNR, H.VERSION, H.TRADEMARK, H.BATTERY_STATUS,
                                                    H.SERIALNR]
        assert host.last(H.LONG_SERIALNR).decode().isdigit()
        host.send(H.SEND_BRD, H.SEND_UPDATE_NICE)
        host.wait(lambda: host.codes is not None)
        rng = random.Random(11)
        b = chess.Board()
        moves = []
        for _ in range(24):
            legal = list(b.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            b.push(m)
        _play(sim, host, moves)
        assert host.moves == [m.uci() for m in moves]
        assert host.dumps == 1  # one dump at the start; the rest from the updates
    finally:
        host.close()


def test_a_bus_host_follows_a_whole_game_from_the_boards_store(board):
    # DGT's bus mode, as board software for many boards on one line drives it: the board
    # found by a ping to every board, its dump, a start tag, then its changes polled four
    # times a second; every move found from the field records alone, and the whole game
    # again from the start tag.
    sim = board
    host = H.BusHost(sim.link)
    try:
        host.bus(H.BUS_PING, 0)
        address = host.wait(lambda: host.address)
        host.bus(H.BUS_SEND_BRD)
        host.wait(lambda: host.codes is not None)
        assert H.placement(host.codes) == chess.Board().board_fen()
        host.bus(H.BUS_SEND_CHANGES)  # what the store held before the start: not the game's
        host.bus(H.BUS_SET_START_GAME)
        host.wait(lambda: host.last(H.MSG_BUS_START_GAME_WRITTEN) is not None)
        host.start_polling()
        moves = [chess.Move.from_uci(u) for u in GAME]
        b = _play(sim, host, moves)
        assert host.moves == GAME and host.bad == 0 and host.noise == 0
        # Everything since the start tag: the pieces where they stood, then every change
        # and every halted clock, gives the game's final position.
        time.sleep(0.6)
        host._polling = False
        time.sleep(0.3)
        t0 = time.monotonic()
        host.bus(H.BUS_SEND_FROM_START)
        host.wait(lambda: any(m == H.MSG_BUS_FROM_START and w > t0 for m, _, w in host.messages))
        recs = H.records(host.last(H.MSG_BUS_FROM_START))
        assert recs[0] == H.EE_START_TAG
        codes = [0] * 64
        for r in recs:
            if isinstance(r, tuple) and r[0] == "f":
                codes[r[1]] = r[2]
        assert H.placement(codes) == b.board_fen()
        clocks = [r for r in recs if isinstance(r, tuple) and r[0] == "t"]
        # A halted clock at every press but the one that started the clocks (White's first)
        # and the mate (which needs none): Black's, then White's (the left), in turn.
        assert len(clocks) >= len(GAME) - 2
        assert [r[1] for r in clocks] == [i % 2 == 1 for i in range(len(clocks))]
        host.bus(H.BUS_END_BUSMODE)
        assert address == host.address
    finally:
        host.close()
