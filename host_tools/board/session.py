"""One board as a host knows it (the relay, `play`, `pair`): the protocol from its line, its
games as records, its live state (clocks, board status), and what to ask it for (resends).

`BoardSession.handle(message, sink)` takes what the board said and tells the sink what it
changed, one method per kind (a visitor, as python-chess's: `SessionSink`), and returns
the sink's result(). With no sink, what changed comes back as a list of (kind, detail)
pairs (`ChangeList`)."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from host_tools.board.record import Applied, GameRecord
from host_tools.protocol import CLOCK_STATES, PROTOCOL_VERSION, Event, Status, parse_line

ACTIVE, INACTIVE, NOTRESPONDING, INCOMPATIBLE = "ACTIVE", "INACTIVE", "NOTRESPONDING", "INCOMPATIBLE"


@dataclass
class Clock:
    white_ms: int = 0
    black_ms: int = 0
    running: str | None = None  # "w", "b" or None
    at: float = 0.0  # host time (s) the line came
    state: str = "stopped"  # "running", "paused" or "stopped", as the board says
    flags: tuple[int, int] = (0, 0)  # White's, Black's flag: 0 up, 1 fell first, 2 fell second


UNREADABLE_SAY_S = 10.0
SERIAL = re.compile(r"[A-Za-z0-9._:-]{1,40}")  # a board's name in its hello (pico-e66141)


def _count(word: str | None) -> int | None:
    """A game or sequence number as a board says it; None if it is not one."""
    if word is None or not (word.isascii() and word.isdigit()) or len(word) > 9:
        return None
    return int(word)


class SessionSink:
    """What a line from the board changed, told by BoardSession.handle: one method per
    kind, in the order things happened. This one does nothing; a relay or a player
    program overrides what it needs."""

    def event(self, ev: Event) -> None:
        """A new sequenced event, applied to its game's record (never one seen before)."""

    def clock(self) -> None:
        """The clock changed (session.clock)."""

    def status(self, m: Status) -> None:
        """The board said hello, or its board state (session.board_status)."""

    def problem(self, text: str) -> None:
        """Something to show and log: a move python-chess refused, an unreadable line, a
        board that restarted (session.problem)."""

    def answer(self, line: str, m: Status) -> None:
        """A command waiting in session.waiting was answered (ok or err)."""

    def ask(self, side: str, what: str) -> None:
        """A player asked the board for his time ("w"/"b", what he asked)."""

    def result(self):
        return None


class ChangeList(SessionSink):
    """What changed, as a list of (kind, detail) pairs: ("event", Event), ("clock", None),
    ("status", Status), ("problem", text), ("answer", (line, Status)), ("ask", (side, what))."""

    def __init__(self):
        self.changes: list[tuple[str, object]] = []

    def event(self, ev):
        self.changes.append(("event", ev))

    def clock(self):
        self.changes.append(("clock", None))

    def status(self, m):
        self.changes.append(("status", m))

    def problem(self, text):
        self.changes.append(("problem", text))

    def answer(self, line, m):
        self.changes.append(("answer", (line, m)))

    def ask(self, side, what):
        self.changes.append(("ask", (side, what)))

    def result(self) -> list[tuple[str, object]]:
        return self.changes


@dataclass
class BoardSession:
    number: int
    serial: str = "?"
    source: str = ""
    state: str = INACTIVE
    records: dict[int, GameRecord] = field(default_factory=dict)
    current: int | None = None
    clock: Clock = field(default_factory=Clock)
    board_status: str = "sync"  # or "differs ..." from the board
    problem: str | None = None  # shown on the page and logged
    flipped: bool = False

    def __post_init__(self):
        self.send = None  # set while a line is open: send(text)
        self.waiting: list = []  # (command line, answered(status)) sent by the arbiter, oldest first
        self.last_command: str | None = None  # the arbiter's last command and its answer, for the page
        self.analysis: dict | None = None  # the spectators' engine evaluation (relay/analysis.py)
        self.written: tuple | None = None  # (game, ply, uci, san, side): a move an incorrect claim wrote (9.5.3)
        self.clock_line: str | None = None  # the board's latest clock line
        # The board whose clock is this game's (appendix D: the blind player's board of a
        # pair, relay/twoboards.py); this board's own clock lines are then not the game's.
        self.clock_from: "BoardSession | None" = None
        self.unreadable = 0  # unreadable lines not yet told of
        self._unreadable_said_at: float | None = None

    @property
    def record(self) -> GameRecord | None:
        return self.records.get(self.current) if self.current is not None else None

    # ----- a line opened or closed

    def disconnected(self) -> None:
        self.send = None
        self.state = INACTIVE
        waiting, self.waiting = self.waiting, []
        for _, answered in waiting:  # the line is gone: no answer will come
            answered(None)

    # ----- what the board said

    def handle(self, m: Event | Status, sink: SessionSink | None = None):
        """Take a message from the board; what it changed goes to sink (a new ChangeList if
        none), whose result() this returns."""
        if sink is None:
            sink = ChangeList()
        if isinstance(m, Event):
            self._event(m, sink)
        elif m.kind == "hello":
            self._hello(m, sink)
        elif m.kind == "clock":
            self._clock(m, sink)
        elif m.kind == "board":
            self.board_status = " ".join(m.args + [f"{k}={v}" for k, v in m.kwargs.items()])
            sink.status(m)
        elif m.kind == "recovered":  # a power cut or reset: the arbiter has a decision to make
            side, _, ms = m.kwargs.get("interrupted", "-").partition(":")
            if side in ("w", "b") and _count(ms) is not None:
                who = "White" if side == "w" else "Black"
                self.problem = (f"the board restarted (power cut or reset) and came back with its game; "
                                f"{who}'s clock is paused: the interrupted turn had run {int(ms) / 1000:.1f} s")
            else:
                self.problem = "the board restarted (power cut or reset) and came back with its game"
            sink.problem(self.problem)
        elif m.kind == "ask" and len(m.args) == 2:  # a player asked for his time: spoken
            sink.ask(m.args[0], m.args[1])
        elif m.kind in ("ok", "err"):
            self._answer(m, sink)
        elif m.kind == "unreadable":
            self._unreadable(m, sink)
        return sink.result()

    def _clock(self, m: Status, sink: SessionSink) -> bool:
        """The board's clock line; False if it does not read (told as a problem)."""
        if self.clock_from is not None:
            return False  # the game's clock is the other board's
        try:
            state = m.args[3]
            run = m.args[2] if state == "running" and m.args[2] in ("w", "b") else None
            flags = tuple(int(f) for f in m.kwargs.get("flags", "0,0").split(","))
            if state not in CLOCK_STATES or len(flags) != 2 or not all(0 <= f <= 2 for f in flags):
                raise ValueError(state)
            self.clock = Clock(int(m.args[0]), int(m.args[1]), run, time.time(), state, flags)
            self.clock_line = m.line  # kept across a restart of the relay (clocks.json)
        except (ValueError, IndexError):
            sink.problem(f"unreadable clock line {m.line!r}")
            return False
        if self.record is not None:
            self.record.clocks = (self.clock.white_ms, self.clock.black_ms)
        sink.clock()
        return True

    def _unreadable(self, m: Status, sink: SessionSink) -> None:
        """A line the relay cannot read: said at once, and then, while more come (a bad
        cable, a device gone wrong), once every UNREADABLE_SAY_S with how many."""
        self.unreadable += 1
        now = time.monotonic()
        if self._unreadable_said_at is not None and now - self._unreadable_said_at < UNREADABLE_SAY_S:
            return
        n, self.unreadable = self.unreadable, 0
        self._unreadable_said_at = now
        what = repr(m.line[:80]) if m.line else f"({' '.join(m.args)})"
        sink.problem(f"unreadable line {what}" + (f", and {n - 1} more" if n > 1 else ""))

    def _answer(self, m: Status, sink: SessionSink) -> None:
        """An arbiter's command answered: `ok <command> ...` goes to the oldest command
        with that word waiting; `err` (which names no command) to the oldest waiting."""
        word = m.args[0] if m.kind == "ok" and m.args else None
        for i, (line, answered) in enumerate(self.waiting):
            if word is None or line.split()[0] == word:
                del self.waiting[i]
                self.last_command = f"{line} -> {m.line}"
                answered(m)
                sink.answer(line, m)
                return

    def _hello(self, m: Status, sink: SessionSink) -> None:
        proto = m.kwargs.get("proto")
        if proto != str(PROTOCOL_VERSION):
            self.state = INCOMPATIBLE
            self.problem = f"speaks protocol {proto}, the relay {PROTOCOL_VERSION}: left alone"
            sink.problem(self.problem)
            return
        serial = m.kwargs.get("board", self.serial)
        if not SERIAL.fullmatch(serial):
            self.state = INCOMPATIBLE
            self.problem = f"names itself {serial[:40]!r}, not a board name (letters, digits, . _ : -): left alone"
            sink.problem(self.problem)
            return
        self.serial = serial
        self.state = ACTIVE
        self.problem = None
        game, seq = _count(m.kwargs.get("game")), _count(m.kwargs.get("seq"))
        if game is not None:
            if game not in self.records:
                self.records[game] = GameRecord(game)
                self.current = game
            nxt = self.records[game].next_seq
            if self.send and (seq is None or seq >= nxt):  # (a hello again: nothing missed)
                self.send(f"resend {game}:{nxt}")
        sink.status(m)

    def _event(self, ev: Event, sink: SessionSink) -> None:
        if self.state == INCOMPATIBLE:
            return
        rec = self.records.get(ev.game)
        if rec is None:
            rec = self.records[ev.game] = GameRecord(ev.game)
        if self.current is None or ev.game > self.current:
            self.current = ev.game
        try:
            status = rec.apply(ev)
        except ValueError as e:  # a move python-chess refuses: shown, the board goes on
            self.problem = f"game {ev.game}: {e}"
            sink.problem(self.problem)
            return
        if status is Applied.GAP:
            if self.send:
                self.send(f"resend {ev.game}:{rec.next_seq}")
        elif status is Applied.OK:
            sink.event(ev)

    def restore_clock(self, line: str) -> None:
        """The clock as the board last said it before the relay stopped: shown still (the
        board is not there yet: it says its clock anew when it is)."""
        m = parse_line(line)
        if isinstance(m, Status) and m.kind == "clock" and self._clock(m, SessionSink()):
            self.clock.running = None

    def replay(self, lines: list[str]) -> None:
        """Rebuild the records from the relay's own journal (a restart)."""
        sink = SessionSink()
        for line in lines:
            m = parse_line(line)
            if isinstance(m, Event):
                self._event(m, sink)
