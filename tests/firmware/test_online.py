# A game played on lichess at the board (docs/protocol.md: new source=, sync, complete):
# the game line names where it is played, lichess's clock is set on the board's while it
# runs (no event: nothing was corrected), the player's move is completed by the host, and
# the board's own flag ends nothing. Runs in both interpreters.
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import fresh_device, run, set_square

MICROPYTHON_HEAP = "352K"  # the whole application (and the qstr pool its names reach mid-test: at 320K it was already at its edge before issue 49)


def _move(dev, hal, frm, to):
    set_square(hal.occ, frm, False)
    run(dev, hal, 300)
    set_square(hal.occ, to, True)
    run(dev, hal, 600)


def _online():
    dev, hal = fresh_device("online")
    hal.send("new tc=60+0 white=Me black=Rival source=lichess.org/abcd1234\n")
    run(dev, hal, 50)
    return dev, hal


def test_the_game_line_says_where_the_game_is_played():
    dev, hal = _online()
    lines = hal.lines()
    game = [l for l in lines if " game " in l][-1]
    assert game.endswith(" source=lichess.org/abcd1234")
    assert lines[-1].startswith("ok new ")
    # A game without a source has none in its line, as before.
    hal.send("new tc=60+0\n")
    run(dev, hal, 50)
    assert [l for l in hal.lines() if " game " in l][-1].endswith(" black=Rival")


def test_complete_ends_the_players_move_and_sync_sets_both_clocks_while_running():
    dev, hal = _online()
    _move(dev, hal, "e2", "e4")
    hal.lines()
    hal.send("complete w\n")
    run(dev, hal, 20)
    lines = hal.lines()
    assert [l for l in lines if " clk 1 " in l] and "ok complete" in lines
    assert dev.clock.running == 1  # Black's clock runs
    events = dev.record.log.count
    hal.send("sync 59000 57000\n")
    run(dev, hal, 1000)
    lines = hal.lines()
    assert "ok sync" in lines
    assert dev.record.log.count == events  # no event: nothing was corrected
    w, b = dev.clock.time_left(WHITE, hal.t), dev.clock.time_left(BLACK, hal.t)
    assert w == 59000 and 55900 <= b <= 56100  # Black's counts down from the sync
    # Nothing to complete: refused, nothing changes.
    hal.send("complete w\n")
    run(dev, hal, 20)
    assert hal.lines()[0].startswith("err not-now")
    for bad in ("sync 1", "sync -5 100", "sync 100 x", "sync 999999999999 1"):
        hal.send(bad + "\n")
        run(dev, hal, 20)
        assert hal.lines()[0].startswith("err "), bad
    assert dev.clock.time_left(WHITE, hal.t) == 59000


def test_the_boards_own_flag_ends_nothing_in_a_game_kept_elsewhere():
    dev, hal = _online()
    _move(dev, hal, "e2", "e4")
    hal.send("complete w\n")
    hal.send("sync 60000 500\n")
    run(dev, hal, 3000)  # Black's time on the board runs out
    assert dev.match.outcome is None
    hal.lines()
    hal.send("result 1-0\n")  # lichess says so
    run(dev, hal, 20)
    assert [l for l in hal.lines() if " result 1-0" in l]
