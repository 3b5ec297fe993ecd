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
drive the board. It is served on this machine only unless asked (`--livechess-host`): it
is the players' programs' (at home) and the arbiter's, not the hall's. While a broadcast
delay runs it gives nothing without the relay's token (`?token=...` in its URL, or
`Authorization: Bearer ...`): it is live, and the delay is for fair play.

Nothing a client calls reaches a board: `setup` and `flip` change what that subscription
sees (its reconstruction's start, its `flipped`), never the board's game, clock or
settings (a `config orientation` from the hall would make the board refuse the next move).

Every feed is made once per change of its board (and per distinct `setup` among its
subscriptions, each reconstruction kept and carried on move by move, never replayed per
subscription) and the same text goes to every subscription of that board; a connection
has a writer of its own holding only each subscription's latest feed, so a slow client
costs the relay nothing but its own latest messages. Subscriptions are limited per
connection, per address (not for the token's holder) and in all."""
from __future__ import annotations

import asyncio
import json
import time

import chess
from aiohttp import WSMsgType, web

from host_tools.relay.guards import ascii_headers, authorised, origin_allowed, token_matches

# A new subscription gets the board as it stands after this long, unless a feed went to
# it before: lichess's page sends setup right after subscribing, and a feed from the
# reconstruction before its setup would look to it like moves it has to play.
FIRST_FEED_S = 1.0
MAX_MESSAGE = 64 * 1024  # a LiveChess call is a few hundred bytes; more closes the socket
DEFAULT_ORIGINS = ("https://lichess.org", "https://www.chess.com", "https://chess.com",
                   "http://localhost", "http://127.0.0.1", "https://localhost", "https://127.0.0.1")


MAX_SUBSCRIPTIONS = 16  # per connection: a client follows a board or a few, not thousands
PER_ADDRESS = 64  # subscriptions from one address (a home's programs; the token's holder: no limit)
TOTAL = 4000  # subscriptions in all (two a board for 2,000 boards)


class _Connection:
    """One client's websocket: its subscriptions by feed id, and its writer's queue (each
    subscription's latest feed only: a slow client never piles up messages)."""

    def __init__(self, sock, host: str, token: bool):
        self.sock, self.host, self.token = sock, host, token
        self.subs: dict[int, _Subscription] = {}
        self.pending: dict[int, str] = {}  # feed id -> its latest feed message, not yet sent
        self.wake = asyncio.Event()


class _Subscription:
    """A feed a client asked for: one board, and where its reconstruction starts (the
    client's own setup: another client's setup never changes what this one sees)."""

    def __init__(self, conn: _Connection, feed_id: int, serial: str):
        self.conn = conn
        self.id = feed_id
        self.serial = serial
        self.setup: str | None = None  # None: the board's game from its start
        self.flipped: bool | None = None  # this client's own flip (None: the board's)
        self.fed = False  # a feed message went to it


class _Reconstruction:
    """Board s's game from one start position, carried on move by move: the index of the
    latest ply after which the game stood at the start (None: never), checked up to
    `checked` plies (and the moves it checked, to notice a take-back)."""

    def __init__(self, rec, setup: str | None):
        self.rec, self.setup = rec, setup
        self.checked = 0
        self.ucis: list[str] = []
        self.board: chess.Board | None = None
        self.base: int | None = None
        self.broken = False  # a move python-chess refuses: the reconstruction stops there

    def sans(self) -> tuple[str, list[str], bool]:
        rec, setup = self.rec, self.setup
        plies = rec.plies
        if setup is None:
            return self.start_fen(), [p.san for p in plies], True
        n = len(plies)
        if self.board is None or n < self.checked or any(
                plies[i].uci != self.ucis[i] for i in range(max(0, self.checked - 4), self.checked)):
            self._reset()  # a take-back (or a game line): from the start again
        if self.board is None:
            return setup, [], False
        want = _key(setup)
        b = self.board
        while self.checked < n and not self.broken:
            p = plies[self.checked]
            try:
                b.push_uci(p.uci)
            except ValueError:
                self.broken = True
                break
            self.ucis.append(p.uci)
            self.checked += 1
            if _key(b.fen()) == want:
                self.base = self.checked  # the latest time the game stood there
        if self.base is None:
            return setup, [], False
        return setup, [p.san for p in plies[self.base:]], True

    def start_fen(self) -> str:
        try:
            return chess.Board(self.rec.fen, chess960=self.rec.chess960 is not None).fen()
        except ValueError:
            return chess.STARTING_FEN

    def _reset(self) -> None:
        rec = self.rec
        self.checked, self.ucis, self.base, self.broken = 0, [], None, False
        try:
            self.board = chess.Board(rec.fen, chess960=rec.chess960 is not None)
        except ValueError:  # a device's game that python-chess cannot set up
            self.board = None
            return
        if _key(self.board.fen()) == _key(self.setup):
            self.base = 0


class LiveChessApi:
    def __init__(self, relay, origins=None, per_address: int = PER_ADDRESS, total: int = TOTAL):
        self.relay = relay
        self.origins = tuple(origins) if origins else DEFAULT_ORIGINS
        self.per_address, self.total = per_address, total
        self.connections: list[_Connection] = []
        self.by_serial: dict[str, dict[_Subscription, None]] = {}  # the subscriptions of each board
        self.by_host: dict[str, int] = {}  # subscriptions per address (the token's not counted)
        self.count = 0
        self._recons: dict[tuple[str, str | None], _Reconstruction] = {}
        self._params: dict[tuple, tuple] = {}  # (serial, setup, flipped) -> (the game's stamp, its param's JSON but the clock)
        self._due: dict[str, object] = {}  # serial -> its session: a feed due at the next turn of the loop

    def _session(self, serial):
        for s in self.relay.sessions.values():
            if s.serial == serial:
                return s
        return None

    def allowed(self, request) -> bool:
        """With a broadcast delay the API is live, so it answers only the token's holder."""
        if not self.relay.publisher.delay_s:
            return True
        return authorised(self.relay.token, request) or token_matches(self.relay.token, request.query.get("token"))

    def _refuse(self, request) -> None:
        if not origin_allowed(request.headers.get("Origin"), self.origins):
            raise web.HTTPForbidden(text="origin not allowed")
        if not self.allowed(request):
            raise web.HTTPForbidden(text=f"a broadcast delay of {self.relay.publisher.delay_s:g} s runs: the LiveChess "
                                         f"API (live) needs the relay's token (?token=...)")

    def eboard(self, s) -> dict:
        return {"serialnr": s.serial, "source": s.source.rsplit("/", 1)[-1], "state": s.state,
                "battery": None, "comment": s.problem, "board": self._board(s),
                "flipped": s.flipped, "clock": self._clock(s)}

    @staticmethod
    def _board(s) -> str:
        rec = s.record
        if rec is None:
            return chess.STARTING_BOARD_FEN
        try:
            return rec.position().board_fen()
        except ValueError:
            return chess.STARTING_BOARD_FEN

    @staticmethod
    def _clock(s):
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
        return _Reconstruction(rec, setup).sans()

    def _recon(self, s, setup):
        rec = s.record
        if rec is None:
            return self.reconstruction(s, setup)
        key = (s.serial, setup)
        r = self._recons.get(key)
        if r is None or r.rec is not rec:
            r = self._recons[key] = _Reconstruction(rec, setup)
        return r.sans()

    def _param(self, s, setup, flipped: bool) -> str:
        """A feed's param as JSON text. All but the clock is kept while the game stands
        (a clock line changes two numbers: the moves are not made into JSON again)."""
        rec = s.record
        plies = rec.plies if rec is not None else ()
        stamp = (id(rec), rec.fen if rec is not None else None, len(plies),
                 plies[-1].uci if plies else None, plies[-2].uci if len(plies) > 1 else None)
        key = (s.serial, setup, flipped)
        made = self._params.get(key)
        if made is None or made[0] != stamp:
            start, sans, match = self._recon(s, setup)
            head = json.dumps({"serialnr": s.serial, "flipped": flipped, "board": self._board(s),
                               "start": start, "san": sans, "match": match})
            made = self._params[key] = (stamp, head[:-1])
        return made[1] + ', "clock": ' + json.dumps(self._clock(s)) + "}"

    # ----- feeds

    def changed(self, s) -> None:
        """Board s's game or clock changed: its subscriptions are fed at the loop's next
        turn, once for however many changes came meanwhile."""
        if s.serial in self.by_serial and s.serial not in self._due:
            if not self._due:
                self.relay.loop.call_soon(self._feed_due)
            self._due[s.serial] = s

    def _feed_due(self) -> None:
        due, self._due = self._due, {}
        now = int(time.time() * 1000)
        for serial, s in due.items():
            subs = self.by_serial.get(serial)
            if subs:
                self._feed(s, list(subs), now)

    def _feed(self, s, subs, now: int) -> None:
        """One message text per (setup, flip) among subs, sent to each."""
        made: dict[tuple, str] = {}
        for sub in subs:
            flipped = s.flipped if sub.flipped is None else sub.flipped
            key = (sub.setup, flipped)
            param = made.get(key)
            if param is None:
                param = made[key] = self._param(s, sub.setup, flipped)
            sub.fed = True
            conn = sub.conn
            if not conn.pending:
                conn.wake.set()
            conn.pending[sub.id] = '{"response":"feed","id":%d,"time":%d,"param":%s}' % (sub.id, now, param)

    async def _writer(self, conn: _Connection) -> None:
        sock = conn.sock
        try:
            while not sock.closed:
                await conn.wake.wait()
                conn.wake.clear()
                pending, conn.pending = conn.pending, {}
                for text in pending.values():
                    await sock.send_str(text)
        except ConnectionError:
            pass  # the client has gone: its subscriptions go with its socket

    async def _first_feed(self, conn, sub) -> None:
        await asyncio.sleep(FIRST_FEED_S)
        s = self._session(sub.serial)
        if conn.subs.get(sub.id) is sub and not sub.fed and s is not None and not conn.sock.closed:
            self._feed(s, [sub], int(time.time() * 1000))

    # ----- subscriptions kept and counted

    def _add(self, conn, sub) -> None:
        old = conn.subs.get(sub.id)
        if old is not None:
            self._drop(conn, old)
        conn.subs[sub.id] = sub
        self.by_serial.setdefault(sub.serial, {})[sub] = None
        self.count += 1
        if not conn.token:
            self.by_host[conn.host] = self.by_host.get(conn.host, 0) + 1

    def _drop(self, conn, sub) -> None:
        if conn.subs.get(sub.id) is sub:
            del conn.subs[sub.id]
        conn.pending.pop(sub.id, None)
        subs = self.by_serial.get(sub.serial)
        if subs is not None and sub in subs:
            del subs[sub]
            self.count -= 1
            if not conn.token:
                n = self.by_host[conn.host] - 1
                if n:
                    self.by_host[conn.host] = n
                else:
                    del self.by_host[conn.host]
            if not subs:
                del self.by_serial[sub.serial]
                for key in [k for k in self._recons if k[0] == sub.serial]:
                    del self._recons[key]
                for key in [k for k in self._params if k[0] == sub.serial]:
                    del self._params[key]

    def _room(self, conn) -> str | None:
        """Why conn may not have one more subscription, or None."""
        if len(conn.subs) >= MAX_SUBSCRIPTIONS:
            return "at most %d subscriptions on one connection" % MAX_SUBSCRIPTIONS
        if self.count >= self.total:
            return "the relay holds %d subscriptions, its most" % self.total
        if not conn.token and self.by_host.get(conn.host, 0) >= self.per_address:
            return "at most %d subscriptions from one address" % self.per_address
        return None

    async def handle(self, request):
        self._refuse(request)
        sock = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await sock.prepare(request)
        token = authorised(self.relay.token, request) or token_matches(self.relay.token, request.query.get("token"))
        conn = _Connection(sock, request.remote or "?", token)
        if token:
            self.relay.door.trust(request.remote)
        self.connections.append(conn)
        writer = self.relay.loop.create_task(self._writer(conn))
        waiting = set()
        try:
            async for msg in sock:
                if msg.type != WSMsgType.TEXT:
                    continue
                answer, new = self._call(conn, msg.data)
                await sock.send_json(answer)
                if new is not None:  # a new subscription: where its board stands, soon
                    task = self.relay.loop.create_task(self._first_feed(conn, new))
                    waiting.add(task)
                    task.add_done_callback(waiting.discard)
        except ConnectionError:
            pass  # the client went mid-answer: nothing to tell it, nothing to log
        finally:
            self.connections.remove(conn)
            for sub in list(conn.subs.values()):
                self._drop(conn, sub)
            writer.cancel()
            for task in waiting:
                task.cancel()
        return sock

    def _call(self, conn: _Connection, text: str) -> tuple[dict, _Subscription | None]:
        """The answer to one message, and the subscription it made (or None)."""
        subs = conn.subs
        try:
            req = json.loads(text)
            rid = req.get("id")
            call = req["call"]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return _error(None, "not a LiveChess call"), None
        if not isinstance(rid, (int, str, type(None))) or isinstance(rid, bool):
            return _error(None, "a call's id is a number or a string"), None
        if call == "eboards":
            return {"response": "call", "id": rid, "param": self.eboards()}, None
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
            if fid not in subs:
                why = self._room(conn)
                if why:
                    return _error(rid, why), None
            sub = _Subscription(conn, fid, serial)  # the same feed id again: replaced
            self._add(conn, sub)
            return {"response": "call", "id": rid, "param": None}, sub
        if call == "unsubscribe":
            try:
                fid = _feed_id(req["param"]["id"])
            except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
                return _error(rid, "unsubscribe needs {id}"), None
            sub = subs.get(fid)
            if sub is not None:
                self._drop(conn, sub)
            return {"response": "call", "id": rid, "param": sub is not None}, None
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
                self._feed(s, [sub], int(time.time() * 1000))
                return {"response": "call", "id": rid, "param": True}, None
            if method == "flip":
                if not isinstance(arg, dict) or not isinstance(arg.get("flip"), bool):
                    return _error(rid, 'flip needs {"flip": true|false}'), None
                # This client's view only: the board's orientation is its player's and the
                # arbiter's (a `config orientation` mid-game makes it refuse the next move).
                sub.flipped = arg["flip"]
                self._feed(s, [sub], int(time.time() * 1000))
                return {"response": "call", "id": rid, "param": True}, None
            return _error(rid, "no method %r" % (str(method)[:40],)), None
        return _error(rid, "no call %r" % (str(call)[:40],)), None

    def eboards(self) -> list[dict]:
        return [self.eboard(s) for _, s in sorted(self.relay.sessions.items())]

    async def eboards_http(self, request):
        """GET /api/v1.0/eboards: the same list as the eboards call."""
        if request.headers.get("Origin") and not origin_allowed(request.headers.get("Origin"), self.origins):
            raise web.HTTPForbidden(text="origin not allowed")
        self._refuse(request)
        return web.json_response(self.eboards())


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
