"""One board on its serial line, for a program that plays on it (host_tools/play): the
line opened with pyserial and opened again after an unplug, the board's lines read by a
thread and told in order to the program's LinkSink in its own thread (`tell`), the game kept as the relay keeps it (BoardSession: a
resend asks for whatever was missed, so no move is lost across an unplug), and commands
with their answers (`ok ...` or `err <code> <text>`). A board never speaks first: the link
says `hello` when it opens the line, and again while the board is quiet (QUIET_S): one that
was reset, or that took a half line before it, answers then."""
from __future__ import annotations

import collections
import queue
import threading
import time

import chess
import serial

from host_tools.board.port import open_port
from host_tools.board.session import BoardSession, SessionSink
from host_tools.protocol import GREETING, DeviceParser, Event, Status

ANSWER_TIMEOUT_S = 5.0
QUIET_S = 3.0


def refusal(m) -> str:
    """A board's `err <code> <text>` in words: its text (decoded), else its code."""
    return " ".join(m.args[1:]) or (m.args[0] if m.args else "refused")


UNANSWERED = ("", "hello", "state")  # lines the board answers with no ok or err (docs/protocol.md)


class BoardError(RuntimeError):
    """The board refused a command (its `err` line) or did not answer."""


class LinkSink(SessionSink):
    """What a player program hears of its board, told in the program's own thread
    (BoardLink.tell): what the board's session changed (SessionSink's methods) and what
    happened to the line."""

    def connected(self) -> None:
        """The line is open (again); the board is asked hello."""

    def disconnected(self) -> None:
        """The line is gone (an unplug); it is opened again as soon as it can be."""

    def line(self, m: Status) -> None:
        """A line of the board's other than an answer, its clock or its hello: a button,
        an attempt, a touch, its board state."""


class _Queued(SessionSink):
    """The session's changes, queued for the player program's thread."""

    def __init__(self, put):
        self.put = put

    def event(self, ev):
        self.put(lambda sink: sink.event(ev))

    def clock(self):
        self.put(lambda sink: sink.clock())

    def status(self, m):
        self.put(lambda sink: sink.status(m))

    def problem(self, text):
        self.put(lambda sink: sink.problem(text))

    def answer(self, line, m):
        self.put(lambda sink: sink.answer(line, m))

    def ask(self, side, what):
        self.put(lambda sink: sink.ask(side, what))


class BoardLink:
    def __init__(self, path: str, retry_s: float = 0.5):
        self.path = path
        self.retry_s = retry_s
        self.session = BoardSession(1)
        self._heard: queue.Queue = queue.Queue()  # f(sink): what the board said, in order (tell)
        self._queued = _Queued(self._heard.put)
        self.connected = threading.Event()
        self._port = None
        self._lock = threading.Lock()
        # One line written at a time, in the order of its ticket: a ticket taken by one
        # thread and written after another thread's line would take that line's answer.
        self._writing = threading.Lock()
        self._answers: queue.Queue = queue.Queue()  # (ticket of the line answered, its ok or err)
        # The board answers each command line with one ok or err, in order: each line sent
        # that gets one has a ticket here, so that an answer goes to its own line (the
        # session's resend after a hello is answered like any command, and its refusal must
        # not be taken for the answer to the player's next command).
        self._sent: collections.deque = collections.deque()
        self._ticket = 0
        self._stopped = False
        self._heard_at = self._hello_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    # ----- the line

    def _open(self) -> bool:
        port = open_port(self.path, 0.1)
        if port is None:
            return False
        with self._lock:
            self._port = port
        self.session.send = self.send
        self.connected.set()
        self._heard.put(lambda sink: sink.connected())
        self._hello()
        return True

    def _hello(self) -> None:
        # (its answer asks for what was missed: BoardSession)
        self._hello_at = time.monotonic()
        for text in GREETING:
            self.send(text)

    def _close(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            self.session.disconnected()
            with self._lock:
                self._sent.clear()  # what was sent on that line will not be answered
            self.connected.clear()
            self._heard.put(lambda sink: sink.disconnected())

    def _run(self) -> None:
        parser = DeviceParser()
        while not self._stopped:
            try:
                if self._port is None and not self._open():
                    time.sleep(self.retry_s)
                    continue
                data = self._port.read(4096)
                now = time.monotonic()
                if data:
                    self._heard_at = now
                elif now - self._heard_at >= QUIET_S and now - self._hello_at >= QUIET_S:
                    self._hello()
                for m in parser.feed(data):
                    self._handle(m)
            except (serial.SerialException, OSError, TypeError, AttributeError, BoardError):
                # The line went away, perhaps while an answer to the board (the resend a
                # hello asks for) was being written: close it and open it again; the next
                # hello asks for whatever was missed.
                self._close()
                parser = DeviceParser()

    def _handle(self, m: Event | Status) -> None:
        if isinstance(m, Status) and m.kind in ("ok", "err"):
            with self._lock:
                ticket = self._sent.popleft() if self._sent else None
            self._answers.put((ticket, m))
        self.session.handle(m, self._queued)
        if isinstance(m, Status) and m.kind not in ("ok", "err", "clock", "hello"):
            self._heard.put(lambda sink: sink.line(m))

    def tell(self, sink: LinkSink, timeout_s: float | None = 0) -> bool:
        """Tell sink the next thing heard of the board, waiting for one up to timeout_s (0:
        not at all, None: as long as it takes); False if there was none."""
        try:
            told = self._heard.get(timeout=timeout_s) if timeout_s != 0 else self._heard.get_nowait()
        except queue.Empty:
            return False
        told(sink)
        return True

    def wake(self) -> None:
        """A tell() waiting in another thread returns at once (a player program's own news:
        an engine's move found)."""
        self._heard.put(lambda sink: None)

    def send(self, text: str) -> int | None:
        """A line to the board; the ticket its ok or err will carry (None: a line answered
        otherwise, or not at all: the empty line, hello, state)."""
        word = text.split()[0] if text.strip() else ""
        with self._writing:
            with self._lock:
                port = self._port
                ticket = None
                if port is not None and word not in UNANSWERED:
                    self._ticket += 1
                    ticket = self._ticket
                    self._sent.append(ticket)
            if port is None:
                raise BoardError("the board is not connected")
            try:
                port.write((text + "\n").encode("ascii"))
            except (serial.SerialException, OSError) as e:
                with self._lock:
                    if ticket in self._sent:
                        self._sent.remove(ticket)
                raise BoardError(f"the line to the board failed: {e}") from None
        return ticket

    def command(self, text: str, timeout: float = ANSWER_TIMEOUT_S) -> Status:
        """Send a command and wait for its answer: the `ok` line, or BoardError with the
        board's `err` text."""
        ticket = self.send(text)
        word = text.split()[0]
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise BoardError(f"no answer from the board to {word!r} within {timeout:g} s")
            try:
                answered, m = self._answers.get(timeout=left)
            except queue.Empty:
                continue
            if answered != ticket:
                continue  # the answer to another line (the session's resend, an earlier command)
            if m.kind == "err":
                raise BoardError(refusal(m))
            if m.args[:1] == [word] or not m.args:
                return m

    def close(self) -> None:
        self._stopped = True
        self._close()


def castling_step(board: chess.Board | None, expected: str, attempt: str) -> bool:
    """Whether the board's `attempt` (from and to square, "h1f1") is a half of the expected
    move when that move castles: the rook moved first, or the king alone so far. Such an
    attempt is a castling being made, not a wrong move."""
    if board is None or len(attempt) < 4:
        return False
    try:
        move = board.parse_uci(expected)
        frm, to = chess.parse_square(attempt[:2]), chess.parse_square(attempt[2:4])
    except ValueError:
        return False
    if not board.is_castling(move):
        return False
    rank = chess.square_rank(move.from_square)
    return chess.square_rank(frm) == rank and to in {chess.square(f, rank) for f in (2, 3, 5, 6)}

