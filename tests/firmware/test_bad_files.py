# The board starts on any content of its own settings files (firmware/jsonfile.py): a
# presets file nested 100,000 deep (MicroPython's parser would run out of memory and the
# board would crash at every boot), a folder where a file should be, a file too large,
# bytes that are not JSON, JSON of the wrong shape. Each gives the defaults and one warning
# line, and the board plays; a settings command that the flash refuses is answered with an
# error, not a crash.
import os

from tests.firmware.fakehal import FakeHal, run, say, set_square, speak_first
from tests.firmware.support import tmp

MICROPYTHON_HEAP = "368K"  # the whole application, all of its code on this 64-bit heap (two devices at once: 360K since the seats, #50)

BAD = (
    ("deep", ("[" * 1000, 100)),  # written 100 times: 100,000 deep
    ("junk", ("\x00\xff\xfe not json", 1)),
    ("large", ('{"user": [' + "null, " * 2000 + "null]}", 1)),
    ("shape", ("[1, 2, 3]", 1)),
    ("number", ("1e999999", 1)),
)


def _clear(base):
    for kind in ("presets", "access", "config"):
        path = base + kind + ".json"
        try:
            os.remove(path)
        except OSError:
            try:
                os.rmdir(path)
            except OSError:
                pass


def _boot(base):
    from firmware.app.device import Device

    hal = FakeHal()
    dev = Device(hal, presets_path=base + "presets.json")
    run(dev, hal, 50)
    speak_first(dev, hal)
    return dev, hal


def _plays(dev, hal):
    hal.lines()
    say(dev, hal, "start\n", 50)
    set_square(hal.occ, "e2", False)
    run(dev, hal, 200)
    set_square(hal.occ, "e4", True)
    run(dev, hal, 400)
    return [ln for ln in hal.lines() if " move 1 e2e4 e4" in ln]


def test_every_kind_of_bad_settings_file_gives_defaults_and_a_warning():
    for name, (content, times) in BAD:
        base = tmp("badfile-%s-" % name)
        _clear(base)
        for kind in ("presets", "access", "config"):
            with open(base + kind + ".json", "w") as f:
                for _ in range(times):
                    f.write(content)
        dev, hal = _boot(base)
        warnings = [ln for ln in hal.lines() if ln.startswith("warning ")]
        assert len(warnings) == 3, (name, warnings)
        assert dev.games.control == "300+2" and dev.config.access_settings["blind"] == "" and not dev.match.auto_penalties
        assert _plays(dev, hal), name
        _clear(base)
        dev = hal = None  # one board at a time: this one gone before the next is built


def test_a_folder_where_a_settings_file_should_be():
    base = tmp("badfile-folder-")
    _clear(base)
    for kind in ("presets", "access", "config"):
        os.mkdir(base + kind + ".json")
    dev, hal = _boot(base)
    warnings = [ln for ln in hal.lines() if ln.startswith("warning ")]
    assert len(warnings) == 3 and all("folder" in w for w in warnings), warnings
    assert _plays(dev, hal)
    # Saving over a folder: refused with an error; the board goes on as it was.
    say(dev, hal, "access blind=w\n", 50)
    say(dev, hal, "config settle=60\n", 50)
    answers = [ln for ln in hal.lines() if ln.startswith("err ")]
    assert len(answers) == 2 and all(a.startswith("err not-now the%20flash%20refused") for a in answers), answers
    _clear(base)
