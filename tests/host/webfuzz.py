"""Bad input for the relay's HTTP and websocket endpoints: raw bytes and mangled requests
on the socket, hostile paths, bodies and tokens through a real client, and junk frames on
both websockets. Used by tests/host/test_relay_fuzz.py and bench/nothing_lost.py; a run returns
what it tried and what came back."""
from __future__ import annotations

import asyncio
import json
import random
from collections import Counter

import aiohttp

GOOD = [
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /round.pgn HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"POST /api/round HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Authorization: Bearer wrong\r\nContent-Length: 15\r\n\r\n{\"event\": \"X\"}",
    b"POST /api/boards/1/command HTTP/1.1\r\nHost: x\r\nContent-Length: 21\r\n\r\n"
    b"{\"command\": \"pause\"}",
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
]
PATHS = ["/static/../app.py", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fapp.py",
         "/boards/../../etc/passwd", "/boards/-1.pgn", "/boards/99999999999999999999.pgn",
         "/boards/1.pgn%00.txt", "/%00", "/static/" + "a/" * 2000, "/static/\u00e9\u4e2d.js",
         "//etc/passwd", "/static//etc/passwd", "/api/state/../../../x", "/ws/../round.pgn",
         "/static/index.html?" + "x" * 5000, "/api/boards/1/command/../../round"]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.random()
        i = rng.randrange(len(b) + 1)
        if op < 0.4 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op < 0.7:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
        elif b:
            del b[i:i + rng.randint(1, 20)]
    return bytes(b)


def _raw_request(rng: random.Random) -> bytes:
    k = rng.random()
    if k < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
    if k < 0.6:
        return _mutate(rng, rng.choice(GOOD))
    if k < 0.7:
        return b"GET /" + b"a" * rng.choice((9000, 70000)) + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    if k < 0.8:
        return b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"v" * 100) for i in range(rng.choice((200, 2000)))) + b"\r\n"
    if k < 0.9:
        n = rng.choice((b"-1", b"99999999999", b"abc", b"1e3", b"10"))
        return b"POST /api/round HTTP/1.1\r\nHost: x\r\nContent-Length: " + n + b"\r\n\r\n{\"event\""
    return (b"POST /api/round HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + rng.choice((b"zz\r\nxx\r\n", b"FFFFFFFFFFFF\r\n", b"5\r\nabc\r\n0\r\n\r\n", b"-5\r\n")))


async def _send_raw(host: str, port: int, data: bytes) -> int | None:
    """The status the server answered; None if it waited for more (a request cut short is
    not an error yet) and closed when the client gave up."""
    r, w = await asyncio.wait_for(asyncio.open_connection(host, port), 5)
    head = b""
    try:
        w.write(data)
        await w.drain()
        try:
            head = await asyncio.wait_for(r.read(64), 0.3)
        except asyncio.TimeoutError:
            if w.can_write_eof():
                w.write_eof()  # give up: the server sees the end of the request
            head = await asyncio.wait_for(r.read(64), 5)
    except (ConnectionError, asyncio.TimeoutError, OSError):
        pass
    finally:
        w.close()
        try:
            await w.wait_closed()
        except (ConnectionError, OSError):
            pass
    if head.startswith(b"HTTP/1.") and len(head) >= 12 and head[9:12].isdigit():
        return int(head[9:12])
    return None


def _junk_json(rng: random.Random, depth: int = 0):
    k = rng.random()
    if depth > 3 or k < 0.3:
        return rng.choice([None, True, 0, -1, 2 ** 70, 1.5, "", "x" * rng.randint(0, 300), "\u0000", []])
    if k < 0.6:
        return [_junk_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["call", "id", "param", "feed", "method", "serialnr", "fen", "flip", "command", "event",
            "round", "boards", "white", "black", "x"]
    return {rng.choice(keys): _junk_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def _ws_text(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.2:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(0, 200)))
    if k < 0.25:
        return "[" * rng.choice((1000, 20000)) + "]" * 10
    if k < 0.3:
        return "x" * 200000  # over the frame limit
    if k < 0.6:
        return json.dumps({"call": rng.choice(["eboards", "subscribe", "call", "nope"]), "id": rng.randint(-5, 5),
                           "param": _junk_json(rng)})
    return json.dumps(_junk_json(rng))


async def run(http_port: int, livechess_port: int, n: int, seed: int = 1, host: str = "127.0.0.1",
              origin: str = "http://127.0.0.1") -> dict:
    """n inputs of each kind; returns counts of what came back (statuses as 'status NNN')."""
    rng = random.Random(seed)
    seen: Counter = Counter()
    base = f"http://{host}:{http_port}"
    for _ in range(n):
        status = await _send_raw(host, http_port, _raw_request(rng))
        seen["raw"] += 1
        seen[f"status {status}"] += 1
    async with aiohttp.ClientSession() as http:
        for _ in range(n):
            method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
            path = rng.choice(PATHS + ["/api/round", "/api/boards/1/command", "/api/boards/77/command",
                                       "/round.pgn", "/boards/1.pgn"])
            headers = {}
            if rng.random() < 0.5:
                headers["Authorization"] = rng.choice(["Bearer ", "Bearer wrong", "Basic abc", "x" * 3000,
                                                       "Bearer secret-token-but-not"])
            body = rng.choice([None, b"{", b"x" * 100000, json.dumps(_junk_json(rng)).encode(),
                               bytes(rng.randrange(256) for _ in range(100))])
            try:
                async with http.request(method, base + path, data=body, headers=headers,
                                        timeout=aiohttp.ClientTimeout(total=10)) as r:
                    await r.read()
                    seen[f"status {r.status}"] += 1
                    if r.status == 202:
                        seen["accepted"] += 1
            except (aiohttp.ClientError, ValueError):
                seen["client refused"] += 1  # a path the client itself will not send
            seen["http"] += 1
        for url, hdr, answers in ((f"ws://{host}:{http_port}/ws", {}, False),
                                  (f"ws://{host}:{livechess_port}/api/v1.0", {"Origin": origin}, True)):
            sent = 0
            while sent < n:
                try:
                    async with http.ws_connect(url, headers=hdr, timeout=aiohttp.ClientWSTimeout(ws_close=10)) as ws:
                        for _ in range(50):
                            if sent >= n:
                                break
                            sent += 1
                            seen["ws"] += 1
                            text = rng.random() >= 0.2
                            if not text:
                                await ws.send_bytes(bytes(rng.randrange(256) for _ in range(rng.randint(0, 500))))
                            else:
                                await ws.send_str(_ws_text(rng))
                            try:
                                # LiveChess answers every text message; the page's socket
                                # answers nothing (it only feeds the page).
                                msg = await asyncio.wait_for(ws.receive(), 5 if answers and text else 0.01)
                            except asyncio.TimeoutError:
                                continue
                            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                            aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
                                seen["ws closed"] += 1
                                break
                            seen["ws answered"] += 1
                except aiohttp.WSServerHandshakeError as e:
                    seen[f"ws handshake {e.status}"] += 1
                    sent += 1
    return dict(seen)
