# Settings belong to a seat (#50 item 2): a blind player at the left half of the clock keeps
# his motor, ask key and earphone whatever colour he has; the clock learns where White sits
# from the press that starts it (Black's), or from the host; a colour names the seat it has.
# The levers, keys, faces and lights are the hardware's halves, as FakeHal reports them
# (WHITE: the left half). Runs in both interpreters.
from firmware.access.settings import AccessSettings
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import fresh_device, hand_move, lever, run, say
from tests.firmware.support import raises, tmp

MICROPYTHON_HEAP = "384K"  # the whole application (64-bit objects)


def _access_line(hal):
    return [l for l in hal.lines() if l.startswith("access ")][-1]


def test_a_colour_names_the_seat_it_has_and_words_say_what_is_wrong():
    a = AccessSettings(tmp("seats-access.json"))
    a.update({"blind": "w"}, save=False)
    assert a["blind"] == "l"
    a.update({"white": "right", "blind": "w", "visual": "both", "ears": "on"}, save=False)
    assert a["blind"] == "r" and a["visual"] == "lr" and a["ears"] == "lr"
    e = raises(ValueError, a.update, {"blind": "x", "code": "taptic"}, False)
    assert str(e) == "blind is left, right, both or - (or a colour: w, b, wb)" and a["code"] == "tactileclock"
    assert str(raises(ValueError, a.update, {"white": "up"}, False)).startswith("white is left or right")
    assert str(raises(ValueError, a.update, {"volume": "31"}, False)).startswith("volume is 0 to 30")
    # A file saved before seats (colours, ears on) reads as seats.
    old = AccessSettings(tmp("seats-none.json"))
    old.update({"blind": "b", "ears": True, "volume": [12, 24]}, save=False)
    assert old["blind"] == "r" and old["ears"] == "lr" and old["volume"] == [12, 24]


def _motor_sides(hal, since):
    return set(side for t, side, duty in hal.motors if t >= since and duty)


def test_his_settings_follow_him_from_black_to_white():
    dev, hal = fresh_device("seats")
    say(dev, hal, "access blind=left\n", 100)
    assert _access_line(hal).endswith("blind=left visual=- buzzer=off code=tactileclock intensity=80,100 "
                                       "thresholds=600,300,60,10 speech=off volume=20 ears=- white=left")
    # Game 1: he is Black. He presses his lever (the left half's) to start White's clock.
    t0 = hal.t
    lever(dev, hal, WHITE)  # the hardware's left lever
    assert dev.config.access_settings["white"] == "right" and dev.clock.started and dev.clock.running_side() == WHITE
    assert dev.recognizer.press_only == BLACK  # his touches are his own (D.2.3), as Black
    hand_move(dev, hal, "e2", "e4")
    lever(dev, hal, BLACK)  # White, at the right half, completes e4
    run(dev, hal, 3000)
    # "Your clock runs" reached him on the left motor, never on the right one.
    assert _motor_sides(hal, t0) == {WHITE}
    assert dev.match.clock.running_side() == BLACK
    # His ask key (the left face's) asks for Black's time.
    hal.queue.append(("button", "ask-white", True, hal.t))
    run(dev, hal, 100)
    assert "ask b time" in hal.lines()
    # The faces: Black's time on the left face.
    run(dev, hal, 20000)
    assert hal.faces[-1][0] != hal.faces[-1][1]  # Black's clock ran down on the left face, White's is at +2
    # The seats are written once no clock runs (never while one does).
    assert dev.config.access_settings.unsaved
    say(dev, hal, "resign b\n", 100)
    run(dev, hal, 100)
    assert not dev.config.access_settings.unsaved
    # Game 2: he is White; Black, at the right half, starts the clock.
    hand_move(dev, hal, "e4", "e2")  # the pieces set up again
    say(dev, hal, "new\n", 100)
    t1 = hal.t
    lever(dev, hal, BLACK)
    assert dev.config.access_settings["white"] == "left" and dev.clock.running_side() == WHITE
    assert dev.recognizer.press_only == WHITE
    hand_move(dev, hal, "e2", "e4")
    lever(dev, hal, WHITE)
    run(dev, hal, 3000)
    assert _motor_sides(hal, t1) == {WHITE}  # still the left motor: his
    assert dev.config.access_settings["blind"] == "l"


def test_without_seat_settings_the_start_changes_nothing_and_the_host_may_say():
    dev, hal = fresh_device("seats-none")
    lever(dev, hal, WHITE)  # a press of White's own lever before the start: nothing learnt
    assert dev.config.access_settings["white"] == "left"
    say(dev, hal, "access white=right blind=b\n", 100)
    assert dev.config.access_settings["white"] == "right" and dev.config.access_settings["blind"] == "l"  # Black at the left
    assert dev.recognizer.press_only == BLACK


def test_the_same_settings_again_write_no_flash():
    # The relay tells a paired blind player's board where White sits at each hello, a
    # game perhaps running: the same value again is no flash write (nothing may delay a lever).
    import os

    path = tmp("seats-again.json")
    a = AccessSettings(path)
    a.update({"white": "right", "blind": "left"})
    os.remove(path)
    a.update({"white": "right"})
    a.update({"blind": "l"})
    assert not _exists(path)
    a.update({"white": "left"})
    assert _exists(path) and AccessSettings(path)["white"] == "left"


def _exists(path):
    import os

    try:
        os.stat(path)
        return True
    except OSError:
        return False
