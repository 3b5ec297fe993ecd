"""python -m host_tools deploy [--port PORT] [--no-reset]
python -m host_tools deploy --package-json   (writes package.json for mip)

Puts the firmware on a Raspberry Pi Pico running MicroPython: precompiles it with
mpy-cross, copies it with mpremote (one line per file as it goes), reads every file back
as a SHA-256 computed on the board and compares it with the local one, then resets the
board so that main.py starts the application. Any difference stops the deploy with the
files that differ. The mpremote calls go through `runner`, so that the plan and the checks
are tested without a board.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from host_tools import build

ROOT = build.ROOT
ENTRY = ("main.py", "boot.py")


def files() -> list[tuple[Path, str]]:
    """(local file, path on the board) of everything a board needs."""
    out = [(p, str(p.relative_to(build.BUILD))) for p in build.build()]
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


def mpremote(args: list[str]) -> tuple[int, str]:
    r = subprocess.run([sys.executable, "-m", "mpremote"] + args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def deploy(port: str = "auto", reset: bool = True, runner=mpremote, say=print) -> None:
    plan = files()
    conn = ["connect", port]
    dirs = sorted({str(Path(remote).parent) for _, remote in plan if "/" in remote},
                  key=lambda d: d.count("/"))
    say(f"deploying {len(plan)} files to {port}")
    rc, out = runner(conn + ["exec", "import sys; print(sys.implementation.name)"])
    if rc or "micropython" not in out:
        raise RuntimeError(f"no MicroPython board answered on {port}: {out.strip()}")
    # Old sources must go: a stale .py next to a new .mpy would be imported instead.
    runner(conn + ["rm", "-r", ":firmware"])
    for d in dirs:
        runner(conn + ["mkdir", ":" + d])
    for i, (local, remote) in enumerate(plan, 1):
        rc, out = runner(conn + ["cp", str(local), ":" + remote])
        if rc:
            raise RuntimeError(f"copying {remote} failed: {out.strip()}")
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


def package_json() -> dict:
    """mip's package description: every firmware source and the entry points (mip can
    install them with `mip.install("github:OWNER/REPO", target="/")`)."""
    from firmware.app.device import FIRMWARE

    urls = [[str(p), str(p)] for p in build.sources()]
    urls += [[name, name] for name in ENTRY]
    return {"urls": urls, "version": FIRMWARE}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools deploy", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", default="auto", help="serial port of the Pico (default: find it)")
    ap.add_argument("--no-reset", action="store_true")
    ap.add_argument("--package-json", action="store_true", help="write package.json and stop")
    a = ap.parse_args(argv)
    if a.package_json:
        (ROOT / "package.json").write_text(json.dumps(package_json(), indent=1) + "\n")
        print("wrote package.json")
        return 0
    try:
        deploy(a.port, not a.no_reset)
    except RuntimeError as e:
        print("deploy failed:", e, file=sys.stderr)
        return 1
    return 0
