"""The boards: their serial lines, and each board's session (host_tools/relay/session.py).
A line says nothing until its board says who it is (`hello` with its serial); the serial
gives the board its number (the round's pairing, or the one it had, or the first free),
kept in boards.json. What a board says goes into its session; every sequenced event into
the relay's journal (the store) before anything is published. One board's trouble is
logged and never stops the others."""
from __future__ import annotations

import json

from host_tools.protocol import DeviceParser, Status
from host_tools.relay.session import ACTIVE, BoardSession


class _LineState:
    def __init__(self, line):
        self.line = line
        self.parser = DeviceParser()
        self.session: BoardSession | None = None


class Boards:
    def __init__(self, store, publisher, sessions: dict, round_info, log=print, speaker=None):
        """sessions: the dict (number -> BoardSession) this keeps, which the publisher reads;
        round_info(): the round in force; speaker: host_tools/relay/speaker.py or None."""
        self.store = store
        self.publisher = publisher
        self.round_info = round_info
        self.log = log
        self.speaker = speaker
        self.sessions: dict[int, BoardSession] = sessions
        self._serials: dict[str, int] = {}
        self._lines: dict[object, _LineState] = {}

    def restore(self) -> None:
        """The sessions as the relay's journal has them (a restart)."""
        p = self.store.path("boards.json")
        if p.exists():
            self._serials = {k: int(v) for k, v in json.loads(p.read_text()).items()}
        for n in self.store.boards():
            s = self.sessions[n] = BoardSession(n)
            s.serial = next((k for k, v in self._serials.items() if v == n), "?")
            s.replay(self.store.events(n))

    def number_for(self, serial: str) -> int:
        for n, b in self.round_info().boards.items():
            if b.get("serial") == serial:
                return n
        if serial in self._serials:
            return self._serials[serial]
        used = set(self._serials.values()) | set(self.round_info().boards) | set(self.sessions)
        n = 1
        while n in used:
            n += 1
        return n

    # ----- lines (host_tools/relay/lines.py calls these in the event loop)

    def opened(self, line) -> None:
        self._lines[line] = _LineState(line)
        line.write("hello")

    def closed(self, line) -> None:
        st = self._lines.pop(line, None)
        if st and st.session:
            st.session.disconnected()
            self.log(f"board {st.session.number}: line {line.path} closed")
            self.publisher.board_changed(st.session)

    def data(self, line, data: bytes) -> None:
        st = self._lines.get(line)
        if st is None:
            return
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

    # ----- what a board said

    def handle(self, s: BoardSession, m) -> None:
        before = s.current
        changes = s.handle(m)
        for what, detail in changes:
            if what == "event":
                self.store.append_event(s.number, detail.line)
                if detail.kind == "move" and self.speaker and s.record and s.record.plies:
                    first_white = s.record.fen.split()[1] == "w"
                    side = "w" if (len(s.record.plies) % 2 == 1) == first_white else "b"
                    pos = s.record.board()
                    last = pos.pop()
                    self.speaker.move(s.record.plies[-1].san, side, last.uci(), pos.is_en_passant(last))
            elif what == "answer":
                self.publisher.board_changed(s)  # the page shows the arbiter what the board said
            elif what == "problem":
                self.log(f"board {s.number}: {detail}")
            elif what == "ask" and self.speaker:
                self.speaker.ask(s, *detail)
            elif what == "status" and detail.kind == "board" and detail.args[:1] == ["differs"]:
                self.log(f"board {s.number}: differs from the game: {s.board_status}")
        if before is not None and s.current != before and before in s.records:
            self.publisher.game_ended(s, before)
        if any(what != "clock" for what, _ in changes):
            self.publisher.board_changed(s)
        elif changes:
            self.publisher.clock_changed(s)
