"""The DGT LiveChess local API (websocket, default ws://127.0.0.1:1982/api/v1.0), with the
message shapes LiveChess clients such as lichess' DGT board page send and expect:

  {"id":1,"call":"eboards"} -> {"response":"call","id":1,"param":[{"serialnr":..,
      "source":..,"state":"ACTIVE","battery":null,"comment":null,"board":<FEN board>,
      "flipped":false,"clock":null}]}
  {"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":..}}}
      -> {"response":"call","id":2,"param":null}, then feed messages
      {"response":"feed","id":1,"param":{"serialnr":..,"flipped":..,"board":..,
       "san":[new moves],"clock":{"white":s,"black":s,"run":true|false|null,"time":ms}},
       "time":ms}
  {"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":..}}}: a new game
      from that position on the subscribed board; method "flip" with {"flip":true}.

LiveChess clients send no token, so the API protects itself as a local websocket service
should: a request whose Origin is not on the allow-list (lichess and local pages by
default) is refused, so that an arbitrary web page in the same browser cannot drive the
board."""
from __future__ import annotations

import json
import time

import chess
from aiohttp import WSMsgType, web

from host_tools.protocol import encode
from host_tools.relay.guards import ascii_headers, origin_allowed

MAX_MESSAGE = 64 * 1024  # a LiveChess call is a few hundred bytes; more closes the socket
DEFAULT_ORIGINS = ("https://lichess.org", "http://localhost", "http://127.0.0.1",
                   "https://localhost", "https://127.0.0.1")


class _Subscription:
    def __init__(self, sock, feed_id: int, serial: str):
        self.sock = sock
        self.id = feed_id
        self.serial = serial
        self.sent = 0  # moves already sent


class LiveChessApi:
    def __init__(self, relay, origins=None):
        self.relay = relay
        self.origins = tuple(origins) if origins else DEFAULT_ORIGINS
        self.subs: list[_Subscription] = []

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

    def _feed(self, sub, s) -> dict:
        sans = [p.san for p in s.record.plies] if s.record else []
        if sub.sent > len(sans):  # a take-back: the board field says where the game is
            sub.sent = len(sans)
        new = sans[sub.sent:]
        sub.sent = len(sans)
        return {"response": "feed", "id": sub.id, "time": int(time.time() * 1000),
                "param": {"serialnr": s.serial, "flipped": s.flipped, "board": self._board(s),
                          "san": new, "clock": self._clock(s)}}

    def changed(self, s) -> None:
        for sub in list(self.subs):
            if sub.serial == s.serial and not sub.sock.closed:
                self.relay.loop.create_task(sub.sock.send_json(self._feed(sub, s)))

    async def handle(self, request):
        if not origin_allowed(request.headers.get("Origin"), self.origins):
            raise web.HTTPForbidden(text="origin not allowed")
        sock = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await sock.prepare(request)
        mine = []
        try:
            async for msg in sock:
                if msg.type != WSMsgType.TEXT:
                    continue
                n = len(mine)
                await sock.send_json(self._call(sock, msg.data, mine))
                if len(mine) > n:  # a new subscription: where its board stands now
                    s = self._session(mine[-1].serial)
                    if s is not None:
                        await sock.send_json(self._feed(mine[-1], s))
        finally:
            for sub in mine:
                if sub in self.subs:
                    self.subs.remove(sub)
        return sock

    def _call(self, sock, text: str, mine: list):
        try:
            req = json.loads(text)
            rid = req.get("id")
            call = req["call"]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return {"response": "error", "id": None, "param": "not a LiveChess call"}
        if call == "eboards":
            return {"response": "call", "id": rid,
                    "param": [self.eboard(s) for _, s in sorted(self.relay.sessions.items())]}
        if call == "subscribe":
            try:
                p = req["param"]
                feed, fid, serial = p["feed"], int(p["id"]), str(p["param"]["serialnr"])
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return {"response": "error", "id": rid, "param": "bad subscribe"}
            if feed != "eboardevent":
                return {"response": "error", "id": rid, "param": f"no feed {feed}"}
            sub = _Subscription(sock, fid, serial)
            self.subs.append(sub)
            mine.append(sub)
            return {"response": "call", "id": rid, "param": None}
        if call == "call":
            try:
                p = req["param"]
                fid, method, arg = int(p["id"]), p["method"], p.get("param") or {}
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return {"response": "error", "id": rid, "param": "bad call"}
            sub = next((x for x in mine if x.id == fid), None)
            s = self._session(sub.serial) if sub else None
            if s is None:
                return {"response": "error", "id": rid, "param": "no such eboard"}
            if method == "setup":
                fen = arg.get("fen") if isinstance(arg, dict) else None
                if not isinstance(fen, str) or len(fen) > 100:
                    return {"response": "error", "id": rid, "param": "setup needs a fen"}
                if len(fen.split()) == 1:
                    fen += " w - - 0 1"
                try:
                    chess.Board(fen)  # the board refuses a bad FEN too; this says why
                except ValueError as e:
                    return {"response": "error", "id": rid, "param": f"bad fen: {e}"}
                ok = bool(s.send) and s.send("new fen=" + encode(fen))
                sub.sent = 0
                return {"response": "call", "id": rid, "param": ok}
            if method == "flip":
                if not isinstance(arg, dict) or not isinstance(arg.get("flip"), bool):
                    return {"response": "error", "id": rid, "param": 'flip needs {"flip": true|false}'}
                s.flipped = arg["flip"]
                ok = bool(s.send) and s.send("config orientation=" + ("turned" if s.flipped else "normal"))
                return {"response": "call", "id": rid, "param": ok}
            return {"response": "error", "id": rid, "param": f"no method {method}"}
        return {"response": "error", "id": rid, "param": f"no call {call}"}


def make_livechess_app(relay) -> web.Application:
    app = web.Application(client_max_size=64 * 1024, middlewares=[ascii_headers])
    app.router.add_get("/api/v1.0", relay.livechess.handle)
    return app
