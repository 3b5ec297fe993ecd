"""The move recogniser against whole games played physically: random legal games and
engine-like games (castling, en passant, promotions to every piece), standard and Chess960,
turned into traces with human timing and noise by host_tools/tracegen.py. The recognised
move list must equal the source game exactly, with no phantom move (no move event that is
later taken back). 1,000 games under CPython, 50 inside micropython with a 128K heap."""
import random

import chess
import pytest

from host_tools import tracegen
from tests.firmware import mpy
from tests.firmware.replay import replay

CPYTHON_ONLY = "python-chess makes the games; it runs micropython"  # (its tests are not run again in micropython)

CHUNKS = 4
PER_CHUNK = 250


def _source(seed):
    board, moves = tracegen.random_game(seed)
    b = board.copy()
    ucis = []
    for m in moves:
        ucis.append(b.uci(m))
        b.push(m)
    text = tracegen.trace_game(board, moves, random.Random(seed + 7919))
    return board, ucis, text


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_games_under_cpython(chunk):
    kinds = {"promotion": set(), "castling": 0, "en_passant": 0, "chess960": 0}
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        board, ucis, text = _source(seed)
        game, ev, rec = replay(text.splitlines(), board.fen(), board.chess960, keep=False)
        got = [game.uci(m) for m in game.moves]
        assert got == ucis, (seed, next(i for i in range(len(ucis)) if i >= len(got) or got[i] != ucis[i]))
        assert ev.moves == len(ucis) and ev.takebacks == 0, seed
        b = board.copy()
        kinds["chess960"] += board.chess960
        for u in ucis:
            m = b.parse_uci(u)
            if m.promotion:
                kinds["promotion"].add(m.promotion)
            kinds["castling"] += b.is_castling(m)
            kinds["en_passant"] += b.is_en_passant(m)
            b.push(m)
    # The corpus really has the hard cases.
    assert kinds["promotion"] == {chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT}
    assert kinds["castling"] > 50 and kinds["en_passant"] > 20 and kinds["chess960"] > 30


def test_games_inside_micropython(tmp_path):
    path = tmp_path / "games.trace"
    want = []
    with path.open("w") as f:
        for seed in range(50000, 50050):
            board, ucis, text = _source(seed)
            want.append(" ".join(ucis))
            f.write(f"# game {int(board.chess960)} {board.fen()}\n")
            f.write(text)
    r = mpy.run(["tests/firmware/replay_file.py", str(path)], timeout=1800)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    lines = [l for l in r.stdout.splitlines() if l.startswith("game ")]
    assert len(lines) == 50
    for n, (line, w) in enumerate(zip(lines, want)):
        moves, events = line.split(" moves ", 1)[1].split(" | ")
        assert moves.strip() == w, n
        assert events == f"events moves={len(w.split())} takebacks=0", n


def _adversarial(seed):
    """A game with disturbances between moves: knocked pieces, an illegal move corrected,
    take-backs. Returns the trace, the moves of the final game, and what was done."""
    rng = random.Random(seed)
    board, moves = tracegen.random_game(seed, max_plies=40)
    tr = tracegen.Trace(board, rng)
    b = board.copy()
    final = []
    done = {"knocked": 0, "illegal": 0, "takeback": 0}
    for move in moves:
        r = rng.random() if b.move_stack else 1  # before the first move the board's
        # orientation is not known yet: a knocked piece could be White's first move
        if r < 0.08 and tracegen.knocked_piece(tr, b, rng):
            done["knocked"] += 1
        elif r < 0.16 and tracegen.illegal_then_corrected(tr, b, rng):
            done["illegal"] += 1
        tracegen.play_move(tr, b, move, rng)
        b.push(move)
        final.append(b.peek())
        before = b.copy()
        before.pop()
        visible = before.occupied != b.occupied  # a Chess960 king/rook swap changes nothing
        if rng.random() < 0.06 and len(final) > 1 and not b.is_game_over() and visible:
            b = tracegen.take_back(tr, b, rng)
            final.pop()
            done["takeback"] += 1
            tracegen.play_move(tr, b, move, rng)  # and the move again
            b.push(move)
            final.append(move)
        if b.is_game_over():
            break
    tr.wait(2000, 2500)
    return board, tr.text(), [m.uci() if not board.chess960 else None for m in final], b, done


def test_adversarial_games_recover():
    totals = {"knocked": 0, "illegal": 0, "takeback": 0}
    for seed in range(300):
        board, text, _, final_board, done = _adversarial(seed)
        game, ev, rec = replay(text.splitlines(), board.fen(), board.chess960)
        assert game.fen() == final_board.fen(), seed
        for k in totals:
            totals[k] += done[k]
        kinds = ev.kinds()
        assert kinds.count("takeback") == done["takeback"], seed
        assert kinds.count("move") == len(final_board.move_stack) + done["takeback"], seed
        if done["illegal"]:
            assert "illegal" in kinds, seed
        if done["knocked"] or done["illegal"]:
            assert "sync" in kinds, seed
        assert rec.status == 0, seed  # SYNC: every disturbance was put right
    assert all(v >= 15 for v in totals.values()), totals
