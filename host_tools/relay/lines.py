"""Serial lines to boards, with pyserial: one reader thread per line; a line that fails
(a USB unplug) is closed and opened again when its path answers again; Picos plugged in
later are found by their USB vendor id."""
from __future__ import annotations

import glob
import threading
import time

import serial
from serial.tools import list_ports

PICO_VID = 0x2E8A  # Raspberry Pi (MicroPython on a Pico enumerates with it)


def find_picos() -> list[str]:
    return sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID)


class SerialLine:
    """Opens `path` (again and again if it goes away) and hands every byte to on_data.
    on_open(line) and on_close(line) are called from the line's thread."""

    def __init__(self, path: str, on_data, on_open, on_close, retry_s: float = 0.5):
        self.path = path
        self.on_data, self.on_open, self.on_close = on_data, on_open, on_close
        self.retry_s = retry_s
        self._port = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"line {path}", daemon=True)
        self._thread.start()

    def write(self, text: str) -> bool:
        with self._lock:
            port = self._port
        if port is None:
            return False
        try:
            port.write((text + "\n").encode())
            return True
        except (serial.SerialException, OSError):
            return False

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = serial.Serial(self.path, 115200, timeout=0.1)
            except (serial.SerialException, OSError):
                self._stop.wait(self.retry_s)
                continue
            with self._lock:
                self._port = port
            self.on_open(self)
            try:
                while not self._stop.is_set():
                    data = port.read(4096)
                    if data:
                        self.on_data(self, data)
            except (serial.SerialException, OSError):
                pass
            finally:
                with self._lock:
                    self._port = None
                try:
                    port.close()
                except Exception:
                    pass
                self.on_close(self)
            self._stop.wait(self.retry_s)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


class Lines:
    """The lines the relay keeps open: the paths (or glob patterns) it was given, and with
    discover=True every Pico that appears."""

    def __init__(self, patterns, on_data, on_open, on_close, discover: bool = True, every_s: float = 1.0):
        self.patterns = list(patterns)
        self.discover = discover
        self.every_s = every_s
        self.callbacks = (on_data, on_open, on_close)
        self.lines: dict[str, SerialLine] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="lines", daemon=True)
        self._thread.start()

    def _paths(self) -> list[str]:
        out = []
        for p in self.patterns:
            matches = glob.glob(p) if any(c in p for c in "*?[") else [p]
            out.extend(matches)
        if self.discover:
            out.extend(find_picos())
        return out

    def _watch(self) -> None:
        while not self._stop.is_set():
            for path in self._paths():
                if path not in self.lines:
                    self.lines[path] = SerialLine(path, *self.callbacks)
            self._stop.wait(self.every_s)

    def stop(self) -> None:
        self._stop.set()
        for line in list(self.lines.values()):
            line.stop()
