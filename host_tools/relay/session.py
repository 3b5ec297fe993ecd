"""One board as the relay knows it: the protocol from its line, its games as records, its
live state (clocks, board status), and what to ask it for (resends)."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from host_tools.gamerecord import GameRecord
from host_tools.protocol import PROTOCOL_VERSION, Event, Status, parse_line

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
        # pair, relay/pairing.py); this board's own clock lines are then not the game's.
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

    def handle(self, m: Event | Status) -> list[tuple[str, object]]:
        """What changed, as (what, detail): ("event", Event) a new event of the record,
        ("clock", None), ("status", Status), ("problem", text)."""
        if isinstance(m, Event):
            return self._event(m)
        if m.kind == "hello":
            return self._hello(m)
        if m.kind == "clock":
            if self.clock_from is not None:
                return []  # the game's clock is the other board's
            try:
                state = m.args[3]
                run = m.args[2] if state == "running" and m.args[2] in ("w", "b") else None
                flags = tuple(int(f) for f in m.kwargs.get("flags", "0,0").split(","))
                if state not in ("running", "paused", "stopped") or len(flags) != 2 \
                        or not all(0 <= f <= 2 for f in flags):
                    raise ValueError(state)
                self.clock = Clock(int(m.args[0]), int(m.args[1]), run, time.time(), state, flags)
                self.clock_line = m.line  # kept across a restart of the relay (clocks.json)
            except (ValueError, IndexError):
                return [("problem", f"unreadable clock line {m.line!r}")]
            if self.record is not None:
                self.record.clocks = (self.clock.white_ms, self.clock.black_ms)
            return [("clock", None)]
        if m.kind == "board":
            self.board_status = " ".join(m.args + [f"{k}={v}" for k, v in m.kwargs.items()])
            return [("status", m)]
        if m.kind == "recovered":  # a power cut or reset: the arbiter has a decision to make
            side, _, ms = m.kwargs.get("interrupted", "-").partition(":")
            if side in ("w", "b") and _count(ms) is not None:
                who = "White" if side == "w" else "Black"
                self.problem = (f"the board restarted (power cut or reset) and came back with its game; "
                                f"{who}'s clock is paused: the interrupted turn had run {int(ms) / 1000:.1f} s")
            else:
                self.problem = "the board restarted (power cut or reset) and came back with its game"
            return [("problem", self.problem)]
        if m.kind == "ask" and len(m.args) == 2:  # a player asked for his time: spoken
            return [("ask", (m.args[0], m.args[1]))]
        if m.kind in ("ok", "err"):
            return self._answer(m)
        if m.kind == "unreadable":
            return self._unreadable(m)
        return []

    def _unreadable(self, m: Status) -> list:
        """A line the relay cannot read: said at once, and then, while more come (a bad
        cable, a device gone wrong), once every UNREADABLE_SAY_S with how many."""
        self.unreadable += 1
        now = time.monotonic()
        if self._unreadable_said_at is not None and now - self._unreadable_said_at < UNREADABLE_SAY_S:
            return []
        n, self.unreadable = self.unreadable, 0
        self._unreadable_said_at = now
        what = repr(m.line[:80]) if m.line else f"({' '.join(m.args)})"
        return [("problem", f"unreadable line {what}" + (f", and {n - 1} more" if n > 1 else ""))]

    def _answer(self, m: Status) -> list:
        """An arbiter's command answered: `ok <command> ...` goes to the oldest command
        with that word waiting; `err` (which names no command) to the oldest waiting."""
        word = m.args[0] if m.kind == "ok" and m.args else None
        for i, (line, answered) in enumerate(self.waiting):
            if word is None or line.split()[0] == word:
                del self.waiting[i]
                self.last_command = f"{line} -> {m.line}"
                answered(m)
                return [("answer", (line, m))]
        return []

    def _hello(self, m: Status) -> list:
        proto = m.kwargs.get("proto")
        if proto != str(PROTOCOL_VERSION):
            self.state = INCOMPATIBLE
            self.problem = f"speaks protocol {proto}, the relay {PROTOCOL_VERSION}: left alone"
            return [("problem", self.problem)]
        serial = m.kwargs.get("board", self.serial)
        if not SERIAL.fullmatch(serial):
            self.state = INCOMPATIBLE
            self.problem = f"names itself {serial[:40]!r}, not a board name (letters, digits, . _ : -): left alone"
            return [("problem", self.problem)]
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
        return [("status", m)]

    def _event(self, ev: Event) -> list:
        if self.state == INCOMPATIBLE:
            return []
        rec = self.records.get(ev.game)
        if rec is None:
            rec = self.records[ev.game] = GameRecord(ev.game)
        if self.current is None or ev.game > self.current:
            self.current = ev.game
        try:
            status = rec.apply(ev)
        except ValueError as e:  # a move python-chess refuses: shown, the board goes on
            self.problem = f"game {ev.game}: {e}"
            return [("problem", self.problem)]
        if status == "gap":
            if self.send:
                self.send(f"resend {ev.game}:{rec.next_seq}")
            return []
        if status == "duplicate":
            return []
        return [("event", ev)]

    def restore_clock(self, line: str) -> None:
        """The clock as the board last said it before the relay stopped: shown still (the
        board is not there yet: it says its clock anew when it is)."""
        m = parse_line(line)
        if isinstance(m, Status) and m.kind == "clock" and self.handle(m) == [("clock", None)]:
            self.clock.running = None

    def replay(self, lines: list[str]) -> None:
        """Rebuild the records from the relay's own journal (a restart)."""
        for line in lines:
            m = parse_line(line)
            if isinstance(m, Event):
                self._event(m)
