"""A local stand-in for lichess's Board API, as its documentation describes it
(https://lichess.org/api#tag/Board and lichess-org/api's specs): NDJSON streams with the
documented objects (gameStart on the event stream, gameFull first then gameState on the
game stream, keep-alive empty lines), the move, draw, take-back, resign and abort
endpoints answering {"ok": true} or 400 {"error": ...}, 401 for a bad token, 404 for an
unknown game, a real-time seek that stays open until paired, a challenge. The clocks run
as lichess's do: from the second ply on, with the increment after each move, and a flag
ends the game (outoftime). The opponent is played by the test (opponent_move, ...); the
connection can be dropped (drop_streams). Nothing leaves the machine."""
from __future__ import annotations

import asyncio
import json
import threading
import time

import chess
from aiohttp import web

TOKEN = "lip_player_token"
ME = {"id": "player", "username": "Player"}
OPPONENT = {"id": "rival", "name": "Rival", "title": None, "rating": 1500}


class Game:
    def __init__(self, gid: str, me_white: bool, initial_ms: int, inc_ms: int, fen: str | None = None):
        self.id = gid
        self.me_white = me_white
        self.fen = fen
        self.board = chess.Board(fen) if fen else chess.Board()
        self.moves: list[str] = []
        self.initial, self.inc = initial_ms, inc_ms
        self.time = [initial_ms, initial_ms]  # white, black at the start of the turn
        self.turn_at = time.monotonic()
        self.status = "started"
        self.winner = None
        self.draw = {"w": False, "b": False}
        self.takeback = {"w": False, "b": False}
        self.streams: list[asyncio.Queue] = []

    def running(self) -> bool:
        return self.status == "started" and len(self.moves) >= 2

    def times(self) -> tuple[int, int]:
        w, b = self.time
        if self.running():
            used = int((time.monotonic() - self.turn_at) * 1000)
            if self.board.turn == chess.WHITE:
                w = max(0, w - used)
            else:
                b = max(0, b - used)
        return w, b

    def state(self) -> dict:
        w, b = self.times()
        st = {"type": "gameState", "moves": " ".join(self.moves), "wtime": w, "btime": b,
              "winc": self.inc, "binc": self.inc, "status": self.status}
        if self.winner:
            st["winner"] = self.winner
        for c in "wb":
            if self.draw[c]:
                st[c + "draw"] = True
            if self.takeback[c]:
                st[c + "takeback"] = True
        return st

    def full(self) -> dict:
        me = {"id": ME["id"], "name": ME["username"], "title": None, "rating": 1500}
        white, black = (me, OPPONENT) if self.me_white else (OPPONENT, me)
        return {"type": "gameFull", "id": self.id, "variant": {"key": "standard", "name": "Standard", "short": "Std"},
                "speed": "blitz", "perf": {"name": "Blitz"}, "rated": False, "createdAt": 1789845859939,
                "white": white, "black": black, "initialFen": self.fen or "startpos",
                "clock": {"initial": self.initial, "increment": self.inc}, "state": self.state()}


class FakeLichess:
    def __init__(self):
        self.games: dict[str, Game] = {}
        self.event_streams: list[asyncio.Queue] = []
        self.received: list[tuple[str, str]] = []  # (game, uci) moves the player sent, in order
        self.requests: list[tuple[str, str, str]] = []  # (method, path, user agent)
        self.fail_moves = 0  # the next N move posts are answered with a dropped connection
        self.too_many = 0  # the next N move posts are answered 429, as lichess's rate limit does
        self.unreachable = False  # an outage: every request is answered 503, as lichess's front does
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    # ----- the server

    def _serve(self):
        asyncio.set_event_loop(self.loop)
        app = web.Application()
        r = app.router
        r.add_get("/api/account", self._account)
        r.add_get("/api/account/playing", self._playing)
        r.add_get("/api/stream/event", self._event_stream)
        r.add_get("/api/board/game/stream/{id}", self._game_stream)
        r.add_post("/api/board/game/{id}/move/{move}", self._move)
        r.add_post("/api/board/game/{id}/draw/{accept}", self._draw)
        r.add_post("/api/board/game/{id}/takeback/{accept}", self._takeback)
        r.add_post("/api/board/game/{id}/resign", self._resign)
        r.add_post("/api/board/game/{id}/abort", self._abort)
        r.add_post("/api/board/seek", self._seek)
        r.add_post("/api/challenge/{user}", self._challenge)
        self.runner = web.AppRunner(app)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._flagger = self.loop.create_task(self._flags())
        self._ready.set()
        self.loop.run_forever()
        # Stopped (close()): what still runs ends here, before the loop closes, so that no
        # handler is left to be collected after it.
        tasks = asyncio.all_tasks(self.loop)
        for task in tasks:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()

    def _auth(self, request):
        self.requests.append((request.method, request.path, request.headers.get("User-Agent", "")))
        if self.unreachable:
            raise web.HTTPServiceUnavailable(text="lichess is unavailable")
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            raise web.HTTPUnauthorized(text=json.dumps({"error": "No such token"}), content_type="application/json")

    def _game(self, request) -> Game:
        g = self.games.get(request.match_info["id"])
        if g is None:
            raise web.HTTPNotFound(text=json.dumps({"error": "Not found"}), content_type="application/json")
        return g

    async def _account(self, request):
        self._auth(request)
        return web.json_response(ME)

    async def _playing(self, request):
        # lila's "my ongoing games" (GET /api/account/playing): {"nowPlaying": [...]}, each
        # with its gameId, as the event stream's gameStart describes it.
        self._auth(request)
        return web.json_response({"nowPlaying": [self._start_event(g)["game"] for g in self.games.values()
                                                 if g.status == "started"]})

    async def _ndjson(self, request, q: asyncio.Queue, first=()):
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        for obj in first:
            await resp.write((json.dumps(obj) + "\n").encode())
        try:
            while True:
                try:
                    obj = await asyncio.wait_for(q.get(), 6.0)
                except asyncio.TimeoutError:
                    await resp.write(b"\n")  # keep-alive
                    continue
                if obj is None:  # closed: the game ended, or the connection is dropped
                    break
                if obj == "cut":  # the connection goes without the terminating chunk
                    request.transport.close()
                    break
                await resp.write(obj if isinstance(obj, bytes) else (json.dumps(obj) + "\n").encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return resp

    async def _event_stream(self, request):
        self._auth(request)
        q: asyncio.Queue = asyncio.Queue()
        self.event_streams.append(q)
        first = [self._start_event(g) for g in self.games.values() if g.status == "started"]
        try:
            return await self._ndjson(request, q, first)
        finally:
            self.event_streams.remove(q)

    async def _game_stream(self, request):
        self._auth(request)
        g = self._game(request)
        q: asyncio.Queue = asyncio.Queue()
        if g.status != "started":
            q.put_nowait(None)
        g.streams.append(q)
        try:
            return await self._ndjson(request, q, [g.full()])
        finally:
            if q in g.streams:
                g.streams.remove(q)

    def _publish(self, g: Game):
        st = g.state()
        for q in list(g.streams):
            q.put_nowait(st)
            if g.status != "started":
                q.put_nowait(None)

    def _start_event(self, g: Game) -> dict:
        return {"type": "gameStart", "game": {
            "fullId": g.id + "abcd", "gameId": g.id, "id": g.id, "fen": g.board.fen(),
            "color": "white" if g.me_white else "black", "lastMove": g.moves[-1] if g.moves else "",
            "source": "friend", "status": {"id": 20, "name": "started"},
            "variant": {"key": "standard", "name": "Standard"}, "speed": "blitz", "perf": "blitz",
            "rated": False, "hasMoved": bool(g.moves), "opponent": {"id": "rival", "username": "Rival", "rating": 1500},
            "isMyTurn": (g.board.turn == chess.WHITE) == g.me_white, "secondsLeft": g.initial // 1000,
            "compat": {"bot": False, "board": True}}}

    def _play(self, g: Game, uci: str):
        w, b = g.times()
        mover = 0 if g.board.turn == chess.WHITE else 1
        g.time = [w, b]
        if len(g.moves) >= 1:
            g.time[mover] += g.inc
        g.board.push_uci(uci)
        g.moves.append(uci)
        g.turn_at = time.monotonic()
        g.draw = {"w": False, "b": False}
        g.takeback = {"w": False, "b": False}
        outcome = g.board.outcome()
        if outcome:
            # lila's status names: mate, stalemate, draw (a dead position, ...)
            g.status = {chess.Termination.CHECKMATE: "mate", chess.Termination.STALEMATE: "stalemate"}.get(
                outcome.termination, "draw")
            g.winner = None if outcome.winner is None else ("white" if outcome.winner else "black")
        self._publish(g)

    def _mine(self, g: Game) -> bool:
        return (g.board.turn == chess.WHITE) == g.me_white

    async def _move(self, request):
        self._auth(request)
        g = self._game(request)
        uci = request.match_info["move"]
        if self.too_many > 0:
            # lichess's rate limiter: 429 with a JSON error, the move not played; a client
            # is to wait a full minute (lichess's API documentation, "Rate limiting").
            self.too_many -= 1
            return web.json_response({"error": "Too many requests. Try again later."}, status=429)
        if self.fail_moves > 0:
            # Taken, but the answer never comes back (the line drops after the request).
            self.fail_moves -= 1
            if g.status == "started" and self._mine(g):
                self.received.append((g.id, uci))
                self._play(g, uci)
            request.transport.close()
            return web.Response()
        if g.status != "started" or not self._mine(g):
            return web.json_response({"error": "Not your turn, or game already over"}, status=400)
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            move = None
        if move is None or move not in g.board.legal_moves:
            return web.json_response({"error": f"Piece on {uci[:2]} cannot move to {uci[2:4]}"}, status=400)
        self.received.append((g.id, uci))
        self._play(g, uci)
        return web.json_response({"ok": True})

    async def _draw(self, request):
        self._auth(request)
        g = self._game(request)
        me = "w" if g.me_white else "b"
        other = "b" if me == "w" else "w"
        if request.match_info["accept"] in ("yes", "true"):
            if g.draw[other]:
                g.status, g.winner = "draw", None
            else:
                g.draw[me] = True
        self._publish(g)
        return web.json_response({"ok": True})

    async def _takeback(self, request):
        self._auth(request)
        g = self._game(request)
        me = "w" if g.me_white else "b"
        if request.match_info["accept"] in ("yes", "true"):
            g.takeback[me] = True
        self._publish(g)
        return web.json_response({"ok": True})

    async def _resign(self, request):
        self._auth(request)
        g = self._game(request)
        g.status, g.winner = "resign", ("black" if g.me_white else "white")
        self._publish(g)
        return web.json_response({"ok": True})

    async def _abort(self, request):
        self._auth(request)
        g = self._game(request)
        if len(g.moves) >= 2:
            return web.json_response({"error": "The game can no longer be aborted"}, status=400)
        g.status = "aborted"
        self._publish(g)
        return web.json_response({"ok": True})

    async def _seek(self, request):
        self._auth(request)
        form = await request.post()
        minutes, inc = float(form["time"]), int(form["increment"])
        if minutes * 60 + 40 * inc < 480:
            # lila: the board seek form verifies "Invalid time control" with
            # Game.isBoardCompatible (Speed >= Rapid: limit + 40 x increment >= 480 s).
            return web.json_response({"error": {"global": ["Invalid time control"]}}, status=400)
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        await resp.write(b"\n")
        await asyncio.sleep(0.5)  # someone accepts
        self._new_game(me_white=True, initial_ms=int(minutes * 60000), inc_ms=inc * 1000)
        return resp

    async def _challenge(self, request):
        self._auth(request)
        form = await request.post()
        if request.match_info["user"].lower() != OPPONENT["id"]:
            return web.json_response({"error": "No such user"}, status=400)
        g = self._new_game(me_white=form.get("color") != "black", initial_ms=int(form["clock.limit"]) * 1000,
                           inc_ms=int(form["clock.increment"]) * 1000)
        return web.json_response({"id": g.id, "status": "created"})

    def _new_game(self, me_white: bool, initial_ms: int, inc_ms: int, fen: str | None = None) -> Game:
        gid = "g%07d" % (len(self.games) + 1)
        g = self.games[gid] = Game(gid, me_white, initial_ms, inc_ms, fen)
        for q in self.event_streams:
            q.put_nowait(self._start_event(g))
        return g

    async def _flags(self):
        while True:
            await asyncio.sleep(0.1)
            for g in self.games.values():
                if g.running():
                    w, b = g.times()
                    if (w if g.board.turn == chess.WHITE else b) <= 0:
                        g.time = [w, b]
                        g.status = "outoftime"
                        g.winner = "black" if g.board.turn == chess.WHITE else "white"
                        self._publish(g)

    # ----- what the test does, as the opponent and as the network

    def _do(self, fn, *args):
        fut = asyncio.run_coroutine_threadsafe(self._wrap(fn, *args), self.loop)
        return fut.result(10)

    async def _wrap(self, fn, *args):
        return fn(*args)

    def new_game(self, me_white=True, minutes=5, inc=3, fen=None) -> str:
        return self._do(lambda: self._new_game(me_white, int(minutes * 60000), inc * 1000, fen).id)

    def opponent_move(self, gid: str, uci: str):
        def go():
            g = self.games[gid]
            assert not self._mine(g), f"not the opponent's turn: {g.id} {g.moves} {list(self.games)} {self.received}"
            self._play(g, uci)
        self._do(go)

    def stream_raw(self, gid: str, lines: list[bytes]):
        """Lines of bytes into the game's open streams as they are (a server gone wrong)."""
        def go():
            for q in list(self.games[gid].streams):
                for line in lines:
                    q.put_nowait(line)
        self._do(go)

    def opponent_offers_draw(self, gid: str):
        def go():
            g = self.games[gid]
            g.draw["b" if g.me_white else "w"] = True
            self._publish(g)
        self._do(go)

    def opponent_accepts_takeback(self, gid: str):
        """The player asked; the opponent accepts: the last ply (or two, to give the
        turn back to the player) are taken back."""
        def go():
            g = self.games[gid]
            n = 1 if self._mine(g) is False else 2
            for _ in range(n):
                g.board.pop()
                g.moves.pop()
            g.takeback = {"w": False, "b": False}
            g.turn_at = time.monotonic()
            self._publish(g)
        self._do(go)

    def drop_streams(self, abrupt=False):
        """The network drops: every stream is cut (lichess's side of a lost connection):
        ended with its terminating chunk, or with abrupt, the connection closed mid-stream
        (the client then reads a broken chunked body)."""
        end = "cut" if abrupt else None

        def go():
            for g in self.games.values():
                for q in list(g.streams):
                    q.put_nowait(end)
                g.streams.clear()
            for q in list(self.event_streams):
                q.put_nowait(end)
        self._do(go)

    def close(self):
        async def stop():
            self._flagger.cancel()
            await self.runner.cleanup()
        try:
            asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5)
        except Exception:  # noqa: BLE001
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
