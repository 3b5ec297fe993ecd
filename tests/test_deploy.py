"""Deployment to a Pico, with mpremote replaced by a fake board that keeps the files it
is given (no Pico here): every file lands, the hashes are compared, a corrupt copy is
caught."""
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import build, deploy


class FakeBoard:
    """Answers mpremote command lines like a board with a filesystem would."""

    def __init__(self, corrupt=None):
        self.fs = {}
        self.calls = []
        self.corrupt = corrupt
        self.reset = False

    def __call__(self, args, timeout=None):
        self.calls.append(args)
        assert args[:2] == ["connect", "auto"]
        cmd = args[2]
        if cmd == "cp":
            data = Path(args[3]).read_bytes()
            remote = args[4][1:]
            if remote == self.corrupt:
                data = data[:-1] + bytes([data[-1] ^ 1])
            self.fs[remote] = data
            return 0, ""
        if cmd == "exec":
            if "implementation" in args[3]:
                return 0, "micropython\n"
            paths = eval(args[3].split("for p in ", 1)[1].split(":", 1)[0])
            lines = []
            for p in paths:
                lines.append(f"{p} {hashlib.sha256(self.fs[p]).hexdigest()}" if p in self.fs else f"{p} missing")
            return 0, "\n".join(lines) + "\n"
        if cmd == "reset":
            self.reset = True
        return 0, ""


def test_every_file_lands_and_is_verified():
    board = FakeBoard()
    said = []
    deploy.deploy(runner=board, say=said.append)
    plan = deploy.files()
    assert set(board.fs) == {remote for _, remote in plan}
    assert "main.py" in board.fs and "firmware/app/device.mpy" in board.fs
    assert not any(r.endswith(".py") and r.startswith("firmware/") for r in board.fs)
    assert board.reset
    assert said[-2] == f"verified {len(plan)} files (SHA-256)"
    assert sum(1 for s in said if s.startswith("[")) == len(plan)  # progress, file by file
    assert ["connect", "auto", "rm", "-r", ":firmware"] in board.calls


def test_the_copy_says_what_it_is_and_carries_its_mark():
    # A deployed copy runs before the UF2's frozen firmware only with its mark (main.py),
    # and its version tells it apart (hello ... fw=...fs).
    board = FakeBoard()
    deploy.deploy(runner=board, say=lambda s: None)
    assert deploy.MARK in board.fs
    version = [local for local, remote in deploy.files() if remote == deploy.VERSION]
    assert len(version) == 1 and version[0].parent == deploy.STAGE
    assert ".fs" in (deploy.STAGE / "version.py").read_text()


def test_remove_takes_the_copy_away():
    board = FakeBoard()
    board.fs["firmware/app/device.mpy"] = b"x"
    said = []
    deploy.remove(runner=board, say=said.append, knock=lambda port: "")
    assert ["connect", "auto", "rm", "-r", ":firmware"] in board.calls and board.reset
    assert "UF2" in said[0]


def test_a_corrupt_copy_stops_the_deploy():
    board = FakeBoard(corrupt="firmware/rules/position.mpy")
    with pytest.raises(RuntimeError, match="firmware/rules/position.mpy"):
        deploy.deploy(runner=board, say=lambda s: None)
    assert not board.reset


def test_no_board_no_deploy():
    def nothing(args, timeout=None):
        return 1, "failed to access /dev/ttyACM0"

    with pytest.raises(RuntimeError, match="no MicroPython board"):
        deploy.deploy(runner=nothing, say=lambda s: None)


def test_a_board_running_the_application_is_asked_for_its_prompt(monkeypatch):
    monkeypatch.setattr(deploy, "SETTLE_S", 0)
    knocked = []

    def app(port):  # what the application answers the repl command (firmware/app/commands.py)
        knocked.append(port)
        return "ok repl\n"

    board = FakeBoard()
    said = []
    deploy.deploy("/dev/ttyACM7", runner=_on(board, "/dev/ttyACM7"), say=said.append, knock=app)
    assert knocked == ["/dev/ttyACM7"]
    assert "the application restarts into MicroPython's prompt" in said
    assert board.reset


def test_a_running_clock_stops_the_deploy(monkeypatch):
    board = FakeBoard()
    with pytest.raises(RuntimeError, match="clock is running: pause it"):
        deploy.deploy("/dev/ttyACM7", runner=_on(board, "/dev/ttyACM7"), say=lambda s: None,
                      knock=lambda port: "err not-now a%20clock%20is%20running\n")
    assert board.calls == []  # nothing was touched


def test_a_board_that_never_answers_gets_a_clear_message():
    def silent(args, timeout=None):
        return 124, f"mpremote gave no answer in {timeout:.0f} s"

    with pytest.raises(RuntimeError, match="no answer in 20 s.*hold its menu button"):
        deploy.deploy("/dev/ttyACM7", runner=silent, say=lambda s: None, knock=lambda port: "")


def test_mpremote_calls_have_a_time_limit(monkeypatch):
    seen = {}

    def run(cmd, **kw):
        seen.update(kw)
        raise subprocess.TimeoutExpired(cmd, kw["timeout"])

    monkeypatch.setattr(deploy.subprocess, "run", run)
    assert deploy.mpremote(["connect", "auto", "ls"], timeout=7) == (124, "mpremote gave no answer in 7 s")
    assert seen["timeout"] == 7
    deploy.mpremote(["ls"])
    assert seen["timeout"] == deploy.TIMEOUT_S


def _on(board, port):
    def run(args, timeout=None):
        return board(["connect", "auto"] + args[2:], timeout) if args[:2] == ["connect", port] else (1, "wrong port")

    return run
