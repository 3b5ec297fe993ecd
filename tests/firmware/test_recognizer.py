# The move recogniser on hand-written physical scenarios (art. 4, 6.2.1, 7.5 in mind).
from firmware.board.recognizer import MoveRecognizer, SYNC
from firmware.rules.game import Game
from firmware.rules.position import Position
from firmware.rules.squares import WHITE, BLACK, KNIGHT, parse_square
from tests.firmware.replay import replay
from tests.firmware.tracebuilder import Scenario

MICROPYTHON_HEAP = "160K"  # the recogniser, its replay and a trace (64-bit objects)


def _ucis(game):
    return [game.uci(m) for m in game.moves]


def _kinds(events, *names):
    return [e for e in events.list if e[0] in names]


def test_quiet_moves_settle_without_a_press():
    s = Scenario().move("e2", "e4").move("e7", "e5").move("g1", "f3")
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4", "e7e5", "g1f3"]
    assert [e[2] for e in _kinds(ev, "move")] == ["e4", "e5", "Nf3"]


def test_press_completes_the_move_at_once():
    # The press comes 20 ms after the piece lands: before debounce and settle.
    s = Scenario().wait(300).lift("e2").place("e4", gap=20).press("white").wait(30)
    game, ev, rec = replay(s.lines, tail_ms=0)
    assert _ucis(game) == ["e2e4"]


def test_captures_in_either_order():
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    capturer_first = Scenario(fen).wait(300).lift("e4", gap=200).lift("d5", gap=200).place("d5", gap=300).press("white")
    game, ev, rec = replay(capturer_first.lines, fen)
    assert _ucis(game) == ["e4d5"]
    victim_first = Scenario(fen).wait(300).lift("d5", gap=300).lift("e4", gap=200).place("d5", gap=300)
    game, ev, rec = replay(victim_first.lines, fen)
    assert _ucis(game) == ["e4d5"]


def test_a_lifted_piece_is_no_capture():
    # The knight could take on e4 only; lifting it and holding it is not Nxe4.
    fen = "4k3/8/8/8/4p3/2N5/8/4K3 w - - 0 1"
    s = Scenario(fen).wait(300).lift("c3", gap=2000)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == []
    s.place("b5", gap=400)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["c3b5"] and ev.takebacks == 0


def test_hovering_and_touching_are_no_moves():
    s = Scenario().wait(300).lift("g1", gap=800).place("g1", gap=400)  # own piece hovered
    s.lift("e7", gap=500).place("e7", gap=400)  # the opponent's piece lifted and put back
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == []
    assert [e[1] for e in _kinds(ev, "touched")] == [parse_square("g1"), parse_square("e7")]


def test_slides_and_bounce():
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    s = Scenario(fen).wait(300).lift("a1", gap=60)
    for sq in ("a2", "a3", "a4", "a5", "a6"):
        s.place(sq, gap=50).lift(sq, gap=10)
    s.bounce("a7", True).wait(300)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["a1a7"] and ev.moves == 1


def test_castling_king_first_and_rook_first():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    king_first = Scenario(fen).wait(300).lift("e1").place("g1", gap=400).lift("h1").place("f1", gap=300)
    game, ev, rec = replay(king_first.lines, fen)
    assert _ucis(game) == ["e1g1"] and ev.moves == 1
    rook_first = Scenario(fen).wait(300).lift("a1").place("d1", gap=500).lift("e1").place("c1", gap=300)
    game, ev, rec = replay(rook_first.lines, fen)
    assert _ucis(game) == ["e1c1"] and ev.moves == 1 and ev.takebacks == 0
    # A real rook move stays a rook move: it commits after the longer wait (or the press).
    rook_move = Scenario(fen).wait(300).lift("a1").place("d1", gap=1500)
    game, ev, rec = replay(rook_move.lines, fen)
    assert _ucis(game) == ["a1d1"]


def test_chess960_king_rook_swap():
    # King f1, rook g1: castling puts the king on g1 and the rook on f1; the occupancy
    # does not change, the lifts tell.
    fen = "5k2/8/8/8/8/8/8/5KR1 w G - 0 1"
    s = Scenario(fen, True).wait(300).lift("f1", "g1").place("g1", "f1", gap=300)
    game, ev, rec = replay(s.lines, fen, True)
    assert _ucis(game) == ["f1g1"] and game.fen().startswith("5k2/8/8/8/8/8/8/5RK1 b")


def test_en_passant_in_any_order():
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    for order in (("e5", "d6", "d5"), ("d5", "e5", "d6")):
        s = Scenario(fen).wait(300)
        for name in order:
            if name == "d6":
                s.place("d6", gap=200)
            else:
                s.lift(name, gap=200)
        s.wait(300)
        game, ev, rec = replay(s.lines, fen)
        assert _ucis(game) == ["e5d6"], order


def test_promotion_with_a_real_choice():
    fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
    s = Scenario(fen).wait(300).lift("b7").place("b8", gap=2000)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == []  # never a silent queen: the move waits for the choice
    assert ("promotion", 5, parse_square("b8")) in ev.list
    s.button("plus").button("plus").button("plus").press("white")  # Q -> R -> B -> N
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["b7b8n"]
    s2 = Scenario(fen).wait(300).lift("b7").place("b8", gap=400).press("white")
    game, ev, rec = replay(s2.lines, fen)
    assert _ucis(game) == ["b7b8q"]  # the press without a choice: a queen (art. 7.5.2)


def test_knocked_piece_differs_then_recovers():
    # Black to move; White's queen is knocked from d1 to d3 and put back 2.5 s later.
    s = Scenario().move("e2", "e4").wait(300)
    s.lift("d1").place("d3", gap=2500).lift("d3").place("d1", gap=500)
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4"]
    differs = _kinds(ev, "differs")
    assert len(differs) == 1 and differs[0][1] == [parse_square("d1")]
    assert differs[0][2] == [(parse_square("d3"), parse_square("d1"))]  # put it back there
    assert ev.kinds()[-1] == "sync" and rec.status == SYNC
    s.move("e7", "e5")
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4", "e7e5"]


def test_knocked_piece_of_the_side_to_move_is_an_illegal_placement():
    # Black's own queen knocked from d8 to d6: no legal move does that; then the fix.
    s = Scenario().move("e2", "e4").wait(300)
    s.lift("d8").place("d6", gap=2500).lift("d6").place("d8", gap=500)
    game, ev, rec = replay(s.lines)
    assert ("illegal", parse_square("d8"), parse_square("d6")) in ev.list
    assert _kinds(ev, "differs")[0][2] == [(parse_square("d6"), parse_square("d8"))]
    assert ev.kinds()[-1] == "sync" and _ucis(game) == ["e2e4"]


def test_illegal_attempt_then_corrected_and_completed():
    s = Scenario().wait(300).lift("f1").place("f3", gap=500)  # a bishop on a knight's square
    game, ev, rec = replay(s.lines)
    assert ("illegal", parse_square("f1"), parse_square("f3")) in ev.list
    s.press("white")  # completed: the clock's business (7.5.3/7.5.5)
    game, ev, rec = replay(s.lines)
    assert ("illegal_completed", WHITE, (parse_square("f1"), parse_square("f3"))) in ev.list
    s.lift("f3").place("f1", gap=300).move("e2", "e4")
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4"] and "sync" in ev.kinds()


def test_take_back_and_new_game():
    s = Scenario().move("e2", "e4").press("white").move("e7", "e5").press("black")
    s.wait(500).lift("e5").place("e7", gap=400)
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4"] and ("takeback", 1, None) in ev.list
    s.move("d7", "d5").press("black").move("g1", "f3").press("white").move("b8", "c6")
    game = ev = rec = None  # (one replay at a time in the capped heap)
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4", "d7d5", "g1f3", "b8c6"]
    # Pieces back to the start: a new game.
    s.lift("c6").place("b8").lift("f3").place("g1").lift("d5").place("d7").lift("e4").place("e2", gap=500)
    game = ev = rec = None
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == [] and "new_game" in ev.kinds()


def test_the_board_turned_round():
    s = Scenario()
    # Seen from Black's side the switches report e2-e4 as d7-d5 would be.
    s.wait(300).lift("d7").place("d5", gap=300).wait(300).lift("e2").place("e4", gap=300)
    game, ev, rec = replay(s.lines)
    assert _ucis(game) == ["e2e4", "d7d5"]
    assert rec.orientation is True


def test_chess960_start_comes_from_the_host():
    from firmware.rules.chess960 import start_fen
    s = Scenario().move("e2", "e4").move("e7", "e5").move("g1", "f3").move("b8", "c6")
    s.lift("c6").place("b8").lift("f3").place("g1").lift("e5").place("e7").lift("e4").place("e2", gap=500)
    lines = s.lines
    game = Game()
    rec = MoveRecognizer(game)
    rec.set_next_start(start_fen(0), True)
    from simulator.trace import parse_line
    occ = bytearray(8)
    now = 0
    for line in lines:
        t, kind, arg = parse_line(line)
        while now < t:
            rec.scan(occ, now)
            now += 10
        occ[:] = arg
    for _ in range(100):
        rec.scan(occ, now)
        now += 10
    assert game.fen() == start_fen(0) and game.position.chess960


def test_unchanged_scans_allocate_nothing():
    try:
        import micropython
    except ImportError:
        return  # CPython cannot lock its heap; the micropython run proves it
    game = Game()
    rec = MoveRecognizer(game)
    occ = Position().occupancy(bytearray(8))
    now = 0
    for _ in range(10):
        rec.scan(occ, now)
        now += 10
    while rec.idle():
        pass
    micropython.heap_lock()
    try:
        for _ in range(500):
            rec.scan(occ, now)
            now += 10
    finally:
        micropython.heap_unlock()
    assert rec.status == SYNC


def test_a_mating_promotion_needs_no_press():
    # c7-c8=Q is mate: the game ends with the move (6.2.1.1) and no press comes, so the
    # board takes it after the hold, with the piece chosen by then. A promotion that ends
    # nothing still waits for the press.
    fen = "k7/2P5/1K6/8/8/8/8/8 w - - 0 1"
    s = Scenario(fen).wait(300).lift("c7").place("c8", gap=400).wait(2000)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["c7c8q"] and game.is_checkmate()
    # A rook mates too: chosen within the hold, it is taken.
    s = Scenario(fen).wait(300).lift("c7").place("c8", gap=400).button("plus").wait(2000)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["c7c8r"] and game.is_checkmate()
    # A knight ends nothing (with White's rook on h1: not a dead position either): the
    # move waits for the press.
    fen = "k7/2P5/1K6/8/8/8/8/7R w - - 0 1"
    s = Scenario(fen).wait(300).lift("c7").place("c8", gap=400)
    s.button("plus").button("plus").button("plus").wait(3000)
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == []
    s.press("white")
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["c7c8n"] and not game.is_game_over()
    s.press("white")
    game, ev, rec = replay(s.lines, fen)
    assert _ucis(game) == ["c7c8n"] and not game.is_game_over()


def _blind(side, fen):
    """A recogniser for a board whose player of side is blind (access blind=w): his moves
    are taken by his press, his feeling of the pieces is told to nobody (D.2.3)."""
    from tests.firmware.replay import Events

    game = Game(fen)
    rec = MoveRecognizer(game, sink=Events(game))
    rec.press_only = side
    return rec


ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"  # 1. e4 e5 2. Nf3 Nc6


def test_a_blind_player_feels_the_pieces_and_only_his_press_makes_his_move():
    # #34: White lifts his knight and the e5 pawn and puts both back: with the sighted
    # rules that was Nxe5 and a take-back (and the voice said it); for a blind player it
    # is nothing - no move, no touched piece, no attempt, no "differs", however long.
    s = Scenario(ITALIAN).wait(300).lift("f3", gap=300).lift("e5", gap=2500).place("e5", gap=1500)
    s.place("f3", gap=3000)
    game, ev, rec = replay(s.lines, ITALIAN, rec=_blind(WHITE, ITALIAN))
    assert _ucis(game) == [] and ev.list == []
    # A move of his stands on the board; it is his only when he presses.
    s.lift("f1", gap=200).place("c4", gap=3000)
    game, ev, rec = replay(s.lines, ITALIAN, rec=_blind(WHITE, ITALIAN))
    assert _ucis(game) == [] and ev.list == []
    s.press("white").wait(100)
    game, ev, rec = replay(s.lines, ITALIAN, rec=_blind(WHITE, ITALIAN))
    assert _ucis(game) == ["f1c4"] and _kinds(ev, "touched", "illegal", "differs") == []
    # The same hands on a sighted player's board: the knight took on e5, then was taken back.
    sighted = Scenario(ITALIAN).wait(300).lift("f3", gap=300).lift("e5", gap=2500).place("e5", gap=1500)
    sighted.place("f3", gap=3000)
    game, ev, rec = replay(sighted.lines, ITALIAN)
    assert [e[2] for e in _kinds(ev, "move")] == ["Nxe5"] and ev.takebacks == 1


def test_a_blind_players_own_piece_held_on_the_opponents_turn_is_told_to_nobody():
    black_to_move = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    s = Scenario(black_to_move).wait(300).lift("f3", gap=3000).place("f3", gap=1000)  # White feels his knight
    game, ev, rec = replay(s.lines, black_to_move, rec=_blind(WHITE, black_to_move))
    assert ev.list == []
    # Black, sighted (D.2.5): his piece lifted and put back is a touched piece (4.3), his
    # move is taken as ever, without a press.
    s.lift("g8", gap=400).place("g8", gap=400).move("f8", "c5")
    game, ev, rec = replay(s.lines, black_to_move, rec=_blind(WHITE, black_to_move))
    assert [e[1] for e in _kinds(ev, "touched")] == [parse_square("g8")] and _ucis(game) == ["f8c5"]
    # But a piece of Black's standing where none should be, on White's turn, is told.
    s.wait(500).lift("a7").place("a6", gap=2500)
    game, ev, rec = replay(s.lines, black_to_move, rec=_blind(WHITE, black_to_move))
    assert _kinds(ev, "differs")
