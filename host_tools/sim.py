"""python -m host_tools sim [--trace FILE | --pgn FILE] [--fast] [--outputs FILE] [--flash DIR]
                           [--serial S] [--link PATH]
python -m host_tools sim --pair --pgn FILE [--blind white|black] [--port N] [--out DIR]

The simulated board: the real firmware inside `micropython` (simulator/hal.py: a virtual
reed matrix, buttons, display and LEDs), its USB serial offered on a pseudo-terminal whose
path is printed, so that pyserial, the relay or a terminal open it as they would open
/dev/ttyACM0. It plays a trace file, or a PGN game turned into a trace with human timing
(host_tools/tracegen.py), in real time, or with --fast in simulated time as fast as it can.
--serial gives it the serial a round file names it by (a Pico's is its flash chip's
unique id: `hello ... board=`); --link a stable path to open it at.

Like a USB cable, the line can be unplugged and plugged in again (`SimulatedBoard.unplug`,
`replug`): while it is out, what the board writes is lost - the board keeps its game
record, and the host asks for a resend - and a replug gives a new path, as a new
/dev/ttyACMn would be.

With --pair, two simulated boards for one game (FIDE appendix D) and a relay on them:
host_tools/simpair.py (`python -m host_tools sim --pair --help`).
"""
from __future__ import annotations

import argparse
import os
import pty
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from host_tools import build, micropython
from host_tools.commandline import CommandError, check_fault, flash_folder, readable_file, trace_file
from host_tools.replay import APP_HEAP


class SimulatedBoard:
    def __init__(self, trace: str | Path | None = None, fast: bool = False,
                 outputs: str | None = None, heap: str = APP_HEAP, tail_ms: int = 3000,
                 presets: str | None = None, commands: list[str] = (), link: str | None = None,
                 wait_host: bool = False, board_id: str | None = None,
                 flash: str | Path | None = None, watchdog_ms: int | None = None,
                 fault: str | None = None, speed: int = 1, hands: bool = False,
                 power_on_s: float = 0.0):
        """hands: a person plays at the board (real time): `self.hands`, a Hands
        (host_tools/hands.py) whose moves the board follows as they are made. power_on_s:
        the board is switched on this long after its line appears (a program that opens
        the line first: what it sends meanwhile waits on the line)."""
        build.build(roots=build.SIM_ROOTS)
        self.flash = Path(flash) if flash else None
        base = [micropython.path(), "-X", "heapsize=" + heap, "simulator/main.py"]
        if not fast:
            base += ["--realtime", "--speed", str(speed)]
        if outputs:
            base += ["--outputs", outputs]
        base += ["--tail", str(tail_ms)]
        if self.flash:
            self.flash.mkdir(parents=True, exist_ok=True)
            presets = presets or str(self.flash / "presets.json")
            base += ["--journal", str(self.flash / "journal.bin"),
                     "--board", str(self.flash / "board.occ")]
        if not presets:  # a fresh board: its settings start from the defaults
            presets = os.path.join(tempfile.mkdtemp(prefix="chessboard-flash-"), "presets.json")
        base += ["--presets", presets]
        self.watchdog_ms = watchdog_ms
        self._feed = str(self.flash / "watchdog") if self.flash and watchdog_ms else None
        if self._feed:
            base += ["--watchdog", self._feed]
        # Every simulated board has its own serial, as real Picos do.
        self.board_id = board_id or "sim-" + os.urandom(3).hex()
        base += ["--board-id", self.board_id]
        self._base = base  # what a restart runs: the pieces stay, the trace is not played again
        args = list(base)
        self.hands = None
        if hands:
            from host_tools.hands import Hands

            fd, trace = tempfile.mkstemp(prefix="chessboard-hands-", suffix=".trace")
            os.close(fd)
            self.hands = Hands(trace)
            args += ["--follow"]
        if trace:
            args += ["--trace", str(trace)]
        if wait_host:
            args.append("--wait-host")
        if fault:  # "hang:N" or "raise:N": the scan task hangs or raises after N scans
            args += ["--fault", fault]
        self.link = link
        self.resets = 0  # watchdog resets and power cuts so far
        self._lock = threading.Lock()
        self._power = threading.RLock()  # held while the board is off and on again
        self._stopped = False
        self.master = None
        self.slave = None
        self.path = None
        self.proc = None
        self.plug()
        if power_on_s:
            threading.Thread(target=self._power_on, args=(args, commands, power_on_s), daemon=True).start()
        else:
            self._power_on(args, commands, 0)

    def _power_on(self, args, commands, after_s):
        time.sleep(after_s)
        with self._power:
            if self._stopped:
                return
            self._start(args, commands)
        self._in = threading.Thread(target=self._host_to_device, daemon=True)
        self._in.start()
        if self._feed:
            threading.Thread(target=self._watch, daemon=True).start()
        if after_s:
            # The kernel ends the firmware's process with the thread that started it
            # (_die_with_parent): this one stays while the board is on.
            while not self._stopped:
                time.sleep(0.2)

    def _start(self, args, commands=()):
        env = dict(os.environ, MICROPYPATH=f".frozen:{build.BUILD}:{micropython.ROOT}")
        if self._feed and os.path.exists(self._feed):
            os.remove(self._feed)
        self._started = time.time()
        self.proc = subprocess.Popen(args, cwd=micropython.ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0, preexec_fn=_die_with_parent)
        for c in commands:  # before anything else: the board reads them first
            self.proc.stdin.write((c + "\n").encode())
        self.proc.stdin.flush()
        self._out = threading.Thread(target=self._device_to_host, args=(self.proc,), daemon=True)
        self._out.start()

    # ----- power and the watchdog

    def power_cut(self):
        """The power goes off and on: the interpreter is killed (nothing is closed or
        written) and started again on the same flash."""
        with self._power:
            if self._stopped:
                return
            with self._lock:
                self.proc.kill()
            self.proc.wait()
            self.resets += 1
            self._start(self._base)

    def _watch(self):
        while not self._stopped:
            time.sleep(0.1)
            if self.proc.poll() is not None:
                continue
            try:
                fed = os.stat(self._feed).st_mtime
            except OSError:
                fed = None
            last = max(fed or 0, self._started)  # a board just started has a grace period
            if time.time() - last > self.watchdog_ms / 1000:
                self.power_cut()  # what the RP2040's watchdog does: a reset

    # ----- the cable

    def plug(self):
        """A new pseudo-terminal; its path is where a host opens the board."""
        with self._lock:
            master, slave = pty.openpty()
            tty.setraw(slave)  # bytes go through untouched, as on a USB CDC line
            os.set_blocking(master, False)
            self.master, self.slave = master, slave
            self.path = os.ttyname(slave)
            if self.link:  # a stable name for the board, whatever pty it is on now
                tmp = self.link + ".new"
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                os.symlink(self.path, tmp)
                os.replace(tmp, self.link)
        return self.path

    def unplug(self):
        with self._lock:
            for fd in (self.master, self.slave):
                if fd is not None:
                    os.close(fd)
            self.master = self.slave = None
            self.path = None
            if self.link and os.path.lexists(self.link):
                os.unlink(self.link)

    def replug(self):
        self.unplug()
        return self.plug()

    # ----- the bytes

    def _device_to_host(self, proc):
        while True:
            data = os.read(proc.stdout.fileno(), 4096)
            if not data:
                return
            with self._lock:
                if self.master is None:
                    continue  # unplugged: lost, as on a real line
                try:
                    os.write(self.master, data)
                except (BlockingIOError, OSError):
                    pass  # nobody reads: the line drops it (the host resends)

    def _host_to_device(self):
        while not self._stopped:
            with self._lock:
                fd = self.master
            data = b""
            if fd is not None:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, OSError):
                    data = b""
            if data:
                try:
                    self.proc.stdin.write(data)
                    self.proc.stdin.flush()
                except (BrokenPipeError, ValueError, OSError):
                    pass  # the board is off or restarting: the bytes are lost
            else:
                time.sleep(0.005)

    def wait(self, timeout=None):
        """Until the board stops by itself (a fast run that ended) or is stopped; a reset
        by the watchdog or a power cut is not a stop: the board comes back."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            proc = self.proc
            left = None if end is None else max(0.0, end - time.monotonic())
            code = proc.wait(left)
            with self._power:  # a restart under way is finished first
                if self.proc is proc or self._stopped:
                    return code

    def stop(self):
        with self._power:
            self._stopped = True
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        self.unplug()


def _die_with_parent():
    """In the child, before it runs: on Linux the kernel ends it when the simulator's own
    process ends, whatever signal ended that (SIGKILL too)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _stop_on_signals():
    """SIGTERM and SIGHUP end the simulator as Ctrl-C does: through its cleanup, which
    ends the firmware's process (and on other systems than Linux, that is the only way).
    SIGINT too, even when the simulator was started with it ignored (a shell's & in a script)."""
    def stop(signum, frame):
        raise KeyboardInterrupt

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def pgn_to_trace(pgn_path: str | Path, seed: int = 1) -> tuple[str, str | None, int | None]:
    """The first game of a PGN file as a trace text, with its start (FEN, Chess960)."""
    import chess
    import chess.pgn

    from host_tools import tracegen

    with open(pgn_path) as f:
        game = chess.pgn.read_game(f)
    if game is None:
        raise ValueError(f"no game in {pgn_path}")
    if game.errors:
        raise ValueError(f"the game does not read: {game.errors[0]}")
    board = game.board()
    text = tracegen.trace_game(board, list(game.mainline_moves()), random.Random(seed))
    fen = None if board.fen() == chess.STARTING_FEN else board.fen()
    return text, fen, board.chess960_pos() if board.chess960 else None


def main(argv=None):
    prog = "python -m host_tools sim"
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--trace")
    src.add_argument("--pgn")
    ap.add_argument("--fast", action="store_true", help="simulated time, as fast as it can")
    ap.add_argument("--outputs", help="record the display and LEDs in this file")
    ap.add_argument("--link", help="also offer the line at this path (a symlink kept across replugs)")
    ap.add_argument("--serial", help="the board's serial (hello ... board=S), as a round file names it "
                                     "(default: sim- and six random hex digits)")
    ap.add_argument("--flash", help="a folder for the board's flash (journal, settings): run again on the "
                                    "same folder and the board comes back with its game, as after a power cut")
    ap.add_argument("--fault", help="for trying the watchdog: hang:N or raise:N, the scan task hangs or "
                                    "raises after N scans (with --flash the watchdog resets the board)")
    a = ap.parse_args(argv)
    try:
        board = _board_from_args(a)
    except CommandError as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    _stop_on_signals()
    print(f"simulated board on {board.path}", flush=True)
    try:
        board.wait()
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


def _board_from_args(a) -> SimulatedBoard:
    check_fault(a.fault)
    if a.serial is not None and not (0 < len(a.serial) <= 32 and all(c.isalnum() or c in "-_" for c in a.serial)):
        raise CommandError(f"--serial is 1 to 32 letters, digits, - or _, not {a.serial!r}")
    trace = a.trace
    commands = []
    if a.trace:
        trace_file(a.trace)
    if a.flash:
        flash_folder(a.flash)
    if a.pgn:
        from host_tools.protocol import encode

        readable_file(a.pgn, "the PGN file")
        try:
            text, fen, number = pgn_to_trace(a.pgn)
        except (ValueError, OSError) as e:
            raise CommandError(f"the PGN file {a.pgn}: {e}") from None
        tmp = tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False)
        tmp.write(text)
        tmp.close()
        trace = tmp.name
        if number is not None:
            commands.append(f"new chess960={number}")
        elif fen:
            commands.append("new fen=" + encode(fen))
    return SimulatedBoard(trace, fast=a.fast, outputs=a.outputs, commands=commands, link=a.link,
                          flash=a.flash, watchdog_ms=8000 if a.flash else None, fault=a.fault,
                          board_id=a.serial)
