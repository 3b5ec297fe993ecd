"""Differential test of the firmware rule checker against python-chess: at every ply of
2,000 games under CPython and 100 inside micropython (128K heap), the legal move set, FEN
(X-FEN and Shredder), SAN, check/mate/stalemate, insufficient material per colour, the
repetition and move-count draw states and the outcome must be the same."""
import json

import pytest

from tests.firmware import mpy
from tests.firmware.diffgen import game_records
from tests.firmware.diffcheck import Checker

CPYTHON_ONLY = "python-chess is the reference; it runs micropython"  # (its tests are not run again in micropython)

CHUNKS = 8
GAMES_PER_CHUNK = 250


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_cpython_games(chunk):
    c = Checker()
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        for rec in game_records(seed):
            c.feed(rec)
    assert c.games == GAMES_PER_CHUNK and c.plies > GAMES_PER_CHUNK * 20


def test_micropython_games(tmp_path):
    path = tmp_path / "games.jsonl"
    with path.open("w") as f:
        for seed in range(100000, 100100):
            for rec in game_records(seed):
                f.write(json.dumps(rec) + "\n")
    r = mpy.run(["tests/firmware/diffcheck.py", str(path)], timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok games 100 plies "), r.stdout
