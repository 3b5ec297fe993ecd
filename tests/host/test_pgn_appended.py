"""A board's PGN is made at every move by appending to the movetext made before
(GameRecord.pgn keeps the moves already exported): after every event of random games -
moves, clocks, take-backs, a move replaced, notes, results, a paired board's clocks copied
onto earlier plies from outside, the round's players and tags changed - it must be the very text python-chess's exporter makes of
the whole record, and what python-chess makes of the game built move by move."""
import random

import chess

from host_tools.board.record import GameRecord, PgnExporter
from urllib.parse import quote

from host_tools.protocol import Event
from tests.host.test_host_protocol import _pgn_by_python_chess


def _whole(rec, **tags):
    return rec.accept(PgnExporter(), **tags) + "\n\n"


def test_the_appended_pgn_is_the_whole_export_after_every_event():
    r = random.Random(51)
    starts = [(chess.STARTING_FEN, None), ("8/8/4k3/8/8/4K3/4P3/8 b - - 12 57", None),
              (chess.Board.from_chess960_pos(518).fen(), 518)]
    checked = 0
    for trial in range(60):
        fen, n960 = r.choice(starts)
        rec = GameRecord(1)
        seq = 0

        def ev(kind, *args):
            nonlocal seq
            seq += 1
            assert rec.apply(Event(1, seq, kind, list(args))) == "ok"

        game = [f"fen={quote(fen)}"] + ([f"chess960={n960}"] if n960 is not None else [])
        ev("game", "tc=300+2", *game)
        tag_sets = [{}, {"event": "Open", "round_": "3.1", "game_id": "pico-1-g1"},
                    {"event": "Open", "round_": "3.1", "white": "Rossi, Anna", "black": 'Bo "the" Bear',
                     "extra_tags": [("WhiteFideId", "100"), ("BlackElo", "2100")]},
                    {"event": "Open", "round_": "4.1", "white": "Anna\tR.", "black": "Bo"}]
        tags = r.choice(tag_sets)
        for _ in range(r.randrange(5, 70)):
            board = rec.board()
            moves = list(board.legal_moves)
            roll = r.random()
            if moves and roll < 0.6:
                ev("move", str(len(rec.plies) + 1), r.choice(moves).uci())
                if r.random() < 0.8:
                    ev("clk", str(len(rec.plies)), str(r.randrange(0, 9_000_000)))
            elif rec.plies and roll < 0.67:
                ev("takeback", str(r.randrange(max(0, len(rec.plies) - 3), len(rec.plies))))
            elif len(rec.plies) > 1 and roll < 0.72:  # a move replaced: the board's correction
                ply = len(rec.plies)
                b = rec.board()
                b.pop()
                ev("move", str(ply), r.choice(list(b.legal_moves)).uci())
            elif rec.plies and roll < 0.78:  # a clk for an earlier ply
                ev("clk", str(r.randrange(1, len(rec.plies) + 1)), str(r.randrange(0, 9_000_000)))
            elif rec.plies and roll < 0.82:  # copied from outside (relay/twoboards.py)
                rec.plies[r.randrange(len(rec.plies))].clk_ms = r.randrange(0, 9_000_000)
            elif roll < 0.88:
                ev(r.choice(["pause", "resume", "quickplay"]))
            elif roll < 0.91:  # the relay's note, kept at an earlier move after a restart
                rec.notes.append((r.randrange(0, len(rec.plies) + 2), "note a claim {9.2}"))
            elif roll < 0.94:
                ev("result", *r.choice([("1-0", "resignation"), ("1/2-1/2", "agreement"), ("*", "-")]))
            elif roll < 0.96:
                rec.clocks = (r.randrange(0, 9_000_000), r.randrange(0, 9_000_000))
            elif roll < 0.98:  # the round names other players, or another round (the header's lines made anew)
                tags = r.choice(tag_sets)
            text = rec.pgn(**tags)
            assert text == _whole(rec, **tags), (trial, seq)
            if not {"white", "black", "extra_tags"} & set(tags):  # (the oracle writes the board's own names)
                assert text == _pgn_by_python_chess(rec, **tags), (trial, seq)
            checked += 1
        ev("game", "tc=60", f"fen={quote(chess.STARTING_FEN)}")  # the game line again: the start may differ
        assert rec.pgn() == _whole(rec)
    assert checked > 1000


def test_the_kept_movetext_is_used():
    # Not only equal: the moves before the last are not exported again (a spy exporter).
    rec = GameRecord(1)
    seq = 0
    board = chess.Board()
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]:
        seq += 1
        rec.apply(Event(1, seq, "move", [str(len(rec.plies) + 1), m]))
        board.push_uci(m)
        rec.pgn()
    calls = []
    orig = PgnExporter.visit_move

    def spy(self, b, move):
        calls.append(move.uci())
        orig(self, b, move)

    PgnExporter.visit_move = spy
    try:
        seq += 1
        rec.apply(Event(1, seq, "move", ["7", "b5a4"]))
        text = rec.pgn()
    finally:
        PgnExporter.visit_move = orig
    assert calls == ["a7a6", "b5a4"]
    assert "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *" in text
