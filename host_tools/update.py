"""python -m host_tools update [PORT] [--uf2 FILE] [--drive PATH]

A new firmware onto a board with its clock closed: no BOOTSEL button to reach. It sends
the board the `bootloader` command on its USB line (refused while a clock runs: pause it
first), the board restarts into the RP2040's USB bootloader and shows up as a drive named
RPI-RP2; the UF2 is copied onto it (the repository's dist/chessboard-<version>.uf2, or
--uf2 FILE, one built locally by `uf2 --out FILE`), the board starts the new firmware, and
update waits for its `hello` naming the new version. The image ends where the flash's
filesystem begins: the game in progress, the settings and the presets stay, and the game
comes back paused (`recovered`, as after a power cut).

PORT: the board's serial port (default: the one Raspberry Pi Pico plugged in, found by its
USB id). The drive is found where each system mounts it: Linux under /media, /run/media or
/mnt (mounted with udisksctl if the desktop did not), macOS /Volumes/RPI-RP2, Windows the
drive letter holding INFO_UF2.TXT; --drive PATH names it. A board that answers nothing can
still be given the UF2 the first way: hold BOOTSEL while plugging it in, then run update
with --drive (or copy the file by hand).
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import string
import subprocess
import sys
import time
from pathlib import Path

from host_tools.commandline import CommandError

PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id: the Pico's MicroPython and its bootloader
LABEL = "RPI-RP2"
DRIVE_WAIT_S = 30.0
HELLO_WAIT_S = 60.0


class UpdateError(RuntimeError):
    pass


# ----- the board's line

def find_port() -> str | None:
    """The serial port of the one Raspberry Pi Pico plugged in (None: none, or several)."""
    from serial.tools import list_ports

    found = [p.device for p in list_ports.comports() if p.vid == PICO_VID]
    return found[0] if len(found) == 1 else None


class Gone(Exception):
    """The line went away after the command was sent (the board left its USB)."""

    def __init__(self, text):
        self.text = text


def _exchange(port: str, send: str, until, wait_s: float) -> str:
    """Send a line, read what comes back until until(text) or wait_s; the text read.
    Gone (with what was read) when the line goes away after the command went out."""
    import serial

    got = b""
    with serial.Serial(port, 115200, timeout=0.2) as s:
        s.write(b"\r\n" + send.encode() + b"\r\n")
        s.flush()
        end = time.monotonic() + wait_s
        while time.monotonic() < end and not until(got.decode(errors="replace")):
            try:
                got += s.read(256)
            except (OSError, serial.SerialException):
                raise Gone(got.decode(errors="replace")) from None
    return got.decode(errors="replace")


def ask_bootloader(port: str, wait_s: float = 5.0) -> None:
    """The board restarts into its USB bootloader; UpdateError when it refuses or is
    silent."""
    try:
        # The board never speaks first: hello first, then the command.
        _exchange(port, "hello", lambda t: "hello proto=" in t, wait_s)
        answer = _exchange(port, "bootloader", lambda t: "ok bootloader" in t or "err " in t, wait_s)
    except Gone as e:
        if "err " in e.text:
            answer = e.text
        else:
            return  # it left its USB line for the bootloader (its ok may not have come out first)
    except (OSError, ValueError) as e:
        raise UpdateError(f"{port}: {e}") from None
    if "err not-now" in answer:
        raise UpdateError("the board's clock is running: pause it (or finish the game), then update")
    if "ok bootloader" not in answer:
        why = next((ln for ln in answer.splitlines() if ln.startswith("err ")), "no answer")
        raise UpdateError(f"the board on {port} did not take the bootloader command ({why}): its firmware "
                          "may be older than the command; hold BOOTSEL while plugging it in, then "
                          "update --drive PATH")


def board_hello(port: str, wait_s: float = 2.0) -> str | None:
    """The board's hello line, or None."""
    try:
        text = _exchange(port, "hello", lambda t: "hello proto=" in t and t.rstrip("\r").endswith("\n"), wait_s)
    except Gone as e:
        text = e.text
    except (OSError, ValueError):
        return None
    for line in text.splitlines():
        if line.startswith("hello proto="):
            return line.strip()
    return None


def fields(hello: str) -> dict:
    return dict(w.split("=", 1) for w in hello.split()[1:] if "=" in w)


def wait_hello(port: str | None, version: str | None, wait_s: float = HELLO_WAIT_S,
               find=find_port) -> str:
    """The new firmware's hello (its version when given), once the board is back on its
    line (port: as given, or found again by its USB id)."""
    end = time.monotonic() + wait_s
    last = None
    while time.monotonic() < end:
        p = port or find()
        if p and os.path.exists(p) or (p and sys.platform == "win32"):
            hello = board_hello(p)
            if hello:
                last = hello
                if version is None or fields(hello).get("fw") == version:
                    return hello
        time.sleep(0.5)
    if last:
        raise UpdateError(f"the board came back with fw={fields(last).get('fw')}, not {version}")
    raise UpdateError(f"the board did not come back on its line in {wait_s:.0f} s")


# ----- the drive

def _info(path: Path) -> bool:
    """Whether path is the root of an RP2040 bootloader's drive (its INFO_UF2.TXT)."""
    try:
        text = (Path(path) / "INFO_UF2.TXT").read_text(errors="replace")
    except OSError:
        return False
    return LABEL in text or "RP2040" in text


def candidates() -> list[Path]:
    """Where an RPI-RP2 drive may be mounted on this system."""
    if sys.platform == "win32":
        return [Path(f"{c}:\\") for c in string.ascii_uppercase]
    if sys.platform == "darwin":
        return [Path(p) for p in glob.glob("/Volumes/*")]
    found = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                mount = line.split()[1].replace("\\040", " ")
                if mount.startswith(("/media/", "/run/media/", "/mnt")):
                    found.append(Path(mount))
    except OSError:
        pass
    found += [Path(p) for p in glob.glob(f"/media/*/{LABEL}") + glob.glob(f"/run/media/*/{LABEL}")]
    return found


def _mount_linux(say) -> None:
    """A drive labelled RPI-RP2 that nothing mounted (a desktop without automount): mounted
    with udisks, as the user (no root needed)."""
    dev = Path(f"/dev/disk/by-label/{LABEL}")
    if sys.platform.startswith("linux") and dev.exists() and shutil.which("udisksctl"):
        say(f"mounting {dev} (udisksctl)")
        subprocess.run(["udisksctl", "mount", "--no-user-interaction", "-b", str(dev)],
                       capture_output=True, timeout=30)


def find_drive(wait_s: float = DRIVE_WAIT_S, places=candidates, say=print) -> Path:
    """The RPI-RP2 drive, waiting until it appears."""
    end = time.monotonic() + wait_s
    mounted = False
    while True:
        for p in places():
            if _info(p):
                return p
        if time.monotonic() > end:
            break
        if not mounted and time.monotonic() > end - wait_s + 5:
            _mount_linux(say)
            mounted = True
        time.sleep(0.5)
    hint = (f"; it is there but not mounted: mount /dev/disk/by-label/{LABEL}"
            if Path(f"/dev/disk/by-label/{LABEL}").exists() else "")
    raise UpdateError(f"no {LABEL} drive appeared in {wait_s:.0f} s{hint}: name it with --drive PATH")


def copy(uf2: Path, drive: Path) -> None:
    """The UF2 onto the drive. The bootloader restarts the board once the last block is
    written, and the drive may vanish before the system has closed the file: an error
    after every byte was written is that, not a failure."""
    data = Path(uf2).read_bytes()
    written = 0
    try:
        with open(Path(drive) / Path(uf2).name, "wb") as f:
            for i in range(0, len(data), 64 * 1024):
                written += f.write(data[i:i + 64 * 1024])
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        if written < len(data):
            raise UpdateError(f"copying onto {drive} failed after {written} of {len(data)} bytes: {e}") from None


# ----- the whole update

def image(uf2: str | None) -> tuple[Path, str | None]:
    """The UF2 to give (the shipped one by default) and the version it says, if known."""
    from host_tools import uf2 as U

    if uf2 is None:
        found = U.shipped()
        if found is None:
            raise CommandError("no UF2 in dist/: build one (./run uf2) or give --uf2 FILE")
        path = found
    else:
        path = Path(uf2)
        if not path.is_file():
            raise CommandError(f"--uf2 {uf2} is not a file")
        if path.read_bytes()[:4] != b"UF2\n":
            raise CommandError(f"--uf2 {uf2} is not a UF2 file")
    try:
        return path, U.record(path)["version"]
    except (OSError, ValueError, KeyError):
        return path, None  # a UF2 without its record: whatever it says is taken


def update(port: str | None, uf2: Path, version: str | None, drive: str | None = None,
           say=print, find=find_port, places=candidates) -> str:
    """The whole update; returns the board's new hello."""
    if drive is None:
        p = port or find()
        if p is None:
            raise UpdateError("no board found on USB (one Raspberry Pi Pico): name its serial port")
        hello = board_hello(p)
        if hello:
            say(f"board on {p}: fw={fields(hello).get('fw')}")
        ask_bootloader(p)
        say(f"the board restarts into its USB bootloader; waiting for the {LABEL} drive")
        target = find_drive(places=places, say=say)
    else:
        target = Path(drive)
        if not _info(target):
            raise UpdateError(f"{drive} is not an RP2040 bootloader's drive (no INFO_UF2.TXT)")
    say(f"copying {uf2.name} onto {target}")
    copy(uf2, target)
    say(f"waiting for the board's hello{' with fw=' + version if version else ''}")
    return wait_hello(port, version, find=find)


def main(argv=None):
    prog = "python -m host_tools update"
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("port", nargs="?", help="the board's serial port (default: the one Pico plugged in)")
    ap.add_argument("--uf2", help="the UF2 to give (default: dist/chessboard-<version>.uf2)")
    ap.add_argument("--drive", help="the RPI-RP2 drive's folder, if the board is already in its bootloader "
                                    "(BOOTSEL) or the drive is mounted somewhere update does not look")
    a = ap.parse_args(argv)
    try:
        uf2, version = image(a.uf2)
        if a.port and not a.port.startswith("COM") and not os.path.exists(a.port):
            raise CommandError(f"the serial port {a.port} is not there")
        hello = update(a.port, uf2, version, a.drive)
    except (CommandError, UpdateError) as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    f = fields(hello)
    print(f"updated: fw={f.get('fw')}" + (f" game={f['game']}" if "game" in f else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
