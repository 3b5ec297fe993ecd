"""The firmware on an emulated Raspberry Pi Pico, for the chip tests and bench/chip.py.

`../shared/rp2emu` (its README) runs the real MicroPython v1.28.0 rp2 port in rp2040js, wired
like hardware/: the reed matrix, the buttons, the flash with its busy times, USB serial on a
pseudo-terminal. Pico here starts it in a folder of its own, boots the board's own UF2
(python -m host_tools uf2: the firmware frozen in) or a flash image saved after a first
start, and plays pieces and levers through its control channel. Every time it reports is
emulated time (ms).
"""
from __future__ import annotations

import hashlib
import math
import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from host_tools import build

START = "1" * 16 + "0" * 32 + "1" * 16  # the occupancy of the starting position, a1..h8
SHARED = build.ROOT / "build" / "chip" / "rp2emu"  # rp2040js and the UF2, installed once


def locate() -> tuple[Path | None, str]:
    """(the rp2emu folder, "") or (None, why it cannot run here)."""
    candidates = []
    if os.environ.get("RP2EMU_HOME"):
        candidates.append(Path(os.environ["RP2EMU_HOME"]))
    candidates.append(build.ROOT.parent / "shared" / "rp2emu")
    candidates.append(Path("/work/shared/rp2emu"))
    home = next((c for c in candidates if (c / "harness.mjs").exists()), None)
    if home is None:
        return None, "no emulated Pico here (../shared/rp2emu is missing; set RP2EMU_HOME)"
    for tool in ("node", "npm", "python3"):
        if shutil.which(tool) is None:
            return None, f"the emulated Pico needs {tool}, which this machine lacks"
    return home, ""


class EmulatorError(RuntimeError):
    pass


def _hooks(path: Path) -> str | None:
    """The watched addresses of a build: a flash image's .hooks file, or a UF2's build
    record (.json, host_tools/uf2.py) beside it."""
    if path.exists():
        return path.read_text().strip()
    record = path.with_suffix(".json")
    if record.exists():
        return json.loads(record.read_text()).get("hooks")
    return None


class Pico:
    """One emulated Pico. start() boots it (from a flash image if given); use as a context
    manager or call close()."""

    def __init__(self, work: Path, port: int, home: Path | None = None, log: Path | None = None):
        self.home = home or locate()[0]
        if self.home is None:
            raise EmulatorError(locate()[1])
        self.work = Path(work)
        self.port = port
        self.log = Path(log) if log else self.work / "log.jsonl"
        self.pid = None
        self.tty = None
        self._sock = None
        self._file = None
        self._n = 0

    # ----- life

    def setup(self) -> None:
        """The UF2, the bootrom and rp2040js (npm), installed once in a shared folder
        (build/chip/rp2emu) and linked into this Pico's work folder."""
        shared = SHARED
        shared.mkdir(parents=True, exist_ok=True)
        with open(shared.parent / "setup.lock", "w") as lock:
            try:
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)
            except ImportError:
                pass
            env = dict(os.environ, RP2EMU_DIR=str(shared))
            r = subprocess.run(["bash", str(self.home / "setup.sh")], env=env, capture_output=True,
                               text=True, timeout=900)
        if r.returncode:
            raise EmulatorError(f"rp2emu setup failed: {r.stdout}{r.stderr}")
        self.work.mkdir(parents=True, exist_ok=True)
        for name in ("firmware.uf2", "bootrom.mjs", "package.json", "node_modules"):
            link = self.work / name
            if not link.exists():
                link.symlink_to(shared / name)

    def start(self, flash: Path | None = None, timing: str = "typ", max_speed: float = 0,
              extra: tuple = (), uf2: Path | None = None) -> "Pico":
        """Boot: flash, a whole-flash image (None: a blank flash); uf2, a UF2 written over
        it first as copying it in BOOTSEL mode does (None: MicroPython's own on a blank
        flash, else the image alone). A UF2 of ours brings the addresses the emulator
        watches (its build record, host_tools/uf2.py)."""
        self.setup()
        env = dict(os.environ, RP2EMU_DIR=str(self.work))
        args = ["--port", str(self.port), "--log", str(self.log), "--flash-timing", timing,
                "--max-speed", str(max_speed)] + list(extra)
        hooks = None
        if flash is not None:
            args += ["--flash", str(Path(flash).resolve())]
            hooks = Path(flash).with_suffix(".hooks")
        if uf2 is not None:
            args += ["--uf2", str(Path(uf2).resolve())]
            hooks = Path(uf2).with_suffix(".hooks")
        if hooks is not None:
            found = _hooks(hooks)
            if found:
                env["RP2EMU_HOOKS"] = found
        r = subprocess.run(["bash", str(self.home / "start.sh")] + args, env=env,
                           capture_output=True, text=True, timeout=120)
        pidfile = self.work / "harness.pid"
        if r.returncode or not pidfile.exists():
            raise EmulatorError(f"the emulated Pico did not start: {r.stdout}{r.stderr}")
        self.pid = int(pidfile.read_text())
        link = self.work / "ttyPico"
        if not link.exists():
            self.close()
            raise EmulatorError(f"no USB pseudo-terminal: {(self.work / 'harness.out').read_text()}")
        self.tty = os.readlink(link)
        for _ in range(100):
            try:
                self._sock = socket.create_connection(("127.0.0.1", self.port), timeout=7200)
                break
            except OSError:
                time.sleep(0.1)
        else:
            self.close()
            raise EmulatorError("the control channel did not open")
        self._file = self._sock.makefile("r")
        return self

    def close(self) -> None:
        if self._sock is not None:
            try:
                self.req(op="quit")
            except (OSError, ValueError, EmulatorError):
                pass
            self._sock.close()
            self._sock = None
        if self.pid is not None:
            for _ in range(50):
                try:
                    os.kill(self.pid, 0)
                except OSError:
                    break
                time.sleep(0.1)
            else:
                try:
                    os.kill(self.pid, 9)
                except OSError:
                    pass
            self.pid = None

    def kill(self) -> None:
        """Stop the emulator at once, without its control channel: the way out of a chip
        the emulator cannot follow (the RP2040's USB bootloader: rp2040js repeats its
        watchdog reset without end)."""
        if self.pid is not None:
            try:
                os.kill(self.pid, 9)
            except OSError:
                pass
            self.pid = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ----- the control channel

    def req(self, **msg) -> dict:
        self._n += 1
        msg["id"] = self._n
        self._sock.sendall((json.dumps(msg) + "\n").encode())
        while True:
            line = self._file.readline()
            if not line:
                raise EmulatorError("the emulated Pico closed its control channel")
            r = json.loads(line)
            if r.get("id") == self._n:
                if "err" in r:
                    raise EmulatorError(f"{msg['op']}: {r['err']}")
                return r

    def now(self) -> float:
        return self.req(op="time")["t"]

    # Times given to the emulator are whole milliseconds: a fractional one can leave its
    # clock a fraction of a nanosecond short of an action, below what a step can add,
    # and the emulation stops there.

    def wait(self, ms: float) -> float:
        return self.wait_until(self.now() + ms)

    def wait_until(self, t: float) -> float:
        return self.req(op="wait", at=math.ceil(t))["t"]

    def line(self, has: str, after: float = 0) -> dict:
        """The first line the device sent at or after `after` (emulated ms) that contains
        `has`, waiting for it: {"t": ms, "s": text}."""
        return self.req(op="find_line", has=has, after=after)

    def hello(self, after: float = 0, tries: int = 20) -> dict:
        """Say hello as our hosts do until the board answers (it never speaks first, and
        one that is still starting may not read the first): its hello line. After it come
        the start's warnings and recovery, if any."""
        for _ in range(tries):
            t = self.now()
            self.send("")  # ends a half line the board may hold
            self.send("hello")
            self.wait(1500)
            got = [ln for ln in self.lines() if ln["t"] >= max(t, after) and ln["s"].startswith("hello proto=")]
            if got:
                return got[0]
        raise EmulatorError("the board never answered hello")

    def act(self, actions: list[dict], at: float | None = None) -> dict:
        """Schedule actions ({dt, kind, sq or btn}); returns {"t0", "end"}."""
        msg = {"op": "sched", "actions": [dict(a, dt=int(a.get("dt", 0))) for a in actions]}
        if at is not None:
            msg["at"] = math.ceil(at)
        return self.req(**msg)

    def occupy(self, occ: str = START) -> None:
        self.req(op="occ", occ=occ)

    def stats(self, since: float = 0) -> dict:
        return self.req(op="stats", **({"from": since} if since else {}))

    def reset(self) -> None:
        """A power cut and back (the flash is kept)."""
        self.req(op="reset")

    def save_flash(self, path: Path) -> None:
        self.req(op="save_flash", path=str(Path(path).resolve()))

    def lines(self) -> list[dict]:
        """Every device line so far, from the log: [{"t", "s"}]."""
        out = []
        if self.log.exists():
            for raw in self.log.read_text().splitlines():
                try:
                    e = json.loads(raw)
                except ValueError:
                    continue  # the line being written
                if e.get("ev") == "line":
                    out.append({"t": e["t"], "s": e["s"]})
        return out

    # ----- the serial line, as a host sees it

    def send(self, text: str) -> None:
        """One protocol line to the device over its USB serial."""
        import serial

        with serial.Serial(self.tty, 115200, timeout=1) as s:
            s.write((text + "\n").encode())
            s.flush()


KEEP_IMAGES = 3


def uf2_image(cache: Path, port: int, uf2: Path) -> Path:
    """A whole-flash image of a blank Pico that was given this UF2 and started once (its
    filesystem made, the journal's sectors prepared), made once per UF2 and kept under
    cache: the chip tests and bench/chip.py start from it as from a board in use."""
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(Path(uf2).read_bytes()).hexdigest()[:16]
    image = cache / f"uf2-{digest}.bin"
    with open(cache / "lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)  # parallel test workers: one makes it
        except ImportError:
            pass
        if not image.exists():
            with Pico(cache / f"booting-{port}", port) as pico:
                pico.start(uf2=uf2)
                pico.hello()
                pico.wait(500)
                tmp = image.with_suffix(".tmp")
                pico.save_flash(tmp)
                hooks = _hooks(Path(uf2).with_suffix(".hooks"))
                if hooks:
                    image.with_suffix(".hooks").write_text(hooks)
                os.replace(tmp, image)
            for old in sorted(cache.glob("uf2-*.bin"), key=lambda p: p.stat().st_mtime)[:-KEEP_IMAGES]:
                old.unlink(missing_ok=True)
    return image


def actions(trace: str, hold_ms: int = 90) -> list[tuple[int, dict]]:
    """A trace (simulator/trace.py) as the emulator's actions: (t ms, action). Occupancy
    lines become the lifts and placements that change it; a clock press is the lever
    going down and, hold_ms later, up."""
    out = []
    occ = None
    for raw in trace.splitlines():
        parts = raw.split()
        if not parts or parts[0].startswith("#"):
            continue
        t, kind = int(parts[0]), parts[1]
        if kind == "occ":
            v = int(parts[2], 16)
            now = {sq for sq in range(64) if v >> sq & 1}
            if occ is not None:
                for sq in sorted(occ - now):
                    out.append((t, {"kind": "lift", "sq": _name(sq)}))
                for sq in sorted(now - occ):
                    out.append((t, {"kind": "place", "sq": _name(sq)}))
            occ = now
        elif kind == "press":
            out.append((t, {"kind": "press", "btn": parts[2]}))
            out.append((t + hold_ms, {"kind": "release", "btn": parts[2]}))
        elif kind in ("button", "lever"):
            out.append((t, {"kind": "press" if parts[3] == "down" else "release", "btn": parts[2]}))
    out.sort(key=lambda x: x[0])
    return out


def occupancy(trace: str) -> str:
    """The trace's first occupancy as the emulator's 64-character string."""
    for raw in trace.splitlines():
        parts = raw.split()
        if len(parts) == 3 and parts[1] == "occ":
            v = int(parts[2], 16)
            return "".join("1" if v >> sq & 1 else "0" for sq in range(64))
    return START


def _name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def schedule(pico: Pico, acts: list[tuple[int, dict]], base: float) -> float:
    """Schedule actions at base + their t (emulated ms); returns the time of the last."""
    base = math.ceil(base)
    msgs = []
    prev = 0
    for t, a in acts:
        msgs.append(dict(a, dt=t - prev))
        prev = t
    pico.act(msgs, at=base)
    return base + prev
