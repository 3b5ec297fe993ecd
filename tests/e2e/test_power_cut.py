"""Power cuts at random instants: the firmware in the simulator is killed mid-game and
started again on the same flash (host_tools/powercut.py says what a trial checks). 200
trials here, in batches so that they spread over the test workers; bench/nothing_lost.py
runs more."""
import random

import pytest

from host_tools import powercut

BATCHES = 10
PER_BATCH = 20


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return powercut.make_game(tmp_path_factory.mktemp("powercut"), seed=7, plies=120)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_power_cuts_lose_and_duplicate_nothing(game, batch, tmp_path):
    assert len(game.events) > 200  # a long game: 120 plies, each a move and a clk
    rng = random.Random(1000 + batch)
    seen = 0
    for _ in range(PER_BATCH):
        t = powercut.trial(game, tmp_path, rng)
        assert not t.problems and t.lost == 0 and t.duplicated == 0, t
        assert t.recovered >= t.seen
        seen += t.seen
    assert seen > 0  # the cuts fell during the game, not all before it


def test_a_cut_before_the_first_game_is_on_flash_is_no_recovery(game, tmp_path):
    """The games counter written, the first game's record not yet: the board starts the
    next number afresh (game 2 here, not the game 2 of the cut run). The trial takes it for
    what it is: nothing recovered, nothing lost, unless the host had seen game 2."""
    for seen in ([], game.events[:3]):
        flash = tmp_path / str(len(seen))
        flash.mkdir()
        (flash / "journal.bin.games").write_text("1\n")
        t = powercut.after_cut(game, flash, seen)
        if seen:
            assert t.lost == 3 and t.problems == [
                "the host saw game 2, the board came back with game none"], t
        else:
            assert not t.problems and t.recovered == 0 and t.lost == 0, t
