# Presets and user slots on the device's flash.
import os

from firmware.clock.presets import Presets, PresetError, FIXED
from firmware.clock.timecontrol import parse, TimeControlError
from tests.firmware.support import raises, tmp

PATH = tmp("test-presets.json")


def _clean():
    for p in (PATH, PATH + ".new"):
        try:
            os.remove(p)
        except OSError:
            pass


def test_fixed_presets_all_parse_and_include_the_fide_control():
    for name, control in FIXED:
        parse(control)
    assert Presets(PATH).get(1) == "40/5400+30:1800+30"


def test_user_slots_survive_a_restart():
    _clean()
    p = Presets(PATH)
    p.set_user(1, "Club night", "1200+5")
    p.set_user(5, "Training", "up")
    q = Presets(PATH)  # a new start of the device
    assert q.problem is None
    assert q.get(len(FIXED) + 1) == "1200+5" and q.get(len(FIXED) + 5) == "up"
    assert (len(FIXED) + 1, "Club night", "1200+5") in q.all()
    q.clear_user(1)
    raises(PresetError, Presets(PATH).get, len(FIXED) + 1)
    _clean()


def test_bad_input_changes_nothing():
    _clean()
    p = Presets(PATH)
    p.set_user(2, "ok", "300+2")
    raises(TimeControlError, p.set_user, 2, "bad", "300+")
    raises(PresetError, p.set_user, 6, "x", "300")
    raises(PresetError, p.get, 0)
    raises(PresetError, p.get, 99)
    assert Presets(PATH).get(len(FIXED) + 2) == "300+2"
    _clean()


def test_a_damaged_file_is_reported_not_fatal():
    _clean()
    with open(PATH, "w") as f:
        f.write('{"user": [["x", "300+')
    p = Presets(PATH)
    assert p.problem and "unreadable" in p.problem
    assert p.get(1) == FIXED[0][1]
    with open(PATH, "w") as f:
        f.write('{"user": [["x", "not a control"]]}')
    p = Presets(PATH)
    assert "damaged" in p.problem and p.user[0] is None
    _clean()
