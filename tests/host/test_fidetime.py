"""Time controls typed as FIDE writes them (host_tools/fidetime.py): minutes for a period's
time, seconds for an increment or a delay, read into the board's own control strings and
said in words, as the arbiter's desk and `play engine --tc` show them before anything is
sent. The board's own parser (firmware/clock/timecontrol.py) reads every control made."""
import pytest

from firmware.clock import timecontrol
from host_tools.fidetime import FideTimeError, read

READ = {
    "90+30": ("5400+30", "90 min, 30 s a move: standard"),
    "5+3": ("300+3", "5 min, 3 s a move: blitz"),
    "3+2": ("180+2", "3 min, 2 s a move: blitz"),
    "15+10": ("900+10", "15 min, 10 s a move: rapid"),
    "40/90+30:30+30": ("40/5400+30:1800+30",
                       "90 min for 40 moves, 30 s a move; then 30 min for the rest of the game, 30 s a move: standard"),
    "40/90+30, 30+30": ("40/5400+30:1800+30",
                        "90 min for 40 moves, 30 s a move; then 30 min for the rest of the game, 30 s a move: standard"),
    "40/90+30": ("40/5400+30", "90 min for each 40 moves, 30 s a move: standard"),
    "90": ("5400", "90 min: standard"),
    "15d5": ("900d5", "15 min, US delay of 5 s: rapid"),
    "10b5": ("600b5", "10 min, Bronstein delay of 5 s: rapid"),
    "60y5x30": ("3600y5x30", "60 min, then byo-yomi: 5 periods of 30 s: standard"),
    "60c25/10": ("3600c25/600", "60 min, then 25 moves in 10 min, again and again: standard"),
    "*3": ("*180", "hourglass, 3 min each: the time one uses goes to the other: blitz"),
    "up": ("up", "counts up from zero, no flag"),
    "30s+1": ("30+1", "30 s, 1 s a move: blitz"),
    "1.5+0": ("90", "1 min 30 s: blitz"),
    " 90 + 30 ": ("5400+30", "90 min, 30 s a move: standard"),
}


@pytest.mark.parametrize("typed", sorted(READ))
def test_a_control_as_fide_writes_it_is_read_into_the_boards_and_said(typed):
    r = read(typed)
    assert (r.control, r.words) == READ[typed]
    assert timecontrol.parse(r.control).text() == r.control or r.control == "up"


@pytest.mark.parametrize("typed, why", [
    ("", "as FIDE writes it"), ("90 minutes", "cannot read"), ("5min", "cannot read"), ("90+30+5", "cannot read"),
    ("0.01+0", "not a whole number of seconds"), ("*", "hourglass"), ("40/90+30:", "cannot read"),
    ("9999+0", "the board cannot play"), ("x" * 61, "as FIDE writes it")])
def test_what_cannot_be_read_is_refused_with_the_reason(typed, why):
    with pytest.raises(FideTimeError) as e:
        read(typed)
    assert why in str(e.value) and isinstance(e.value, ValueError)
