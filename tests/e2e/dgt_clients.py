"""Two DGT e-board drivers as their own code reads a board, for the tests: what they send at
start-up and how strictly they read. Written from their published sources, not copied:

- dgtnix (the C library DGT programs use on Linux), src/dgtnix.c: dgtnixInit() opens the
  tty, flushes it (tcflush), sends RESET and SEND_BRD, and waits 1.5 s for a board dump or
  gives up ("does not respond to the init query"); its thread (_threadManagedFunc) sends
  SERIALNR, BUSADDRESS, VERSION, TRADEMARK, then SEND_UPDATE, and reads message after
  message (_readMessageFromBoard): a first byte without the top bit ("invalid message
  -2-") or an id it does not know ends the thread (or the program) for good.
- picochess (a chess computer on a Raspberry Pi), dgt/board.py: it opens the port, waits
  1.5 s, sends SEND_UPDATE_NICE and SEND_VERSION (each followed by 0.1 s); its reader
  (_process_incoming_board_forever) takes one byte at a time: a byte with the top bit
  begins a message (_read_board_message: lengths over 64 are dropped, a data byte with the
  top bit restarts the message), any other byte is skipped with a 0.1 s sleep, and every
  tenth such pause sends RETURN_SERIALNR (its watchdog). On VERSION it asks for the board
  and the clock's version; on every FIELD_UPDATE it asks for the board again.
"""
from __future__ import annotations

import threading
import time

import serial

RESET, SEND_BRD, SEND_UPDATE, RETURN_SERIALNR, RETURN_BUSADRES = 0x40, 0x42, 0x43, 0x45, 0x46
SEND_TRADEMARK, SEND_UPDATE_NICE, SEND_VERSION = 0x47, 0x4B, 0x4D
CLOCK_VERSION = bytes((0x2B, 0x03, 0x03, 0x09, 0x00))
BOARD_DUMP, BWTIME, FIELD_UPDATE, EE_MOVES, BUSADRES, SERIALNR, TRADEMARK, VERSION = (
    0x86, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93)
DGTNIX_KNOWS = {0x80, BOARD_DUMP, BWTIME, FIELD_UPDATE, EE_MOVES, BUSADRES, SERIALNR, TRADEMARK, VERSION}


class Dgtnix:
    """dgtnixInit() and its reading thread. `error` is what made it stop (None: running),
    `board` the 64 piece codes as it last had them (a8 first)."""

    INIT_WAIT_S = 1.5

    def __init__(self, path: str, init_wait_s: float = INIT_WAIT_S):
        """init_wait_s: dgtnix's own 1.5 s, or longer for a board switched on after."""
        self.port = serial.Serial(path, 9600, timeout=0.2)
        self.port.reset_input_buffer()  # tcflush(TCIOFLUSH)
        self.error: str | None = None
        self.board = [0] * 64
        self.dumps = 0
        self.updates: list[tuple[int, int]] = []
        self.stopped = False
        self.port.write(bytes((RESET, SEND_BRD)))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        end = time.monotonic() + init_wait_s
        while not self.dumps and time.monotonic() < end and self.error is None:
            time.sleep(0.05)
        if not self.dumps and self.error is None:
            self.error = "does not respond to the init query"

    def _read(self, n: int) -> bytes:
        out = b""
        while len(out) < n and not self.stopped:
            out += self.port.read(n - len(out))  # read() blocks on the tty until bytes come
        return out

    def _run(self) -> None:
        self.port.write(bytes((RETURN_SERIALNR, RETURN_BUSADRES, SEND_VERSION, SEND_TRADEMARK, SEND_UPDATE)))
        while not self.stopped and self.error is None:
            head = self._read(1)
            if not head:
                return
            if not head[0] & 0x80:
                self.error = f"invalid message -2- {head[0]}"
                return
            size = self._read(2)
            if len(size) < 2:
                return
            if size[0] & 0x80 or size[1] & 0x80:
                self.error = "invalid message -4-/-6-"
                return
            data = self._read((size[0] << 7) + size[1] - 3)
            if head[0] not in DGTNIX_KNOWS:
                self.error = f"unknown response ({head[0] & 0x7F:x})"
                return
            if head[0] == BOARD_DUMP:
                self.board = list(data)
                self.dumps += 1
            elif head[0] == FIELD_UPDATE:
                self.board[data[0]] = data[1]
                self.updates.append((data[0], data[1]))

    def close(self) -> None:
        self.stopped = True
        self._thread.join(2)
        self.port.close()


class Picochess:
    """picochess's DgtBoard on a serial line. `skipped` counts the bytes it had to skip
    (each cost it 0.1 s), `board` is its last board dump, `version` its board version."""

    def __init__(self, path: str, settle_s: float = 1.5):
        self.port = serial.Serial(path, 9600, timeout=2)
        self.skipped = 0
        self.version: tuple[int, int] | None = None
        self.clock_version_asked = False
        self.board: list[int] | None = None
        self.dumps = 0
        self.updates = 0
        self.dropped = 0  # messages with an illegal length
        self.stopped = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, args=(settle_s,), daemon=True)
        self._thread.start()

    def _write(self, data: bytes) -> None:
        with self._lock:
            self.port.write(data)
        time.sleep(0.1)  # "give the board some time to process the command"

    def _run(self, settle_s: float) -> None:
        time.sleep(settle_s)
        self._write(bytes((SEND_UPDATE_NICE,)))
        self._write(bytes((SEND_VERSION,)))
        counter = 0
        while not self.stopped:
            try:
                byte = self.port.read(1)
            except (serial.SerialException, OSError, TypeError):
                return
            if byte and byte[0] & 0x80:
                self._message(byte)
            else:
                if byte:
                    self.skipped += 1
                counter = (counter + 1) % 10
                if counter == 0:
                    self._write(bytes((RETURN_SERIALNR,)))  # its watchdog
                time.sleep(0.1)

    def _message(self, head: bytes) -> None:
        header = head + self.port.read(2)
        if len(header) < 3:
            return
        length = (header[1] << 7) + header[2] - 3
        if length <= 0 or length > 64:
            self.dropped += 1
            return
        data = b""
        while len(data) < length and not self.stopped:
            b = self.port.read(1)
            if not b:
                continue
            if b[0] & 0x80:
                return self._message(b)  # "illegal data in message": start again from it
            data += b
        if header[0] == VERSION:
            self.version = (data[0], data[1])
            self._write(bytes((SEND_BRD,)))
            self._write(CLOCK_VERSION)
            self.clock_version_asked = True
        elif header[0] == BOARD_DUMP:
            self.board = list(data)
            self.dumps += 1
        elif header[0] == FIELD_UPDATE:
            self.updates += 1
            self._write(bytes((SEND_BRD,)))

    def close(self) -> None:
        self.stopped = True
        self._thread.join(3)
        self.port.close()
