# FEN in and out: round trips, Chess960 castling fields, and every kind of bad FEN.
from firmware.rules.errors import InvalidFenError
from firmware.rules.position import Position, START_FEN
from tests.firmware.support import PERFT, raises


def test_start_position_is_the_default():
    assert Position().fen() == START_FEN


def test_round_trip_of_the_perft_positions():
    for fen, _ in PERFT:
        assert Position(fen).fen() == fen


def test_round_trip_keeps_counters_and_side():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert Position(fen).fen() == fen
    fen = "4k3/8/8/8/8/8/8/4K3 b - - 87 120"
    assert Position(fen).fen() == fen


def test_four_field_fen_gets_default_counters():
    assert Position("4k3/8/8/8/8/8/8/4K3 w - -").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_en_passant_written_only_when_a_capture_is_legal():
    # After 1.e4 no black pawn can take en passant: the field is "-".
    p = Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert p.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    p = Position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    assert p.fen() == "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"


def test_en_passant_hidden_when_the_capture_would_expose_the_king():
    # The horizontal pin: dxe3 would leave the a4 king on an open rank to the h4 queen.
    p = Position("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1")
    assert p.fen() == "8/8/8/8/k2Pp2Q/8/8/4K3 b - - 0 1"


def test_xfen_and_shredder_castling_fields():
    p = Position("rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1", chess960=True)
    assert p.fen() == "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"
    assert p.fen(shredder=True) == "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"
    # The castling rook is not the outermost one: X-FEN names its file.
    p = Position("1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1", chess960=True)
    assert p.fen() == "1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1"
    p = Position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert p.fen(shredder=True) == "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1"


def test_kq_means_the_outermost_rook_in_chess960():
    p = Position("1k2r2r/8/8/8/8/8/8/1K2R2R w Kk - 0 1", chess960=True)
    assert p.fen(shredder=True) == "1k2r2r/8/8/8/8/8/8/1K2R2R w Hh - 0 1"


BAD_FENS = (
    ("", "6 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "invalid character"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 squares"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black must have exactly one king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "invalid character 'X' in the castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "has no white rook"),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "rank 3"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "impossible"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock must be a number"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number 0 is out of range"),
    ("Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1", "back rank"),
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "not to move is in check"),
    ("r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", "standard chess"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KKQ - 0 1", "names one right twice"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "6 fields"),
    (123, "must be a string"),
)


def test_bad_fens_raise_invalid_fen_error_with_the_reason():
    for fen, reason in BAD_FENS:
        e = raises(InvalidFenError, Position, fen)
        assert reason in str(e), (fen, str(e))
        assert isinstance(e, ValueError)


def test_a_bad_fen_leaves_the_position_whole():
    from firmware.rules import fen as fen_module

    p = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9")
    before = p.fen()
    for fen, _ in BAD_FENS:
        raises(InvalidFenError, fen_module.set_fen, p, fen)
        assert p.fen() == before
    assert p.perft(2) == Position(before).perft(2)
