"""What the arbiter must know of the boards, as alerts: a completed illegal move or press, a
piece where no legal move goes, a touched piece, a draw claim and its verdict, a board that
differs from its game (and its fix), a flag, a low battery, a board back from a power cut,
a warning, a line that went. `alert_of(session, message)` says (pure) whether a board's
message is one and in what words; `Alerts` keeps every board's, newest last, numbered, with
what the arbiter has seen. Urgent alerts ask for the arbiter now (the arbiter's page sounds
them); the others are for the record (a touched piece, a result)."""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from itertools import islice

from host_tools.board.record import SIDE_NAMES
from host_tools.protocol import Event

KEEP = 2000  # alerts kept (all boards): the newest


@dataclass
class Alert:
    id: int
    board: int
    kind: str
    text: str
    urgent: bool
    at: float  # host time (Unix seconds) of the last time it came
    game: int | None = None
    ply: int | None = None  # the game's length when it came
    count: int = 1  # the same alert again, at once, is counted, not repeated
    seen: bool = False
    move: str | None = None  # the last move made when it came, as a scoresheet has it: "23... Nf6"

    def json(self) -> dict:
        return asdict(self)


def _side(word: str) -> str:
    return SIDE_NAMES.get(word, "?")


def _nth(n: str) -> str:
    return {"1": "first", "2": "second"}.get(n, n)


def _to_move(s) -> str:
    rec = s.record
    if rec is None:
        return "?"
    try:
        return "White" if rec.position().turn else "Black"
    except ValueError:
        return "?"


def move_label(rec, ply: int | None) -> str | None:
    """The ply-th move of a game as a scoresheet numbers it ("23. Nf3", "23... Nf6"), or
    "before the first move"; None without a game."""
    if rec is None or ply is None:
        return None
    if ply == 0 or ply > len(rec.plies):
        return "before the first move" if ply == 0 else None
    parts = rec.fen.split()
    white_first = len(parts) < 2 or parts[1] != "b"
    first = int(parts[5]) if len(parts) > 5 and parts[5].isdigit() else 1
    i = ply - 1 + (0 if white_first else 1)
    number = first + i // 2
    return f"{number}{'.' if i % 2 == 0 else '...'} {rec.plies[ply - 1].san}"


def alert_of(s, m) -> tuple[str, str, bool] | None:
    """(kind, text, urgent) when message m of board session s is something for the arbiter
    (m already taken into s: its record and status are as after it), else None."""
    if isinstance(m, Event):
        a = m.args
        if m.kind == "illegal" and len(a) == 2:
            return "illegal", f"{_side(a[0])} completed an illegal move ({_nth(a[1])}; 7.5)", True
        if m.kind == "flag" and len(a) == 2:
            return "flag", f"{_side(a[0])}'s flag fell ({'first' if a[1] == '1' else 'second'})", True
        if m.kind == "result" and a:
            end = a[1].replace("_", " ") if len(a) > 1 else ""
            return "result", f"the game ended {a[0]}" + (f" ({end})" if end else ""), False
        return None
    k, a = m.kind, m.args
    if k == "illegal-press" and len(a) == 2:
        return "illegal-press", (f"{_side(a[0])} pressed the clock without a legal move "
                                 f"({_nth(a[1])}; 7.5.3)"), True
    if k == "attempt" and a:
        return "attempt", f"{_to_move(s)}: a piece stands where no legal move goes ({a[0]})", False
    if k == "touched" and a:
        return "touched", f"a piece on {a[0]} was lifted and put back (4.3 may apply)", False
    if k == "claim" and len(a) == 2:
        return "claim", f"{_side(a[0])} claimed a draw: {a[1]}", True
    if k == "draw-offer" and a and a[0] in ("w", "b"):  # from the clock's draw key (9.1.2)
        if a[1:] == ["declined"]:
            return "draw-offer", f"{_side(a[0])}'s draw offer lapsed: the opponent moved on", False
        return "draw-offer", f"{_side(a[0])} offered a draw (from the clock)", False
    if k == "board" and a[:1] == ["differs"]:
        return "differs", f"the board differs from the game: {s.board_status[len('differs '):]}", True
    if k == "board" and a[:1] == ["sync"]:
        return "sync", "the board is as the game again", False
    if k == "power" and len(a) == 3 and a[2] == "low":
        return "power", f"low battery ({a[0]} mV): the clock shows its sign", True
    if k == "recovered":
        return "recovered", s.problem or "the board restarted and came back with its game", True
    if k == "warning":
        return "warning", " ".join(a), True
    return None


class Alerts:
    def __init__(self, store=None):
        """store: the relay's files (alerts.jsonl, one alert a line, read back at a restart)."""
        self.store = store
        self.items: dict[int, Alert] = {}  # id -> alert, oldest first
        if store is not None:
            for line in store.lines("alerts.jsonl"):
                try:
                    a = Alert(**json.loads(line))
                except (ValueError, TypeError):
                    continue  # a line cut by a crash
                self._keep(a)  # a later line of an alert (seen, counted again) takes its place
        self._next = max(self.items, default=0) + 1

    def add(self, board: int, kind: str, text: str, urgent: bool, game=None, ply=None, move=None) -> Alert:
        last = next((a for a in islice(reversed(self.items.values()), 50) if a.board == board), None)
        if last is not None and (last.kind, last.text, last.game, last.ply) == (kind, text, game, ply):
            last.count += 1
            last.at = time.time()
            last.seen = False
            self._write(last)
            return last
        a = Alert(self._next, board, kind, text, urgent, time.time(), game, ply, move=move)
        self._next += 1
        self._keep(a)
        self._write(a)
        return a

    def seen(self, ident: int) -> Alert | None:
        a = self.items.get(ident)
        if a is not None and not a.seen:
            a.seen = True
            self._write(a)
        return a

    def json(self) -> list[dict]:
        return [a.json() for a in self.items.values()]

    def renumber(self, a: int, b: int) -> bool:
        """Boards a and b changed numbers (the arbiter paired them anew): their alerts go
        with them. Whether any alert changed."""
        moved = False
        for x in self.items.values():
            if x.board in (a, b):
                x.board = b if x.board == a else a
                self._write(x)
                moved = True
        return moved

    def _keep(self, a: Alert) -> None:
        self.items[a.id] = a
        while len(self.items) > KEEP:
            del self.items[next(iter(self.items))]

    def _write(self, a: Alert) -> None:
        # Each change is a line of its own: the newest line of an id is what it is now.
        if self.store is not None:
            self.store.append("alerts.jsonl", json.dumps(a.json()))

