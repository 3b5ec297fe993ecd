# Chess960 start positions by number (standard numbering, 518 = the normal start).
from firmware.rules.chess960 import back_rank, start_fen, number_of
from firmware.rules.errors import InvalidFenError
from firmware.rules.game import Game
from firmware.rules.position import Position, START_FEN
from tests.firmware.support import raises


def test_known_numbers():
    assert back_rank(0) == "BBQNNRKR"
    assert back_rank(1) == "BQNBNRKR"
    assert back_rank(2) == "BQNNRBKR"
    assert back_rank(105) == "QNRBBNKR"
    assert back_rank(284) == "NBRKNRBQ"
    assert back_rank(518) == "RNBQKBNR"
    assert back_rank(959) == "RKRNNQBB"
    assert start_fen(518) == START_FEN


def test_all_960_are_distinct_and_legal():
    # number_of inverts back_rank exactly, so the 960 back ranks are all different.
    for n in range(960):
        r = back_rank(n)
        assert number_of(r) == n
        k = r.index("K")
        assert r.index("R") < k < r.rindex("R")
        assert (r.index("B") + r.rindex("B")) % 2 == 1
    assert number_of("RNBQKBNR") == 518
    for bad in ("KRNBQBNR", "RNBQKNBR", "RNBQKBN", "RNBQKBNQ", 518):
        assert number_of(bad) is None


def test_bad_numbers():
    for bad in (-1, 960, "5", None):
        raises(InvalidFenError, back_rank, bad)


def test_start_game_has_castling_both_sides():
    g = Game.from_chess960(0)
    assert g.position.chess960
    assert g.fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert g.fen(shredder=True).split()[2] == "HFhf"
    assert Position.from_chess960(518).perft(2) == 400
