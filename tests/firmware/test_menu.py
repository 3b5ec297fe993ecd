# The clock's menu on its buttons: the arbiter's corrections (C.02: within a minute) and
# the presets, with the clock's own corrections behind it.
from firmware.clock.clock import ChessClock
from firmware.clock.menu import ClockMenu
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.recorder import Recorder
from tests.firmware.support import FakeTicks


def _presses(menu, clock, t, names):
    for n in names:
        t.advance(300)  # a press every 0.3 s: an arbiter's pace
        menu.button(n, clock, t.now())


def _plan(start, want):
    """The presses that take a field from start to want: held ones for tens, then single."""
    d = want - start
    sign = "plus" if d > 0 else "minus"
    tens, ones = divmod(abs(d), 10)
    return [sign + "-long"] * tens + [sign] * ones


def test_arbiter_sets_both_times_moves_and_period_within_a_minute():
    t = FakeTicks(100)
    rec = Recorder()
    clock = ChessClock("40/5400+30:1800+30", sink=rec, diff=t.diff, add=t.add)
    menu = ClockMenu()
    clock.start(t.now())
    t.advance(60700)  # with the first press 0.3 s later, White has used 61 s: 88:59 left
    begin = t.now()
    _presses(menu, clock, t, ["menu"])
    assert clock.paused and menu.open and menu.text() == ("W MIN", "1:28:59")
    presses = (_plan(88, 83) + ["ok"] + _plan(59, 45) + ["ok"]  # White 1:23:45
               + _plan(90, 59) + ["ok"] + _plan(0, 10) + ["ok"]  # Black 0:59:10
               + _plan(0, 35) + ["ok"] + _plan(0, 34) + ["ok"]  # moves 35 and 34
               + ["plus", "ok", "ok"]  # White in the second period, Black not
               + ["ok"]  # the battery's level, seen
               + ["ok"])  # UPDATE left at NO: everything applied
    _presses(menu, clock, t, presses)
    assert not menu.open
    assert clock.time_left(WHITE, t.now()) == (83 * 60 + 45) * 1000
    assert clock.time_left(BLACK, t.now()) == (59 * 60 + 10) * 1000
    assert clock.moves == [35, 34] and clock.period == [1, 0]
    assert t.diff(t.now(), begin) < 60000  # C.02: the arbiter needs well under a minute
    kinds = rec.kinds()
    assert kinds.count("set_time") == 2 and kinds.count("set_moves") == 2 and "set_period" in kinds
    assert clock.paused
    _presses(menu, clock, t, ["menu-long"])  # resume
    assert not clock.paused


def test_holding_menu_resumes_as_the_buttons_report_a_hold():
    # (#14) A hold is reported as its press, then the hold 800 ms later: the press opens
    # the menu on the paused clock, the hold resumes and closes it.
    t = FakeTicks(100)
    clock = ChessClock("300+2", diff=t.diff, add=t.add)
    menu = ClockMenu()
    clock.start(t.now())
    _presses(menu, clock, t, ["menu", "menu"])  # paused by the arbiter, the menu closed
    assert clock.paused and not menu.open
    _presses(menu, clock, t, ["menu", "menu-long"])
    assert not clock.paused and not menu.open
    # Held on a running clock: a pause with the menu open, as a press.
    _presses(menu, clock, t, ["menu", "menu-long"])
    assert clock.paused and menu.open


def test_menu_closes_without_changing_anything():
    t = FakeTicks(100)
    clock = ChessClock("300+2", diff=t.diff, add=t.add)
    menu = ClockMenu()
    clock.start(t.now())
    _presses(menu, clock, t, ["menu", "plus", "plus", "ok", "minus", "menu"])
    assert not menu.open and clock.paused
    assert clock.time_left(WHITE, t.now()) == 299700  # as it was when paused: 0.3 s used


def test_presets_before_the_start():
    t = FakeTicks(100)
    clock = ChessClock("300+2", diff=t.diff, add=t.add)
    menu = ClockMenu()
    menu.button("menu", clock, t.now())
    assert menu.mode == "presets" and menu.text() == ("P1 FIDE", "40/90+30")
    menu.button("plus", clock, t.now())
    menu.button("plus", clock, t.now())
    assert menu.text() == ("P3 CLASS", "40/120")
    assert menu.button("ok", clock, t.now()) == ("preset", 3)
    assert not menu.open
