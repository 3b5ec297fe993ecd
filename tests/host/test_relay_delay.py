"""The broadcast delay (`relay --delay SECONDS`): spectators' page, /api/state, the PGN URLs
and files and the lichess push get a move that much later; the arbiter's page at once."""
import asyncio
import json
import time

import aiohttp

from tests.host.test_relay import START, LilaPush, _pushing, _until, run

DELAY = 2.0


def test_a_delay_holds_the_public_back_and_not_the_arbiter(tmp_path):
    (tmp_path / "boards").mkdir()
    lila = LilaPush()
    events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B"]

    async def body():
        async with _pushing(tmp_path, lila, 0.05, lambda line: None, events=events, token="secret-token",
                            delay_s=DELAY) as (relay, fake):
            base = f"http://127.0.0.1:{relay.http_port}"
            assert await _until(lambda: relay.state_json()["boards"], 10)  # the game, public
            async with aiohttp.ClientSession() as http:
                spectator = await http.ws_connect(base + "/ws")
                arbiter = await http.ws_connect(base + "/ws")
                await arbiter.send_str(json.dumps({"token": "secret-token"}))
                seen = {"spectator": None, "arbiter": None}

                async def watch(name, ws):
                    async for msg in ws:
                        m = json.loads(msg.data)
                        if m.get("type") == "board" and m["board"].get("san") == ["e4"] and not seen[name]:
                            seen[name] = time.monotonic()

                tasks = [asyncio.create_task(watch(n, w)) for n, w in (("spectator", spectator), ("arbiter", arbiter))]
                await asyncio.sleep(0.3)
                pushed_before = len(lila.requests)
                t0 = time.monotonic()
                fake.add("@1:2 move 1 e2e4 e4")
                await asyncio.sleep(DELAY / 2)
                early = {
                    "state": [b.get("san") for b in (await (await http.get(base + "/api/state")).json())["boards"]],
                    "round": "1. e4" in await (await http.get(base + "/round.pgn")).text(),
                    "board": "1. e4" in await (await http.get(base + "/boards/1.pgn")).text(),
                    "file": "1. e4" in (tmp_path / "out" / "board-1.pgn").read_text(),
                    "pushed": any("1. e4" in pgn for _, pgn in lila.requests[pushed_before:]),
                    "arbiter": seen["arbiter"], "spectator": seen["spectator"]}
                assert await _until(lambda: seen["spectator"], 10)
                await asyncio.sleep(0.5)
                late = {
                    "state": [b.get("san") for b in (await (await http.get(base + "/api/state")).json())["boards"]],
                    "round": "1. e4" in await (await http.get(base + "/round.pgn")).text(),
                    "board": "1. e4" in await (await http.get(base + "/boards/1.pgn")).text(),
                    "file": "1. e4" in (tmp_path / "out" / "board-1.pgn").read_text()}
                assert await _until(lambda: any("1. e4" in pgn for _, pgn in lila.requests), 10)
                for t in tasks:
                    t.cancel()
            return t0, early, late, seen

    t0, early, late, seen = run(body())
    assert early == {"state": [[]], "round": False, "board": False, "file": False, "pushed": False,
                     "arbiter": early["arbiter"], "spectator": None}
    assert early["arbiter"] is not None and early["arbiter"] - t0 < 0.5  # the arbiter at once
    assert seen["spectator"] - t0 >= DELAY  # the spectators after the delay
    assert late == {"state": [["e4"]], "round": True, "board": True, "file": True}
