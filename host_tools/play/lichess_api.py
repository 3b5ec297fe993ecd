"""lichess's Board API (https://lichess.org/api#tag/Board), as its documentation gives it,
with aiohttp: the account, the incoming event stream and a game's stream (NDJSON, one JSON
object a line, empty lines to keep alive), moves, draw and take-back answers, resign,
abort, a real-time seek and a challenge. It runs its own event loop in a thread, so that a
player program written as a plain loop (host_tools/play/online.py) can call it; streams
come back as ("event", dict) items on a queue, and a dropped stream is opened again (with
a growing pause) until it is closed."""
from __future__ import annotations

import asyncio
import json
import queue
import threading

import aiohttp

USER_AGENT = "open-chess-board (https://github.com/; play lichess)"
REQUEST_TIMEOUT_S = 15


def network_words(e: BaseException) -> str:
    """A network failure as a player understands it, not as aiohttp names it."""
    if isinstance(e, asyncio.TimeoutError):
        return "lichess did not answer in time"
    if isinstance(e, aiohttp.ClientConnectorError):
        return "lichess cannot be reached (no network, or lichess is down)"
    if isinstance(e, (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError)):
        return "the connection to lichess broke off"
    if isinstance(e, aiohttp.ClientError):
        return "the connection to lichess failed"
    return f"lichess sent something this program cannot read ({type(e).__name__})"


class LichessError(RuntimeError):
    """lichess refused (its error text), or could not be reached."""

    def __init__(self, text: str, status: int | None = None):
        super().__init__(text)
        self.status = status


class BoardApi:
    def __init__(self, token: str, base_url: str = "https://lichess.org"):
        self.token = token
        self.base = base_url.rstrip("/")
        self.items: queue.Queue = queue.Queue()  # (what, detail) from the streams
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._session = self._call(self._make_session())
        self._streams: dict[str, asyncio.Task] = {}

    async def _make_session(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession(headers={"Authorization": f"Bearer {self.token}",
                                              "User-Agent": USER_AGENT})

    def _call(self, coro, timeout: float = REQUEST_TIMEOUT_S + 5):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    # ----- requests

    async def _request(self, method: str, path: str, data: dict | None = None) -> dict:
        try:
            async with self._session.request(method, self.base + path, data=data,
                                             timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)) as r:
                text = await r.text()
                try:
                    body = json.loads(text) if text.strip() else {}
                except ValueError:
                    body = {"error": text[:200]}
                if r.status == 401:
                    raise LichessError("lichess refused the token (401): make one with the board:play "
                                       "scope at https://lichess.org/account/oauth/token", 401)
                if r.status == 429:
                    raise LichessError("lichess says too many requests (429): wait a minute", 429)
                if r.status >= 400:
                    err = body.get("error") if isinstance(body, dict) else None
                    raise LichessError(f"lichess: {err or text[:200] or r.reason} (HTTP {r.status})", r.status)
                return body if isinstance(body, dict) else {"value": body}
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            raise LichessError(network_words(e)) from None

    def account(self) -> dict:
        """His account ({"id": ..., "username": ...}); LichessError for an answer that is not
        one (a proxy's or a captive portal's page answered with 200 said "logged in as None"
        and got his colour wrong)."""
        body = self._call(self._request("GET", "/api/account"))
        if not isinstance(body.get("id"), str) or not body["id"] or not isinstance(body.get("username", ""), str):
            raise LichessError(f"{self.base} answered /api/account with no account: is it lichess?")
        return body

    def playing(self) -> list[str]:
        """The ids of his games going on lichess now (GET /api/account/playing)."""
        body = self._call(self._request("GET", "/api/account/playing"))
        games = body.get("nowPlaying") if isinstance(body, dict) else None
        return [g.get("gameId") for g in games or () if isinstance(g, dict) and isinstance(g.get("gameId"), str)]

    def move(self, game_id: str, uci: str) -> dict:
        return self._call(self._request("POST", f"/api/board/game/{game_id}/move/{uci}"))

    def draw(self, game_id: str, accept: bool) -> dict:
        return self._call(self._request("POST", f"/api/board/game/{game_id}/draw/{'yes' if accept else 'no'}"))

    def takeback(self, game_id: str, accept: bool) -> dict:
        return self._call(self._request("POST", f"/api/board/game/{game_id}/takeback/{'yes' if accept else 'no'}"))

    def resign(self, game_id: str) -> dict:
        return self._call(self._request("POST", f"/api/board/game/{game_id}/resign"))

    def abort(self, game_id: str) -> dict:
        return self._call(self._request("POST", f"/api/board/game/{game_id}/abort"))

    def challenge(self, username: str, limit_s: int, increment_s: int, color: str = "random") -> dict:
        return self._call(self._request("POST", f"/api/challenge/{username}", {
            "clock.limit": str(limit_s), "clock.increment": str(increment_s), "color": color,
            "rated": "false"}))

    # ----- streams

    def stream(self, name: str, path: str, method: str = "GET", data: dict | None = None,
               reopen: bool = True) -> None:
        """Open an NDJSON stream; each object comes as (name, dict) on items, then
        (name + "-closed", None) when the server ends it. A stream that drops is opened
        again with reopen (an error says so as (name + "-error", text))."""
        async def run():
            pause = 1.0
            while True:
                try:
                    async with self._session.request(method, self.base + path, data=data,
                                                     timeout=aiohttp.ClientTimeout(total=None, sock_read=30)) as r:
                        if r.status >= 400:
                            text = (await r.text())[:200]
                            self.items.put((name + "-error", f"HTTP {r.status} {text}"))
                            if r.status in (401, 404) or not reopen:
                                return
                        else:
                            pause = 1.0
                            async for raw in r.content:
                                line = raw.strip()
                                if not line:
                                    continue  # keep-alive
                                try:
                                    obj = json.loads(line)
                                except ValueError:
                                    continue
                                if isinstance(obj, dict):
                                    self.items.put((name, obj))
                            self.items.put((name + "-closed", None))
                            return
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001 - any failure of a stream is told and it opens again
                    self.items.put((name + "-error", network_words(e)))
                if not reopen:
                    return
                await asyncio.sleep(pause)
                pause = min(pause * 2, 15.0)

        def start():
            old = self._streams.pop(name, None)
            if old is not None:
                old.cancel()
            self._streams[name] = self.loop.create_task(run())

        self.loop.call_soon_threadsafe(start)

    def events(self) -> None:
        self.stream("event", "/api/stream/event")

    def game(self, game_id: str) -> None:
        self.stream("game", f"/api/board/game/stream/{game_id}")

    def seek(self, minutes: float, increment_s: int) -> None:
        """A real-time seek, active while its stream is open (it closes when paired)."""
        self.stream("seek", "/api/board/seek", "POST",
                    {"time": f"{minutes:g}", "increment": str(increment_s), "rated": "false"}, reopen=False)

    def close(self) -> None:
        async def shut():
            for t in self._streams.values():
                t.cancel()
            await self._session.close()
        try:
            self._call(shut(), timeout=5)
        except Exception:  # noqa: BLE001 - closing: nothing more to do
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
