"""A DGT host as DGT's published e-board protocol describes one (command bytes, message ids,
the 14-bit length in two 7-bit bytes, piece codes a8..h1), for the tests: it reads the
board's messages from its serial line and follows the game the way DGT programs do - a
board dump to start from, then field updates, and a move counted when the pieces stand
as after one legal move, once the pieces have stood still for a moment (DGT programs wait
for the board to settle, as LiveChess's move delay does); a move that was only a piece
resting on its way is corrected when the piece goes on."""
from __future__ import annotations

import threading
import time

import chess
import serial

from tests.firmware.support import ee_records

RESET, SEND_CLK, SEND_BRD, SEND_UPDATE_NICE, SEND_VERSION = 0x40, 0x41, 0x42, 0x4B, 0x4D
RETURN_SERIALNR, RETURN_LONG_SERIALNR, SEND_TRADEMARK, SEND_BATTERY_STATUS = 0x45, 0x55, 0x47, 0x4C
BOARD_DUMP, BWTIME, FIELD_UPDATE, SERIALNR, TRADEMARK, VERSION = 0x86, 0x8D, 0x8E, 0x91, 0x92, 0x93
BATTERY_STATUS, LONG_SERIALNR = 0xA0, 0xA2
CLOCK_VERSION = bytes((0x2B, 0x03, 0x03, 0x09, 0x00))
SETTLE_S = 0.3  # the pieces still this long: a position to look at

PIECES = {1: "P", 2: "R", 3: "N", 4: "B", 5: "K", 6: "Q", 7: "p", 8: "r", 9: "n", 10: "b", 11: "k", 12: "q"}


def placement(codes: bytes | list[int]) -> str:
    """The FEN piece placement of 64 piece codes, a8 first (python-chess writes it)."""
    board = chess.BaseBoard.empty()
    for f, c in enumerate(codes):
        if c:
            board.set_piece_at(chess.square(f % 8, 7 - f // 8), chess.Piece.from_symbol(PIECES[c]))
    return board.board_fen()


def clock_seconds(data: bytes) -> tuple[int, int, int] | None:
    """(left s, right s, status) of a clock-times message's 7 data bytes; None for an ack."""
    if (data[0] & 0x0F) == 0x0A or (data[3] & 0x0F) == 0x0A:
        return None

    def secs(h, m, s):
        return (h & 0x0F) * 3600 + (m >> 4) * 600 + (m & 0x0F) * 60 + (s >> 4) * 10 + (s & 0x0F)
    return secs(*data[3:6]), secs(*data[0:3]), data[6]


def ack(data: bytes) -> tuple[int, int, int, int] | None:
    """The 4 ack bytes of a clock-times message that is an acknowledgement."""
    if not ((data[0] & 0x0F) == 0x0A or (data[3] & 0x0F) == 0x0A):
        return None
    return (data[1] & 0x7F | (data[3] << 3) & 0x80, data[2] & 0x7F | (data[3] << 2) & 0x80,
            data[4] & 0x7F | (data[0] << 3) & 0x80, data[5] & 0x7F | (data[0] << 2) & 0x80)


class DgtHost:
    def __init__(self, path: str, start: chess.Board | None = None, dump_on_update: bool = False):
        self.port = serial.Serial(path, 9600, timeout=0.05)
        self.board = start.copy() if start is not None else chess.Board()
        self.codes: list[int] | None = None  # the pieces as the board last said
        self.messages: list[tuple[int, bytes, float]] = []  # (id, data, when)
        self.moves: list[str] = []  # UCI of the moves found
        self.dumps = 0
        self.noise = 0  # bytes after the first message that were not part of any (text, say)
        self.dump_on_update = dump_on_update  # picochess asks for the board after each update
        self._lock = threading.RLock()
        self._changed_at: float | None = None  # the last update not looked at yet
        self._stop = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def send(self, *data: int | bytes) -> None:
        out = b"".join(bytes((d,)) if isinstance(d, int) else d for d in data)
        self.port.write(out)

    def _read(self) -> None:
        buf = bytearray()
        while not self._stop:
            try:
                got = self.port.read(512)
            except (serial.SerialException, OSError, TypeError):
                return
            buf += got
            with self._lock:
                if self._changed_at is not None and time.monotonic() - self._changed_at >= SETTLE_S:
                    self._changed_at = None
                    self._find_move()
            self._parse(buf)

    def _parse(self, buf: bytearray, least: int = 3) -> None:
        """Every whole message at the start of buf, taken out of it (least: the shortest
        message there is); bytes that begin none are noise."""
        while buf:
            if not buf[0] & 0x80:
                del buf[0]
                self.noise += 1 if self.messages else 0  # (the board's hello, before it knew)
                continue
            if len(buf) < 3:
                break
            n = buf[1] << 7 | buf[2]
            if n < least or any(b & 0x80 for b in buf[1:min(n, len(buf))]):
                del buf[0]
                self.noise += 1
                continue
            if len(buf) < n:
                break
            msg = bytes(buf[:n])
            del buf[:n]
            self._whole(msg)

    def _whole(self, msg: bytes) -> None:
        self._message(msg[0], msg[3:])

    def _message(self, mid: int, data: bytes) -> None:
        with self._lock:
            self.messages.append((mid, data, time.monotonic()))
            if mid == BOARD_DUMP and len(data) == 64:
                self.dumps += 1
                self.codes = list(data)
                self._find_move()
            elif mid == FIELD_UPDATE and len(data) == 2 and self.codes is not None:
                self.codes[data[0]] = data[1]
                self._changed_at = time.monotonic()
                if self.dump_on_update:
                    self.send(SEND_BRD)

    def _find_move(self) -> None:
        seen = placement(self.codes)
        if seen == self.board.board_fen():
            return
        if self._after_one_move(seen):
            return
        # Not one move on: the last move was a piece put down on its way (a queen resting
        # on c7 on her way to a5), corrected as DGT programs correct it.
        if self.moves:
            last = self.board.pop()
            if self._after_one_move(seen, replacing=True):
                return
            self.board.push(last)

    def _after_one_move(self, seen: str, replacing: bool = False) -> bool:
        for move in self.board.legal_moves:
            self.board.push(move)
            if self.board.board_fen() == seen:
                if replacing:
                    self.moves[-1] = move.uci()
                else:
                    self.moves.append(move.uci())
                return True
            self.board.pop()
        return False

    def last(self, mid: int) -> bytes | None:
        with self._lock:
            for m, data, _ in reversed(self.messages):
                if m == mid:
                    return data
        return None

    def wait(self, what, timeout: float = 20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                got = what()
            if got:
                return got
            time.sleep(0.02)
        raise AssertionError(f"the DGT host waited in vain: {what}")

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        self.port.close()


# DGT's bus mode (docs/dgt.md): 4-byte commands with the board's address and a checksum;
# answers with the address and a checksum; the board's store read in records.
BUS_SEND_CLK, BUS_SEND_BRD, BUS_SEND_CHANGES, BUS_REPEAT_CHANGES = 0x81, 0x82, 0x83, 0x84
BUS_SET_START_GAME, BUS_SEND_FROM_START, BUS_PING, BUS_END_BUSMODE = 0x85, 0x86, 0x87, 0x88
MSG_BUS_BRD_DUMP, MSG_BUS_BWTIME, MSG_BUS_UPDATE, MSG_BUS_FROM_START = 0x83, 0x84, 0x85, 0x86
MSG_BUS_PING, MSG_BUS_START_GAME_WRITTEN, MSG_BUS_VERSION = 0x87, 0x88, 0x89
EE_START_TAG = 0x7B
records = ee_records  # the store's records (tests/firmware/support.py)


class BusHost(DgtHost):
    """A host of DGT's bus mode, as DGT's serial board software drives boards on a bus: it
    finds the board with a ping to every board, takes its board dump, sets the start tag,
    then polls the changes every poll_s (asking again after a bad checksum) and follows the
    game from the field records alone."""

    def __init__(self, path: str, poll_s: float = 0.25):
        self.address: int | None = None
        self.updates: list[bytes] = []  # the data of every changes message, in order
        self.bad = 0  # messages with a bad checksum
        self.poll_s = poll_s
        self._polling = False
        super().__init__(path)

    def bus(self, cmd: int, address: int | None = None) -> None:
        a = self.address if address is None else address
        c = bytes((cmd, a >> 7, a & 0x7F))
        self.send(c + bytes((sum(c) & 0x7F,)))

    def start_polling(self) -> None:
        self._polling = True
        threading.Thread(target=self._poll, daemon=True).start()

    def _poll(self) -> None:
        while self._polling and not self._stop:
            self.bus(BUS_SEND_CHANGES)
            time.sleep(self.poll_s)

    def close(self) -> None:
        self._polling = False
        super().close()

    def _parse(self, buf: bytearray, least: int = 6) -> None:
        super()._parse(buf, least)  # a bus message has its address and checksum too

    def _whole(self, msg: bytes) -> None:
        if msg[-1] != sum(msg[:-1]) & 0x7F:
            self.bad += 1
            self.bus(BUS_REPEAT_CHANGES)
            return
        self._bus_message(msg[0], msg[3] << 7 | msg[4], msg[5:-1])

    def _bus_message(self, mid: int, address: int, data: bytes) -> None:
        with self._lock:
            self.messages.append((mid, data, time.monotonic()))
            if mid == MSG_BUS_PING and self.address is None:
                self.address = address
            elif mid == MSG_BUS_BRD_DUMP and len(data) == 64:
                self.dumps += 1
                self.codes = list(data)
                self._find_move()
            elif mid == MSG_BUS_UPDATE and data:
                self.updates.append(data)
                if self.codes is not None:
                    for r in records(data):
                        if isinstance(r, tuple) and r[0] == "f":
                            self.codes[r[1]] = r[2]
                    self._changed_at = time.monotonic()
