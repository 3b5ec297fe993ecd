"""Pushing the round PGN to a lichess broadcast round: POST
{base}/api/broadcast/round/{round_id}/push with the PGN as the body and the token (from the
environment) as a bearer token; at most one push every `every_s` seconds, the latest PGN."""
from __future__ import annotations

import asyncio

import aiohttp


class LichessPush:
    def __init__(self, relay, round_id: str, token: str, base_url: str = "https://lichess.org",
                 every_s: float = 2.0):
        self.relay = relay
        self.url = f"{base_url.rstrip('/')}/api/broadcast/round/{round_id}/push"
        self.token = token
        self.every_s = every_s
        self._pending = False
        self._session: aiohttp.ClientSession | None = None
        self.pushes = 0
        self.failures = 0

    def changed(self) -> None:
        if not self._pending:
            self._pending = True
            self.relay.loop.create_task(self._push_soon())

    async def _push_soon(self) -> None:
        await asyncio.sleep(self.every_s)
        self._pending = False
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        try:
            async with self._session.post(self.url, data=self.relay.round_pgn().encode(),
                                          headers={"Authorization": f"Bearer {self.token}",
                                                   "Content-Type": "text/plain"}) as r:
                if r.status == 200:
                    self.pushes += 1
                else:
                    self.failures += 1
                    self.relay.log(f"lichess push: HTTP {r.status} {(await r.text())[:200]}")
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            self.failures += 1
            self.relay.log(f"lichess push failed: {e}")

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
