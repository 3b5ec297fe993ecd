# The game and the clock together: the Laws' decisions that need the position.
from firmware.clock.clock import ChessClock
from firmware.match import Match, MatchError
from firmware.rules.game import Game
from firmware.rules import outcome as o
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.recorder import Recorder
from tests.firmware.support import FakeTicks, raises

S = 1000


def setup(control="300+2", fen=None, **kw):
    t = FakeTicks(50)
    rec = Recorder()
    clock = ChessClock(control, sink=rec, diff=t.diff, add=t.add)
    match = Match(Game(fen), clock, sink=rec, **kw)
    return match, t, rec


def move(match, t, uci, ms=1000, press=True):
    t.advance(ms)
    side = match.game.turn
    match.make_move(match.game.parse_uci(uci), t.now())
    if press and match.outcome is None:
        assert match.press(side, t.now())


def test_clock_comments_are_the_movers_time_after_the_press():
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())  # starts White's clock
    move(m, t, "e2e4", 10 * S)
    move(m, t, "e7e5", 4 * S)
    assert m.clock_after(0) == 292 * S and m.clock_after(1) == 298 * S
    assert [e[1] for e in rec.events if e[0] == "move"] == [0, 1]


def test_a_move_that_ends_the_game_stops_the_clock_without_a_press():
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())
    for u in ("f2f3", "e7e5", "g2g4"):
        move(m, t, u, 2 * S)
    move(m, t, "d8h4", 5 * S, press=False)  # mate: no press needed (6.2.1.1)
    assert m.outcome == o.Outcome(o.CHECKMATE, BLACK)
    assert m.clock.stopped
    assert m.clock_after(3) == 295 * S  # 300 - 2 + 2 - 5: the mating move gets no increment
    t.advance(60 * S)
    assert m.clock.time_left(BLACK, t.now()) == 295 * S
    raises(MatchError, m.make_move, 1, t.now())


def _fools_mate_played(think):
    """The clock started by Black, three moves each taking 2 s with their presses, then
    Black thinks `think` ms and plays the mate (not yet settled)."""
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())
    for u in ("f2f3", "e7e5", "g2g4"):
        move(m, t, u, 2 * S)
    t.advance(think)
    m.play(m.game.parse_uci("d8h4"), t.now())
    return m, t, rec


def test_a_mating_move_completed_by_its_press_keeps_the_press_time():
    # The device answers the press before it looks for the game's end (play, press,
    # settle): the mover's clock is the press's, increment included, as for any move.
    m, t, rec = _fools_mate_played(think=5 * S)
    assert m.unsettled and m.outcome is None
    assert m.press(BLACK, t.now())
    m.settle()
    assert m.outcome == o.Outcome(o.CHECKMATE, BLACK) and m.clock.stopped
    assert m.clock_after(3) == 297 * S  # 300 - 2 + 2 - 5 + 2
    assert not [e for e in rec.events if e[0] == "completed"]
    t.advance(60 * S)
    assert m.clock.time_left(WHITE, t.now()) == 300 * S  # stopped at the press: White lost nothing


def test_a_move_that_ends_the_game_unpressed_is_completed_before_the_outcome():
    m, t, rec = _fools_mate_played(think=5 * S)
    t.advance(30)  # settled a little later: the game still ended when the move was made
    m.settle()
    kinds = rec.kinds()
    assert kinds.index("completed") < kinds.index("outcome")
    assert rec.events[kinds.index("completed")][1:] == (BLACK, 3)
    assert m.clock_after(3) == 295 * S


def test_every_decision_settles_the_last_move_first():
    m, t, rec = _fools_mate_played(think=0)
    raises(MatchError, m.resign, WHITE, t.now())  # the game had already ended by mate
    assert m.outcome == o.Outcome(o.CHECKMATE, BLACK)


def test_flag_loses_but_draws_if_the_opponent_cannot_mate():
    m, t, rec = setup("60", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 1 * S)
    t.advance(60 * S)  # Black's flag falls; White has a pawn: he could mate
    m.check(t.now())
    assert m.outcome == o.Outcome(o.TIME_FORFEIT, WHITE)
    m, t, rec = setup("60", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    m.press(BLACK, t.now())
    t.advance(61 * S)  # White's flag: Black has a lone king and cannot mate (6.9)
    m.check(t.now())
    assert m.outcome == o.Outcome(o.TIME_FORFEIT) and m.outcome.result() == "1/2-1/2"


def test_press_without_a_move_is_an_illegal_move_and_does_not_switch():
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 1 * S)
    t.advance(1 * S)
    assert not m.press(BLACK, t.now())  # Black's clock runs, but he has not moved
    assert ("illegal_press", BLACK, 1) in rec.events
    assert m.clock.running_side() == BLACK
    t.advance(1 * S)
    assert not m.press(WHITE, t.now())  # White's clock is not running: nothing at all
    assert len([e for e in rec.events if e[0] == "illegal_press"]) == 1
    m2, t2, rec2 = setup("300+2")
    m2.press(BLACK, t2.now())
    t2.advance(2 * S)
    assert not m2.press(WHITE, t2.now())  # White pressed without moving (7.5.3)
    assert ("illegal_press", WHITE, 1) in rec2.events
    assert m2.clock.running_side() == WHITE


def test_illegal_moves_penalties():
    # Standard play: +2 minutes to the opponent, then the second loses (7.5.5).
    m, t, rec = setup("5400+30")
    m.press(BLACK, t.now())
    m.illegal_move(WHITE, t.now())
    assert m.clock.time_left(BLACK, t.now()) == 5400 * S + 120 * S
    assert ("penalty", BLACK, 120 * S) in rec.events
    m.illegal_move(WHITE, t.now())
    assert m.outcome == o.Outcome(o.ILLEGAL_MOVES, BLACK)
    # Rapid: 1 minute (A.3).
    m, t, rec = setup("900+10")
    m.press(BLACK, t.now())
    m.illegal_move(BLACK, t.now())
    assert m.clock.time_left(WHITE, t.now()) == 960 * S
    # The second illegal move draws if the opponent cannot mate.
    m, t, rec = setup("900+10", fen="4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
    m.illegal_move(WHITE, t.now())
    m.illegal_move(WHITE, t.now())
    assert m.outcome == o.Outcome(o.ILLEGAL_MOVES) and m.outcome.result() == "1/2-1/2"


def test_auto_penalties_for_casual_play():
    m, t, rec = setup("300+2", auto_penalties=True)
    m.press(BLACK, t.now())
    t.advance(1 * S)
    m.press(WHITE, t.now())  # no move: illegal, penalised at once
    assert m.illegal == [1, 0]
    assert m.clock.time_left(BLACK, t.now()) == 360 * S


def test_draw_claims():
    m, t, rec = setup("5400+30")
    m.press(BLACK, t.now())
    assert not m.claim_draw(WHITE, t.now())  # nothing to claim
    assert ("claim", WHITE, False) in rec.events
    m.incorrect_claim(WHITE, t.now())  # the arbiter's one step (9.5.3)
    assert m.clock.time_left(BLACK, t.now()) == 5520 * S
    for u in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"):
        move(m, t, u)
    assert m.claim_draw(BLACK, t.now())  # ...Ng8 would repeat the start a third time
    assert m.outcome == o.Outcome(o.THREEFOLD_REPETITION)


def test_resignation_and_agreement():
    m, t, rec = setup("300")
    raises(MatchError, m.agree_draw, t.now())  # 5.2.3: each must have moved
    m.resign(WHITE, t.now())
    assert m.outcome == o.Outcome(o.RESIGNATION, BLACK)
    m, t, rec = setup("300", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    m.resign(WHITE, t.now())  # Black has a lone king: a draw (5.1.2)
    assert m.outcome.result() == "1/2-1/2"


def test_quickplay_finish():
    m, t, rec = setup("100")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 10 * S)
    m.quickplay_finish(BLACK, t.now())  # Black asked; the opponent gets 2 minutes (III.4)
    assert m.clock.time_left(WHITE, t.now()) == 90 * S + 120 * S
    move(m, t, "e7e5", 10 * S)
    assert m.clock.time_left(BLACK, t.now()) == 95 * S


def test_quickplay_finish_only_where_the_guidelines_allow_it():
    # III.2, III.4: the final period, no increment or delay, the player to move, under 2 min.
    for control, why in (("100+2", "increment"), ("100d5", "increment or delay"),
                         ("40/60:100", "final period")):
        m, t, rec = setup(control)
        m.press(BLACK, t.now())
        move(m, t, "e2e4", 10 * S)
        e = raises(MatchError, m.quickplay_finish, BLACK, t.now())
        assert why in str(e) and not m.clock.bonus_ms
    m, t, rec = setup("100")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 10 * S)
    assert "to move" in str(raises(MatchError, m.quickplay_finish, WHITE, t.now()))
    m, t, rec = setup("300")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 10 * S)
    assert "two minutes" in str(raises(MatchError, m.quickplay_finish, BLACK, t.now()))
    assert not m.clock.bonus_ms


def test_completing_two_moves_with_one_press():
    # 6.2.1.2: White moved and did not press; Black moved; White's press completes it.
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 3 * S, press=False)
    move(m, t, "e7e5", 1 * S, press=False)
    assert m.press(WHITE, t.now())
    assert m.clock_after(0) == 300 * S - 4 * S + 2 * S
    assert m.clock_after(1) == 0


def test_take_back():
    m, t, rec = setup("300+2")
    m.press(BLACK, t.now())
    move(m, t, "e2e4", 1 * S, press=False)
    m.take_back(t.now())
    assert m.game.ply == 0
    t.advance(1 * S)
    assert not m.press(WHITE, t.now())  # nothing to complete now


def test_the_clock_starts_for_the_side_to_move():
    m, t, rec = setup("300", fen="4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
    assert not m.press(BLACK, t.now())  # Black is to move and has not moved: nothing
    assert not m.clock.started
    m.press(WHITE, t.now())  # the opponent's button starts Black's clock (6.6)
    assert m.clock.running_side() == BLACK
