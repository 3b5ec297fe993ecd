"""`python -m host_tools update`: a new UF2 onto a board with its clock closed. On the
emulated Pico (../shared/rp2emu) as far as it reaches: update's own code sends the
`bootloader` command over the board's USB line, the chip restarts (the RP2040's reset into
its bootloader: the emulator has no USB drive to show, so the test plays the drive as a
folder and, once update has copied the UF2 onto it, boots the new image over the old flash
as the bootloader does), and update waits for the hello naming the new version; the game,
its journal, the access settings and a user's preset are all there after it and the game
plays on. The drive's search and the copy are tested on folders, the refusals on the
emulated board."""
import json
import os
import random
import threading
import time
from pathlib import Path

import chess
import pytest

from host_tools import build, emulator, tracegen, uf2, update, version
from host_tools.commandline import CommandError

HOME, NO_EMULATOR = emulator.locate()
SHIPPED = uf2.shipped()
SOURCES, NO_SOURCES = uf2.locate(os.environ.get("MPSRC_HOME") or build.ROOT.parent / "shared" / "mpsrc")
PORT = 7930 + 2 * int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"  # the RP2040 bootrom's


# ----- the drive

def test_the_drive_is_found_by_its_info_file_and_the_uf2_lands_whole(tmp_path):
    other, drive = tmp_path / "usbstick", tmp_path / "RPI-RP2"
    other.mkdir()
    drive.mkdir()
    (other / "INFO_UF2.TXT").write_text("UF2 Bootloader\nModel: some other board\n")
    late = threading.Timer(0.6, lambda: (drive / "INFO_UF2.TXT").write_text(INFO))  # it appears later
    late.start()
    try:
        found = update.find_drive(wait_s=10, places=lambda: [other, drive], say=lambda s: None)
    finally:
        late.cancel()
    assert found == drive
    update.copy(SHIPPED or Path(__file__), drive)
    src = SHIPPED or Path(__file__)
    assert (drive / src.name).read_bytes() == src.read_bytes()


def test_no_drive_says_how_to_name_it(tmp_path):
    with pytest.raises(update.UpdateError, match="--drive"):
        update.find_drive(wait_s=0.3, places=lambda: [tmp_path], say=lambda s: None)


def test_the_places_a_drive_is_looked_for_on_each_system(monkeypatch):
    monkeypatch.setattr(update.sys, "platform", "win32")
    assert update.candidates()[0] == Path("A:\\") and len(update.candidates()) == 26
    monkeypatch.setattr(update.sys, "platform", "darwin")
    monkeypatch.setattr(update.glob, "glob", lambda pattern: ["/Volumes/RPI-RP2"] if pattern == "/Volumes/*" else [])
    assert update.candidates() == [Path("/Volumes/RPI-RP2")]


def test_a_uf2_that_is_not_one_is_refused(tmp_path):
    bad = tmp_path / "x.uf2"
    bad.write_bytes(b"not a uf2")
    with pytest.raises(CommandError, match="not a UF2"):
        update.image(str(bad))
    with pytest.raises(CommandError, match="not a file"):
        update.image(str(tmp_path / "missing.uf2"))
    if SHIPPED:
        path, v = update.image(None)
        assert path == SHIPPED and v == uf2.record(SHIPPED)["version"]


# ----- on the emulated Pico

def _game_lines(p, game):
    seen = {}
    for ln in p.lines():
        if ln["s"].startswith(f"@{game}:"):
            seen.setdefault(int(ln["s"].split()[0].split(":")[1]), ln["s"])
    return [seen[k] for k in sorted(seen)]


def _occupancy(board):
    return "".join("1" if board.piece_at(sq) else "0" for sq in chess.SQUARES)


def _restarted(log: Path, after_line: str, timeout=60) -> dict:
    """The chip's reset that follows after_line in the emulator's log (read as it grows)."""
    end = time.monotonic() + timeout
    seen = False
    with open(log) as f:
        while time.monotonic() < end:
            raw = f.readline()
            if not raw:
                time.sleep(0.01)
                continue
            try:
                e = json.loads(raw)
            except ValueError:
                continue
            seen = seen or (e.get("ev") == "line" and e.get("s") == after_line)
            if seen and e.get("ev") in ("watchdog", "boot"):
                return e
    raise AssertionError("the chip did not restart after " + after_line)


@pytest.fixture(scope="module")
def newer(tmp_path_factory):
    if SOURCES is None:
        pytest.skip(NO_SOURCES or "no MicroPython sources")
    out = tmp_path_factory.mktemp("newer") / f"chessboard-{version.describe()}.next.uf2"
    return uf2.build(out=out, say=lambda s: None, version=version.describe() + ".next", sources=SOURCES.path)


@pytest.mark.skipif(HOME is None, reason=NO_EMULATOR or "no emulated Pico")
@pytest.mark.skipif(SHIPPED is None, reason="no UF2 in dist/")
def test_update_on_the_emulated_pico_keeps_the_game_and_the_settings(newer, tmp_path):
    image = emulator.uf2_image(build.ROOT / "build" / "chip", PORT + 1, SHIPPED)
    old = emulator.Pico(tmp_path / "old", PORT).start(flash=image)
    new = None
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    saved = tmp_path / "flash.bin"
    board = chess.Board()
    try:
        old.hello()
        t = old.now()
        old.send("access blind=w")
        old.line("ok access", after=t)
        old.send("preset set 1 name=Club tc=1200+5")
        old.line("ok preset set", after=t)
        old.occupy(_occupancy(board))
        old.send("new")
        game = int(old.line("ok new", after=t)["s"].split()[2])
        old.send("start")
        moves = []
        for san in "e4 c5 Nf3 d6".split():
            moves.append(board.parse_san(san))
            board.push(moves[-1])
        trace = tracegen.trace_game(chess.Board(), moves, random.Random(5))
        end = emulator.schedule(old, emulator.actions(trace), old.now() + 300)
        old.line(" clk 4 ", after=end - 5000)
        old.wait_until(end + 300)
        # While the clock runs the board refuses, and update says what to do.
        with pytest.raises(update.UpdateError, match="pause it"):
            update.ask_bootloader(old.tty)
        t = old.now()
        old.send("pause")
        old.line("ok pause", after=t)
        before = _game_lines(old, game)
        # The flash as the restart leaves it (the emulator's control channel stops with
        # the chip in the bootloader: it is saved here, the game paused and committed).
        old.save_flash(saved)
        state = {"tty": old.tty}

        def bootloader_and_drive():
            # The chip restarts after its `ok bootloader`; the drive appears; once update
            # has copied the UF2 onto it, the bootloader writes it over the old image and
            # starts it (the filesystem stays).
            nonlocal new
            _restarted(old.log, "ok bootloader")
            old.kill()
            state["tty"] = None
            (drive / "INFO_UF2.TXT").write_text(INFO)
            copied = drive / newer.name
            while not (copied.exists() and copied.stat().st_size == newer.stat().st_size):
                time.sleep(0.05)
            new = emulator.Pico(tmp_path / "new", PORT).start(flash=saved, uf2=copied)
            new.occupy(_occupancy(board))  # the pieces stayed
            state["tty"] = new.tty

        chip_side = threading.Thread(target=bootloader_and_drive, daemon=True)
        chip_side.start()
        said = []
        hello = update.update(None, newer, version.describe() + ".next", say=said.append,
                              find=lambda: state["tty"], places=lambda: [drive])
        chip_side.join(5)
        assert said[0] == f"board on {old.tty}: fw={version.describe()}"
        assert f" fw={version.describe()}.next " in hello + " " and f" game={game} " in hello + " "
        new.line("recovered", after=0)
        t = new.now()
        new.send(f"resend {game}:1")
        done = new.line(f"ok resend {game}:", after=t)
        again = [ln["s"] for ln in new.lines() if t < ln["t"] <= done["t"] and ln["s"].startswith(f"@{game}:")]
        assert again[:len(before)] == before
        t = new.now()
        new.send("access")
        assert " blind=left " in new.line("access ", after=t)["s"]
        new.send("preset list")
        assert new.line("preset 17 ", after=t)["s"] == "preset 17 Club 1200+5"
        new.send("resume")
        m = board.parse_san("d4")
        end = emulator.schedule(new, emulator.actions(tracegen.trace_game(board.copy(), [m], random.Random(6))),
                                new.now() + 300)
        assert new.line(" move 5 ", after=end - 5000)["s"].endswith("d2d4 d4")
    finally:
        old.kill()
        if new is not None:
            new.close()
