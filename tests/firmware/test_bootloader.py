# The way to a new UF2 with the clock closed (docs/maker.md, "Updating a board"): the
# `bootloader` command and the arbiter's menu item UPDATE restart the board into the
# RP2040's USB bootloader, the game committed to flash first; never while a clock runs.
from tests.firmware.fakehal import fresh_device, run, say

MICROPYTHON_HEAP = "384K"  # the whole application (tests/firmware/test_device_protocol.py)


def _ask(dev, hal, text):
    say(dev, hal, text, 50)
    return [l for l in hal.lines() if not l.startswith("clock ")]


def _restarted(hal):
    return getattr(hal, "restarted_to_bootloader", False)


def test_the_bootloader_command_restarts_into_the_usb_bootloader():
    dev, hal = fresh_device("test-bootloader")
    hal.lines()
    commits = []
    real = dev.record.commit
    dev.record.commit = lambda now, clock, *more: commits.append(now) or real(now, clock, *more)
    # (On the chip the restart follows its ok at once; here the fake goes on.)
    assert _ask(dev, hal, "bootloader\n")[0] == "ok bootloader"
    assert _restarted(hal) and commits  # the game on flash before the restart


def test_not_while_a_clock_runs():
    dev, hal = fresh_device("test-bootloader")
    _ask(dev, hal, "start\n")
    run(dev, hal, 500)
    got = _ask(dev, hal, "bootloader\n")
    assert got[-1].startswith("err not-now") and not _restarted(hal)
    _ask(dev, hal, "pause\n")
    assert _ask(dev, hal, "bootloader\n")[-1] == "ok bootloader" and _restarted(hal)


def _press(dev, hal, name):
    hal.queue.append(("button", name, True, hal.t))
    run(dev, hal, 20)


def _to_update(dev, hal):
    _ask(dev, hal, "start\n")
    run(dev, hal, 1000)
    _press(dev, hal, "menu")  # pauses, opens the arbiter's menu
    for _ in range(9):
        _press(dev, hal, "ok")
    assert hal.faces[-1] == ("UPDATE", "NO")


def test_the_arbiters_menu_item_update():
    dev, hal = fresh_device("test-bootloader")
    _to_update(dev, hal)
    _press(dev, hal, "plus")
    assert hal.faces[-1] == ("UPDATE", "YES")
    assert not _restarted(hal)  # only the last ok restarts
    _press(dev, hal, "ok")
    assert _restarted(hal)


def test_update_left_at_no_restarts_nothing():
    dev, hal = fresh_device("test-bootloader")
    _to_update(dev, hal)
    _press(dev, hal, "plus")
    _press(dev, hal, "minus")
    assert hal.faces[-1] == ("UPDATE", "NO")
    _press(dev, hal, "ok")
    assert not _restarted(hal) and dev.controls.menu is None
