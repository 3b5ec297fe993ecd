# The move of a player who is not at the board - an engine, an opponent online - shown by
# the host with `expect <uci>` (docs/protocol.md) and carried out on the board by the
# player at it: the square LEDs show it, only it is taken, it is completed (its clock
# pressed) as soon as it stands on the board, and any other move is an attempt. Runs in
# both interpreters.
from firmware.app.faces import EXPECT_FROM, EXPECT_TO, LAST_FROM, LAST_TO
from firmware.rules.squares import WHITE, BLACK, parse_square
from tests.firmware.fakehal import fresh_device, hand_move, lever, run, set_square

MICROPYTHON_HEAP = "352K"  # the whole application (64-bit objects) and the test's hands




def _lit(hal, kind):
    return [sq for sq in range(64) if hal.lit[sq] == kind]


def _engine_plays_white():
    dev, hal = fresh_device("expect")
    hal.send("new tc=300+2 white=Engine black=Me\n")
    hal.send("access blind=b\n")  # the player at the board feels the signals
    run(dev, hal, 50)
    hal.lines()
    return dev, hal


def test_the_expected_move_is_shown_taken_and_completed_when_it_stands_on_the_board():
    dev, hal = _engine_plays_white()
    hal.motors.clear()
    hal.send("expect e2e4\n")
    run(dev, hal, 50)
    assert "ok expect e2e4" in hal.lines()
    assert _lit(hal, EXPECT_FROM) == [parse_square("e2")] and _lit(hal, EXPECT_TO) == [parse_square("e4")]
    assert [m for m in hal.motors if m[1] == BLACK]  # felt under his hand
    assert not [m for m in hal.motors if m[1] == WHITE]
    hand_move(dev, hal, "e2", "e4")
    lines = hal.lines()
    moves = [l for l in lines if " move " in l]
    clks = [l for l in lines if " clk " in l]
    assert len(moves) == 1 and moves[0].endswith(" move 1 e2e4 e4")
    # Completed without a press: White's clock stopped and Black's runs.
    assert len(clks) == 1 and clks[0].split()[2:4] == ["1", "302000"]  # (with the increment)
    assert dev.clock.running == 1 and dev.clock.started
    # The LEDs now show the last move, not a move to make.
    assert _lit(hal, EXPECT_FROM) == [] and _lit(hal, LAST_FROM) == [parse_square("e2")]
    assert _lit(hal, LAST_TO) == [parse_square("e4")]
    assert dev.recognizer.expected == 0


def test_another_move_than_the_expected_one_is_an_attempt_and_is_not_taken():
    dev, hal = _engine_plays_white()
    hal.send("expect e2e4\n")
    run(dev, hal, 50)
    hal.lines()
    hand_move(dev, hal, "d2", "d4")
    lines = hal.lines()
    assert "attempt d2d4" in lines
    assert not [l for l in lines if " move " in l] and dev.game.ply == 0
    # Put right, and the expected move made: taken.
    hand_move(dev, hal, "d4", "d2", place_ms=2000)
    hand_move(dev, hal, "e2", "e4")
    lines = hal.lines()
    assert [l for l in lines if " move " in l][0].endswith(" move 1 e2e4 e4")
    assert dev.game.ply == 1


def test_the_player_at_the_board_moves_and_presses_as_always_and_the_host_answers():
    # The engine plays Black: the player moves and presses; the engine's reply follows.
    dev, hal = fresh_device("expect")
    hal.send("new tc=300+2 white=Me black=Engine\n")
    run(dev, hal, 50)
    hand_move(dev, hal, "e2", "e4")
    lever(dev, hal, WHITE)
    hal.lines()
    hal.send("expect c7c5\n")
    run(dev, hal, 2000)  # the player looks at the LEDs
    hand_move(dev, hal, "c7", "c5")
    lines = hal.lines()
    assert [l for l in lines if " move " in l][0].endswith(" move 2 c7c5 c5")
    clk = [l for l in lines if " clk " in l][0].split()
    # Black's time: 300 s, from his clock's start at White's press to the move on the
    # board (2 s of looking, ~0.6 s of carrying out), plus the increment.
    assert clk[2] == "2" and 299000 <= int(clk[3]) <= 300000 - 2000 + 2000
    assert dev.clock.running == 0  # White thinks


def test_an_expected_promotion_takes_its_own_piece():
    dev, hal = fresh_device("expect")
    hal.send("new fen=4k3/8/8/8/8/8/p7/4K3%20b%20-%20-%200%201 white=Me black=Engine\n")
    hal.occ[:] = bytes(8)
    for sq in ("e8", "a2", "e1"):
        set_square(hal.occ, sq, True)
    run(dev, hal, 1500)
    hal.lines()
    hal.send("expect a2a1n\n")
    run(dev, hal, 50)
    assert "ok expect a2a1n" in hal.lines()
    hand_move(dev, hal, "a2", "a1")
    lines = hal.lines()
    assert [l for l in lines if " move " in l][0].endswith(" move 1 a2a1n a1=N")
    assert [l for l in lines if " clk " in l]  # completed without a press or a choice


def test_bad_expectations_change_nothing():
    dev, hal = _engine_plays_white()
    for text, code in (("expect e2e5", "err bad-argument"), ("expect", "err bad-argument"),
                       ("expect e7e5", "err bad-argument"), ("expect e2e4 e7e5", "err bad-argument"),
                       ("expect zz", "err bad-argument")):
        hal.send(text + "\n")
        run(dev, hal, 20)
        got = hal.lines()
        assert got and got[0].startswith(code), (text, got)
    assert dev.recognizer.expected == 0
    hand_move(dev, hal, "d2", "d4")  # any move is taken
    assert dev.game.ply == 1
    # After the result, nothing is expected.
    hal.send("resign b\n")
    run(dev, hal, 20)
    hal.lines()
    hal.send("expect e7e5\n")
    run(dev, hal, 20)
    assert hal.lines()[0].startswith("err not-now")


def test_expect_dash_takes_any_move_again():
    dev, hal = _engine_plays_white()
    hal.send("expect e2e4\n")
    run(dev, hal, 20)
    hal.send("expect -\n")
    run(dev, hal, 20)
    assert "ok expect -" in hal.lines() and _lit(hal, EXPECT_FROM) == []
    hand_move(dev, hal, "d2", "d4")
    assert dev.game.ply == 1
    assert dev.clock.running != 1  # an ordinary move: it waits for its mover's press


def test_the_expected_move_shows_on_its_players_face_until_it_is_made():
    dev, hal = _engine_plays_white()
    hal.send("expect g1f3\n")
    run(dev, hal, 200)
    assert hal.faces[-1][0] == "g1-f3" and hal.faces[-1][1] != "g1-f3"  # White's face: the move
    hand_move(dev, hal, "g1", "f3")
    run(dev, hal, 200)
    assert "g1-f3" not in hal.faces[-1]  # both show their times again


def test_buttons_the_board_does_not_use_go_to_the_host():
    # plus, minus and ok do nothing on the board while its menu is closed: a host that
    # plays (an engine's, lichess's) hears them (draw, take-back, resign).
    dev, hal = _engine_plays_white()
    for name in ("plus", "minus", "ok", "ok-long"):
        hal.queue.append(("button", name, True, hal.t))
        run(dev, hal, 20)
    assert [l for l in hal.lines() if l.startswith("button ")] == [
        "button plus", "button minus", "button ok", "button ok-long"]
    # The menu open: they are the menu's.
    hal.queue.append(("button", "menu", True, hal.t))
    run(dev, hal, 20)
    assert dev.controls.menu.open
    hal.queue.append(("button", "plus", True, hal.t))
    run(dev, hal, 20)
    assert not [l for l in hal.lines() if l.startswith("button ")]


def test_after_the_result_a_move_on_the_board_is_one_attempt_told_once():
    dev, hal = _engine_plays_white()
    hal.send("resign w\n")
    run(dev, hal, 50)
    hal.lines()
    hand_move(dev, hal, "e2", "e4")
    run(dev, hal, 3000)
    lines = hal.lines()
    assert lines.count("attempt e2e4") == 1, lines
    assert not [l for l in lines if " move " in l] and dev.game.ply == 0


def test_setting_up_a_position_for_a_new_game_touches_nothing():
    # (#14) A game from a FEN: the pieces taken off and put on to set it up are no
    # touched pieces; a piece lifted and put back once the position stands is one.
    dev, hal = fresh_device("expect")
    hal.send("new fen=4k3/8/8/8/8/8/4P3/4K3%20w%20-%20-%200%201\n")
    run(dev, hal, 100)
    for sq in [f + r for f in "abcdefgh" for r in "12"] + [f + r for f in "abcdefgh" for r in "78"]:
        if sq not in ("e1", "e2", "e8"):
            set_square(hal.occ, sq, False)
            run(dev, hal, 60)
        if sq == "d8":  # the king lifted and put back while setting up
            set_square(hal.occ, "e1", False)
            run(dev, hal, 200)
            set_square(hal.occ, "e1", True)
            run(dev, hal, 200)
    run(dev, hal, 2000)
    lines = hal.lines()
    assert not [l for l in lines if l.startswith("touched")], lines
    set_square(hal.occ, "e2", False)
    run(dev, hal, 300)
    set_square(hal.occ, "e2", True)
    run(dev, hal, 300)
    assert "touched e2" in hal.lines()


def test_a_hint_lights_its_squares_until_the_player_moves_and_takes_any_move():
    from firmware.app.faces import HINT_FROM, HINT_TO

    dev, hal = fresh_device("hint")
    hal.send("new tc=300+2 white=Me black=Engine\n")
    run(dev, hal, 50)
    hal.lines()
    hal.send("hint g1f3\n")
    run(dev, hal, 50)
    assert "ok hint g1f3" in hal.lines()
    assert _lit(hal, HINT_FROM) == [parse_square("g1")] and _lit(hal, HINT_TO) == [parse_square("f3")]
    # Bad hints change nothing: not legal here, not a move, after the result.
    for bad in ("hint e2e5\n", "hint zz\n"):
        hal.send(bad)
        run(dev, hal, 50)
        assert hal.lines()[-1].startswith("err bad-argument")
        assert _lit(hal, HINT_FROM) == [parse_square("g1")]
    # He plays another move: it is taken (a hint restricts nothing), and the hint goes.
    hand_move(dev, hal, "e2", "e4")
    lever(dev, hal, WHITE)
    assert any(l.endswith(" move 1 e2e4 e4") for l in hal.lines())
    assert _lit(hal, HINT_FROM) == [] and _lit(hal, HINT_TO) == []
    assert _lit(hal, LAST_TO) == [parse_square("e4")]
    # A move to carry out (expect) shows over a hint; `hint -` takes a hint away.
    hal.send("hint e7e5\n")
    hal.send("expect d7d5\n")
    run(dev, hal, 50)
    assert _lit(hal, EXPECT_FROM) == [parse_square("d7")] and _lit(hal, HINT_FROM) == []
    hal.send("expect -\n")
    run(dev, hal, 50)
    assert _lit(hal, HINT_FROM) == [parse_square("e7")] and _lit(hal, HINT_TO) == [parse_square("e5")]
    hal.send("hint -\n")
    run(dev, hal, 50)
    assert hal.lines()[-1] == "ok hint -"
    assert _lit(hal, HINT_FROM) == [] and _lit(hal, LAST_TO) == [parse_square("e4")]
    hal.send("resign b\n")
    run(dev, hal, 50)
    hal.lines()
    hal.send("hint d2d4\n")
    run(dev, hal, 50)
    assert [l for l in hal.lines() if l.startswith(("ok", "err"))] == ["err not-now the%20game%20is%20over"]
