"""Deployment to a Pico, with mpremote replaced by a fake board that keeps the files it
is given (no Pico here): every file lands, the hashes are compared, a corrupt copy is
caught, and package.json lists exactly the firmware."""
import hashlib
import json
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

    def __call__(self, args):
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


def test_a_corrupt_copy_stops_the_deploy():
    board = FakeBoard(corrupt="firmware/rules/position.mpy")
    with pytest.raises(RuntimeError, match="firmware/rules/position.mpy"):
        deploy.deploy(runner=board, say=lambda s: None)
    assert not board.reset


def test_package_json_lists_the_firmware():
    data = json.loads((build.ROOT / "package.json").read_text())
    assert data == deploy.package_json()  # regenerate with: python -m host_tools deploy --package-json
    assert ["main.py", "main.py"] in data["urls"]


def test_no_board_no_deploy():
    def nothing(args):
        return 1, "failed to access /dev/ttyACM0"

    with pytest.raises(RuntimeError, match="no MicroPython board"):
        deploy.deploy(runner=nothing, say=lambda s: None)
