"""DGT programs out of the box (issue 35): the simulated board with its default setting
(`serial=auto`) and two DGT drivers that behave as their own code does (tests/e2e/dgt_clients.py:
dgtnix's strict reader, picochess's skipping one), the port opened before the board
starts, while it starts and after it has run a while. The board never speaks first, so the
drivers see DGT messages only: no byte of text, each driver's start-up answered, and the
pieces of a move made by hand in its field updates."""
from __future__ import annotations

import os
import time

import chess
import pytest

from tests.e2e import dgt_clients as C
from tests.dgt_host import placement
from tests.playing import wait_until


@pytest.fixture
def board(tmp_path):
    from host_tools.sim import SimulatedBoard

    sims = []

    def make(power_on_s=0.0):
        sim = SimulatedBoard(hands=True, link=str(tmp_path / f"board{len(sims)}"), power_on_s=power_on_s)
        sims.append(sim)
        return sim

    yield make
    for sim in sims:
        sim.stop()


def _wait(cond, seconds=15.0):
    return wait_until(cond, [], seconds)


def _opened(make, when):
    """The board as the driver finds it when it opens the line: not on yet (before: it is
    switched on a moment later, and finds the driver's bytes waiting), starting (while),
    or on for a while (after: a game set up, clock and power lines due)."""
    if when == "before":
        sim = make(power_on_s=1.0)
        _wait(lambda: os.path.exists(sim.link), 10)
        return sim
    sim = make()
    if when == "after":
        time.sleep(4)
    return sim


@pytest.mark.parametrize("when", ["while", "after", "before"])
def test_dgtnix_reads_only_dgt_messages(board, when):
    sim = _opened(board, when)
    driver = C.Dgtnix(sim.link, init_wait_s=10.0 if when == "before" else C.Dgtnix.INIT_WAIT_S)
    try:
        assert driver.error is None, driver.error
        assert placement(driver.board) == chess.Board().board_fen()
        b = chess.Board()
        m = chess.Move.from_uci("e2e4")
        sim.hands.move(b, m, press=False)
        b.push(m)
        _wait(lambda: placement(driver.board) == b.board_fen())
        assert driver.error is None, driver.error
    finally:
        driver.close()


@pytest.mark.parametrize("when", ["while", "after", "before"])
def test_picochess_reads_only_dgt_messages(board, when):
    sim = _opened(board, when)
    driver = C.Picochess(sim.link, settle_s=0.0 if when == "before" else 1.5)
    try:
        _wait(lambda: driver.version and driver.dumps)  # its start-up: version, then the board
        assert driver.clock_version_asked
        b = chess.Board()
        m = chess.Move.from_uci("d2d4")
        sim.hands.move(b, m, press=False)
        b.push(m)
        _wait(lambda: driver.updates and driver.board and placement(driver.board) == b.board_fen())
        assert driver.skipped == 0 and driver.dropped == 0  # not one byte it had to skip
    finally:
        driver.close()
