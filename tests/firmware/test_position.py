# Legal move generation, make/unmake, perft.
from firmware.rules.position import Position, new_move_buffer
from firmware.rules.squares import WHITE, BLACK, KING, QUEEN, parse_square
from firmware.rules.uci import uci
from tests.firmware.support import PERFT


def _ucis(p):
    return sorted(uci(p, m) for m in p.legal_moves())


def test_perft_to_depth_3_on_the_six_reference_positions():
    for fen, counts in PERFT:
        p = Position(fen)
        for depth in (1, 2, 3):
            assert p.perft(depth) == counts[depth - 1], (fen, depth)


def test_chess960_perft():
    # Figures from python-chess for positions of the Chess960 perft suite.
    cases = (
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", (21, 528, 12189)),
        ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", (21, 807, 18002)),
        ("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", (29, 502, 14569)),
    )
    for fen, counts in cases:
        p = Position(fen, chess960=True)
        for depth in (1, 2, 3):
            assert p.perft(depth) == counts[depth - 1], (fen, depth)


def test_make_unmake_restores_everything():
    for fen, _ in PERFT:
        p = Position(fen)
        before = (bytes(p.board), p.turn, p.castling, p.ep, p.halfmove_clock,
                  p.fullmove_number, bytes(p.kings))
        for m in p.legal_moves():
            p.make(m)
            p.unmake(m)
            after = (bytes(p.board), p.turn, p.castling, p.ep, p.halfmove_clock,
                     p.fullmove_number, bytes(p.kings))
            assert after == before, (fen, uci(p, m))


def test_pinned_piece_moves_only_along_the_pin():
    # The e2 rook is pinned by the e8 rook: it may move on the e-file only.
    p = Position("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1")
    rook = [u for u in _ucis(p) if u.startswith("e2")]
    assert rook == ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]


def test_double_check_allows_king_moves_only():
    p = Position("4k3/8/8/8/1b6/8/8/r3K2N w - - 0 1")  # rook a1 and bishop b4 both check
    assert _ucis(p) == ["e1e2", "e1f2"]


def test_en_passant_with_the_horizontal_pin_is_illegal():
    p = Position("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1")
    assert "e4d3" not in _ucis(p)
    p = Position("8/8/8/8/k2Pp3/8/8/4K3 b - d3 0 1")
    assert "e4d3" in _ucis(p)


def test_en_passant_removes_the_captured_pawn():
    p = Position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    m = [m for m in p.legal_moves() if uci(p, m) == "e5d6"][0]
    p.make(m)
    assert p.fen() == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"


def test_promotions_to_all_four_pieces():
    p = Position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert [u for u in _ucis(p) if u.startswith("b7")] == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]


def test_castling_conditions():
    # Free path and no attacked square: both castlings.
    p = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" in _ucis(p) and "e1c1" in _ucis(p)
    # f1 attacked: no O-O; b1 attacked does not stop O-O-O (only the king's path counts).
    p = Position("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in _ucis(p) and "e1c1" in _ucis(p)
    p = Position("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1c1" in _ucis(p)
    # In check: no castling.
    p = Position("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in _ucis(p) and "e1c1" not in _ucis(p)
    # A piece between: no castling on that side.
    p = Position("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1")
    assert "e1c1" not in _ucis(p) and "e1g1" in _ucis(p)


def test_chess960_castling_forms():
    # King b1, rook a1: O-O-O takes the king to c1 and the rook to d1. O-O with the e1
    # rook is illegal: the king would cross e1, which the e8 rook sees once e1 is vacated.
    p = Position("rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1", chess960=True)
    assert [u for u in _ucis(p) if u in ("b1a1", "b1e1")] == ["b1a1"]  # e1 path attacked by e8
    p.make([m for m in p.legal_moves() if uci(p, m) == "b1a1"][0])
    assert p.fen().startswith("rk2r3/8/8/8/8/8/8/2KRR3 b kq")
    # King f1 and rook h1 castle: king to g1, rook to f1.
    p = Position("6kr/8/8/8/8/8/8/5K1R w Hh - 0 1", chess960=True)
    m = [m for m in p.legal_moves() if uci(p, m) == "f1h1"][0]
    p.make(m)
    assert p.fen() == "6kr/8/8/8/8/8/8/5RK1 b k - 1 1"
    # Rook-only castling: king already on g1, rook h1 goes to f1.
    p = Position("6kr/8/8/8/8/8/8/6KR w Hh - 0 1", chess960=True)
    m = [m for m in p.legal_moves() if uci(p, m) == "g1h1"][0]
    p.make(m)
    assert p.fen() == "6kr/8/8/8/8/8/8/5RK1 b k - 1 1"


def test_chess960_castling_sees_through_the_castling_rook():
    # Rook c1 castles queenside with king d1 -> c1, rook -> d1; the black rook on a1 would
    # then attack the king along the rank, so castling is illegal.
    p = Position("4k3/8/8/8/8/8/8/r1RK3R w C - 0 1", chess960=True)
    assert "d1c1" not in _ucis(p)


def test_no_allocation_in_legal_generation_and_make_unmake():
    try:
        import micropython
    except ImportError:
        return  # CPython cannot lock its heap; the micropython run proves it
    p = Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    buf = new_move_buffer()
    n = p.gen_legal(buf, 0)
    micropython.heap_lock()
    try:
        for _ in range(3):
            n = p.gen_legal(buf, 0)
            for i in range(n):
                p.make(buf[i])
                p.is_check()
                p.unmake(buf[i])
    finally:
        micropython.heap_unlock()
    assert n == 48


def test_queries():
    p = Position()
    assert p.piece_at(parse_square("e1")) == WHITE | KING
    assert p.piece_at(parse_square("d8")) == BLACK | QUEEN
    assert p.piece_at(parse_square("e4")) == 0
    assert p.king(BLACK) == parse_square("e8")
    assert not p.is_check()
    assert p.is_attacked_by(WHITE, parse_square("f3"))
    assert not p.is_attacked_by(WHITE, parse_square("e4"))
    occ = p.occupancy(bytearray(8))
    assert bytes(occ) == b"\xff\xff\x00\x00\x00\x00\xff\xff"


def test_copy_is_independent():
    p = Position()
    q = p.copy()
    q.make(q.legal_moves()[0])
    assert p.fen() != q.fen()
    assert p.perft(2) == 400
