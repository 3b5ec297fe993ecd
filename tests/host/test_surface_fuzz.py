"""A few seconds of fuzzing per surface that is not the relay's HTTP (tests/host/test_relay_fuzz.py
has that; the board's own line is tests/firmware/test_fuzz_protocol.py): what a device
sends the relay, what lichess streams to play lichess, round files and trace files
(generators: tests/host/surfacefuzz.py; bench/fuzz.py runs more). Each reader refuses cleanly or
reads; anything else raised fails the test."""
import asyncio
import os
import random

from tests.host import surfacefuzz
from tests.host.test_hostile_relay import others_untouched, two_boards
from tests.host.test_relay import run


def test_device_lines_into_a_board_session():
    seen = surfacefuzz.fuzz_session(3000, seed=1)
    assert seen["lines"] == 3000 and seen["problem"] > 0 and seen["event"] > 0, seen


def test_round_files():
    seen = surfacefuzz.fuzz_round(3000, seed=1)
    assert seen["refused"] > 0 and seen["read"] > 0, seen


def test_trace_lines():
    seen = surfacefuzz.fuzz_trace(5000, seed=1)
    assert seen["refused"] > 0 and seen["event"] > 0, seen


def test_lichess_stream_lines():
    seen = surfacefuzz.fuzz_lichess(5000, seed=1)
    assert seen["refused"] > 0 and seen["read"] > 0, seen


def test_a_device_sending_noise_beside_a_board_that_plays(tmp_path, caplog):
    # Board 1 turns into a source of noise and mangled lines once attached: 1,000 of them.
    # Board 2's game goes on, the page and the round PGN answer, nothing is logged with a
    # traceback.
    async def body():
        fakes = []
        async with two_boards(tmp_path, fakes=fakes) as (relay, good, log):
            bad = next(s for s in relay.sessions.values() if s.serial == "bad1")
            rng = random.Random(3)
            noise = b"".join(surfacefuzz.device_line(rng) for _ in range(1000))

            def write():  # from a thread: the pty takes it as fast as the relay reads
                for i in range(0, len(noise), 4096):
                    os.write(fakes[0].master, noise[i:i + 4096])
            await asyncio.to_thread(write)
            await asyncio.sleep(1.0)
            await others_untouched(relay, good, caplog)
            return [line for line in log if "unreadable line" in line], len(relay.sessions)

    said, boards = run(body())
    # The noise was heard and made no board; its unreadable lines were told in a line or
    # two with their count, not one by one.
    assert 1 <= len(said) <= 3 and boards == 2, said



def test_lichess_lines_the_issue_names_are_refused_with_the_reason():
    # What a bad server sent play lichess (#36): a player as a string, Infinity for a
    # clock, a start position no board reads, a state that is no object. Each is refused
    # whole with why; a good line is read.
    import json

    import pytest

    from host_tools.play.lichess_events import read

    full = json.loads(json.dumps(surfacefuzz.GAME_FULL))  # a copy of a real gameFull
    assert read("game", full)["white"] == {"id": "player", "name": "Player", "rating": 1500}
    for change, says in ((("white", "Player"), "white is not an object"),
                         (("initialFen", "not a fen"), "initialFen 'not a fen' is no position"),
                         (("state", "started"), "state is not an object")):
        bad = dict(full, **{change[0]: change[1]})
        with pytest.raises(ValueError, match=says):
            read("game", bad)
    with pytest.raises(ValueError, match="wtime is not a whole number"):
        read("game", json.loads('{"type": "gameState", "moves": "e2e4", "wtime": Infinity, "btime": 1}'))
