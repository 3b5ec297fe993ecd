# UCI moves in and out.
from firmware.rules.errors import IllegalMoveError, InvalidMoveError
from firmware.rules.position import Position
from firmware.rules.uci import uci, parse_uci
from tests.firmware.support import PERFT, raises


def test_round_trip_of_every_legal_move():
    for fen, _ in PERFT:
        p = Position(fen)
        for m in p.legal_moves():
            assert parse_uci(p, uci(p, m)) == m


def test_round_trip_in_chess960():
    p = Position("rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1", chess960=True)
    for m in p.legal_moves():
        assert parse_uci(p, uci(p, m)) == m


def test_standard_castling_reads_both_forms():
    p = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    m = parse_uci(p, "e1g1")
    assert uci(p, m) == "e1g1"
    assert parse_uci(p, "e1h1") == m
    assert uci(p, parse_uci(p, "e1a1")) == "e1c1"


def test_chess960_castling_is_king_takes_rook():
    p = Position("6kr/8/8/8/8/8/8/6KR w Hh - 0 1", chess960=True)
    m = parse_uci(p, "g1h1")
    assert uci(p, m) == "g1h1"


def test_malformed_moves():
    p = Position()
    for bad in ("", "e2", "e2e9", "e2e4qq", "z2e4", "e2e4k", "e7e8x", 42, None):
        e = raises(InvalidMoveError, parse_uci, p, bad)
        assert isinstance(e, ValueError)


def test_illegal_moves_leave_the_position():
    p = Position()
    before = p.fen()
    for bad in ("e2e5", "e1e2", "a1a3", "e7e5", "g1g3"):
        e = raises(IllegalMoveError, parse_uci, p, bad)
        assert "illegal move " + bad in str(e)
    assert p.fen() == before


def test_promotion_needs_its_piece():
    p = Position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    raises(IllegalMoveError, parse_uci, p, "b7b8")
    assert uci(p, parse_uci(p, "b7b8n")) == "b7b8n"
    raises(IllegalMoveError, parse_uci, Position(), "e2e4q")
