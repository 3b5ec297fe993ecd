"""The boards: their serial lines, and each board's session (host_tools/board/session.py).
A board never speaks first: the relay says `hello` on every line it opens, again every
HELLO_AGAIN_S until the board answers (a half line or a DGT program's bytes may have come
before it), and again after QUIET_S without a word from an answered board (one that was
reset behind a line that stayed open waits to be spoken to). A line says nothing until its
board says who it is (`hello` with its serial); the serial
gives the board its number (the round's pairing, or the one it had, or the first free),
kept in boards.json. What a board says goes into its session; every sequenced event into
the relay's journal (the store) before anything is published. One board's trouble is
logged and never stops the others."""
from __future__ import annotations

import json
import time

from host_tools.board.record import SIDE_NAMES
from host_tools.board.session import ACTIVE, BoardSession, SessionSink
from host_tools.protocol import GREETING, DeviceParser, Event, Status
from host_tools.relay.alerts import Alerts, alert_of, move_label
from host_tools.relay.twoboards import PAIRED


HELLO_AGAIN_S = 2.0
ARBITERS_OWN = ("illegal", "claim", "result")  # alerts that an arbiter's command waiting on the board made
QUIET_S = 5.0


class _LineState:
    def __init__(self, line):
        self.line = line
        self.parser = DeviceParser()
        self.session: BoardSession | None = None
        self.heard_at = self.hello_at = time.monotonic()


def _read_json(p) -> dict:
    """A small JSON file of the relay's as a dict ({} if it is missing or cut by a crash)."""
    try:
        data = json.loads(p.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class _Heard(SessionSink):
    """What one line from board s changed, as the relay acts on it: every new event into
    the journal (and a move to the speaker), an answer to the page, a problem to the
    arbiter; then (Boards.handle) the page told of the board or only of its clock."""

    def __init__(self, boards: "Boards", s: BoardSession, m):
        self.boards, self.s, self.m = boards, s, m
        self.new_event = self.changed = self.clock_changed = False

    def event(self, ev: Event) -> None:
        self.new_event = self.changed = True
        b, s = self.boards, self.s
        b.store.append_event(s.number, ev.line)
        if ev.kind == "move" and s.written and s.written[0] == ev.game:
            b._written_move(s, ev)
        if ev.kind == "move" and b.speaker and s.record and s.record.plies:
            first_white = s.record.fen.split()[1] == "w"
            side = "w" if (len(s.record.plies) % 2 == 1) == first_white else "b"
            pos = s.record.board()
            last = pos.pop()
            b.speaker.move(s.record.plies[-1].san, side, last.uci(), pos.is_en_passant(last))

    def clock(self) -> None:
        self.clock_changed = True

    def status(self, m: Status) -> None:
        self.changed = True

    def answer(self, line: str, m: Status) -> None:
        self.changed = True
        self.boards.publisher.board_changed(self.s)  # the page shows the arbiter what the board said

    def problem(self, text: str) -> None:
        self.changed = True
        recovered = isinstance(self.m, Status) and self.m.kind == "recovered"
        self.boards.alert(self.s, "recovered" if recovered else "problem", text, True)

    def ask(self, side: str, what: str) -> None:
        self.changed = True
        if self.boards.speaker:
            self.boards.speaker.ask(self.s, side, what)

    def result(self) -> "_Heard":
        return self


class Boards:
    def __init__(self, store, publisher, sessions: dict, round_info, log=print, speaker=None,
                 alerts: Alerts | None = None):
        """sessions: the dict (number -> BoardSession) this keeps, which the publisher reads;
        round_info(): the round in force; speaker: host_tools/relay/speaker.py or None;
        alerts: where what the arbiter must know goes (relay/alerts.py)."""
        self.store = store
        self.alerts = alerts if alerts is not None else Alerts()
        self.publisher = publisher
        self.round_info = round_info
        self.log = log
        self.speaker = speaker
        self.sessions: dict[int, BoardSession] = sessions
        self._serials: dict[str, int] = {}
        self._lines: dict[object, _LineState] = {}
        self.attach_watchers = []  # f(session, its hello's pair= or None): a board on a new line
        self.line_watchers = []  # f(session, line): every line a board said, once handled

    def restore(self) -> None:
        """The sessions as the relay's journal has them (a restart)."""
        self._serials = {k: v for k, v in _read_json(self.store.path("boards.json")).items()
                         if isinstance(v, int) and not isinstance(v, bool)}
        clocks = _read_json(self.store.path("clocks.json"))
        for n in self.store.boards():
            s = self.sessions[n] = BoardSession(n)
            s.serial = next((k for k, v in self._serials.items() if v == n), "?")
            s.replay(self.store.events(n))
            line = clocks.get(str(n))
            if isinstance(line, str):
                s.restore_clock(line)

    def claims(self) -> dict[str, int]:
        """serial -> the number the round gives that board (a blind player's board: its
        pairing's + PAIRED)."""
        out = {}
        for n, b in self.round_info().boards.items():
            if b.get("serial"):
                out[b["serial"]] = n
            if b.get("blind_serial"):  # the blind player's board of pairing n (appendix D)
                out[b["blind_serial"]] = n + PAIRED
        return out

    def number_for(self, serial: str) -> int:
        """The round's number for this board; else the one it had (boards.json); else the
        round's first pairing that names no board and has none yet; else the first free."""
        claimed = self.claims().get(serial)
        if claimed is not None:
            return claimed
        if serial in self._serials:
            return self._serials[serial]
        n = self.empty_pairing()
        return n if n is not None else self._free()

    def empty_pairing(self) -> int | None:
        """The round's first pairing (by number) that names no board and that no board holds."""
        held = set(self._serials.values()) | set(self.sessions)
        return next((n for n, b in sorted(self.round_info().boards.items())
                     if not b.get("serial") and n not in held), None)

    def _free(self) -> int:
        used = set(self._serials.values()) | set(self.round_info().boards) | set(self.sessions)
        n = 1
        while n in used:
            n += 1
        return n

    def follow_round(self) -> None:
        """The round wins over what boards.json remembers (a round corrected after a
        restart): a board the round names takes its pairing's number, and a board that
        holds a number the round gives another board moves to a free one (its journal and
        files go with it)."""
        claims = self.claims()
        for serial, n in claims.items():
            s = next((x for x in self.sessions.values() if x.serial == serial), None)
            old = s.number if s is not None else self._serials.get(serial)
            if old is not None and old != n:
                self.assign(serial, n)
        owner = {n: serial for serial, n in claims.items()}
        for n, serial in owner.items():
            s = self.sessions.get(n)
            other = s.serial if s is not None and s.serial not in ("?", serial) else None
            other = other or next((k for k, v in self._serials.items() if v == n and k != serial), None)
            if other is not None:
                self.assign(other, self._free())

    def assign(self, serial: str, n: int) -> None:
        """The board with this serial plays board number n from now on (the arbiter paired
        it): its session, its journal and its PGN files take the number, and a board that
        had the number takes the old one. Nothing of either game changes."""
        s = next((x for x in self.sessions.values() if x.serial == serial), None)
        old = s.number if s is not None else self._serials.get(serial)
        if old == n:
            return
        for k, v in list(self._serials.items()):
            if v == n and old is not None:
                self._serials[k] = old
        self._serials[serial] = n
        self.store.write("boards.json", json.dumps(self._serials))
        if s is None:
            return
        other = self.sessions.pop(n, None)
        del self.sessions[old]
        s.number = n
        self.sessions[n] = s
        if other is not None:
            other.number = old
            self.sessions[old] = other
        games = set(s.records) | set(other.records if other else ())
        for name in ["board-{}.events", "board-{}.pgn"] + [f"board-{{}}-game-{g}.pgn" for g in sorted(games)]:
            self.store.swap(name.format(old), name.format(n))
        self.log(f"board {n}: {serial} (was board {old}) plays pairing {n} now")
        self.publisher.renumbered(old, n)
        if self.alerts.renumber(old, n):  # a board's alerts go with it: the arbiter's page told
            self.publisher.send({"type": "alerts", "alerts": self.alerts.json()}, arbiter=True)

    # ----- lines (host_tools/board/lines.py calls these in the event loop)

    def opened(self, line) -> None:
        self._lines[line] = st = _LineState(line)
        self._hello(st)

    def _hello(self, st: _LineState) -> None:
        st.hello_at = time.monotonic()
        for text in GREETING:
            st.line.write(text)

    def tick(self) -> None:
        """Every second or so: hello again where a board has not answered, or has been
        quiet for QUIET_S."""
        now = time.monotonic()
        for st in list(self._lines.values()):
            if st.session is None:
                due = now - st.hello_at >= HELLO_AGAIN_S
            else:
                due = now - max(st.hello_at, st.heard_at) >= QUIET_S
            if due:
                self._hello(st)

    def closed(self, line) -> None:
        st = self._lines.pop(line, None)
        if st and st.session:
            s = st.session
            running = s.clock.state == "running" and s.record is not None and s.record.result == "*"
            s.disconnected()
            self.alert(s, "line", f"the board's line {line.path} closed"
                       + (" while its clock ran" if running else ""), running)
            self.publisher.board_changed(s)

    def data(self, line, data: bytes) -> None:
        st = self._lines.get(line)
        if st is None:
            return
        st.heard_at = time.monotonic()
        for m in st.parser.feed(data):
            if st.session is None:
                if isinstance(m, Status) and m.kind == "hello":
                    self._attach(st, m)
                    if st.session is None:
                        continue
                else:
                    continue  # nothing is taken from a line before its board says who it is
            self.handle(st.session, m)

    def _attach(self, st: _LineState, hello: Status) -> None:
        serial = hello.kwargs.get("board")
        proto = hello.kwargs.get("proto")
        if not serial:
            self.log(f"{st.line.path}: a device that does not say which board it is: ignored")
            return
        n = self.number_for(serial)
        b = self.round_info().boards.get(n)
        took = serial not in self._serials and b is not None and not b.get("serial")
        s = self.sessions.get(n)
        if s is None:
            s = self.sessions[n] = BoardSession(n)
        if s.send is not None and s.source != st.line.path:
            self.log(f"board {n} ({serial}) is already on {s.source}: {st.line.path} ignored")
            return
        s.serial = serial
        if self._serials.get(serial) != n:
            self._serials[serial] = n
            self.store.write("boards.json", json.dumps(self._serials))
        st.session = s
        s.send = st.line.write
        s.source = st.line.path
        s.state = ACTIVE
        self.log(f"board {n}: {serial} on {st.line.path} (protocol {proto})")
        if took:  # the arbiter sees which board took which pairing
            self.alert(s, "took", f"{serial} took pairing {n} ({b.get('white', '?')} - {b.get('black', '?')}), "
                                  f"the round's first pairing with no board named", False)
        for f in self.attach_watchers:
            f(s, hello.kwargs.get("pair"))

    # ----- what a board said

    def handle(self, s: BoardSession, m) -> None:
        before = s.current
        heard = s.handle(m, _Heard(self, s, m))
        if not isinstance(m, Event) or heard.new_event:
            found = alert_of(s, m)  # a new event (not one seen before), or a status line
            if found and found[0] in ARBITERS_OWN and any(line.split()[0] in ("penalty", "claim", "result", "resign", "draw")
                                                          for line, _ in s.waiting):
                # The arbiter's own action (his penalty, claim, result): for the record, not against a player.
                found = ("arbiter", "the arbiter's decision: " + found[1], False)
            if found:
                self.alert(s, *found)
        for f in self.line_watchers:
            f(s, m)
        if before is not None and s.current != before and before in s.records:
            self.publisher.game_ended(s, before)
        if heard.changed:
            self.publisher.board_changed(s)
        elif heard.clock_changed:
            self.publisher.clock_changed(s)

    def _written_move(self, s: BoardSession, ev) -> None:
        """The move after an incorrect claim with a written move must be that move (9.5.3)."""
        game, ply, uci, san, side = s.written
        if int(ev.args[0]) != ply:
            return
        s.written = None
        if ev.args[1] != uci:
            who = SIDE_NAMES[side]
            played = s.record.plies[ply - 1].san if s.record and len(s.record.plies) >= ply else ev.args[1]
            self.alert(s, "written-move", f"{who} played {played}, not the move written with the claim, "
                                          f"{san} (9.5.3: it must be played)", True)

    def alert(self, s: BoardSession, kind: str, text: str, urgent: bool) -> None:
        """Something for the arbiter: kept (relay/alerts.py), logged, sent to the arbiter's page."""
        rec = s.record
        ply = len(rec.plies) if rec else None
        a = self.alerts.add(s.number, kind, text, urgent, s.current, ply, move_label(rec, ply))
        self.log(f"board {s.number}: {'ALERT ' if urgent else ''}{text}")
        self.publisher.alert(a)
