"""One move followed through the firmware, from the scan that completes it to its line on
USB, by tracing the calls (sys.setprofile, CPython only) - the path docs/firmware.md draws
("One move, from the scan to USB").

The path is the move's main line: the calls on the stack when the recogniser hands the move
to the application (GameSink.make_move), when the record takes its event (Record.event)
and when the line's bytes go to the HAL (write), in the order they are entered, from the
loop's step on. A hop is a change of file along it; a back-track is entering a file the
path has already left: going back up the stack to where the path goes on (frames that only
return on the way up are passed, not entered), or calling into a file again. Work a part does on
the way and comes back from (the SAN looked up, the move played on the game, the event
packed into the log) is off the line: the part's own business, not the move's path."""
import os
import sys

from firmware.app.device import Device
from firmware.app.eventlog import MOVE
from firmware.app.journal import Journal
from firmware.hal.filesectors import FileSectors
from tests.firmware.fakehal import FakeHal, run, say, set_square, speak_first
from tests.firmware.support import tmp

CPYTHON_ONLY = "traces the calls with sys.setprofile"  # (its tests are not run again in micropython)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_HOPS = 16
MAX_BACKTRACKS = 2


def _rel(frame):
    return os.path.relpath(frame.f_code.co_filename, ROOT)


def _stack(frame, root):
    """The frames from root down to frame (root's frame first)."""
    out = []
    while frame is not None:
        out.append(frame)
        if frame is root:
            return out[::-1]
        frame = frame.f_back
    return None


def trace_step(step, now):
    """Run step(now) traced; the stacks (frames from the step's down) at the three
    moments that happened."""
    marks = {}
    root = []

    def prof(frame, event, arg):
        if event != "call":
            return
        if not root:
            root.append(frame)
        name = frame.f_code.co_name
        loc = frame.f_locals
        if name == "make_move" and "move" not in marks:
            marks["move"] = _stack(frame, root[0])
        elif name == "event" and loc.get("kind") == MOVE and "event" not in marks:
            marks["event"] = (_stack(frame, root[0]), loc.get("uci"))
        elif name == "write" and isinstance(loc.get("data"), bytes) and b" move " in loc["data"]:
            marks["write"] = _stack(frame, root[0])

    sys.setprofile(prof)
    try:
        step(now)
    finally:
        sys.setprofile(None)
    return marks


def path_of(marks):
    """The files of the move's main line in the order entered, repeats in a row merged.
    Between two of its frames the path goes back up the stack to the newer one's caller
    (entering its file again) and down from there; files passed on the way up, whose
    frames only return, are not entered."""
    order, seen = [], set()
    for stack in (marks["move"], marks["event"][0], marks["write"]):
        for f in stack:
            if id(f) not in seen:
                seen.add(id(f))
                order.append(f)
    path = []
    last = None
    for f in order:
        if last is not None and f.f_back is not last:
            _enter(path, _rel(f.f_back))  # back to where the path goes on from
        _enter(path, _rel(f))
        last = f
    return path


def _enter(path, f):
    if not path or path[-1] != f:
        path.append(f)


def counts(path):
    """(hops, back-tracks) of a path of files."""
    seen = set()
    back = 0
    for f in path:
        if f in seen:
            back += 1
        seen.add(f)
    return len(path) - 1, back


def _the_move_traced(complete):
    # As on the chip: the game kept on flash, so that the line waits for its commit.
    base = tmp("move-path-")
    for name in ("flash.bin", "journal.games"):
        if os.path.exists(base + name):
            os.remove(base + name)
    hal = FakeHal()
    dev = Device(hal, presets_path=base + "presets.json",
                 journal=Journal(FileSectors(base + "flash.bin", 16), base + "journal.games"))
    run(dev, hal, 50)
    speak_first(dev, hal)
    say(dev, hal, "start\n", 50)
    set_square(hal.occ, "e2", False)
    run(dev, hal, 300)
    hal.lines()
    set_square(hal.occ, "e4", True)
    if complete == "press":
        hal.queue.append(("press", 0x08, None, hal.t))
    for _ in range(100):  # step by step until the step whose scan completes the move
        marks = trace_step(dev.scan_step, hal.t)
        if "write" in marks:
            return marks
        dev.clock_step(hal.t)
        dev.protocol_step(hal.t)
        dev.idle_step()
        hal.t += hal.scan_ms
    raise AssertionError("no move line: %r" % hal.lines())


def test_a_move_reaches_usb_in_at_most_16_hops_and_2_back_tracks():
    marks = _the_move_traced("settle")
    assert "move" in marks and "event" in marks
    path = path_of(marks)
    hops, back = counts(path)
    assert hops <= MAX_HOPS and back <= MAX_BACKTRACKS, (hops, back, path)
    assert path[0] == "firmware/app/device.py" and path[-1] == "tests/firmware/fakehal.py", path
    # The record is handed the move's UCI text with the event: it calls nobody back for it.
    assert marks["event"][1] == "e2e4"


def test_a_move_completed_by_the_press_takes_the_same_short_path():
    marks = _the_move_traced("press")
    path = path_of(marks)
    hops, back = counts(path)
    assert hops <= MAX_HOPS and back <= MAX_BACKTRACKS, (hops, back, path)


def test_the_path_counts_what_it_says():
    # Turning back: b is entered again after c; a straight line has none.
    assert counts(["a", "b", "c", "b", "d"]) == (4, 1)
    assert counts(["a", "b", "c"]) == (2, 0)
