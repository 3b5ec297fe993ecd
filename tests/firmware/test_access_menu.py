# A blind player sets up his clock on his own (#50): from a fresh board, by the clock's
# menu alone - the buttons as the hardware reports them (the simulator's HAL and its button
# bank: a hold is its press, then "-long" 800 ms later) - he sets blind, Italian speech and
# his own earphone for his seat, the left half of the clock, feeling each item on his motor
# and hearing it; then he plays a game as Black and one as White, and his settings follow
# him: his motor, his ask key, his earphone. Then the practice: the signals, the numbers and
# the quiz. Runs in both interpreters.
from firmware.access import patterns as P
from firmware.access import phrases
from firmware.access import menu
from firmware.access.menu import ITEMS
from firmware.access.player import SEPARATION_MS
from firmware.access.settings import AccessSettings
from firmware.app.device import Device
from firmware.board.occupancy import START, to_hex
from firmware.rules.squares import WHITE, BLACK
from simulator.hal import SimHal
from tests.firmware.support import lines_of, tmp
from tests.firmware.tracebuilder import Scenario

TRACE = tmp("test-access-menu.trace")
PRESETS = tmp("test-access-menu-presets.json")
ACCESS = tmp("test-access-menu-access.json")
MICROPYTHON_HEAP = "448K"  # the whole application (64-bit objects), the trace and its records
PACE = 3000  # the player waits this long after each button: his own pace


def _tap(s, name):
    s.button(name)
    s.wait(PACE)


def _hold(s, name):
    s.lines.append("%d button %s down" % (s.t, name))
    s.t += 1200
    s.lines.append("%d button %s up" % (s.t, name))
    s.wait(PACE)


def _setup(s):
    """From a fresh board, by the menu alone: blind on, ears on, speech Italian, at the left."""
    s.wait(500)
    _hold(s, "menu")  # the access menu: item 1, blind, felt on the left motor
    marks = {"open": s.t}
    _tap(s, "ask-white")  # his own ask key: the menu is his seat's
    _tap(s, "plus")  # blind: on
    _tap(s, "ok")  # deaf
    _tap(s, "ok")  # ears
    _tap(s, "plus")  # ears: on
    _tap(s, "ok")  # volume
    _tap(s, "ok")  # speech
    _tap(s, "plus")  # English
    marks["speech"] = s.t
    _tap(s, "plus")  # Italian
    _tap(s, "menu")  # closed: kept on the flash
    marks["closed"] = s.t
    return marks


def _restart(s):
    """The pieces set up again: a new game (the board sees the start position)."""
    s.wait(2000)
    s.occ[:] = START
    s.lines.append("%d occ %s" % (s.t, to_hex(s.occ)))
    s.wait(3000)


def _game_as_black(s):
    s.press("white").wait(500)  # he, at the left half, starts White's clock: he is Black
    s.move("f2", "f3").press("black")
    s.wait(4000).button("ask-white")  # his time: Black's, into his ear
    s.wait(15000)
    s.move("e7", "e5").press("white")
    s.move("g2", "g4").press("black")
    s.move("d8", "h4").press("white")  # mate


def _game_as_white(s):
    s.press("black").wait(500)  # the opponent, at the right half, starts White's clock
    s.move("e2", "e4").press("white")  # he is White now, at the same left half
    s.wait(4000).button("ask-white")
    s.wait(15000)


def _run(lines, until):
    with open(TRACE, "w") as f:
        for line in lines:
            f.write(line + "\n")
    for path in (ACCESS,):
        try:
            import os

            os.remove(path)
        except OSError:
            pass
    hal = SimHal(TRACE, virtual=True)
    out, motors, said = [], [], []
    hal.write = lambda data: out.append(bytes(data))
    hal.read = lambda: None
    hal.motor = lambda side, duty: motors.append((hal.now(), side, duty))
    hal._record = lambda text: said.append((hal.now(), int(text.split()[1]), int(text.split()[2]))) \
        if text.startswith("say ") else None
    dev = Device(hal, presets_path=PRESETS, access_path=ACCESS)
    dev.receive(b"hello\n")  # a host listens (the board never speaks first): the lines are checked
    while hal.now() < until:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    return dev, lines_of(out), motors, said


def _words(tracks):
    every = phrases.WORDS + menu.words()
    return [t - 1 if t <= phrases.NUMBERS else every[t - phrases.NUMBERS - 1] for t in tracks]


def _pulses(motors, side, start, end):
    """(on ms) of each pulse of side's motor between start and end."""
    got = [(t, d) for t, s, d in motors if s == side and start <= t < end]
    return [b[0] - a[0] for a, b in zip(got[0::2], got[1::2])]


def test_a_blind_player_sets_up_by_the_menu_alone_and_his_settings_follow_him():
    s = Scenario()
    marks = _setup(s)
    _restart(s)  # (nothing moved: the same start)
    g1 = s.t
    _game_as_black(s)
    _restart(s)
    g2 = s.t
    _game_as_white(s)
    dev, lines, motors, said = _run(s.lines, s.t + 3000)
    # The menu opened on both motors (no seat was blind yet); from his touch of his ask key
    # it spoke to the left seat only: its motor felt every item, the right one nothing.
    assert _pulses(motors, BLACK, 0, marks["open"])[:4] == [P.SHORT] * 4
    assert _pulses(motors, BLACK, marks["open"] + 100, marks["closed"]) == []
    felt = _pulses(motors, WHITE, 0, marks["open"])
    assert felt[:4] == [P.SHORT] * 4  # the menu's rhythm first: s s s s, then item 1 ...
    # The settings, kept on the flash: his seat's.
    kept = AccessSettings(ACCESS)
    assert kept["blind"] == "l" and kept["ears"] == "l" and kept["speech"] == "it" and kept["visual"] == ""
    # The voice, once set, said the menu's words in Italian into his ear alone (folder 12).
    after = [(f, t) for at, f, t in said if marks["speech"] <= at < g1]
    assert after and set(f for f, _ in after) <= {11, 12}
    assert "closed" in _words([t for f, t in after if f == 12])
    # Game 1: he is Black; his left motor gives Black's signals, his ask key Black's time
    # (into his ear, in Italian), and the right motor never moved.
    assert "ask b time" in lines
    black_said = [t for at, f, t in said if g1 <= at < g2 and f == 12]
    assert _words(black_said)[0] == "black"
    assert _pulses(motors, WHITE, g1, g2) and not _pulses(motors, BLACK, g1, g2)
    assert [l for l in lines if l.endswith("result 0-1 checkmate")]
    # Game 2: he is White at the same seat; the clock learnt it from the start.
    assert dev.config.access_settings["white"] == "left"
    assert "ask w time" in lines
    white_said = [t for at, f, t in said if at >= g2 and f == 12]
    assert _words(white_said)[0] == "white"
    assert _pulses(motors, WHITE, g2, s.t + 3000) and not _pulses(motors, BLACK, g2, s.t + 3000)
    assert dev.recognizer.press_only == WHITE


def _has(seq, sub):
    return any(seq[i:i + len(sub)] == sub for i in range(len(seq)))


def _practice(s, item, presses):
    """Open the menu, go to item, make the presses (name or (name, ms after))."""
    _hold(s, "menu")
    for _ in range(item):
        s.button("ok")
        s.wait(300)
    for p in presses:
        if p[:5] == "hold ":
            _hold(s, p[5:])
            s.wait(PACE * 2)
            continue
        name, after = p if isinstance(p, tuple) else (p, PACE * 3)
        s.button(name)
        s.wait(after)
    _tap(s, "menu")


def test_the_practice_plays_each_event_after_its_number_and_the_quiz_waits_for_his_key():
    s = Scenario()
    s.wait(500)
    start = s.t
    _practice(s, ITEMS.index("patterns"), ["plus", "plus"])  # event 2, "your move was completed"
    mid = s.t
    _practice(s, ITEMS.index("numbers"), ["hold plus", "minus"])  # held: 1, then ten more: 11; minus: 10
    quiz = s.t
    _practice(s, ITEMS.index("quiz"), ["plus", ("ask-white", PACE * 4)])
    dev, lines, motors, said = _run(s.lines, s.t + 2000)
    # No question was asked by the ask key in the quiz: it was his answer.
    assert "ask w time" not in lines
    played = _pulses(motors, WHITE, start, mid)
    # Each step: the event's number (the number code's pulses), a group's pause, its pattern:
    # event 1 (s) after "1", event 2 (s s) after "2".
    assert _has(played, [100, 250]) and _has(played, [100, 100, 250, 250])
    numbers = _pulses(motors, WHITE, mid, quiz)
    assert _has(numbers, [100, 100]) and _has(numbers, [100, 500, 500])  # 11 (held: ten more), then 10
    got = _pulses(motors, WHITE, quiz, s.t + 2000)
    # The quiz: a random event, then (his key) right or wrong - l l l l or l s s s - and its number.
    assert _has(got, [P.LONG, P.SHORT, P.SHORT, P.SHORT]) or _has(got, [P.LONG] * 4)
    assert dev.config.signals.menu_sides == ()  # the motor is the settings' again


def test_the_menu_is_the_seat_that_touches_its_ask_key_and_a_closing_hold_does_not_reopen_it():
    from tests.firmware.fakehal import fresh_device, run

    dev, hal = fresh_device("access-menu-seat")

    def button(name, ms=300):
        hal.queue.append(("button", name, True, hal.t))
        run(dev, hal, ms)

    button("menu", 800)
    opened = hal.t
    button("menu-long", 3000)  # the hold: the access menu, felt on both motors (no blind seat yet)
    assert dev.controls.menu.mode == "access" and dev.config.signals.menu_sides == (WHITE, BLACK)
    assert set(side for t, side, d in hal.motors if t >= opened and d) == {WHITE, BLACK}
    assert dev.controls.menu.text() == ("BLIND", "OFF L")
    button("ask-black", 3000)  # the right seat's player: the menu is his
    assert dev.config.signals.menu_sides == (BLACK,) and "ask b time" not in hal.lines()
    start = hal.t
    button("plus", 6000)
    assert dev.config.access_settings["blind"] == "r" and dev.controls.menu.text() == ("BLIND", "ON R")
    right = [d for t, side, d in hal.motors if t >= start and side == BLACK and d]
    assert right and not [d for t, side, d in hal.motors if t >= start and side == WHITE and d]
    button("menu", 800)  # closed by the press of a hold...
    button("menu-long", 6000)  # ...whose "long" does not open it again
    assert dev.controls.menu is None and dev.config.signals.menu_sides == ()
    assert hal.motors[-1][2] == 0  # no motor left on
    # A blind seat of his own now: outside the menu his motor is his settings'.
    assert dev.config.signals.blind(BLACK) and not dev.config.signals.blind(WHITE)


def test_his_ask_and_draw_keys_together_open_the_practice_for_his_seat_never_in_a_game():
    # With no clock running, a player's ask key and draw key - both on his own half, found
    # by touch - touched together open the practice of the signals (item 13) for his seat:
    # no menu button to find. In a game each key keeps its meaning.
    from tests.firmware.fakehal import fresh_device, lever, run, say

    dev, hal = fresh_device("access-practice-chord")
    say(dev, hal, "access white=right\n", 300)  # Black sits at the left half this game
    hal.lines()

    def key(name, ms=300):
        hal.queue.append(("button", name, True, hal.t))
        run(dev, hal, ms)

    key("ask-white", 1500)  # his ask key alone: his time, as ever
    assert dev.controls.menu is None
    key("ask-white", 200)  # (a touch while it plays stops it)
    opened = hal.t
    key("ask-white", 100)
    key("draw-white", 9000)  # the left half's two keys together: the practice, his seat's
    menu = dev.controls.menu
    assert menu is not None and menu.mode == "access" and menu.access.item == ITEMS.index("patterns")
    assert menu.access.seat == "l" and dev.config.signals.menu_sides == (BLACK,)  # the left seat: Black's motor
    # (the FakeHal's motors are the hardware's halves: the left one is "WHITE")
    assert [d for t, side, d in hal.motors if t >= opened and side == WHITE and d]
    assert not [d for t, side, d in hal.motors if t >= opened and side == BLACK and d]
    assert menu.text() == ("SIGNALS", "1")
    start = hal.t
    key("plus", 8000)  # event 1 after its number
    assert _has(_pulses(hal.motors, WHITE, start, hal.t), [100, 250])
    key("menu", 4000)  # closed as ever
    assert dev.controls.menu is None and dev.config.signals.menu_sides == ()
    # The right half's keys apart (more than a moment): nothing opens.
    key("ask-black", 900)
    key("draw-black", 15000)  # (his question's answer played whole)
    assert dev.controls.menu is None
    # In a game, together they are a question and a draw offer, never the practice.
    say(dev, hal, "access white=left\n", 300)
    lever(dev, hal, BLACK)  # White's clock runs
    run(dev, hal, 500)
    hal.lines()
    key("ask-white", 100)
    key("draw-white", 3000)
    assert dev.controls.menu is None
    lines = hal.lines()
    assert "ask w time" in lines


def test_the_self_test_names_the_levers_and_keys_as_the_hardware_does_whatever_seat_white_has():
    # The maker's self-test reads the hardware's halves (firmware/app/selftest.py): with
    # White at the right (access white=right) the left lever is still "white" and the
    # left face's ask key "ask-white", as pinmap.py and the maker's guide name them.
    from tests.firmware.fakehal import fresh_device, run, say

    dev, hal = fresh_device("access-selftest-seats")
    say(dev, hal, "access white=right\n", 300)
    say(dev, hal, "selftest start\n", 300)
    hal.lines()
    hal.queue.append(("press", WHITE, None, hal.t))
    run(dev, hal, 300)
    hal.queue.append(("button", "ask-white", True, hal.t))
    run(dev, hal, 300)
    hal.queue.append(("button", "draw-black", True, hal.t))
    run(dev, hal, 300)
    say(dev, hal, "selftest report\n", 300)
    (report,) = [line for line in hal.lines() if line.startswith("selftest stuck=")]
    say(dev, hal, "selftest stop\n", 300)
    assert " buttons=white,ask-white,draw-black " in report, report
