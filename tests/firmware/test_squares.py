# Square names and cells.
from firmware.rules.squares import (SQ120, SQ64, square_name, parse_square, parse_piece,
                                    piece_symbol, WHITE, BLACK, KNIGHT, OFF)
from tests.firmware.support import raises


def test_every_square_name_and_parse_pair():
    for sq in range(64):
        assert parse_square(square_name(sq)) == sq
        assert SQ64[SQ120[sq]] == sq
    assert square_name(0) == "a1" and square_name(7) == "h1" and square_name(63) == "h8"
    assert SQ120[0] == 21 and SQ120[63] == 98


def test_bad_square_names():
    for bad in ("", "e", "e9", "i1", "e10", "E4", "4e"):
        raises(ValueError, parse_square, bad)


def test_pieces():
    assert parse_piece("N") == WHITE | KNIGHT
    assert parse_piece("n") == BLACK | KNIGHT
    assert piece_symbol(WHITE | KNIGHT) == "N" and piece_symbol(0) == "."
    for bad in ("x", " ", "", "NN"):
        raises(ValueError, parse_piece, bad)
    assert OFF == WHITE | BLACK
