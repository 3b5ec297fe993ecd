"""The UF2 a maker copies is in every clone, is this tree's firmware, and rebuilds byte for
byte from the pinned MicroPython sources: dist/chessboard-<version>.uf2 with its build
record (what was frozen, file by file) and MicroPython's notices beside it. A clone of the
repository in a temporary folder has it; the emulated Pico (../shared/rp2emu) boots it from
a blank flash and plays a game; built again there from the sources, it comes out the same.
The sources are refused when they are not the pinned ones."""
import hashlib
import os
import random
import subprocess
import sys
import tarfile

import chess
import pytest

from host_tools import emulator, tracegen, uf2

ROOT = uf2.ROOT
GIT = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0
# MicroPython's sources for a build: MPSRC_HOME, or the pinned archive beside the repository
# (as CI has it). The product never looks there by itself.
MPSRC = os.environ.get("MPSRC_HOME") or str(ROOT.parent / "shared" / "mpsrc")
SOURCES, NO_SOURCES = uf2.locate(MPSRC)
HOME, NO_EMULATOR = emulator.locate()
PORT = 7960 + 2 * int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)


def test_the_repository_ships_one_uf2_with_its_record_and_notices():
    shipped = uf2.shipped()
    assert shipped is not None, "dist/ must hold one chessboard-<version>.uf2: ./run uf2"
    rec = uf2.record(shipped)
    assert shipped.name == f"chessboard-{rec['version']}.uf2"
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == rec["uf2_sha256"]
    assert rec["micropython"] == {"tag": uf2.TAG, "commit": uf2.COMMIT, "submodules": uf2.SUBMODULES}
    assert uf2.image_size(shipped) >= rec["image_bytes"] and rec["image_bytes"] < uf2.FLASH_IMAGE_MAX
    data = shipped.read_bytes()
    assert data[:8] == b"UF2\n\x57\x51\x5d\x9e"  # UF2's two magic words, block 0
    # No path of the machine it was built on is in the image.
    for word in (b"/work", b"/home/", b"/tmp/", b"/root/"):
        assert word not in data, word
    notice = (uf2.DIST / "NOTICE.txt").read_text()
    for name in ("MIT License", "MicroPython", "Damien P. George", "Raspberry Pi", "TinyUSB", "littlefs",
                 "Apache License"):
        assert name in notice, name


def test_each_part_has_its_licence():
    # The software MIT (as MicroPython), the hardware an open hardware licence, the docs
    # and pictures Creative Commons; README says which is which.
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "CERN Open Hardware Licence Version 2 - Permissive" in (ROOT / "LICENSES" / "CERN-OHL-P-2.0.txt").read_text()
    assert "Attribution-ShareAlike 4.0" in (ROOT / "LICENSES" / "CC-BY-SA-4.0.txt").read_text()
    readme = (ROOT / "README.md").read_text()
    for spdx in ("MIT", "CERN-OHL-P-2.0", "CC BY-SA 4.0", "dist/NOTICE.txt"):
        assert spdx in readme.split("## Licences", 1)[1], spdx


@pytest.mark.skipif(not GIT, reason="not a git checkout: no version to compare")
def test_the_shipped_uf2_is_this_trees_firmware():
    # A change to firmware/, main.py or manifest.py (or a commit of one: the version
    # names it) without the UF2 built again fails here.
    shipped = uf2.shipped()
    changed = uf2.stale(shipped)
    assert not changed, (f"{shipped.name} is not this tree's firmware: {', '.join(changed[:5])} changed. "
                         "Build it again (`MPSRC_HOME=../shared/mpsrc ./run uf2`) and commit dist/")


def test_a_changed_firmware_file_makes_the_uf2_stale(monkeypatch):
    shipped = uf2.shipped()
    real = uf2.frozen_files

    def edited(v):
        files = real(v)
        files["firmware/match.py"] += b"\n# a change\n"
        return files

    monkeypatch.setattr(uf2, "frozen_files", edited)
    assert "firmware/match.py" in uf2.stale(shipped, version=uf2.record(shipped)["version"])
    assert uf2.stale(shipped, version="9.9.9+gabcdef0")[0].startswith("the version")


def test_sources_that_are_not_the_pinned_ones_are_refused(tmp_path):
    fake = tmp_path / uf2.ARCHIVE
    with tarfile.open(fake, "w:xz"):
        pass
    with pytest.raises(uf2.BuildError, match="not the pinned"):
        uf2.given(tmp_path)
    # A MicroPython checkout at another commit: refused, naming the tag to check out.
    repo = tmp_path / "micropython"
    (repo / "py").mkdir(parents=True)
    (repo / "py" / "mpconfig.h").write_text("#define MICROPY_VERSION_MAJOR 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    with pytest.raises(uf2.BuildError, match="checkout v1.28.0"):
        uf2.given(repo)
    with pytest.raises(uf2.BuildError, match="neither"):
        uf2.given(tmp_path / "nothing")
    ok, why = uf2.locate(tmp_path / "nothing")
    assert ok is None and "neither" in why


def test_the_product_names_no_folder_around_the_repository():
    # Sources come from --sources, MPSRC_HOME or a clone of MicroPython's repository, never
    # from a folder beside this one.
    text = (ROOT / "host_tools" / "uf2.py").read_text()
    assert "shared" not in text and "/work" not in text and "ROOT.parent" not in text


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    if not GIT:
        pytest.skip("not a git checkout")
    dest = tmp_path_factory.mktemp("clone") / "chessboard"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    return dest


def _clone_uf2(clone):
    found = sorted((clone / "dist").glob("chessboard-*.uf2"))
    assert len(found) == 1, "a clone has the UF2 in dist/"
    return found[0]


@pytest.mark.skipif(HOME is None, reason=NO_EMULATOR or "no emulated Pico")
def test_a_clone_has_the_uf2_and_a_blank_pico_plays_with_it(clone, tmp_path):
    # BOOTSEL, copy the UF2, done: no other file. The first start makes the filesystem and
    # the journal's sectors; the board says which firmware it is and plays a game.
    image = _clone_uf2(clone)
    want = uf2.record(image)["version"]
    with emulator.Pico(tmp_path / "emu", PORT).start(uf2=image) as p:
        hello = p.hello()["s"]
        assert f" fw={want} " in hello + " "
        t = p.now()
        p.occupy(emulator.START)
        p.send("new tc=60+0")
        game = int(p.line("ok new", after=t)["s"].split()[2])
        p.send("start")
        board = chess.Board()
        b = board.copy()
        moves = []
        for san in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
            moves.append(b.parse_san(san))
            b.push(moves[-1])
        trace = tracegen.trace_game(board, moves, random.Random(4))
        end = emulator.schedule(p, emulator.actions(trace), p.now() + 300)
        p.line(" clk 5 ", after=end - 5000)
        got = [ln["s"].split()[3] for ln in p.lines() if ln["s"].startswith(f"@{game}:")
               and ln["s"].split()[1] == "move"]
        assert got == [m.uci() for m in moves]
        assert not [ln for ln in p.lines() if "err internal" in ln["s"] or "Traceback" in ln["s"]]


@pytest.mark.skipif(SOURCES is None, reason=NO_SOURCES or "no MicroPython sources")
def test_the_clones_uf2_builds_again_byte_for_byte(clone, tmp_path, processes):
    # Reproducible: in another folder, from the pinned sources, the same bytes (no date,
    # no path, no commit of this repository's in MicroPython's version string).
    image = _clone_uf2(clone)
    out = tmp_path / "again.uf2"
    env = dict(os.environ, PYTHONPATH=str(clone))
    env.pop("MPSRC_HOME", None)
    # (a build starts make and the compilers: ended with it, whatever happens)
    r = processes.run([sys.executable, "-m", "host_tools", "uf2", "--sources", str(SOURCES.path),
                       "--out", str(out), "--quiet"], cwd=clone, env=env, capture_output=True, text=True,
                      timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    assert out.read_bytes() == image.read_bytes(), "the build is not reproducible"
    assert uf2.record(out)["frozen"] == uf2.record(image)["frozen"]
