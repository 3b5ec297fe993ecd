"""The relay's servers' door: how many connections they hold, from one client and in all,
and how long a request may take to come in. A public relay on a tournament's network
meets clients that open connections and never finish a request (slowloris), or open
more than the process has descriptors for; without a door the relay stops serving and
logs a traceback at every accept, and a few phones in the hall could close it to all.

  - in all, at most `total` connections: under the open-files limit (raised towards its
    hard limit at start), with a margin for the relay's own boards and files;
  - from one address, at most `per_client`: what a spectator's browser needs (its page,
    a feed, a few requests at once), not a share of the total;
  - the last `reserve` places are kept for addresses that hold no connection yet (a
    spectator or the arbiter arriving) and for addresses that gave the relay's token;
  - when every place is taken, a connection whose request has not come in yet (half
    open: the oldest first) makes room for the newcomer;
  - a connection whose first request's headers are not in within HEADER_S is closed
    (later requests on a kept-alive connection: aiohttp's keep-alive timeout, set to the
    same), and a request body has BODY_S (guards.json_body).

What is turned away is logged as a line per reason at most every SAY_EVERY_S, with a count."""
from __future__ import annotations

import asyncio
import time

from aiohttp import web

HEADER_S = 10.0
BODY_S = 10.0
SAY_EVERY_S = 10.0
MARGIN = 100  # descriptors kept for the relay's boards, files and engine
MOST = 4096  # a relay needs no more connections than this
PER_CLIENT = 16  # a spectator's browser: the page, its feed, a few requests at once


def descriptor_limit() -> int:
    """How many descriptors this process may open, raised towards the hard limit (macOS
    starts processes at 256)."""
    try:
        import resource
    except ImportError:  # Windows: no such per-process limit on sockets
        return MOST + MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = MOST + MARGIN if hard == resource.RLIM_INFINITY else min(hard, MOST + MARGIN)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return MOST + MARGIN if soft == resource.RLIM_INFINITY else soft


class Door:
    """Counts the connections of the relay's servers (one door for both: they share the
    descriptors) and says what it turned away."""

    def __init__(self, log, total: int | None = None, per_client: int | None = None,
                 header_s: float = HEADER_S, body_s: float = BODY_S, say_every_s: float = SAY_EVERY_S,
                 clock=time.monotonic, reserve: int | None = None):
        self.total = total or max(16, min(MOST, descriptor_limit() - MARGIN))
        self.per_client = per_client or min(PER_CLIENT, max(4, self.total // 4))
        self.reserve = reserve if reserve is not None else max(2, self.total // 8)
        self.header_s, self.body_s, self.say_every_s = header_s, body_s, say_every_s
        self.log = log
        self.clock = clock
        self.open = 0
        self.by_client: dict[str, int] = {}
        self.trusted: set[str] = set()  # addresses that gave the token (the arbiter's machines)
        self.half_open: dict = {}  # connections whose first request is not in yet, oldest first
        self._untold: dict[str, tuple[int, str]] = {}  # since the last line: why -> (count, latest address)
        self._said_at: float | None = None
        self._due = False  # a line is scheduled

    def trust(self, host: str | None) -> None:
        """host gave the relay's token: the reserved places and no per-address limit for it."""
        if host and host not in self.trusted and len(self.trusted) < 64:
            self.trusted.add(host)

    def admit(self, host: str) -> bool:
        n = self.by_client.get(host, 0)
        trusted = host in self.trusted
        if n >= self.per_client and not trusted:
            self.turned_away(f"{self.per_client} connections from one address, the most", host)
            return False
        if self.open >= self.total - self.reserve and n and not trusted:
            self.turned_away(f"the last {self.reserve} places are kept for the arbiter and new addresses", host)
            return False
        if self.open >= self.total and not self._shed(host):
            self.turned_away(f"the relay holds {self.total} connections, its most", host)
            return False
        self.open += 1
        self.by_client[host] = n + 1
        return True

    def _shed(self, host: str) -> bool:
        """The oldest half-open connection (not the arbiter's) closed to make room."""
        for conn in self.half_open:
            if conn.host not in self.trusted:
                self.turned_away("a request that had not come in, closed to make room", conn.host)
                conn.shed()
                return True
        return False

    def leave(self, host: str) -> None:
        self.open -= 1
        n = self.by_client[host] - 1
        if n:
            self.by_client[host] = n
        else:
            del self.by_client[host]

    def turned_away(self, why: str, host: str) -> None:
        """One connection turned away: told now if nothing was told for SAY_EVERY_S, else
        counted into the next line (which is due by then)."""
        n = self._untold.get(why, (0, host))[0]
        self._untold[why] = (n + 1, host)
        now = self.clock()
        if self._said_at is None or now - self._said_at >= self.say_every_s:
            self.say()
        elif not self._due:
            self._due = True
            asyncio.get_running_loop().call_later(self.say_every_s - (now - self._said_at), self.say)

    def say(self) -> None:
        self._due = False
        if self._untold:
            self._said_at = self.clock()
            for why, (n, host) in self._untold.items():
                self.log(f"connections turned away: {n} ({why}; the latest from {host})")
            self._untold = {}


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the door: admitted or closed at once,
    and closed if its first request's headers do not come in time."""

    def __init__(self, door: Door, inner: asyncio.Protocol):
        self.door, self.inner = door, inner
        self.host = None  # admitted from this address
        self.timer = None
        self.tail = b""  # the last bytes seen before the headers' end
        self.left = False  # shed: its place given back already

    def connection_made(self, transport):
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.door.admit(host):
            transport.abort()
            return
        self.host = host
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(self.door.header_s, self._late)
        self.door.half_open[self] = None
        self.inner.connection_made(transport)

    def _late(self):
        self.timer = None
        self.door.half_open.pop(self, None)
        self.door.turned_away(f"no request within {self.door.header_s:g} s of connecting", self.host)
        self.transport.abort()

    def shed(self):
        """Closed to make room (the door is full): its place is free at once."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.door.half_open.pop(self, None)
        self.door.leave(self.host)
        self.left = True
        self.transport.abort()  # connection_lost follows, for aiohttp's side

    def data_received(self, data):
        if self.host is None:
            return
        if self.timer is not None:
            seen = self.tail + data
            if b"\r\n\r\n" in seen:
                self.timer.cancel()
                self.timer = None
                self.door.half_open.pop(self, None)
            self.tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received() if self.host is not None else None

    def connection_lost(self, exc):
        if self.host is None:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.door.half_open.pop(self, None)
        if not self.left:
            self.door.leave(self.host)
        self.host = None
        self.inner.connection_lost(exc)

    def pause_writing(self):
        self.inner.pause_writing()

    def resume_writing(self):
        self.inner.resume_writing()


class GuardedSite(web.TCPSite):
    """A TCP site whose connections go through door."""

    def __init__(self, runner, host, port, door: Door):
        super().__init__(runner, host, port)
        self.door = door

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Guarded(self.door, server()), self._host, self._port, backlog=self._backlog)
        self._bound_port = self._server.sockets[0].getsockname()[1] if self._server.sockets else self._port
