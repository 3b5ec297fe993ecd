# The dual clock, from the wording of the Laws (art. 6, III.4) and the C.02 standard.
from firmware.clock.clock import ChessClock, ClockError, ClockSink
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.recorder import Recorder
from tests.firmware.support import FakeTicks, raises

S = 1000
MIN = 60 * S


def make(control, start=1000, **kw):
    ticks = FakeTicks(start)
    rec = Recorder()
    clock = ChessClock(control, sink=rec, diff=ticks.diff, add=ticks.add, **kw)
    return clock, ticks, rec


def think(clock, ticks, side, ms):
    """side thinks ms, then presses."""
    ticks.advance(ms)
    clock.check(ticks.now())
    return clock.press(side, ticks.now())


def test_blacks_press_starts_whites_clock():
    clock, t, rec = make("300+2")
    assert not clock.press(WHITE, t.now())  # White's button before the start: nothing
    assert clock.press(BLACK, t.now())  # 6.6: White's clock starts
    assert clock.running_side() == WHITE
    t.advance(1500)
    assert clock.time_left(WHITE, t.now()) == 298500
    assert clock.time_left(BLACK, t.now()) == 300000


def test_fischer_increment_from_move_one():
    clock, t, rec = make("300+2")
    clock.start(t.now())
    think(clock, t, WHITE, 10 * S)
    assert clock.time_left(WHITE, t.now()) == 292 * S  # 300 - 10 + 2, at move 1 already
    think(clock, t, BLACK, 1 * S)
    assert clock.time_left(BLACK, t.now()) == 301 * S
    assert clock.moves == [1, 1]
    assert ("press", WHITE, 292 * S) in rec.events


def test_pressing_out_of_turn_changes_nothing():
    clock, t, rec = make("300+2")
    clock.start(t.now())
    t.advance(5 * S)
    assert not clock.press(BLACK, t.now())
    assert clock.running_side() == WHITE and clock.moves == [0, 0]


def test_us_delay_consumed_before_main_time():
    # 6.3.2 (delay): the main time only starts falling after the delay.
    clock, t, rec = make("300d5")
    clock.start(t.now())
    t.advance(3 * S)
    assert clock.time_left(WHITE, t.now()) == 300 * S
    assert clock.delay_left(t.now()) == 2 * S
    clock.press(WHITE, t.now())
    assert clock.time_left(WHITE, t.now()) == 300 * S
    think(clock, t, BLACK, 8 * S)
    assert clock.time_left(BLACK, t.now()) == 297 * S
    # The flag falls only after the delay and the main time are both used up.
    clock, t, rec = make("10d5")
    clock.start(t.now())
    t.advance(14999)
    assert not clock.check(t.now())
    t.advance(1)
    assert clock.check(t.now()) and clock.flags == [1, 0]


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    clock, t, rec = make("300b5")
    clock.start(t.now())
    think(clock, t, WHITE, 3 * S)
    assert clock.time_left(WHITE, t.now()) == 300 * S
    think(clock, t, BLACK, 8 * S)
    assert clock.time_left(BLACK, t.now()) == 297 * S
    t.advance(1 * S)
    assert clock.time_left(WHITE, t.now()) == 299 * S  # during the move it falls as usual


def test_fide_standard_control_period_change_at_each_players_40th_move():
    clock, t, rec = make("40/5400+30:1800+30")
    clock.start(t.now())
    for move in range(1, 40):
        think(clock, t, WHITE, 60 * S)
        think(clock, t, BLACK, 30 * S)
    # 39 moves each: 5400 - 39 * 60 + 39 * 30 = 4230 s for White.
    assert clock.time_left(WHITE, t.now()) == 4230 * S
    assert clock.period == [0, 0]
    think(clock, t, WHITE, 60 * S)  # White's 40th move: +30 s and the next period's 30 min
    assert clock.time_left(WHITE, t.now()) == (4230 - 60 + 30 + 1800) * S
    assert clock.period == [1, 0]  # Black's period changes only at his own 40th move
    assert ("period", WHITE, 1) in rec.events
    think(clock, t, BLACK, 30 * S)
    assert clock.period == [1, 1]
    assert clock.time_left(BLACK, t.now()) == (5400 - 40 * 30 + 40 * 30 + 1800) * S


def test_a_last_period_with_a_move_count_repeats():
    clock, t, rec = make("2/60")
    clock.start(t.now())
    for _ in range(4):
        think(clock, t, WHITE, 10 * S)
        think(clock, t, BLACK, 1 * S)
    assert clock.time_left(WHITE, t.now()) == (60 - 40 + 60 + 60) * S
    assert clock.period == [0, 0]


def test_a_period_without_count_adds_the_next_at_the_flag():
    clock, t, rec = make("60:30")
    clock.start(t.now())
    t.advance(60 * S + 250)
    assert clock.check(t.now())
    assert clock.flags == [1, 0]  # the sign stays: White passed the first limit
    assert clock.period == [1, 0]
    assert clock.time_left(WHITE, t.now()) == 30 * S - 250  # counted from the exact flag tick
    assert clock.running_side() == WHITE and not clock.paused


def test_flag_falls_at_the_exact_tick_even_when_seen_late():
    clock, t, rec = make("60", start=5000)
    clock.start(t.now())
    t.advance(60 * S + 700)  # the loop only looks 0.7 s after the flag
    clock.check(t.now())
    assert clock.flag_ticks[0] == 5000 + 60 * S
    assert clock.first_flag() == WHITE


def test_a_press_after_the_flag_does_not_save_the_player():
    clock, t, rec = make("60+1")
    clock.start(t.now())
    t.advance(60 * S + 5)
    assert not clock.press(WHITE, t.now())  # the flag fell 5 ms before the press
    assert clock.flags == [1, 0] and clock.frozen


def test_increment_mode_freezes_the_other_clock():
    # C.02: in increment mode the other clock freezes when one reaches zero.
    clock, t, rec = make("60+1")
    clock.start(t.now())
    think(clock, t, WHITE, 1 * S)
    t.advance(61 * S)
    assert clock.check(t.now())
    assert clock.frozen and "freeze" in rec.kinds()
    t.advance(100 * S)
    assert clock.time_left(BLACK, t.now()) == 0
    assert clock.time_left(WHITE, t.now()) == 60 * S
    raises(ClockError, clock.resume, t.now())  # the arbiter must set a time or end the game


def test_sudden_death_runs_on_and_records_both_flags_in_order():
    clock, t, rec = make("60")
    clock.start(t.now())
    think(clock, t, WHITE, 30 * S)
    t.advance(61 * S)
    assert clock.check(t.now()) and clock.flags == [0, 1]
    assert clock.press(BLACK, t.now())  # play goes on at zero
    assert clock.time_left(BLACK, t.now()) == 0
    t.advance(31 * S)
    assert clock.check(t.now())
    assert clock.flags == [2, 1]  # both down: Black's fell first (C.02)
    assert clock.first_flag() == BLACK


def test_freeze_is_configurable_for_rapid_and_blitz():
    clock, t, rec = make("60+1", freeze_on_flag=False)
    clock.start(t.now())
    t.advance(61 * S)
    clock.check(t.now())
    assert not clock.frozen and clock.flags == [1, 0]
    assert clock.press(WHITE, t.now())
    assert clock.time_left(WHITE, t.now()) == 0  # no increment brings a fallen flag back


def test_hourglass():
    clock, t, rec = make("*60")
    clock.start(t.now())
    think(clock, t, WHITE, 10 * S)
    assert clock.time_left(WHITE, t.now()) == 50 * S
    assert clock.time_left(BLACK, t.now()) == 70 * S


def test_byoyomi():
    clock, t, rec = make("10y3x5")
    clock.start(t.now())
    think(clock, t, WHITE, 12 * S)  # 10 s main, then 2 s into the first 5 s period: kept
    assert clock.in_overtime[0] and clock.overtime[0] == 3
    assert clock.time_left(WHITE, t.now()) == 5 * S
    think(clock, t, BLACK, 1 * S)
    think(clock, t, WHITE, 7 * S)  # overran one period
    assert clock.overtime[0] == 2
    think(clock, t, BLACK, 1 * S)
    t.advance(9999)
    assert not clock.check(t.now())
    assert clock.time_left(WHITE, t.now()) == 1
    t.advance(1)
    assert clock.check(t.now()) and clock.flags == [1, 0]


def test_canadian_byoyomi():
    clock, t, rec = make("10c2/20")
    clock.start(t.now())
    think(clock, t, WHITE, 15 * S)  # main time out after 10 s: 15 s left of the block
    assert clock.in_overtime[0] and clock.overtime[0] == 1
    assert clock.time_left(WHITE, t.now()) == 15 * S
    think(clock, t, BLACK, 1 * S)
    think(clock, t, WHITE, 5 * S)  # second move of the block: a fresh block of 2 in 20 s
    assert clock.overtime[0] == 2 and clock.time_left(WHITE, t.now()) == 20 * S
    think(clock, t, BLACK, 1 * S)
    t.advance(20 * S)
    assert clock.check(t.now())


def test_upcount_counts_up_and_never_flags():
    clock, t, rec = make("up")
    clock.start(t.now())
    think(clock, t, WHITE, 90 * MIN)
    assert clock.time_left(WHITE, t.now()) == 90 * MIN
    t.advance(500 * MIN)
    assert not clock.check(t.now())
    assert clock.time_left(BLACK, t.now()) == 500 * MIN


def test_pause_and_resume():
    clock, t, rec = make("300+2")
    clock.start(t.now())
    t.advance(10 * S)
    clock.pause(t.now())
    t.advance(600 * S)
    assert clock.time_left(WHITE, t.now()) == 290 * S
    assert not clock.press(WHITE, t.now())  # no press while paused
    clock.resume(t.now())
    think(clock, t, WHITE, 5 * S)
    assert clock.time_left(WHITE, t.now()) == 287 * S
    raises(ClockError, clock.resume, t.now())


def test_stop_keeps_the_time_at_the_end_without_increment():
    # 6.2.1: a move that ends the game (mate) needs no press; the clock stops there.
    clock, t, rec = make("300+2")
    clock.start(t.now())
    t.advance(7 * S)
    clock.stop(t.now())
    assert clock.time_left(WHITE, t.now()) == 293 * S
    t.advance(100 * S)
    assert clock.time_left(WHITE, t.now()) == 293 * S
    assert not clock.press(WHITE, t.now())


def test_quickplay_finish_gives_both_5_seconds_a_move():
    clock, t, rec = make("300")
    clock.start(t.now())
    think(clock, t, WHITE, 10 * S)
    clock.quickplay_finish()
    think(clock, t, BLACK, 10 * S)
    think(clock, t, WHITE, 10 * S)
    assert clock.time_left(BLACK, t.now()) == 295 * S
    assert clock.time_left(WHITE, t.now()) == 285 * S
    raises(ClockError, clock.quickplay_finish)


def test_arbiter_corrections_in_pause():
    clock, t, rec = make("40/5400+30:1800+30")
    clock.start(t.now())
    raises(ClockError, clock.set_time, WHITE, 100 * S)  # only in pause
    clock.pause(t.now())
    clock.set_time(WHITE, 1000 * S)
    clock.set_time(BLACK, 2000 * S)
    clock.set_moves(WHITE, 39)
    clock.set_moves(BLACK, 45)
    assert clock.period == [0, 1] and clock.period_moves == [39, 5]
    clock.resume(t.now())
    think(clock, t, WHITE, 10 * S)  # the 40th move: the next period comes
    assert clock.time_left(WHITE, t.now()) == (1000 - 10 + 30 + 1800) * S
    assert clock.period == [1, 1]
    for kind in ("set_time", "set_moves"):
        assert kind in rec.kinds()
    raises(ClockError, clock.set_time, WHITE, -1)
    clock.pause(t.now())
    raises(ClockError, clock.set_period, WHITE, 2)
    clock.set_period(WHITE, 0)
    assert clock.period[0] == 0


def test_penalty_time_while_running():
    clock, t, rec = make("300+2")
    clock.start(t.now())
    t.advance(10 * S)
    clock.add_time(BLACK, 2 * MIN, t.now())  # 7.5.5: White's illegal move, Black gets 2 min
    clock.add_time(WHITE, 1 * MIN, t.now())
    assert clock.time_left(BLACK, t.now()) == 420 * S
    assert clock.time_left(WHITE, t.now()) == 350 * S
    t.advance(350 * S)
    assert clock.check(t.now())  # the deadline moved with the added time


def test_ticks_wrap_around():
    clock, t, rec = make("60+1", start=FakeTicks.PERIOD - 3000)
    clock.start(t.now())
    think(clock, t, WHITE, 10 * S)  # the tick counter wraps during this move
    assert t.now() < 10 * S
    assert clock.time_left(WHITE, t.now()) == 51 * S
    t.advance(61 * S)
    assert clock.check(t.now())
    # Black's clock started 10 s after the start and had 60 s: the flag tick is exact.
    assert clock.flag_ticks[1] == t.add(FakeTicks.PERIOD - 3000, 70 * S) == 67000


def test_eight_hours_of_random_presses_equal_the_exact_arithmetic():
    seed = [12345]

    def rand(n):  # a generator of our own: the same numbers in both interpreters
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
        return seed[0] % n

    presses = [0]

    class Count(ClockSink):
        def pressed(self, side, ms):
            presses[0] += 1

    t = FakeTicks(123)
    clock = ChessClock("40/5400+30:1800+30", sink=Count(), diff=t.diff, add=t.add)
    clock.start(t.now())
    used = [0, 0]
    side = 0
    total = 0
    for press in range(100000):
        ms = 1 + rand(575)
        total += ms
        t.advance(ms)
        assert clock.press(WHITE if side == 0 else BLACK, t.now())
        used[side] += ms
        side = 1 - side
    assert total < 8 * 3600 * S + 1
    for i, who in ((0, WHITE), (1, BLACK)):
        moves = 50000
        want = 5400 * S + 1800 * S + moves * 30 * S - used[i]
        assert clock.time_left(who, t.now()) == want, (who, clock.time_left(who, t.now()), want)
    assert presses[0] == 100000


def test_snapshot_for_display_and_protocol():
    clock, t, rec = make("40/5400+30:1800+30")
    assert clock.snapshot(t.now()) == (5400 * S, 5400 * S, None, False, 0, 0, 0, 0, 0, 0)
    clock.start(t.now())
    think(clock, t, WHITE, 10 * S)
    t.advance(3 * S)
    assert clock.snapshot(t.now()) == (5420 * S, 5397 * S, BLACK, False, 0, 0, 1, 0, 0, 0)
