"""Pushing the round PGN to a lichess broadcast round: POST
{base}/api/broadcast/round/{round_id}/push with the PGN as the body and the token (from the
environment) as a bearer token; at most one push every `every_s` seconds, the latest PGN.
lichess answers with one entry per game (`games[]`, each with its `moves` or an `error`):
a game it refused is logged with its reason (once, until the reason changes); a 429 means
wait a minute before the next push; a round of more than MAX_GAMES games is warned about
(lichess keeps no more in a round)."""
from __future__ import annotations

import asyncio

import aiohttp

USER_AGENT = "open-chess-board relay (lichess broadcast push)"
MAX_GAMES = 100  # games lichess keeps in one broadcast round
BACKOFF_429_S = 60.0  # lichess asks a client that got 429 to wait a full minute


class LichessPush:
    def __init__(self, relay, round_id: str, token: str, base_url: str = "https://lichess.org",
                 every_s: float = 2.0):
        self.relay = relay
        self.url = f"{base_url.rstrip('/')}/api/broadcast/round/{round_id}/push"
        self.token = token
        self.every_s = every_s
        self.backoff_s = BACKOFF_429_S
        self._pending = False
        self._session: aiohttp.ClientSession | None = None
        self._errors: dict[str, str] = {}  # game (White - Black) -> the error last logged
        self._warned_size = False
        self._wait_until = 0.0
        self.pushes = 0
        self.failures = 0

    def changed(self) -> None:
        if not self._pending:
            self._pending = True
            self.relay.loop.create_task(self._push_soon())

    async def _push_soon(self) -> None:
        loop = self.relay.loop
        await asyncio.sleep(max(self.every_s, self._wait_until - loop.time()))
        self._pending = False
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        pgn = self.relay.round_pgn()
        games = pgn.count("[Event ")
        if games > MAX_GAMES and not self._warned_size:
            self._warned_size = True
            self.relay.log(f"lichess push: the round has {games} games; a lichess round keeps at most "
                           f"{MAX_GAMES}: split the boards over two rounds")
        try:
            async with self._session.post(self.url, data=pgn.encode(),
                                          headers={"Authorization": f"Bearer {self.token}",
                                                   "Content-Type": "text/plain",
                                                   "User-Agent": USER_AGENT}) as r:
                if r.status == 200:
                    self.pushes += 1
                    try:
                        body = await r.json(content_type=None)
                    except ValueError:
                        body = None
                    self._game_errors(body)
                elif r.status == 429:
                    self.failures += 1
                    self._wait_until = loop.time() + self.backoff_s
                    self.relay.log(f"lichess push: too many requests (429); the next push in {self.backoff_s:g} s")
                    self.changed()  # the latest PGN still has to go
                else:
                    self.failures += 1
                    self.relay.log(f"lichess push: HTTP {r.status} {(await r.text())[:200]}")
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            self.failures += 1
            self.relay.log(f"lichess push failed: {e}")

    def _game_errors(self, body) -> None:
        games = body.get("games") if isinstance(body, dict) else None
        if not isinstance(games, list):
            return
        for g in games:
            if not isinstance(g, dict):
                continue
            tags = g.get("tags") if isinstance(g.get("tags"), dict) else {}
            name = f"{tags.get('White', '?')} - {tags.get('Black', '?')}"
            err = g.get("error")
            if isinstance(err, str) and self._errors.get(name) != err:
                self._errors[name] = err
                self.relay.log(f"lichess push: lichess refused the game {name}: {err[:200]}")
            elif err is None:
                self._errors.pop(name, None)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
