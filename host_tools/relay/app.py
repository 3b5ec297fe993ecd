"""The relay: opens the boards' serial lines, keeps every game as it happens (the events in
its own journal, PGN files per board and for the round), and serves them: the round PGN
for lichess, a live web page and feed, and a DGT LiveChess-compatible API.

Relay builds the parts and holds them together; each part has one job:
    boards.py   the serial lines and each board's session
    alerts.py   what the arbiter must know (illegal moves, claims, flags, a board differing)
    publish.py  a board's change into PGN files, the page's feed and the watchers
    views.py    what the page and the APIs show (JSON)
    analysis.py the spectators' engine evaluation (off the boards' path)
    round.py    the round (event, players), checked
    standings.py the event across its rounds: standings, earlier rounds
    twoboards.py two boards, one game (appendix D: a blind player's own board)
    guards.py   what every request goes through
    store.py    the files; web.py, livechess.py, lichess.py the servers and the push
    heap.py     Python's cyclic collector kept off what lives long (its pauses)
Nothing below imports this module: the servers are given the relay and use its public
methods (round_pgn, pgn, state_json, board_json, set_round, listen, log)."""
from __future__ import annotations

import asyncio
import json
import secrets
import time
from pathlib import Path

from host_tools.relay import views
from host_tools.relay.alerts import Alerts
from host_tools.relay.analysis import Analysis
from host_tools.relay.heap import Heap
from host_tools.relay.boards import Boards
from host_tools.relay.lichess import lichess_pushes
from host_tools.board.lines import Lines
from host_tools.relay.twoboards import PAIRED, TwoBoards
from host_tools.relay.door import Door
from host_tools.relay.livechess import LiveChessApi
from host_tools.relay.publish import Publisher
from host_tools.relay import standings
from host_tools.relay.round import RoundError, RoundInfo
from host_tools.relay.store import Store
from host_tools.relay.web import start_web


STANDINGS_WAIT_S = 2.0  # a standings request waits this long for a new making, else gets the latest


class Relay:
    def __init__(self, out: str | Path, patterns=(), discover: bool = True,
                 round_file: str | Path | None = None, host: str = "127.0.0.1",
                 http_port: int = 8080, livechess_port: int = 1982, token: str | None = None,
                 livechess_host: str = "127.0.0.1",
                 origins=None, lichess: dict | None = None, log=print, speaker=None,
                 analysis: dict | None = None, door: dict | None = None, delay_s: float = 0.0,
                 earlier=()):
        """analysis: {"engine_path": ..., "movetime_ms": ...} for the spectators' evaluation
        (relay/analysis.py), or None for none (and none with a delay); delay_s: the broadcast
        delay (relay/publish.py); door: the connection limits (relay/door.py:
        total, per_client, header_s), or None for the defaults; earlier: the event's earlier
        rounds, PGN files (relay/standings.py)."""
        self.round = RoundInfo.load(round_file)  # a bad round file stops here, before any file is made
        self.earlier = standings.load_earlier(earlier)  # and so does an earlier round's file
        if any(g.round == self.round.round for g in self.earlier):
            raise RoundError(f"the earlier rounds hold games of round {self.round.round}, the round "
                             f"being played (its games would count twice)")
        self._standings = None  # what /api/standings answers: made on change (standings_json)
        self._standings_version, self._standings_at, self._standings_task = None, 0.0, None
        self._standings_sleeping = False
        self._rounds = None  # the earlier rounds as /api/rounds has them: made once
        self._earlier_tally = None  # their standings' sums (standings.tally): made once
        self._round_tags: dict = {}  # the round's games' tags as the last standings read them (standings.games_from_round)
        self._standings_body = b""  # the standings as JSON, made with them
        self.store = Store(out)
        self.patterns = list(patterns)
        self.discover = discover
        self.host, self.http_port, self.livechess_port = host, http_port, livechess_port
        self.livechess_host = livechess_host
        self.token = token or secrets.token_urlsafe(16)
        self._log = log
        self.speaker = speaker  # host_tools.relay.speaker.Speaker, or None
        self.sessions = {}  # board number -> BoardSession, kept by boards, read by the rest
        self.publisher = Publisher(self.store, self.sessions, lambda: self.round, delay_s)
        if delay_s and analysis:
            log(f"evaluation off: with a broadcast delay of {delay_s:g} s the engine would tell the moves early")
            analysis = None
        self.alerts = Alerts(self.store)
        self.boards = Boards(self.store, self.publisher, self.sessions, lambda: self.round,
                             lambda text: self.log(text), speaker, self.alerts)
        self.door = Door(lambda text: self.log(text), **(door or {}))
        # Appendix D: a blind player's board paired with the sighted player's (relay/twoboards.py).
        self.pairing = TwoBoards(self.sessions, lambda: self.round, self.boards.alert, self.tell_board,
                                 note=self.note, clock_changed=self.publisher.clock_changed,
                                 board_changed=self.publisher.board_changed)
        self.publisher.clock_watchers.append(self.pairing.changed)
        self.boards.attach_watchers.append(self.pairing.attached)
        self.boards.line_watchers.append(self.pairing.heard)
        self.livechess = LiveChessApi(self, origins)
        self.publisher.clock_watchers.append(self.livechess.changed)
        # The lichess push: one round, or for a hall larger than a lichess round shows,
        # several ("id1,id2": boards 1-100 to the first, 101-200 to the second, ...).
        self.lichess = lichess_pushes(self, lichess, log) if lichess else []
        for push in self.lichess:
            self.publisher.board_watchers.append(lambda s, push=push: push.changed())
        self.analysis = Analysis(publish=self.publisher.analysis_changed, log=self.log, **analysis) \
            if analysis else None
        if self.analysis:
            self.publisher.board_watchers.append(self.analysis.changed)
        self.publisher.evaluation = bool(self.analysis)
        self.boards.restore()
        self._restore_notes()
        self.heap: Heap | None = None  # (started with the relay)

    def log(self, text: str) -> None:
        self._log(text)

    # ----- what the servers ask (their public API)

    @property
    def loop(self):
        return self.publisher.loop

    def round_pgn(self, placeholders: bool = True, boards: range | None = None) -> str:
        return self.publisher.round_pgn(placeholders, boards)

    def pgn(self, s, rec) -> str:
        return self.publisher.pgn(s, rec)

    def board_json(self, s) -> dict:
        return views.board_json(s, self.round)

    def state_json(self, arbiter: bool = False) -> dict:
        """The round and its boards as the public sees them (held back by a delay), or as
        the arbiter does (at once, with each board's serial, trouble and last command)."""
        return self.publisher.public_state(arbiter)

    def state_text(self, arbiter: bool = False) -> str:
        """state_json as the feed's message, JSON text ({"type": "state", ...})."""
        return self.publisher.state_text(arbiter)

    def public_pgn(self, n: int, game: int | None = None) -> str | None:
        return self.publisher.public_pgn(n, game)

    def rounds_json(self) -> dict:
        """The event's rounds: the earlier ones with their games (made once: they do not
        change), and the one being played."""
        if self._rounds is None:
            self._rounds = standings.rounds_json(self.earlier)
        return {"earlier": self._rounds, "current": self.round.round}

    def earlier_pgn(self, name: str) -> str | None:
        """An earlier round's games as PGN; None if no earlier round has that name."""
        games = [g.pgn for g in self.earlier if g.round == name]
        return "".join(games) if games else None

    async def standings_json(self) -> dict:
        """The standings after the earlier rounds and the finished games of this one as the
        public has them (held back by a delay). Made again only when what the public has
        changed (a result, a player: not a move), at most once a second, off the event loop
        (with 10^5 earlier games it takes a while; their sums are made once), one making at
        a time shared by every request meanwhile; a request
        waits at most STANDINGS_WAIT_S for it, else it gets the latest made."""
        version = (self.publisher.results_version, id(self.round))
        if self._standings is not None and self._standings_version == version:
            return self._standings
        if self._standings_task is None:
            wait = 1.0 - (time.monotonic() - self._standings_at)  # at most once a second, however often asked
            self._standings_sleeping = wait > 0
            self._standings_task = asyncio.ensure_future(self._make_standings(max(0.0, wait)))
        if self._standings is not None and self._standings_sleeping:
            return self._standings  # the next making is due within the second: the latest till then
        try:
            await asyncio.wait_for(asyncio.shield(self._standings_task),
                                   STANDINGS_WAIT_S if self._standings is not None else None)
        except asyncio.TimeoutError:
            pass
        return self._standings

    async def standings_body(self) -> bytes:
        """The standings as /api/standings sends them: JSON made once per making."""
        await self.standings_json()
        return self._standings_body

    async def _make_standings(self, wait: float) -> None:
        try:
            if wait:
                await asyncio.sleep(wait)
            self._standings_sleeping = False
            version = (self.publisher.results_version, id(self.round))
            text = self.round_pgn(placeholders=False)  # the parts are made already: a join
            feds = {}
            for b in self.round.boards.values():
                for color, info in b.get("info", {}).items():
                    if info.get("fed"):
                        key = f"fide:{info['fide_id']}" if info.get("fide_id") else f"name:{b.get(color, '?')}"
                        feds[key] = info["fed"]
            rounds = list(dict.fromkeys([g.round for g in self.earlier] + [self.round.round]))
            earlier = self.earlier

            def make():
                if self._earlier_tally is None:  # the earlier rounds, tallied once
                    self._earlier_tally = standings.tally(earlier)
                games = standings.games_from_round(text, "the round", self._round_tags)
                made = {"rounds": rounds, "standings": standings.standings(games, feds, self._earlier_tally)}
                return made, json.dumps(made).encode()  # sent as it is to every request until the next
            self._standings, self._standings_body = await asyncio.to_thread(make)
            self._standings_version, self._standings_at = version, time.monotonic()
        finally:
            self._standings_task, self._standings_sleeping = None, False

    def listen(self) -> asyncio.Queue:
        """A queue that gets every message of the live feed from now on (unlisten when done)."""
        q: asyncio.Queue = asyncio.Queue()
        self.publisher.listeners.add(q)
        return q

    def unlisten(self, q: asyncio.Queue) -> None:
        self.publisher.listeners.discard(q)
        self.publisher.arbiter_listeners.discard(q)

    def listen_as_arbiter(self, q: asyncio.Queue) -> None:
        """A feed whose reader gave the token gets the arbiter's alerts as well."""
        self.publisher.arbiter_listeners.add(q)

    def alerts_json(self) -> list[dict]:
        return self.alerts.json()

    def alert_seen(self, ident: int) -> dict | None:
        """The arbiter saw alert ident: kept so, and every arbiter's page told."""
        a = self.alerts.seen(ident)
        if a is None:
            return None
        self.publisher.alert(a)
        return a.json()

    def set_round(self, round_info: RoundInfo) -> None:
        self.round = round_info
        self.boards.follow_round()  # the round's serials win over what boards.json remembers
        self.publisher.round_changed()
        self.pairing.round_changed()

    def assign(self, serial: str, n: int) -> None:
        """The arbiter pairs a board: the board of this serial plays board n of the round
        (RoundError for a number out of range, or a serial that is not text)."""
        self.set_round(self.round.with_serial(serial, n))
        self.boards.assign(serial, n)

    def clock_board(self, s):
        """The board whose clock is s's game's: the blind player's board for the sighted
        player's of a pair (relay/twoboards.py), else s."""
        if s.number < PAIRED and self.pairing.entry(s.number) is not None:
            return self.sessions.get(s.number + PAIRED) or s
        return s

    def partner(self, s):
        """The other board of s's pair, if s is one of a pair and it is there."""
        e = self.pairing.entry(s.number)
        if e is None:
            return None
        return self.sessions.get(e[0] + PAIRED if s.number < PAIRED else e[0])

    def tell_board(self, s, line: str) -> None:
        """A line to a board on the relay's own account (its answer kept from an arbiter's
        command waiting on the same board)."""
        if s.send is None:
            return
        entry = (line, lambda m: None)
        s.waiting.append(entry)
        if not s.send(line):
            s.waiting.remove(entry)
            return
        self.log(f"board {s.number}: relay sent {line!r}")

    def note(self, s, text: str) -> None:
        """A comment in the PGN of board s's game, at the move it was made after, kept
        across a restart (notes.jsonl)."""
        rec = s.record
        if rec is None:
            return
        ply = len(rec.plies)
        rec.notes.append((ply, "note " + text))
        self.store.append("notes.jsonl", json.dumps({"board": s.number, "game": rec.game, "ply": ply, "text": text}))
        self.publisher.board_changed(s)

    def claimed(self, s, claim) -> None:
        """A draw claim taken through the API (relay/claims.py) and done on the board: in
        the game's PGN as a comment at the move it was made after, and an alert."""
        rec = s.record
        if rec is None:
            return
        ply = len(rec.plies)
        self.note(s, claim.note())
        self.boards.alert(s, "arbiter", "the arbiter's decision: " + claim.note(), False)  # his own, not against a player
        if not claim.correct and claim.move is not None:
            s.written = (rec.game, ply + 1, claim.move.uci(), claim.move_san, claim.side)  # 9.5.3: it must be played

    def forfeited(self, s, side: str, reason: str) -> str:
        """The arbiter declared the game on board s lost by side's forfeit (the board has
        the result): the PGN's Termination says so ("rules infraction") and a comment gives
        the reason; kept across a restart (notes.jsonl). Returns what changed, in words."""
        rec = s.record
        who = {"w": "White forfeits", "b": "Black forfeits", "both": "double forfeit"}[side]
        text = who + (f": {reason}" if reason else "")
        if rec is None:
            return text
        rec.termination = "forfeit"
        kept = {"board": s.number, "game": rec.game, "termination": "forfeit"}
        if side == "both":  # 0-0 (lichess's broadcasts take it); the board's game stays unfinished
            self.publisher.verdicts[(s.serial, rec.game)] = kept["result"] = "0-0"
        self.store.append("notes.jsonl", json.dumps(kept))
        self.note(s, "arbiter: " + text)
        return text + (" (PGN: Result \"0-0\"," if side == "both" else " (PGN:") + " Termination \"rules infraction\")"

    def _restore_notes(self) -> None:
        for line in self.store.lines("notes.jsonl"):
            try:
                n = json.loads(line)
                rec = self.sessions[n["board"]].records[n["game"]]
                if "termination" in n:
                    rec.termination = str(n["termination"])
                    if n.get("result") == "0-0":
                        self.publisher.verdicts[(self.sessions[n["board"]].serial, rec.game)] = "0-0"
                    continue
                rec.notes.append((int(n["ply"]), "note " + str(n["text"])))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut by a crash, or a board whose journal is gone

    # ----- running

    async def start(self) -> None:
        self.publisher.loop = asyncio.get_running_loop()
        self.boards.follow_round()  # a round corrected since the last run wins over boards.json
        self.publisher.rewrite()  # the PGN files again from the journals (never fsynced: relay/store.py)
        self._runners = await start_web(self)
        self.heap = Heap(self.loop)  # (relay/heap.py: the collector kept off what lives long)
        self.heap.start()
        if self.analysis:
            self.analysis.start()
        self.lines = Lines(self.loop, self.patterns, self.boards.data, self.boards.opened, self.boards.closed,
                           discover=self.discover, on_tick=self.boards.tick)

    async def stop(self) -> None:
        self.lines.stop()
        if self.heap is not None:
            self.heap.stop()
            self.heap = None
        self.publisher.flush()
        self.store.close()
        for push in self.lichess:
            await push.close()
        if self.analysis:
            await self.analysis.stop()
        for r in self._runners:
            await r.cleanup()

    def urls(self) -> dict:
        base = f"http://{self.host}:{self.http_port}"
        return {"page": base + "/", "arbiter": base + "/arbiter", "round_pgn": base + "/round.pgn",
                "livechess": f"ws://{self.livechess_host}:{self.livechess_port}/api/v1.0",
                "pgn_file": str(self.store.path("round.pgn"))}
