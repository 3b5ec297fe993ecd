"""A task that hangs, or one that a firmware bug ends with an exception: the watchdog
stops being fed, the board is reset (the simulator does what the RP2040's watchdog does)
and comes back from its journal with the game as it was, the pieces still on their
squares."""
import time

import pytest
import serial

from host_tools.board.record import GameRecord
from host_tools.protocol import DeviceParser, Event, Status
from host_tools.sim import SimulatedBoard
from tests.host.test_relay import _trace

MOVES = "e4 e5 Nf3 Nc6".split()


def _short_trace(tmp_path):
    p = _trace(tmp_path, MOVES, "short.trace", 3)
    last_ms = max(int(l.split()[0]) for l in p.read_text().splitlines() if l.strip())
    return p, last_ms


@pytest.mark.parametrize("fault", ["hang", "raise"])
def test_a_failed_task_resets_the_board_and_the_game_comes_back(tmp_path, fault):
    trace, last_ms = _short_trace(tmp_path)
    after_scans = (last_ms + 1000) // 10
    board = SimulatedBoard(trace, flash=tmp_path / "flash", watchdog_ms=2000, commands=["start"],
                           fault="%s:%d" % (fault, after_scans))
    try:
        port = serial.Serial(board.path, timeout=0.1)
        # As our hosts do: hello first (the board never speaks first), the game asked for
        # from its start, and hello again once the line has been quiet for 2 s (a board
        # reset behind a line that stayed open waits to be spoken to).
        port.write(b"\nhello\nresend 1:1\n")
        parser = DeviceParser()
        record = GameRecord(1)
        before = []
        end = time.time() + 60
        after = []
        heard = time.time()
        while time.time() < end and not any(m.kind == "recovered" for m in after if isinstance(m, Status)):
            data = port.read(4096)
            if data:
                heard = time.time()
            elif time.time() - heard > 2:
                port.write(b"\nhello\n")
                heard = time.time()
            for m in parser.feed(data):
                if board.resets == 0:
                    before.append(m)
                else:
                    after.append(m)
        assert board.resets == 1, "the watchdog did not reset the hung board"
        events = []
        # (in the order of the record: what the board sent after the simulator's own
        # `start` may have come before the resend of the game's first line)
        for e in sorted((m for m in before if isinstance(m, Event)), key=lambda m: m.seq):
            got = record.apply(e)
            assert got in ("ok", "duplicate"), (got, e.line)
            if got == "ok":
                events.append(e)
        assert [p.san for p in record.plies] == MOVES
        if fault == "raise":  # the host is told what went wrong before the reset
            assert any(isinstance(m, Status) and m.line.startswith("err internal") and "injected" in m.line
                       for m in before)
        # Back from the reset: the same game, the clock paused, nothing asked of the host.
        hello = [m for m in after if isinstance(m, Status) and m.kind == "hello"][0]
        # (its answer to our hello counts the recovery's pause of the running clock too)
        assert hello.kwargs["game"] == "1" and int(hello.kwargs["seq"]) == record.last_seq + 1
        end = time.time() + 2  # what follows `recovered` (the pause) is read here, not after resend
        while time.time() < end:
            after += parser.feed(port.read(4096))
        port.write(b"resend 1\n")
        again = []
        end = time.time() + 20
        while time.time() < end and not any(isinstance(m, Status) and m.kind == "ok" for m in again):
            again += parser.feed(port.read(4096))
        lines = [m.line for m in again if isinstance(m, Event)]
        assert lines[:len(events)] == [e.line for e in events]
        # White's clock ran when the task hung: it waits, paused, for the arbiter.
        assert lines[len(events):] == ["@1:%d pause" % (len(events) + 1)]
        rec = [m for m in after if isinstance(m, Status) and m.kind == "recovered"][0]
        assert rec.kwargs["interrupted"].startswith("w:")
        # The pieces stood where the game left them: the board does not differ.
        assert not any(isinstance(m, Status) and m.kind == "board" and m.args[:1] == ["differs"]
                       for m in after + again)
        port.close()
    finally:
        board.stop()
