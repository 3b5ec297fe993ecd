"""The relay: opens the boards' serial lines, keeps every game as it happens (the events in
its own journal, PGN files per board and for the round), and serves them: the round PGN
for lichess, a live web page and feed, and a DGT LiveChess-compatible API.

One board's trouble - an unknown device, another protocol version, a board that says it
differs from the game, garbage on its line - is shown and logged and never stops the
others."""
from __future__ import annotations

import asyncio
import json
import secrets
import time
from pathlib import Path

import chess

from host_tools.protocol import DeviceParser, Event, Status
from host_tools.relay.lines import Lines
from host_tools.relay.round import RoundInfo
from host_tools.relay.session import ACTIVE, BoardSession
from host_tools.relay.store import Store

ROUND_EVERY_S = 0.5
COALESCE_S = 0.01  # a move and its clk arrive together: one PGN and one message for both
SYNC_EVERY_S = 0.5  # the journal is fsynced in batches


class _LineState:
    def __init__(self, line):
        self.line = line
        self.parser = DeviceParser()
        self.session: BoardSession | None = None


class Relay:
    def __init__(self, out: str | Path, patterns=(), discover: bool = True,
                 round_file: str | Path | None = None, host: str = "127.0.0.1",
                 http_port: int = 8080, livechess_port: int = 1982, token: str | None = None,
                 origins=None, lichess: dict | None = None, log=print, speaker=None):
        self.store = Store(out)
        self.round = RoundInfo.load(round_file)
        self.patterns = list(patterns)
        self.discover = discover
        self.host, self.http_port, self.livechess_port = host, http_port, livechess_port
        self.token = token or secrets.token_urlsafe(16)
        self.log = log
        self.sessions: dict[int, BoardSession] = {}
        self._serials: dict[str, int] = {}
        self._lines: dict[object, _LineState] = {}
        self.listeners: set[asyncio.Queue] = set()
        self._pgns: dict[int, str] = {}  # each board's current PGN, made once per change
        self._round_due = False
        self._dirty: set[int] = set()
        self._sync_due = False
        from host_tools.relay.livechess import LiveChessApi
        from host_tools.relay.lichess import LichessPush

        self.livechess = LiveChessApi(self, origins)
        self.lichess = LichessPush(self, **lichess) if lichess else None
        self.speaker = speaker  # host_tools.relay.speaker.Speaker, or None
        self._restore()

    # ----- restart: the journal back into records

    def _restore(self) -> None:
        p = self.store.path("boards.json")
        if p.exists():
            self._serials = {k: int(v) for k, v in json.loads(p.read_text()).items()}
        for n in self.store.boards():
            s = self.sessions[n] = BoardSession(n)
            s.serial = next((k for k, v in self._serials.items() if v == n), "?")
            s.replay(self.store.events(n))

    def _number_for(self, serial: str) -> int:
        for n, b in self.round.boards.items():
            if b.get("serial") == serial:
                return n
        if serial in self._serials:
            return self._serials[serial]
        used = set(self._serials.values()) | set(self.round.boards) | set(self.sessions)
        n = 1
        while n in used:
            n += 1
        return n

    # ----- lines (their callbacks run in the event loop)

    def _opened(self, line) -> None:
        self._lines[line] = _LineState(line)
        line.write("hello")

    def _closed(self, line) -> None:
        st = self._lines.pop(line, None)
        if st and st.session:
            st.session.disconnected()
            self.log(f"board {st.session.number}: line {line.path} closed")
            self._changed(st.session)

    def _data(self, line, data: bytes) -> None:
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
        n = self._number_for(serial)
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
                if detail.kind == "move":
                    if self.speaker and s.record and s.record.plies:
                        side = "w" if (len(s.record.plies) % 2 == 1) == (s.record.fen.split()[1] == "w") else "b"
                        self.speaker.move(s.record.plies[-1].san, side)
            elif what == "problem":
                self.log(f"board {s.number}: {detail}")
            elif what == "ask" and self.speaker:
                self.speaker.ask(s, *detail)
            elif what == "status" and detail.kind == "board" and detail.args[:1] == ["differs"]:
                self.log(f"board {s.number}: differs from the game: {s.board_status}")
        if before is not None and s.current != before and before in s.records:
            self.store.write(f"board-{s.number}-game-{before}.pgn", self.pgn(s, s.records[before]))
        if any(what != "clock" for what, _ in changes):
            self._changed(s)
        elif changes:
            self._clock_changed(s)

    # ----- outputs

    def tags(self, s: BoardSession, rec) -> dict:
        return dict(event=self.round.event, site=self.round.site, date=self.round.date or "????.??.??",
                    round_=f"{self.round.round}.{s.number}",
                    game_id=f"{self.round.round}-{s.number}-{s.serial[-6:]}-{rec.game}")

    def pgn(self, s: BoardSession, rec) -> str:
        b = self.round.boards.get(s.number, {})
        white, black = rec.white, rec.black
        rec.white, rec.black = b.get("white", white), b.get("black", black)
        try:
            return rec.pgn(**self.tags(s, rec))
        finally:
            rec.white, rec.black = white, black

    def round_pgn(self) -> str:
        out = []
        for n, s in sorted(self.sessions.items()):
            if s.record is not None:
                if n not in self._pgns:
                    self._pgns[n] = self.pgn(s, s.record)
                out.append(self._pgns[n])
        return "".join(out)

    def _changed(self, s: BoardSession) -> None:
        """The game of a board changed: within COALESCE_S its PGN is written and everyone
        told; the round PGN follows within ROUND_EVERY_S."""
        if s.number not in self._dirty:
            self._dirty.add(s.number)
            if len(self._dirty) == 1:
                self.loop.call_later(COALESCE_S, self._flush)
        if not self._sync_due:
            self._sync_due = True
            self.loop.call_later(SYNC_EVERY_S, self._sync)

    def _sync(self) -> None:
        self._sync_due = False
        self.store.sync()  # done by the store's writer thread, off the event loop

    def _flush(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for n in sorted(dirty):
            s = self.sessions.get(n)
            if s is not None:
                self._publish(s)

    def _publish(self, s: BoardSession) -> None:
        if s.record is not None:
            text = self.pgn(s, s.record)
            self._pgns[s.number] = text
            self.store.write(f"board-{s.number}.pgn", text)
            if not self._round_due:
                # The round PGN (every board) at most twice a second: lichess polls it
                # every few seconds, and 200 boards must not rewrite it 200 times.
                self._round_due = True
                self.loop.call_later(ROUND_EVERY_S, self._write_round)
        self._send({"type": "board", "board": self.board_json(s)})
        self.livechess.changed(s)
        if self.lichess:
            self.lichess.changed()

    def _clock_changed(self, s: BoardSession) -> None:
        """Only the clock: the live feeds, no files."""
        c = s.clock
        self._send({"type": "clock", "number": s.number,
                    "clock": {"white": c.white_ms, "black": c.black_ms, "running": c.running, "age_ms": 0}})
        self.livechess.changed(s)

    def _send(self, msg: dict) -> None:
        for q in list(self.listeners):
            if q.qsize() < 1000:
                q.put_nowait(msg)

    def _write_round(self) -> None:
        self._round_due = False
        self.store.write("round.pgn", self.round_pgn())

    def board_json(self, s: BoardSession) -> dict:
        rec = s.record
        b = self.round.boards.get(s.number, {})
        out = {"number": s.number, "serial": s.serial, "state": s.state, "problem": s.problem,
               "status": s.board_status, "flipped": s.flipped}
        if rec is None:
            return out
        try:
            board = rec.board()
        except ValueError:
            board = chess.Board()
        last = board.peek() if board.move_stack else None
        # Time used per move, for the page's chart: the clock before, minus after, plus
        # the increment the press added.
        used = []
        inc = _increment(rec.tc)
        prev = {chess.WHITE: _base(rec.tc), chess.BLACK: _base(rec.tc)}
        first = chess.Board(rec.fen).turn
        for i, p in enumerate(rec.plies):
            color = first if i % 2 == 0 else not first
            if p.clk_ms is None or prev[color] is None:
                used.append(None)
            else:
                used.append(max(0, prev[color] - p.clk_ms + inc))
                prev[color] = p.clk_ms
        out.update({
            "game": rec.game, "white": b.get("white", rec.white), "black": b.get("black", rec.black),
            "tc": rec.tc, "fen": board.fen(), "result": rec.result, "termination": rec.termination,
            "last": [chess.square_name(last.from_square), chess.square_name(last.to_square)] if last else None,
            "san": [p.san for p in rec.plies], "clk": [p.clk_ms for p in rec.plies], "used": used,
            "clock": {"white": s.clock.white_ms, "black": s.clock.black_ms, "running": s.clock.running,
                      "age_ms": int((time.time() - s.clock.at) * 1000) if s.clock.at else None},
        })
        return out

    def state_json(self) -> dict:
        return {"round": {"event": self.round.event, "site": self.round.site, "round": self.round.round},
                "boards": [self.board_json(s) for _, s in sorted(self.sessions.items())]}

    # ----- running

    async def start(self) -> None:
        from host_tools.relay.web import start_web

        self.loop = asyncio.get_running_loop()
        self._runners = await start_web(self)
        self.lines = Lines(self.loop, self.patterns, self._data, self._opened, self._closed, discover=self.discover)

    async def stop(self) -> None:
        self.lines.stop()
        self._flush()
        if self._round_due or self.sessions:
            self._write_round()
        self.store.close()
        if self.lichess:
            await self.lichess.close()
        for r in self._runners:
            await r.cleanup()

    def urls(self) -> dict:
        base = f"http://{self.host}:{self.http_port}"
        return {"page": base + "/", "round_pgn": base + "/round.pgn",
                "livechess": f"ws://{self.host}:{self.livechess_port}/api/v1.0",
                "pgn_file": str(self.store.path("round.pgn"))}


def _base(tc: str) -> int | None:
    try:
        head = tc.split(":")[0].split("/")[-1]
        for sign in "+dbyc":
            head = head.split(sign)[0]
        return int(head) * 1000
    except ValueError:
        return None


def _increment(tc: str) -> int:
    head = tc.split(":")[0]
    if "+" in head:
        try:
            return int(head.split("+")[1]) * 1000
        except ValueError:
            return 0
    return 0
