# Game history and game end: repetition (9.2, 9.6.1), 50/75 moves (9.3, 9.6.2), outcome.
from firmware.rules.errors import IllegalMoveError, InvalidMoveError
from firmware.rules.game import Game
from firmware.rules.position import new_move_buffer
from firmware.rules import outcome as o
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.support import raises

KNIGHT_DANCE = ("g1f3", "g8f6", "f3g1", "f6g8")


def _play(game, moves):
    for u in moves:
        game.push_uci(u)


def test_threefold_repetition_claim_and_the_claim_with_the_next_move():
    g = Game()
    _play(g, KNIGHT_DANCE + KNIGHT_DANCE[:2])
    assert g.is_repetition(2) and not g.can_claim_threefold_repetition()
    g.push_uci("f3g1")
    assert not g.is_repetition(3)
    assert g.can_claim_threefold_repetition()  # ...Ng8 would make the third occurrence
    g.push_uci("f6g8")
    assert g.is_repetition(3) and g.can_claim_threefold_repetition()
    assert g.outcome() is None  # a claim, not automatic
    assert g.outcome(claim_draw=True) == o.Outcome(o.THREEFOLD_REPETITION)


def test_fivefold_repetition_is_automatic():
    g = Game()
    _play(g, KNIGHT_DANCE * 3 + KNIGHT_DANCE[:3])
    assert g.outcome() is None
    g.push_uci("f6g8")
    assert g.is_fivefold_repetition()
    assert g.outcome() == o.Outcome(o.FIVEFOLD_REPETITION)
    assert g.outcome().result() == "1/2-1/2"


def test_castling_rights_make_positions_different():
    dance = ("e1e2", "e8e7", "e2e1", "e7e8")
    g = Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    _play(g, dance * 2)
    # The start (with castling rights) is not the position after the dance (without).
    assert g.is_repetition(2) and not g.is_repetition(3)
    _play(g, dance)
    assert g.is_repetition(3)


def test_en_passant_makes_positions_different():
    g = Game("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1")
    g.push_uci("e7e5")  # white may now take en passant: this position is unlike the later ones
    dance = ("e1e2", "e8e7", "e2e1", "e7e8")
    _play(g, dance * 2)
    assert not g.is_repetition(3)
    _play(g, dance)
    assert g.is_repetition(3)


def test_fifty_move_claim():
    g = Game("4k3/8/8/8/8/8/8/4K2R w - - 99 80")
    assert not g.is_fifty_moves()
    assert g.can_claim_fifty_moves()  # with a move that is no capture or pawn move
    g.push_uci("e1f1")
    assert g.is_fifty_moves() and g.can_claim_draw()
    assert g.outcome() is None
    assert g.outcome(claim_draw=True) == o.Outcome(o.FIFTY_MOVES)


def test_fifty_move_claim_needs_a_non_zeroing_move():
    # Only a pawn move is legal: it resets the count, so no claim.
    g = Game("k7/P7/K7/8/8/8/8/8 b - - 99 80")
    assert g.is_stalemate()
    g = Game("7k/8/8/8/8/8/6p1/6K1 w - - 99 80")
    assert g.can_claim_fifty_moves()  # Kf2, Kh2 or Kxg2... the king has quiet moves


def test_seventyfive_moves_is_automatic():
    g = Game("4k3/8/8/8/8/8/8/4K2R w - - 149 100")
    g.push_uci("h1h2")
    assert g.is_seventyfive_moves()
    assert g.outcome() == o.Outcome(o.SEVENTYFIVE_MOVES)


def test_mate_on_the_seventyfifth_move_wins():
    g = Game("7k/8/6K1/8/8/8/8/R7 w - - 149 100")
    g.push_uci("a1a8")
    assert g.is_checkmate()
    assert g.outcome() == o.Outcome(o.CHECKMATE, WHITE)
    assert g.outcome().result() == "1-0"


def test_checkmate_stalemate_dead_position():
    g = Game()
    _play(g, ("f2f3", "e7e5", "g2g4", "d8h4"))
    assert g.is_check() and g.is_checkmate()
    assert g.outcome() == o.Outcome(o.CHECKMATE, BLACK)
    assert g.outcome().result() == "0-1"
    g = Game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert g.is_stalemate() and not g.is_check()
    assert g.outcome() == o.Outcome(o.STALEMATE)
    g = Game("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
    assert g.outcome() is None
    g.push_uci("e1d2")
    assert g.is_insufficient_material()
    assert g.outcome() == o.Outcome(o.INSUFFICIENT_MATERIAL)


def test_rejected_moves_change_nothing():
    g = Game()
    g.push_uci("e2e4")
    before = (g.fen(), len(g.moves))
    raises(IllegalMoveError, g.push_uci, "e4e6")
    raises(InvalidMoveError, g.push_uci, "e4")
    raises(IllegalMoveError, g.push, 12345)
    assert (g.fen(), len(g.moves)) == before


def test_pop_takes_back():
    g = Game()
    _play(g, ("e2e4", "d7d5", "e4d5"))
    g.pop()
    assert g.fen() == "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    g.pop()
    g.pop()
    assert g.fen() == Game().fen() and g.ply == 0


def test_san_and_uci_through_the_game():
    g = Game()
    m = g.parse_uci("g1f3")
    assert g.san(m) == "Nf3" and g.uci(m) == "g1f3"
    from firmware.rules.san import LETTERS_IT
    assert g.san(m, LETTERS_IT) == "Cf3"


def test_a_300_ply_game_with_full_game_end_checks_fits_64k():
    # The same check the benchmark makes at 64K: every ply decides the game-end state.
    g = Game()
    buf = new_move_buffer()
    plies = 0
    while plies < 300:
        n = g.position.gen_legal(buf, 0)
        # A deterministic choice that avoids captures when it can, so the game goes on.
        pick = buf[(plies * 7) % n]
        g.push(pick)
        plies += 1
        if g.outcome(claim_draw=True) is not None:
            g = Game()
    assert plies == 300


def test_take_back_across_a_pawn_move_keeps_the_repetition_count():
    g = Game()
    _play(g, KNIGHT_DANCE * 2)
    assert g.is_repetition(3)
    g.push_uci("e2e4")
    assert not g.is_repetition(2)
    g.pop()
    assert g.is_repetition(3) and g.can_claim_threefold_repetition()


def test_take_back_across_a_pawn_move_after_an_en_passant_chance():
    # After b7-b5 white could take c5xb6 e.p.; three quiet moves later ...e6 is taken back,
    # and rebuilding the history must not disturb the moves it replays.
    g = Game()
    _play(g, ("c2c4", "h7h5", "c4c5", "b7b5", "g1f3", "b8a6", "f3g5", "e7e6"))
    g.pop()
    assert g.fen() == "r1bqkbnr/p1ppppp1/n7/1pP3Np/8/8/PP1PPPPP/RNBQKB1R b KQkq - 3 4"
    g.pop()
    assert g.fen() == "r1bqkbnr/p1ppppp1/n7/1pP4p/8/5N2/PP1PPPPP/RNBQKB1R w KQkq - 2 4"
    g.pop()
    assert g.fen() == "rnbqkbnr/p1ppppp1/8/1pP4p/8/5N2/PP1PPPPP/RNBQKB1R b KQkq - 1 3"
