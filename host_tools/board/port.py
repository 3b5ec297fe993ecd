"""A board's USB serial port: where one is (a Raspberry Pi Pico, by its USB vendor id) and
opening it with pyserial. Both the relay's lines (lines.py) and a player program's link
(link.py) open their ports here, and open them again the same way after an unplug."""
from __future__ import annotations

import serial
from serial.tools import list_ports

PICO_VID = 0x2E8A  # Raspberry Pi (MicroPython on a Pico enumerates with it)
BAUD = 115200  # (a USB CDC line ignores it; pyserial asks for one)
WRITE_TIMEOUT_S = 1.0  # a board that does not read its line for this long is taken as gone


def find_picos() -> list[str]:
    """The ports of the Picos plugged in, sorted."""
    return sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID)


def open_port(path: str, read_timeout_s: float | None):
    """The port at path opened (pyserial's Serial: read_timeout_s 0, a read never waits),
    or None while there is none to open there (unplugged, not enumerated yet, taken by
    another program): the caller tries again later."""
    try:
        return serial.Serial(path, BAUD, timeout=read_timeout_s, write_timeout=WRITE_TIMEOUT_S)
    except (serial.SerialException, OSError, ValueError):
        return None


def raise_open_files_limit() -> None:
    """A hall of boards is a descriptor or more each: raise this process's soft limit on
    open files as far as the system allows (nothing to do on Windows)."""
    try:
        import resource  # (POSIX only)
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass
