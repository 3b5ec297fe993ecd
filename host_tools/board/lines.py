"""Serial lines to boards, opened with pyserial. Where the event loop can watch a port's
file descriptor (Linux and macOS: the selector loop), it does: no thread per board, so
200 boards cost 200 descriptors, not 200 threads fighting for the interpreter. Where it
cannot (Windows, whose ports have no descriptor and whose Proactor loop has no
add_reader), each port gets a reader thread that hands what it read to the loop. Either
way the relay sees the same calls, in the event loop. A line that fails (a USB unplug) is
closed and opened again when its path answers again; the paths given (or glob patterns)
are looked at every second, and with discover=True so are the Picos plugged in later,
found by their USB vendor id (port.py)."""
from __future__ import annotations

import glob
import os
import threading
import time

import serial

from host_tools.board.port import WRITE_TIMEOUT_S, find_picos, open_port

THREAD_READ_TIMEOUT_S = 0.1  # a reader thread's wait for bytes: how soon it sees a close
READ_SIZE = 4096


class SerialLine:
    """One board's line: on_data(line, bytes), on_open(line), on_close(line), all called
    in the event loop."""

    threaded = None  # None: a reader thread only where the loop cannot watch the port

    def __init__(self, loop, path: str, on_data, on_open, on_close, retry_s: float = 0.5):
        self.loop = loop
        self.path = path
        self.on_data, self.on_open, self.on_close = on_data, on_open, on_close
        self.retry_s = retry_s
        self._port = None
        self._watched = None  # the descriptor the loop watches, if it does
        self._stopped = False
        self._timer = None
        self._try_open()

    def _try_open(self) -> None:
        self._timer = None
        if self._stopped:
            return
        port = open_port(self.path, 0)
        if port is None:
            self._timer = self.loop.call_later(self.retry_s, self._try_open)
            return
        self._port = port
        if not self._watch(port):
            port.timeout = THREAD_READ_TIMEOUT_S
            threading.Thread(target=self._read_thread, args=(port,), name=f"serial {self.path}",
                             daemon=True).start()
        self.on_open(self)

    def _watch(self, port) -> bool:
        """Have the event loop watch the port; False where it cannot."""
        if self.threaded:
            return False
        try:
            fd = port.fileno()
            self.loop.add_reader(fd, self._readable)
        except (NotImplementedError, AttributeError, OSError, ValueError, serial.SerialException):
            return False
        self._watched = fd
        return True

    def _readable(self) -> None:
        # The descriptor itself, not pyserial's read: that one waits in select(), which
        # takes no descriptor above 1023, and a hall of boards has more (bench/relay_scale.py).
        if self._port is None:
            return
        try:
            data = os.read(self._watched, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the other end went away (a USB unplug)
            self._close()
            return
        self.on_data(self, data)

    def _read_thread(self, port) -> None:
        """The reader of a port the loop cannot watch: blocking reads (with a timeout, so
        that a close is seen), each piece handed to the loop."""
        while self._port is port:
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError, AttributeError):
                if self._port is port:
                    self.loop.call_soon_threadsafe(self._close_port, port)
                return
            if data:
                self.loop.call_soon_threadsafe(self._deliver, port, data)

    def _deliver(self, port, data: bytes) -> None:
        if self._port is port:  # not from a port closed since
            self.on_data(self, data)

    def _close_port(self, port) -> None:
        if self._port is port:
            self._close()

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is None:
            return
        if self._watched is not None:
            try:
                self.loop.remove_reader(self._watched)
            except (ValueError, OSError):
                pass
            self._watched = None
        try:
            port.close()
        except Exception:
            pass
        self.on_close(self)
        if not self._stopped:
            self._timer = self.loop.call_later(self.retry_s, self._try_open)

    def write(self, text: str) -> bool:
        """Send one line (the newline is added); False if the line is not open. A text
        that is not one line of printable ASCII is a bug of the caller's: refused whole."""
        if not (text.isascii() and text.isprintable()):
            raise ValueError(f"not one line of printable ASCII: {text!r}")
        port = self._port
        if port is None:
            return False
        data = (text + "\n").encode()
        try:
            if self._watched is None:
                port.write(data)
            else:
                self._write_fd(data)
            return True
        except (serial.SerialException, OSError):
            self.loop.call_soon(self._close)
            return False

    def _write_fd(self, data: bytes) -> None:
        """All of data to the watched descriptor (non-blocking, as pyserial opened it); a
        line that stays full for WRITE_TIMEOUT_S is a board that no longer reads: OSError."""
        end = time.monotonic() + WRITE_TIMEOUT_S
        while data:
            try:
                data = data[os.write(self._watched, data):]
            except BlockingIOError:
                if time.monotonic() > end:
                    raise OSError("the board does not read its line")
                time.sleep(0.001)

    def stop(self) -> None:
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
        self._close()


class Lines:
    """The lines the relay keeps open: the paths (or glob patterns) it was given, and with
    discover=True every Pico that appears."""

    def __init__(self, loop, patterns, on_data, on_open, on_close, discover: bool = True,
                 every_s: float = 1.0, on_tick=None):
        """on_tick(): called every every_s as well (the boards' hellos)."""
        self.loop = loop
        self.patterns = list(patterns)
        self.discover = discover
        self.every_s = every_s
        self.callbacks = (on_data, on_open, on_close)
        self.on_tick = on_tick
        self.lines: dict[str, SerialLine] = {}
        self._stopped = False
        self._watch()

    def _paths(self) -> list[str]:
        out = []
        for p in self.patterns:
            out.extend(glob.glob(p) if any(c in p for c in "*?[") else [p])
        if self.discover:
            out.extend(find_picos())
        return out

    def _watch(self) -> None:
        if self._stopped:
            return
        for path in self._paths():
            if path not in self.lines:
                self.lines[path] = SerialLine(self.loop, path, *self.callbacks)
        if self.on_tick is not None:
            self.on_tick()
        self._timer = self.loop.call_later(self.every_s, self._watch)

    def stop(self) -> None:
        self._stopped = True
        self._timer.cancel()
        for line in list(self.lines.values()):
            line.stop()
