"""End to end: physical traces through the real firmware inside micropython (the sim HAL,
simulated time, the firmware precompiled as deployed), the protocol read by the host, and
the PGN written by python-chess. The PGN must equal the source game, and every
[%clk] must equal the time control's arithmetic (tests/clock_reference.py, an independent
model) for the thinking times of the trace."""
import io
import random

import chess
import chess.pgn
import pytest

from host_tools import tracegen
from host_tools.replay import run_trace
from tests import clock_reference


def _write(tmp_path, text, name="game.trace"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _press_times(text):
    return [int(line.split()[0]) for line in text.splitlines() if " press " in line]


def _expected_clocks(control, text, plies):
    """The mover's clock after each press, from the press times of the trace (the clock
    was started at t = 0)."""
    times = _press_times(text)[:plies]
    thinking = [t - (times[i - 1] if i else 0) for i, t in enumerate(times)]
    after, flag = clock_reference.play(control, thinking)
    assert flag is None
    return [after[i][i % 2] for i in range(len(after))]


def _pgn_moves(pgn_text):
    g = chess.pgn.read_game(io.StringIO(pgn_text))
    return g, [m.uci() for m in g.mainline_moves()]


@pytest.mark.parametrize("seed", range(6))
def test_random_games(tmp_path, seed):
    board, moves = tracegen.random_game(1000 + seed, max_plies=70)
    text = tracegen.trace_game(board, moves, random.Random(seed))
    control = "300+2"
    number = board.chess960_pos() if board.chess960 else None
    rec, msgs, _ = run_trace(_write(tmp_path, text), control, chess960=number)
    want = [m.uci() for m in moves] if not board.chess960 else None
    b = board.copy()
    ucis = []
    for m in moves:
        ucis.append(b.uci(m))
        b.push(m)
    assert [p.uci for p in rec.plies] == ucis
    pgn = rec.pgn()
    g, pgn_moves = _pgn_moves(pgn)
    assert len(pgn_moves) == len(moves)
    assert g.end().board().fen() == b.fen()
    assert "[%clk" in pgn and f'[TimeControl "{control}"]' in pgn
    pressed = [p.clk_ms for p in rec.plies]
    want_clk = _expected_clocks(control, text, len(moves))
    n = min(len(want_clk), len(moves))
    game_over_without_press = b.is_checkmate() or b.is_stalemate() or b.is_insufficient_material()
    if game_over_without_press:
        n = min(n, len(moves) - 1)
    assert pressed[:n] == want_clk[:n]
    assert want is None or want == ucis


def _legals_mate():
    board = chess.Board()
    moves = []
    for san in "e4 e5 Nf3 d6 Bc4 Nc6 Nc3 Bg4 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#".split():
        moves.append(board.parse_san(san))
        board.push(moves[-1])
    return moves


def test_legals_mate_with_the_result(tmp_path):
    moves = _legals_mate()
    text = tracegen.trace_game(chess.Board(), moves, random.Random(3))
    rec, msgs, _ = run_trace(_write(tmp_path, text), "300+2")
    assert (rec.result, rec.termination) == ("1-0", "checkmate")
    pgn = rec.pgn()
    assert '[Result "1-0"]' in pgn and '[Termination "normal"]' in pgn and "Nd5#" in pgn


def test_a_mate_pressed_at_once_is_answered_first_then_the_result(tmp_path):
    # Fool's mate; Black presses 30 ms after putting the queen down, before the move
    # settles: the press completes it. Its clk is the press's (increment included) and
    # comes right after the move line, before the result.
    text = """0 occ ffff00000000ffff
525 occ ffff00000000dfff
713 occ ffff00000020dfff
736 press white
1784 occ ffef00000020dfff
1897 occ ffef00100020dfff
2076 press black
3406 occ ffef001000209fff
3607 occ ffef001040209fff
3859 press white
4489 occ f7ef001040209fff
4784 occ f7ef0010c0209fff
4814 press black
"""
    rec, msgs, _ = run_trace(_write(tmp_path, text), "300+2")
    assert [p.san for p in rec.plies] == ["f3", "e5", "g4", "Qh4#"]
    assert (rec.result, rec.termination) == ("0-1", "checkmate")
    events = [(m.kind, m.args) for m in msgs if hasattr(m, "seq")]
    i = events.index(("move", ["4", "d8h4", "Qh4#"]))
    # Black thought 2076 - 736 and 4814 - 3859 ms, with 2 s increments.
    assert events[i + 1] == ("clk", ["4", str(300000 - 1340 + 2000 - 955 + 2000)])
    assert events[i + 2][0] == "result"


def test_promotion_to_a_knight(tmp_path):
    fen = "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"
    board = chess.Board(fen)
    moves = []
    for u in ("b7b8n", "g2g1r", "e1e2", "g1g8", "b8c6"):
        moves.append(board.push_uci(u))  # push_uci checks that each move is legal
    text = tracegen.trace_game(chess.Board(fen), moves, random.Random(5))
    rec, msgs, _ = run_trace(_write(tmp_path, text), "300+2", fen=fen)
    assert [p.uci for p in rec.plies] == [m.uci() for m in moves]
    assert [p.san for p in rec.plies][:2] == ["b8=N", "g1=R+"]


def test_a_chess960_game(tmp_path):
    board = chess.Board.from_chess960_pos(359)
    rng = random.Random(9)
    moves = []
    b = board.copy()
    while len(moves) < 40 and not b.is_game_over():
        m = tracegen.choose_move(b, rng, engine_like=True)
        moves.append(m)
        b.push(m)
    text = tracegen.trace_game(board, moves, random.Random(9))
    rec, msgs, _ = run_trace(_write(tmp_path, text), "600+5", chess960=359)
    assert [p.uci for p in rec.plies] == [b2 for b2 in _ucis(board, moves)]
    pgn = rec.pgn()
    assert '[Variant "Chess960"]' in pgn and "FEN" in pgn


def _ucis(board, moves):
    b = board.copy()
    out = []
    for m in moves:
        out.append(b.uci(m))
        b.push(m)
    return out


def test_a_flag_fall(tmp_path):
    moves = []
    b = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        moves.append(b.parse_san(san))
        b.push(moves[-1])
    text = tracegen.trace_game(chess.Board(), moves, random.Random(2))
    # Then White thinks for ever: his flag falls in the sudden-death control.
    rec, msgs, _ = run_trace(_write(tmp_path, text), "30", tail_ms=40000)
    assert rec.result == "0-1" and rec.termination == "time_forfeit"
    assert any(e.kind == "flag" and e.args == ["w", "1"] for e in msgs if hasattr(e, "seq"))
    assert rec.pgn().count("[%clk") == 4


def test_flag_with_no_mating_material_is_a_draw(tmp_path):
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    text = "0 occ %016x\n" % chess.Board(fen).occupied
    rec, msgs, _ = run_trace(_write(tmp_path, text), "10", fen=fen, tail_ms=12000)
    # Black's flag falls; White has a pawn: he could mate, so it is 1-0. Reversed: a draw.
    assert rec.result == "1-0"
    fen2 = "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1"
    text2 = "0 occ %016x\n" % chess.Board(fen2).occupied
    rec2, _, _ = run_trace(_write(tmp_path, text2, "b.trace"), "10", fen=fen2, tail_ms=12000)
    assert rec2.result == "0-1"
    fen3 = "4k3/8/8/8/8/8/8/4K2N w - - 0 1"  # White's flag; Black has a lone king: 6.9
    text3 = "0 occ %016x\n" % chess.Board(fen3).occupied
    rec3, _, _ = run_trace(_write(tmp_path, text3, "c.trace"), "10", fen=fen3, tail_ms=12000)
    assert rec3.result == "1/2-1/2" and rec3.termination == "time_forfeit"


def test_take_back_and_knocked_piece(tmp_path):
    rng = random.Random(4)
    board = chess.Board()
    tr = tracegen.Trace(board, rng)
    b = board.copy()
    for san in ("e4", "e5", "Nf3"):
        m = b.parse_san(san)
        tracegen.play_move(tr, b, m, rng)
        b.push(m)
    b = tracegen.take_back(tr, b, rng)  # Nf3 taken back
    for san in ("Bc4", "Nc6"):
        m = b.parse_san(san)
        tracegen.play_move(tr, b, m, rng)
        b.push(m)
    assert tracegen.knocked_piece(tr, b, rng)
    m = b.parse_san("Qh5")
    tracegen.play_move(tr, b, m, rng)
    b.push(m)
    tr.wait(2000, 2000)
    rec, msgs, _ = run_trace(_write(tmp_path, tr.text()), "300+2")
    assert [p.uci for p in rec.plies] == [m.uci() for m in b.move_stack]
    kinds = [m.kind for m in msgs]
    assert "takeback" in kinds
    assert any(m.kind == "board" and m.args[:1] == ["differs"] for m in msgs)
    _, pgn_moves = _pgn_moves(rec.pgn())
    assert pgn_moves == [m.uci() for m in b.move_stack]


def test_a_blind_players_motor_follows_the_game(tmp_path):
    from firmware.access.patterns import GAME_OVER, OPPONENT_MOVED
    from firmware.access.player import SEPARATION_MS

    moves = _legals_mate()
    text = tracegen.trace_game(chess.Board(), moves, random.Random(3))
    outputs = tmp_path / "outputs.txt"
    (tmp_path / "presets.json").unlink(missing_ok=True)
    # The simulator runs on 6 s after the trace: the last signal waits for its pause.
    rec, msgs, _ = run_trace(_write(tmp_path, text), "300+2", outputs=str(outputs), tail_ms=6000,
                             commands=("access blind=b visual=- thresholds=",))
    assert rec.result == "1-0"
    motor = [(int(l.split()[0]), l.split()[2], int(l.split()[3]))
             for l in outputs.read_text().splitlines() if l.split()[1] == "motor"]
    assert motor and all(side == "b" for _, side, _ in motor)  # only the blind player's side
    # Pulses (start, length) of Black's motor.
    pulses = [(a[0], b[0] - a[0]) for a, b in zip(motor[::2], motor[1::2])]
    assert all(a[2] > 0 for a in motor[::2]) and all(b[2] == 0 for b in motor[1::2])
    presses = [int(l.split()[0]) for l in text.splitlines() if " press " in l]
    # Black's signals, apart from each other by the separation: each is whose turn it is -
    # one short pulse when White's move was completed (his clock runs), two for his own -
    # and the last is "game over". A turn's signal comes with the press that made it, or,
    # when the signal before it still needed its pause, right after that pause (the newest
    # turn only: quick play queues none up).
    signals = []
    for start, length in pulses:
        if signals and start - signals[-1][-1][0] - signals[-1][-1][1] < SEPARATION_MS:
            signals[-1].append((start, length))
        else:
            signals.append([(start, length)])
    assert [p[1] for p in signals[-1]] == [on for on, _, _ in GAME_OVER]
    short = OPPONENT_MOVED[0][0]
    for i, sig in enumerate(signals[:-1]):
        assert [p[1] for p in sig] in ([short], [short, short]), sig
        start = sig[0][0]
        at_press = any(t <= start < t + 30 for t in presses)
        after_pause = i > 0 and start == signals[i - 1][-1][0] + signals[i - 1][-1][1] + SEPARATION_MS
        assert at_press or after_pause, (start, sig)
    assert len(signals) > len(presses) // 4  # the game's turns were felt


def test_a_replayed_trace_that_starts_its_own_clock_is_timed_from_that_press(tmp_path):
    # (#14) Black's button starts White's clock at 2 s (6.6); White's move and press at
    # 5.6 s: his clock ran 3.6 s, not 5.6 s from the replay's beginning.
    text = """0 occ ffff00000000ffff
2000 press black
5000 occ ffff00000000efff
5300 occ ffff00001000efff
5600 press white
"""
    from host_tools.replay import starts_its_clock

    trace = _write(tmp_path, text)
    assert starts_its_clock(trace)
    rec, msgs, _ = run_trace(trace, "300+2")
    assert [p.san for p in rec.plies] == ["e4"]
    assert rec.plies[0].clk_ms == 300000 - 3600 + 2000
    # A trace whose first press completes a move: the replay starts the clock itself.
    later = _write(tmp_path, "0 occ ffff00000000ffff\n5000 occ ffff00000000efff\n5300 occ ffff00001000efff\n"
                             "5600 press white\n", "later.trace")
    assert not starts_its_clock(later)
    rec, _, _ = run_trace(later, "300+2")
    assert rec.plies[0].clk_ms == 300000 - 5600 + 2000
