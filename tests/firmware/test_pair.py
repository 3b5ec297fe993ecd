# Two boards for one game (appendix D; docs/protocol.md `pair`): the blind player's own board
# with the game's clock, and the sighted player's board beside it. On the blind player's
# board the sighted player's press completes the move he made on his own board before it is
# repeated here (D.2.5: the ordinary rules for him), and the blind player's clock starts only
# when his own move is made and completed by his press (D.2.4). Runs in both interpreters.
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import fresh_device, hand_move, lever, run, set_square

MICROPYTHON_HEAP = "352K"  # the whole application (64-bit objects) and the test's hands




def _blind_board(here="here"):
    """Black is blind: this is his board; White's moves are made on the sighted board."""
    dev, hal = fresh_device("pair")
    hal.send("new tc=300+2 white=Sighted black=Blind\n")
    hal.send("access blind=b\n")
    hal.send("pair w %s\n" % here)
    run(dev, hal, 50)
    assert "ok pair w " + here in hal.lines()
    return dev, hal


def _lines(hal, word):
    return [l for l in hal.lines() if (" %s " % word) in l]


def test_the_sighted_players_press_completes_his_move_before_it_is_repeated_here():
    dev, hal = _blind_board()
    hal.send("hello\n")
    run(dev, hal, 50)
    assert [l for l in hal.lines() if l.startswith("hello ")][0].endswith(" pair=w,here")
    # White made e4 on his own board and presses the game's clock - here - before the relay's
    # expect has arrived: his move is completed, Black's time runs from now.
    lever(dev, hal, WHITE)
    lines = hal.lines()
    assert not [l for l in lines if l.startswith("illegal-press")]
    assert dev.clock.running == 1 and dev.clock.moves[0] == 1 and dev.game.ply == 0
    at_press = dev.clock.left[0]
    hal.send("expect e2e4\n")
    run(dev, hal, 2000)  # the blind player takes his time to repeat it, on his own clock
    hand_move(dev, hal, "e2", "e4")
    lines = hal.lines()
    moves = [l for l in lines if " move " in l]
    clks = [l for l in lines if " clk " in l]
    assert len(moves) == 1 and moves[0].endswith(" move 1 e2e4 e4")
    assert len(clks) == 1 and clks[0].split()[2:4] == ["1", str(at_press)]  # the press's time
    assert dev.clock.running == 1 and dev.clock.moves[0] == 1  # not pressed again by the repetition


def test_the_blind_players_clock_starts_only_with_his_move_made_and_pressed():
    dev, hal = _blind_board()
    lever(dev, hal, WHITE)
    hal.send("expect e2e4\n")
    run(dev, hal, 50)
    hand_move(dev, hal, "e2", "e4")
    hal.lines()
    # Black lifts and feels pieces, makes e5 and lets it stand: his clock still runs (D.2.3,
    # D.2.4: his move is made when he presses).
    set_square(hal.occ, "e7", False)
    run(dev, hal, 300)
    set_square(hal.occ, "e5", True)
    run(dev, hal, 5000)
    assert dev.game.ply == 1 and dev.clock.running == 1
    lever(dev, hal, BLACK)
    assert [l for l in hal.lines() if " move " in l][0].endswith(" move 2 e7e5 e5")
    assert dev.game.ply == 2 and dev.clock.running == 0  # now White's clock runs


def test_the_sighted_players_move_repeated_before_his_press_waits_for_it():
    dev, hal = _blind_board()
    hal.send("expect e2e4\n")
    run(dev, hal, 50)
    hand_move(dev, hal, "e2", "e4")
    assert dev.game.ply == 1 and not dev.clock.started  # his move, his press
    lever(dev, hal, WHITE)
    assert dev.clock.running == 1
    assert not [l for l in hal.lines() if l.startswith("illegal-press")]


def test_on_the_board_whose_clock_is_the_others_the_levers_do_nothing():
    dev, hal = fresh_device("pair-there")
    hal.send("new tc=300+2 white=Sighted black=Blind\n")
    hal.send("pair b there\n")
    run(dev, hal, 50)
    hand_move(dev, hal, "e2", "e4")
    lever(dev, hal, WHITE)
    hal.send("expect e7e5\n")
    run(dev, hal, 50)
    hand_move(dev, hal, "e7", "e5")
    assert dev.game.ply == 2 and not dev.clock.started  # the game's clock is the blind player's board's
    hal.send("pair -\n")
    run(dev, hal, 50)
    assert "ok pair -" in hal.lines()
    lever(dev, hal, WHITE)  # an ordinary board again
    assert dev.clock.started


def test_a_touch_on_the_sighted_board_is_felt_by_the_blind_player_and_bad_pairs_change_nothing():
    dev, hal = _blind_board()
    hal.motors.clear()
    hal.send("touched g1\n")
    run(dev, hal, 1500)
    assert "ok touched" in hal.lines()
    assert [m for m in hal.motors if m[1] == BLACK] and not [m for m in hal.motors if m[1] == WHITE]
    for bad in ("pair x here", "pair w", "pair w nowhere", "touched z9"):
        hal.send(bad + "\n")
        run(dev, hal, 50)
        assert [l for l in hal.lines() if l.startswith("err ")]
    assert dev.controls.elsewhere == WHITE and dev.controls.clock_here


def test_a_promotion_on_the_board_without_a_press_is_taken_with_the_piece_chosen():
    dev, hal = fresh_device("pair-promote")
    hal.send("new tc=300+2 fen=4k3/1P6/8/8/8/8/8/4K3%20w%20-%20-%200%201 white=Sighted black=Blind\n")
    hal.send("pair b there\n")
    for f in "abcdefgh":
        for r in "12345678":
            set_square(hal.occ, f + r, f + r in ("e8", "b7", "e1"))
    run(dev, hal, 1000)
    set_square(hal.occ, "b7", False)
    run(dev, hal, 300)
    set_square(hal.occ, "b8", True)
    run(dev, hal, 300)
    hal.queue.append(("button", "plus", True, hal.t))  # queen -> rook: the clock's buttons choose
    run(dev, hal, 100)
    assert dev.game.ply == 0  # a moment to choose
    run(dev, hal, 3000)
    assert [l for l in hal.lines() if " move " in l][0].endswith(" move 1 b7b8r b8=R+")
