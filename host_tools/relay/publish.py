"""Publishing: what the relay makes of a board's change, for everyone who follows. Within
COALESCE_S of a change its PGN is made (once) and written, the page's feed told, and the
watchers (the LiveChess API, the lichess push) called; the round PGN follows within
ROUND_EVERY_S; the store's journals are synced in batches. A clock line alone only goes to
the live feeds."""
from __future__ import annotations

import asyncio
import json

from host_tools.relay import views
from host_tools.relay.twoboards import PAIRED
from host_tools.board.session import BoardSession
from host_tools.relay.store import Store

ROUND_EVERY_S = 0.5
COALESCE_S = 0.01  # a move and its clk arrive together: one PGN and one message for both
# The journals are fsynced in batches: a crash of the host loses at most this much of
# them, which the boards resend (they keep their games); each sync holds the PGN files'
# renames up while it runs, so the fewer the better in a large hall.
SYNC_EVERY_S = 2.0
CLOCKS_EVERY_S = 2.0  # the boards' latest clock lines, kept for a restart (clocks.json)
QUEUE_LIMIT = 1000  # messages a slow page may have waiting before it misses some


class Publisher:
    def __init__(self, store: Store, sessions: dict, round_info, delay_s: float = 0.0):
        """round_info(): the round in force (it can change while the relay runs); delay_s:
        the broadcast delay (`--delay`): what spectators, the PGN files and URLs and the
        lichess push get is held back by this much; the arbiter's page and the LiveChess
        API (the players' own programs) get it at once."""
        self.store = store
        self.delay_s = delay_s
        self.evaluation = False  # the spectators' evaluation runs (set by the relay)
        self.results_version = 0  # counts the results and players the public has been shown changing (the standings follow it)
        self._shown_results: dict[int, tuple] = {}  # board -> (game, result, white, black) as last shown
        self.verdicts: dict[tuple[str, int], str] = {}  # (serial, game) -> a result no board gives: a double forfeit's 0-0
        # What the public has been shown (with a delay; without one, the live state is it):
        self._public_boards: dict[int, dict] = {}  # board number -> its board_json
        self._public_pgns: dict[int, str] = {}  # its current game's PGN
        self._public_parts: dict[int, tuple[str, str]] = {}  # its part of the round PGN (with, without placeholders)
        self._public_games: dict[tuple[int, int], str] = {}  # (board, game) -> a finished game's PGN
        self.sessions = sessions
        self.round_info = round_info
        self.loop = None  # set when the relay starts
        self.listeners: set[asyncio.Queue] = set()  # the page's websockets
        self.arbiter_listeners: set[asyncio.Queue] = set()  # those that gave the token: alerts too
        self.board_watchers = []  # f(session): a board's game changed
        self.clock_watchers = []  # f(session): a board's game or clock changed
        self._pgns: dict[int, str] = {}  # each board's current PGN, made once per change
        self._made: dict[int, tuple] = {}  # each board's board_json as made at its last change (views.board_made)
        self._texts: dict[tuple, tuple] = {}  # (board, arbiter) -> (that board_json, its JSON text but the clock)
        self._earlier: dict[tuple[int, int], str] = {}  # (board, game) -> an earlier game's PGN
        self._dirty: set[int] = set()
        self._sent: dict[int, tuple] = {}  # board -> (its record, plies, %clks) as its last message had them
        self.missed: set[asyncio.Queue] = set()  # feeds that missed a message: the whole state when they catch up
        self._round_due = False
        self._sync_due = False
        self._clocks_due = False

    # ----- PGN

    def pgn(self, s: BoardSession, rec) -> str:
        """A game of board s as PGN, with the round's tags and the players the round names.
        Its GameId is the board's serial and the board's own number of the game (`pico-e66141-g3`):
        unique (a board numbers its games on, across rounds and power cuts), readable, and
        the same whatever the arbiter does to the pairings - lichess matches its chapters
        by it, so a board's second game of a round is a chapter of its own."""
        r = self.round_info()
        names = r.boards.get(s.number, {})
        text = rec.pgn(event=r.event, site=r.site, date=r.date or "????.??.??", round_=f"{r.round}.{s.number}",
                       game_id=f"{s.serial}-g{rec.game}",
                       white=names.get("white"), black=names.get("black"), extra_tags=names.get("tags", ()))
        verdict = self.verdicts.get((s.serial, rec.game)) if self.verdicts else None
        if verdict and rec.result == "*":  # the tag lichess reads; the movetext keeps "*" (0-0 reads as castling)
            text = text.replace('[Result "*"]', f'[Result "{verdict}"]', 1)
        return text

    def round_pgn(self, placeholders: bool = True, boards: range | None = None) -> str:
        """Every game of the round: each board's games in the order played (an earlier game
        that was replaced before its first move is left out), the current one last. Without
        placeholders, a board's current game is left out while it has no move and the
        round names no players for the board (a board plugged in before the arbiter pairs
        it): lichess would keep a chapter for it that no later push matches. boards: only
        the boards whose numbers are in it (a lichess round's share of a large hall)."""
        if boards is None:
            boards = range(1, PAIRED)  # a blind player's paired board is not a game of its own
        if self.delay_s:
            return "".join(self._public_parts[n][0 if placeholders else 1] for n in sorted(self._public_parts)
                           if n in boards)
        return "".join(self._board_part(n, s, placeholders) for n, s in sorted(self.sessions.items())
                       if n in boards)

    def _board_part(self, n: int, s: BoardSession, placeholders: bool) -> str:
        """Board n's games in the round PGN (round_pgn says which)."""
        out = []
        boards = self.round_info().boards
        for g, rec in sorted(s.records.items()):
            if g == s.current and not placeholders and not rec.plies and rec.result == "*" \
                    and not boards.get(n, {}).get("white"):
                continue
            if g == s.current:
                if n not in self._pgns:
                    self._pgns[n] = self.pgn(s, rec)
                out.append(self._pgns[n])
            elif rec.plies or rec.result != "*":
                key = (n, g)  # an earlier game no longer changes: made once
                if key not in self._earlier:
                    self._earlier[key] = self.pgn(s, rec)
                out.append(self._earlier[key])
        return "".join(out)

    # ----- what the public sees (the same as live, or held back by the delay)

    def public_state(self, arbiter: bool = False) -> dict:
        """The page's state (and /api/state): the round and its boards as spectators see them
        (held back by the delay, nothing of the arbiter's), or as the arbiter does (live)."""
        if arbiter or not self.delay_s:
            return dict(views.state_json(self.sessions, self.round_info(), arbiter, self._made), delay_s=self.delay_s,
                        evaluation=self.evaluation)
        r = self.round_info()
        # (a blind player's paired board is the arbiter's; a waiting pairing's serial too)
        boards = {n: b for n, b in self._public_boards.items() if n < PAIRED}
        for n, entry in r.boards.items():
            boards.setdefault(n, views.public(views.waiting_json(n, entry)))
        return {"round": views.round_json(r), "boards": [boards[n] for n in sorted(boards)], "delay_s": self.delay_s,
                "evaluation": False}

    def state_text(self, arbiter: bool = False) -> str:
        """public_state as the feed's JSON message ({"type": "state", ...}): each board's
        JSON text kept from the last time (views.board_made's board, its clock as now),
        so that a page joining a hall of 2,000 boards costs the event loop a join, not
        60 ms of serialising every board again."""
        if self.delay_s and not arbiter:
            return json.dumps({"type": "state", **self.public_state()})
        r = self.round_info()
        texts = []
        numbers = sorted({n for n in self.sessions if arbiter or n < PAIRED} | set(r.boards))
        for n in numbers:
            s = self.sessions.get(n)
            if s is None or not (arbiter or n < PAIRED):
                board = views.waiting_json(n, r.boards[n])
                texts.append(json.dumps(board if arbiter else views.public(board)))
                continue
            base = views.made_board(s, r, self._made)
            kept = self._texts.get((n, arbiter))
            if kept is None or kept[0] is not base:
                shown = {k: v for k, v in base.items() if k != "clock"}
                kept = self._texts[(n, arbiter)] = (base, json.dumps(shown if arbiter else views.public(shown)))
            text = kept[1]
            if "clock" in base:
                text = text[:-1] + ', "clock": ' + json.dumps(views.clock_json(s)) + "}"
            texts.append(text)
        return ('{"type": "state", "round": ' + json.dumps(views.round_json(r)) + ', "boards": [' + ", ".join(texts)
                + '], "delay_s": ' + json.dumps(self.delay_s) + ', "evaluation": ' + json.dumps(self.evaluation) + "}")

    def public_pgn(self, n: int, game: int | None = None) -> str | None:
        """Board n's current game (or its earlier game) as spectators may have it; None if
        there is none (yet)."""
        s = self.sessions.get(n)
        if not self.delay_s:
            if s is None:
                return None
            g = s.current if game is None else game
            rec = s.records.get(g) if g is not None else None
            return None if rec is None else self.pgn(s, rec)  # as of now, not as of the last publication
        current = (self._public_boards.get(n) or {}).get("game")
        if game is None or game == current:
            return self._public_pgns.get(n)
        return self._public_games.get((n, game))

    def _later(self, fn, *args) -> None:
        """fn(*args) now, or after the broadcast delay."""
        if self.delay_s:
            self.loop.call_later(self.delay_s, fn, *args)
        else:
            fn(*args)

    def send_public(self, msg: dict) -> None:
        """A message of the live feed: to arbiters at once and whole, to spectators after
        the delay and without what is the arbiter's (views.ARBITER_ONLY)."""
        self.send(msg, arbiter=True)
        if msg.get("number", 0) >= PAIRED:
            return  # a blind player's paired board: the arbiter's
        if msg["type"] == "board":
            msg = dict(msg, board=views.public(msg["board"]))
        self._later(self._to_spectators, msg)

    def _to_spectators(self, msg: dict) -> None:
        if self.delay_s:  # what the public has been shown, as of now
            if msg["type"] == "clock" and msg["number"] in self._public_boards:
                self._public_boards[msg["number"]]["clock"] = msg["clock"]
            elif msg["type"] == "removed":
                self._public_boards.pop(msg["number"], None)
                self._public_parts.pop(msg["number"], None)
        self._put(self.listeners, msg, self.arbiter_listeners)  # every spectator's feed

    def game_ended(self, s: BoardSession, game: int) -> None:
        """Board s moved on from game: that game's PGN is kept in a file of its own."""
        self._later(self._game_file, s.number, game, self.pgn(s, s.records[game]))

    def _game_file(self, n: int, game: int, text: str) -> None:
        self.results_version += 1  # (an earlier game of the board: in the round PGN as well)
        self._public_games[(n, game)] = text
        self.store.write(f"board-{n}-game-{game}.pgn", text, durable=False)

    # ----- changes

    def board_changed(self, s: BoardSession) -> None:
        """The game of a board changed: published within COALESCE_S."""
        if s.number not in self._dirty:
            self._dirty.add(s.number)
            if len(self._dirty) == 1:
                self.loop.call_later(COALESCE_S, self._flush)
        if not self._sync_due:
            self._sync_due = True
            self.loop.call_later(SYNC_EVERY_S, self._sync)
        if s.clock_line:
            self._clocks_changed()

    def renumbered(self, a: int, b: int) -> None:
        """Boards a and b changed numbers (or one took the other's free number)."""
        for n in (a, b):
            self._pgns.pop(n, None)
            self._made.pop(n, None)
            self._sent.pop(n, None)  # (the feeds are told "removed", or get the board whole)
            for key in [k for k in self._earlier if k[0] == n]:
                del self._earlier[key]
            if n in self.sessions:
                self._publish(self.sessions[n])
            else:
                self.send_public({"type": "removed", "number": n})
        if not self._round_due:
            self._round_due = True
            self.loop.call_later(ROUND_EVERY_S, self._write_round)

    def clock_changed(self, s: BoardSession) -> None:
        """Only the clock: the live feeds now, the clocks' file within CLOCKS_EVERY_S. A
        board whose change is being published within COALESCE_S (a move and its clock
        line come together) carries its clock in that message: nothing more for it now."""
        if s.number in self._dirty:
            self._clocks_changed()
            return
        self.send_public({"type": "clock", "number": s.number, "clock": dict(views.clock_json(s), age_ms=0)})
        for f in self.clock_watchers:
            f(s)
        self._clocks_changed()

    def _clocks_changed(self) -> None:
        if not self._clocks_due:
            self._clocks_due = True
            self.loop.call_later(CLOCKS_EVERY_S, self._write_clocks)

    def _write_clocks(self) -> None:
        """Every board's latest clock line: after a restart of the relay its boards show
        the times, flags and state they had (a board that is there says them anew)."""
        self._clocks_due = False
        self.store.write("clocks.json", json.dumps(
            {str(n): s.clock_line for n, s in sorted(self.sessions.items()) if s.clock_line}, indent=0), durable=False)

    def analysis_changed(self, s: BoardSession) -> None:
        """The spectators' evaluation of a board: the page's feed only."""
        self.send({"type": "analysis", "number": s.number, "analysis": s.analysis})

    def round_changed(self) -> None:
        """A new round (players, event): every PGN again, and the page told."""
        self.results_version += 1
        self._pgns.clear()
        self._earlier.clear()
        for s in self.sessions.values():
            self._publish(s)
        self.send({"type": "round", "round": views.round_json(self.round_info())})
        # the pairings waiting for their boards
        self.send({"type": "state", **self.public_state(arbiter=True)}, arbiter=True)
        self._later(lambda: self._to_spectators({"type": "state", **self.public_state()}))

    def alert(self, a) -> None:
        """Something for the arbiter (relay/alerts.py): to the arbiter's feeds only."""
        self.send({"type": "alert", "alert": a.json()}, arbiter=True)

    def send(self, msg: dict, arbiter: bool = False) -> None:
        """A message to every feed (or the arbiters')."""
        self._put(self.arbiter_listeners if arbiter else self.listeners, msg)

    def _put(self, feeds, msg: dict, skip=()) -> None:
        """msg to each of feeds but those in skip, as JSON text made once for all; a feed
        whose queue is full misses it (and gets the whole state once it has caught up)."""
        text = None
        for q in feeds:
            if q in skip:
                continue
            if q.qsize() >= QUEUE_LIMIT:
                self.missed.add(q)
                continue
            if text is None:
                text = json.dumps(msg)
            q.put_nowait(text)

    def rewrite(self) -> None:
        """The relay starts: every board's PGN files and the round's made again from the
        games its journals gave back (relay/store.py: they are written, never fsynced, so
        a power cut may have left one old); made now, written when the broadcast delay has
        passed, as every change is."""
        boards = []
        for n, s in sorted(self.sessions.items()):
            current = self.pgn(s, s.record) if s.record is not None else None
            ended = [(g, self.pgn(s, rec)) for g, rec in sorted(s.records.items())
                     if g != s.current and (rec.plies or rec.result != "*")]
            parts = (self._board_part(n, s, True), self._board_part(n, s, False)) if self.delay_s else None
            boards.append((n, current, ended, parts))

        def write():
            for n, current, ended, parts in boards:
                for g, text in ended:
                    self._game_file(n, g, text)
                if parts is not None:
                    self._public_parts.setdefault(n, parts)  # (unless a change was shown since)
                if current is not None and n not in self._public_pgns:
                    self._public_pgns[n] = current
                    self.store.write(f"board-{n}.pgn", current, durable=False)
            self._write_round()
        if boards:
            self._later(write)

    def flush(self) -> None:
        """Everything due now (the relay stops)."""
        self._flush()
        if self._round_due or self.sessions:
            self._write_round()
            self._write_clocks()

    # ----- the work

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
        n = s.number
        text = None
        if s.record is not None:
            text = self.pgn(s, s.record)
            self._pgns[n] = text
        if text is not None and (s.record.result != "*" or (s.serial, s.record.game) in self.verdicts):
            # a finished game: its own file now, not at the next game
            self._later(self._game_file, n, s.record.game, text)
        since = self._unchanged(n, s)
        # The board made whole once (kept for the whole state: views.board_made), the
        # message cut from it.
        round_info = self.round_info()
        board = views.board_json(s, round_info)
        if self.verdicts and s.record is not None and (s.serial, s.record.game) in self.verdicts \
                and s.record.result == "*":
            board["result"] = self.verdicts[(s.serial, s.record.game)]
        else:  # (a verdict's board is made again for a state: it shows the board's own result there, as before)
            self._made[n] = (views._stamp(s, round_info), board)
        parts = (self._board_part(n, s, True), self._board_part(n, s, False)) if self.delay_s else None
        self._later(self._show, s, n, text, board, parts)
        if since:
            board = dict(board, uci=board["uci"][since:], san=board["san"][since:], clk=board["clk"][since:],
                         **{"from": since})
        self.send_public({"type": "board", "board": board})
        for f in self.clock_watchers:  # the LiveChess API: the players' own programs, live
            f(s)

    def _unchanged(self, n: int, s: BoardSession) -> int:
        """How many plies of board n's game the feeds were sent whole and unchanged (the
        same move, the same %clk) in its last message: its next message carries only the
        plies after them, with `from` (the page keeps the ones before). Every feed gets
        every message of a board in order (the spectators' later, in the same order); a
        feed that joins gets the whole state, and one that misses messages (too slow) the
        whole state when it has caught up (missed)."""
        rec = s.record
        if rec is None:
            self._sent.pop(n, None)
            return 0
        last = self._sent.get(n)
        k = 0
        if last is not None and last[0] is rec:
            for p, q, c in zip(rec.plies, last[1], last[2]):
                if p is not q or p.clk_ms != c:
                    break
                k += 1
        self._sent[n] = (rec, tuple(rec.plies), tuple(p.clk_ms for p in rec.plies))
        return k

    def _show(self, s: BoardSession, n: int, text: str | None, board: dict, parts) -> None:
        """A board's change reaches the public: its files, the round PGN, the lichess push."""
        shown = (board.get("game"), board.get("result"), board.get("white"), board.get("black"))
        if self._shown_results.get(n) != shown:
            self._shown_results[n] = shown
            self.results_version += 1
        self._public_boards[n] = views.public(board)
        if parts is not None:
            self._public_parts[n] = parts
        if text is not None:
            self._public_pgns[n] = text
            self.store.write(f"board-{n}.pgn", text, durable=False)
            if not self._round_due:
                # The round PGN (every board) at most twice a second, and less often in a
                # large hall (a second a thousand boards: at 2,000 it is 3 MB): lichess
                # polls it every few seconds, and 200 boards must not rewrite it 200 times.
                self._round_due = True
                self.loop.call_later(max(ROUND_EVERY_S, len(self.sessions) / 1000), self._write_round)
        for f in self.board_watchers:
            f(s)

    def _write_round(self) -> None:
        self._round_due = False
        self.store.write("round.pgn", self.round_pgn(), durable=False)
