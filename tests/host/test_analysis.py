"""The spectators' evaluation (host_tools/relay/analysis.py) with a real Stockfish: the score
from White's side and the best line in SAN; only a board's newest position is analysed when
it moved again meanwhile; none for a finished game; an engine that dies is started again,
and after too many deaths the evaluation goes off with a line in the log, the relay going on."""
import asyncio
import sys

import pytest

from host_tools.engines import EngineMissing, find_engine
from host_tools.protocol import encode, parse_line
from host_tools.relay import analysis as analysis_mod
from host_tools.relay.analysis import Analysis
from host_tools.board.session import ACTIVE, BoardSession


def _stockfish():
    try:
        return find_engine()
    except EngineMissing:
        pytest.fail("Stockfish is missing: ./run test installs it (Debian package stockfish)")


def _session(fen, moves=()):
    """A board's session holding a game from fen with these (uci, san) moves."""
    s = BoardSession(1, state=ACTIVE)
    lines = [f"@1:1 game tc=300+2 fen={encode(fen)} chess960=- white=A black=B"]
    for i, (uci, san) in enumerate(moves):
        lines.append(f"@1:{len(lines) + 1} move {i + 1} {uci} {san}")
    for line in lines:
        s.handle(parse_line(line))
    return s


def _add(s, line):
    s.handle(parse_line(f"@1:{s.record.next_seq} {line}"))


async def _until(pred, timeout=60):  # Stockfish starts slowly on a loaded machine
    for _ in range(int(timeout / 0.02)):
        if pred():
            return True
        await asyncio.sleep(0.02)
    return False


def test_the_newest_position_is_analysed_from_whites_side():
    published = []

    async def body():
        a = Analysis(_stockfish(), publish=lambda s: published.append(dict(s.analysis or {})), movetime_ms=200)
        a.start()
        try:
            # Black to move mates in one (Qh4#... after 1.f3 e5 2.g4).
            s = _session("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                         [("f2f3", "f3"), ("e7e5", "e5")])
            a.changed(s)
            _add(s, "move 3 g2g4 g4")
            a.changed(s)  # moved again before its turn came: only this position is analysed
            assert await _until(lambda: published)
            await asyncio.sleep(0.5)
            return s, a.positions
        finally:
            await a.stop()

    s, positions = asyncio.run(body())
    assert positions == 1 and len(published) == 1
    got = published[0]
    assert got["mate"] == -1 and got["pv"][0] == "Qh4#" and got["ply"] == 3
    assert got["fen"] == s.record.position().fen()


def test_a_finished_game_has_no_evaluation():
    published = []

    async def body():
        a = Analysis(_stockfish(), publish=lambda s: published.append(s.analysis), movetime_ms=100)
        a.start()
        try:
            s = _session("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [("e2e4", "e4")])
            a.changed(s)
            assert await _until(lambda: published)
            assert published[-1]["cp"] is not None and -150 < published[-1]["cp"] < 150
            _add(s, "result 1-0 resignation")
            a.changed(s)
            assert await _until(lambda: len(published) == 2)
            return s
        finally:
            await a.stop()

    s = asyncio.run(body())
    assert published[-1] is None and s.analysis is None


@pytest.mark.parametrize("engine", ["dies", "missing"])
def test_an_engine_that_dies_is_restarted_then_given_up(tmp_path, monkeypatch, engine):
    monkeypatch.setattr(analysis_mod, "RESTARTS", 2)
    monkeypatch.setattr(analysis_mod, "RESTART_WAIT_S", 0.01)
    if engine == "dies":  # a UCI engine that says hello and dies at its first search
        path = tmp_path / "dies"
        path.write_text(f"#!{sys.executable}\nimport sys\n"
                        "for line in sys.stdin:\n"
                        "    w = line.split()\n"
                        "    if w and w[0] == 'uci': print('id name Dies\\nuciok', flush=True)\n"
                        "    elif w and w[0] == 'isready': print('readyok', flush=True)\n"
                        "    elif w and w[0] == 'go': sys.exit(3)\n")
        path.chmod(0o755)
    else:
        path = tmp_path / "no-such-engine"
    said, published = [], []

    async def body():
        a = Analysis(str(path), publish=lambda s: published.append(s), log=said.append, movetime_ms=100)
        a.start()
        s = _session("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [("e2e4", "e4")])
        a.changed(s)
        assert await _until(lambda: a._task.done(), timeout=30)
        a.changed(s)  # later changes are taken and do nothing
        await a.stop()

    asyncio.run(body())
    assert published == []
    assert said[-1].startswith(f"analysis: the engine {path} failed 3 times") and said[-1].endswith("is off")
    assert sum("starting it again" in line for line in said) == 2
