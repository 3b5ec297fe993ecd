"""The DGT LiveChess local API (websocket ws://127.0.0.1:1982/api/v1.0, and the HTTP
GET /api/v1.0/eboards), as its clients use it - lichess's DGT page (lila ui/dgt) and
chess.com's DGT mode:

  {"id":1,"call":"eboards"} -> {"response":"call","id":1,"param":[{"serialnr":..,
      "source":..,"state":"ACTIVE","battery":null,"comment":null,"board":<FEN board>,
      "flipped":false,"clock":null}]}
  {"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":..}}}
      -> {"response":"call","id":2,"param":null}, then feed messages, now and at each change
      {"response":"feed","id":1,"time":ms,"param":{"serialnr":..,"flipped":..,"board":..,
       "start":<FEN>,"san":[every move since start],"match":true|false,
       "clock":{"white":s,"black":s,"run":true|false|null,"time":ms}}}
  {"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":..}}}: the
      reconstruction of that board starts from this position from now on (a client sends
      it each time it attaches to a game). The board's own game and clock are not
      touched: if the position is one of the board's game, `san` holds the moves made
      since it; if not, `san` is empty and `match` false until the board's game reaches it.
  {"id":4,"call":"call","param":{"id":1,"method":"flip","param":{"flip":true}}}
  {"id":5,"call":"unsubscribe","param":{"id":1}} -> {"response":"call","id":5,"param":true}
  anything wrong -> {"response":"error","id":..,"param":{"message":<why>}}

A client computes the new moves as the length of `san` minus the length it saw last, and
ignores a list it has already seen: so `san` is always the whole list since `start`.

LiveChess clients send no token, so the API protects itself as a local websocket service
should: a request whose Origin is not on the allow-list (lichess, chess.com and local
pages by default) is refused, so that an arbitrary web page in the same browser cannot
drive the board."""
from __future__ import annotations

import asyncio
import json
import time

import chess
from aiohttp import WSMsgType, web

from host_tools.relay.guards import ascii_headers, origin_allowed

# A new subscription gets the board as it stands after this long, unless a feed went to
# it before: lichess's page sends setup right after subscribing, and a feed from the
# reconstruction before its setup would look to it like moves it has to play.
FIRST_FEED_S = 1.0
MAX_MESSAGE = 64 * 1024  # a LiveChess call is a few hundred bytes; more closes the socket
DEFAULT_ORIGINS = ("https://lichess.org", "https://www.chess.com", "https://chess.com",
                   "http://localhost", "http://127.0.0.1", "https://localhost", "https://127.0.0.1")


MAX_SUBSCRIPTIONS = 16  # per connection: a client follows a board or a few, not thousands


class _Subscription:
    """A feed a client asked for: one board, and where its reconstruction starts (the
    client's own setup: another client's setup never changes what this one sees)."""

    def __init__(self, sock, feed_id: int, serial: str):
        self.sock = sock
        self.id = feed_id
        self.serial = serial
        self.setup: str | None = None  # None: the board's game from its start
        self.fed = False  # a feed message went to it


class LiveChessApi:
    def __init__(self, relay, origins=None):
        self.relay = relay
        self.origins = tuple(origins) if origins else DEFAULT_ORIGINS
        self.connections: list[dict] = []  # each open connection's subscriptions, by feed id

    def _session(self, serial):
        for s in self.relay.sessions.values():
            if s.serial == serial:
                return s
        return None

    def eboard(self, s) -> dict:
        return {"serialnr": s.serial, "source": s.source.rsplit("/", 1)[-1], "state": s.state,
                "battery": None, "comment": s.problem, "board": self._board(s),
                "flipped": s.flipped, "clock": self._clock(s)}

    def _board(self, s) -> str:
        j = self.relay.board_json(s)
        return j.get("fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").split()[0]

    def _clock(self, s):
        if not s.clock.at:
            return None
        run = {"w": True, "b": False}.get(s.clock.running)
        return {"white": s.clock.white_ms // 1000, "black": s.clock.black_ms // 1000, "run": run,
                "time": int(s.clock.at * 1000)}

    @staticmethod
    def reconstruction(s, setup: str | None = None) -> tuple[str, list[str], bool]:
        """(start FEN, SAN of every move since it, whether the board's game is there) for
        board s, from setup (a client's; None: the game's start)."""
        rec = s.record
        if rec is None:
            start = setup or chess.STARTING_FEN
            return start, [], start.split()[0] == chess.STARTING_BOARD_FEN
        try:
            b = chess.Board(rec.fen, chess960=rec.chess960 is not None)
        except ValueError:  # a device's game that python-chess cannot set up
            return setup or chess.STARTING_FEN, [], False
        if setup is None:
            return b.fen(), [p.san for p in rec.plies], True
        want = _key(setup)
        base = 0 if _key(b.fen()) == want else None
        for i, p in enumerate(rec.plies):
            try:
                b.push_uci(p.uci)
            except ValueError:
                break
            if _key(b.fen()) == want:
                base = i + 1  # the latest time the game stood there
        if base is None:
            return setup, [], False
        return setup, [p.san for p in rec.plies[base:]], True

    def _feed(self, sub, s) -> dict:
        start, sans, match = self.reconstruction(s, sub.setup)
        return {"response": "feed", "id": sub.id, "time": int(time.time() * 1000),
                "param": {"serialnr": s.serial, "flipped": s.flipped, "board": self._board(s),
                          "start": start, "san": sans, "match": match, "clock": self._clock(s)}}

    def changed(self, s) -> None:
        for subs in self.connections:
            for sub in subs.values():
                if sub.serial == s.serial:
                    self._feed_now(sub, s)

    def _feed_now(self, sub, s) -> None:
        if not sub.sock.closed:
            sub.fed = True
            self.relay.loop.create_task(self._send(sub, self._feed(sub, s)))

    @staticmethod
    async def _send(sub, message) -> None:
        try:
            await sub.sock.send_json(message)
        except ConnectionError:
            pass  # the client has gone: its subscription goes with its socket

    async def _first_feed(self, subs, sub) -> None:
        await asyncio.sleep(FIRST_FEED_S)
        s = self._session(sub.serial)
        if subs.get(sub.id) is sub and not sub.fed and s is not None and not sub.sock.closed:
            sub.fed = True
            await self._send(sub, self._feed(sub, s))

    async def handle(self, request):
        if not origin_allowed(request.headers.get("Origin"), self.origins):
            raise web.HTTPForbidden(text="origin not allowed")
        sock = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await sock.prepare(request)
        subs: dict[int, _Subscription] = {}  # this connection's, by feed id
        self.connections.append(subs)
        waiting = set()
        try:
            async for msg in sock:
                if msg.type != WSMsgType.TEXT:
                    continue
                answer, new = self._call(sock, msg.data, subs)
                await sock.send_json(answer)
                if new is not None:  # a new subscription: where its board stands, soon
                    task = self.relay.loop.create_task(self._first_feed(subs, new))
                    waiting.add(task)
                    task.add_done_callback(waiting.discard)
        except ConnectionError:
            pass  # the client went mid-answer: nothing to tell it, nothing to log
        finally:
            self.connections.remove(subs)
            for task in waiting:
                task.cancel()
        return sock

    def _call(self, sock, text: str, subs: dict) -> tuple[dict, _Subscription | None]:
        """The answer to one message, and the subscription it made (or None)."""
        try:
            req = json.loads(text)
            rid = req.get("id")
            call = req["call"]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return _error(None, "not a LiveChess call"), None
        if not isinstance(rid, (int, str, type(None))) or isinstance(rid, bool):
            return _error(None, "a call's id is a number or a string"), None
        if call == "eboards":
            return {"response": "call", "id": rid,
                    "param": [self.eboard(s) for _, s in sorted(self.relay.sessions.items())]}, None
        if call == "subscribe":
            try:
                p = req["param"]
                feed, fid, serial = p["feed"], _feed_id(p["id"]), str(p["param"]["serialnr"])
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return _error(rid, "subscribe needs {feed, id, param: {serialnr}}"), None
            if feed != "eboardevent":
                return _error(rid, "no feed %r (eboardevent is)" % (str(feed)[:40],)), None
            if self._session(serial) is None:
                return _error(rid, "no eboard %r" % serial[:40]), None
            if fid not in subs and len(subs) >= MAX_SUBSCRIPTIONS:
                return _error(rid, "at most %d subscriptions on one connection" % MAX_SUBSCRIPTIONS), None
            sub = subs[fid] = _Subscription(sock, fid, serial)  # the same feed id again: replaced
            return {"response": "call", "id": rid, "param": None}, sub
        if call == "unsubscribe":
            try:
                fid = _feed_id(req["param"]["id"])
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return _error(rid, "unsubscribe needs {id}"), None
            return {"response": "call", "id": rid, "param": subs.pop(fid, None) is not None}, None
        if call == "call":
            try:
                p = req["param"]
                fid, method, arg = _feed_id(p["id"]), p["method"], p.get("param") or {}
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return _error(rid, "call needs {id, method, param}"), None
            sub = subs.get(fid)
            s = self._session(sub.serial) if sub else None
            if s is None:
                return _error(rid, "no subscription %d to an eboard" % fid), None
            if method == "setup":
                fen = arg.get("fen") if isinstance(arg, dict) else None
                if not isinstance(fen, str) or len(fen) > 100:
                    return _error(rid, "setup needs a fen"), None
                if len(fen.split()) == 1:
                    fen += " w - - 0 1"
                try:
                    fen = chess.Board(fen).fen()
                except ValueError as e:
                    return _error(rid, f"bad fen: {e}"), None
                # Where this client's reconstruction starts; the board's game and clock go on.
                sub.setup = fen
                self._feed_now(sub, s)
                return {"response": "call", "id": rid, "param": True}, None
            if method == "flip":
                if not isinstance(arg, dict) or not isinstance(arg.get("flip"), bool):
                    return _error(rid, 'flip needs {"flip": true|false}'), None
                s.flipped = arg["flip"]
                ok = bool(s.send) and s.send("config orientation=" + ("turned" if s.flipped else "normal"))
                return {"response": "call", "id": rid, "param": ok}, None
            return _error(rid, "no method %r" % (str(method)[:40],)), None
        return _error(rid, "no call %r" % (str(call)[:40],)), None

    async def eboards_http(self, request):
        """GET /api/v1.0/eboards: the same list as the eboards call."""
        if request.headers.get("Origin") and not origin_allowed(request.headers.get("Origin"), self.origins):
            raise web.HTTPForbidden(text="origin not allowed")
        return web.json_response([self.eboard(s) for _, s in sorted(self.relay.sessions.items())])


def _error(rid, message: str) -> dict:
    return {"response": "error", "id": rid, "param": {"message": message}}


def _feed_id(value) -> int:
    """A feed's id as a client gives it: a number (or its digits), of a sane size."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or len(str(value)) > 12:
        raise ValueError("a feed id is a number")
    return int(value)


def _key(fen: str) -> str:
    """A position as the reconstruction compares it: the pieces and the side to move."""
    parts = fen.split()
    return parts[0] + " " + (parts[1] if len(parts) > 1 else "w")


def make_livechess_app(relay) -> web.Application:
    app = web.Application(client_max_size=64 * 1024, middlewares=[ascii_headers])
    app.router.add_get("/api/v1.0", relay.livechess.handle)
    app.router.add_get("/api/v1.0/eboards", relay.livechess.eboards_http)
    return app
