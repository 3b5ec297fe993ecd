"""The player programs' link to the board (host_tools/board/link.py) over a line
that breaks at the worst moment: while the link answers the board's hello."""
from __future__ import annotations

import queue
import threading
import time

import serial

from host_tools.board import link as boardlink


class FakeSerial:
    """A pyserial port: read() hands out what the board sent, write() records what the
    link sent, or fails as pyserial does when the USB line has just gone."""

    def __init__(self, incoming: bytes, broken: bool):
        self._incoming = incoming
        self.broken = broken
        self.written = b""
        self.closed = False

    def read(self, n: int) -> bytes:
        if self.closed:
            raise serial.SerialException("port is closed")
        data, self._incoming = self._incoming[:n], self._incoming[n:]
        if not data:
            time.sleep(0.01)
        return data

    def write(self, data: bytes) -> int:
        if self.broken:
            raise serial.SerialException("write failed: [Errno 5] Input/output error")
        self.written += data
        return len(data)

    def close(self) -> None:
        self.closed = True


def test_a_line_that_breaks_while_the_hello_is_answered_is_opened_again(monkeypatch):
    hello = b"hello proto=1 fw=t board=b1 game=3 seq=2\n"
    ports = [FakeSerial(hello, broken=True), FakeSerial(hello, broken=False)]
    opened = []
    lock = threading.Lock()

    def open_port(path, *a, **kw):
        with lock:
            if not ports:
                raise serial.SerialException("no such port")
            opened.append(ports.pop(0))
            return opened[-1]

    monkeypatch.setattr(boardlink.serial, "Serial", open_port)
    link = boardlink.BoardLink("/dev/fake", retry_s=0.01)
    try:
        end = time.monotonic() + 5
        while time.monotonic() < end and not (len(opened) == 2 and b"resend" in opened[1].written):
            time.sleep(0.01)
        assert len(opened) == 2 and opened[0].closed
        # An empty line, hello (the board never speaks first), and the game asked for.
        assert opened[1].written.startswith(b"\nhello\nresend 3:1\n")
        assert link._thread.is_alive() and link.connected.is_set()
    finally:
        link.close()


def test_a_castling_made_rook_first_is_not_called_a_wrong_move():
    # The board reports the rook's half of an expected castling as an attempt while the
    # king is still to come (firmware: a move that is not the expected one); the players'
    # tools must not say "That is not the move" to a player who castles rook first.
    import chess

    b = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert boardlink.castling_step(b, "e1g1", "h1f1") and boardlink.castling_step(b, "e1c1", "a1d1")
    assert boardlink.castling_step(b, "e1g1", "e1g1")  # the king first, the rook to come
    assert not boardlink.castling_step(b, "e1g1", "h1h5") and not boardlink.castling_step(b, "e1f1", "h1f1")
    b960 = chess.Board("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    assert boardlink.castling_step(b960, "e1g1", "g1f1")  # king takes rook: the rook to f1 first
    assert not boardlink.castling_step(None, "e1g1", "h1f1") and not boardlink.castling_step(b, "zz", "h1f1")


class OrderlyBoard(FakeSerial):
    """A board that answers each line in turn, as the firmware does (firmware/app/commands.py:
    `handle` answers every command line with one ok or err, in order; `_hello` answers with
    the hello line; `_resend` refuses another game than the current with `err not-now game
    1 is not the current game (2)`, its text encoded by firmware/app/protocol.py). Its
    answers come after a moment."""

    def __init__(self):
        super().__init__(b"", broken=False)
        self._lock = threading.Lock()
        self._due: queue.Queue = queue.Queue()  # answers, in the order of their lines
        threading.Thread(target=self._answer, daemon=True).start()

    def write(self, data: bytes) -> int:
        super().write(data)
        for line in data.decode().splitlines():
            word = line.split()[0] if line.strip() else ""
            answer = {"hello": "hello proto=1 fw=t board=b1 game=1 seq=4",
                      "resend": "err not-now game%201%20is%20not%20the%20current%20game%20(2)",
                      "new": "ok new 2"}.get(word)
            if answer:
                self._due.put(answer)
        return len(data)

    def _answer(self) -> None:
        while True:  # one line at a time, in order, each after a moment's work
            line = self._due.get()
            time.sleep(0.2)
            with self._lock:
                self._incoming += (line + "\n").encode()


def test_the_answer_to_the_sessions_resend_is_not_taken_for_a_commands(monkeypatch):
    # A player program joins a game just as the board's hello is answered: the session asks
    # for a resend of game 1 while the program starts game 2. The board refuses the resend
    # (game 1 is over) before it answers new; new gets its own answer.
    board = OrderlyBoard()
    monkeypatch.setattr(boardlink.serial, "Serial", lambda *a, **kw: board)
    link = boardlink.BoardLink("/dev/fake", retry_s=0.01)
    try:
        end = time.monotonic() + 5
        while time.monotonic() < end and b"resend" not in board.written:
            time.sleep(0.01)
        answer = link.command("new tc=60")
        assert answer.kind == "ok" and answer.args == ["new", "2"]
    finally:
        link.close()


class SlowWritingBoard(OrderlyBoard):
    """The same board behind a USB line that takes its time to take a line: the session's
    resend is still being written (pyserial's write blocks while the OS buffer drains) when
    the player program sends its own command from another thread."""

    def __init__(self):
        super().__init__()
        self.resend_begun = threading.Event()

    def write(self, data: bytes) -> int:
        if data.startswith(b"resend"):
            self.resend_begun.set()
            time.sleep(0.5)
        return super().write(data)


def test_a_command_sent_while_the_sessions_resend_is_written_gets_its_own_answer(monkeypatch):
    # The line that was seen to break `play pair` at first contact: the resend took its
    # ticket first but reached the board after new, so the board's answer to new went to
    # the resend and the resend's refusal (game 1 is over) to new.
    board = SlowWritingBoard()
    monkeypatch.setattr(boardlink.serial, "Serial", lambda *a, **kw: board)
    link = boardlink.BoardLink("/dev/fake", retry_s=0.01)
    try:
        assert board.resend_begun.wait(5)
        answer = link.command("new tc=60")
        assert answer.kind == "ok" and answer.args == ["new", "2"]
        assert board.written.index(b"resend") < board.written.index(b"new")
    finally:
        link.close()
