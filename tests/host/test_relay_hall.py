"""Fair play in the hall (#51): the relay serves its page on the hall's address with a
broadcast delay, and a spectator's device in the hall (a client on another address of
this machine, 127.0.0.2, as a phone on the hall's network is) tries every route to a move
before the delay has passed, to the arbiter's state (serials of waiting pairings, the
blind player's board n + 1000) and to a board's settings, without the token. The
arbiter's own programs, with the token, get everything at once and still cannot change a
board's orientation through the LiveChess API."""
import asyncio
import json

import aiohttp
import pytest

from tests.host.test_relay import START, FakeBoard, _relay, _until, run

HALL = "127.0.0.2"  # the hall's address of this machine (the page is served there)
TOKEN = "hall-token"
GAME = f"@1:1 game tc=5400+30 fen={START} chess960=- white=A black=B"
ROUND = {"event": "Open", "round": 2, "boards": {
    "1": {"white": "Anna", "black": "Bo", "serial": "sight1", "blind_serial": "blind1", "blind": "black"},
    "2": {"white": "Cy", "black": "Di", "serial": "wait2"}}}
SECRETS = ("sight1", "blind1", "wait2")


async def _try(http, method, url, **kw):
    """(status, text) of a request, or (None, why) when no connection could be made."""
    try:
        async with http.request(method, url, timeout=aiohttp.ClientTimeout(total=5), **kw) as r:
            return r.status, await r.text()
    except aiohttp.ClientConnectorError as e:
        return None, str(e)


async def _ws(http, url, n=3, **kw):
    """What a websocket gives in its first second or n messages; the handshake's status if refused."""
    try:
        ws = await http.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_receive=5), **kw)
    except aiohttp.WSServerHandshakeError as e:
        return e.status, ""
    except aiohttp.ClientConnectorError as e:
        return None, str(e)
    got = []
    try:
        for _ in range(n):
            got.append((await ws.receive(timeout=1.0)).data)
    except asyncio.TimeoutError:
        pass
    await ws.close()
    return 101, "\n".join(str(g) for g in got)


async def _subscribe_and_flip(ws):
    """A LiveChess client's subscription to board sight1's feed, then its flip: the three
    messages it gets; the socket closed."""
    await ws.send_str(json.dumps({"id": 1, "call": "subscribe", "param": {
        "feed": "eboardevent", "id": 1, "param": {"serialnr": "sight1"}}}))
    await ws.send_str(json.dumps({"id": 2, "call": "call", "param": {
        "id": 1, "method": "flip", "param": {"flip": True}}}))
    got = [await ws.receive_json(timeout=5) for _ in range(3)]
    await ws.close()
    return got


@pytest.fixture
def hall(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps(ROUND))
    return tmp_path


def test_a_device_in_the_hall_gets_no_move_before_the_delay_and_nothing_of_the_arbiters(hall):
    moved = [GAME, "@1:2 start", "@1:3 move 1 e2e4 e4"]

    async def body():
        fakes = [FakeBoard(str(hall / "boards" / "s"), serial="sight1", events=moved),
                 FakeBoard(str(hall / "boards" / "b"), serial="blind1", events=moved)]
        relay = _relay(hall, host=HALL, token=TOKEN, delay_s=30, round_file=hall / "round.json")
        await relay.start()
        try:
            assert await _until(lambda: all(n in relay.sessions and relay.sessions[n].record is not None
                                            and relay.sessions[n].record.plies for n in (1, 1001)), 10)
            page, lc = f"http://{HALL}:{relay.http_port}", relay.livechess_port
            tried = {}
            connector = aiohttp.TCPConnector(local_addr=(HALL, 0))
            async with aiohttp.ClientSession(connector=connector) as http:
                for path in ("/api/state", "/round.pgn", "/boards/1.pgn", "/boards/1/games/1.pgn",
                             "/boards/1001.pgn", "/boards/1001/games/1.pgn", "/board/1001", "/api/standings",
                             "/api/rounds", "/api/round", "/api/alerts"):
                    tried[path] = await _try(http, "GET", page + path)
                tried["/ws"] = await _ws(http, f"ws://{HALL}:{relay.http_port}/ws")
                tried["/ws with a wrong token"] = await _ws(http, f"ws://{HALL}:{relay.http_port}/ws")
                # The LiveChess API is not on the hall's address at all...
                tried["livechess on the hall's address"] = await _ws(http, f"ws://{HALL}:{lc}/api/v1.0")
                tried["eboards on the hall's address"] = await _try(http, "GET", f"http://{HALL}:{lc}/api/v1.0/eboards")
                # ...and where it is, it wants the token while the delay runs.
                tried["livechess, no token"] = await _ws(http, f"ws://127.0.0.1:{lc}/api/v1.0")
                tried["livechess, no Origin, wrong token"] = await _ws(http, f"ws://127.0.0.1:{lc}/api/v1.0?token=x")
                tried["eboards, no token"] = await _try(http, "GET", f"http://127.0.0.1:{lc}/api/v1.0/eboards")
                tried["command"] = await _try(http, "POST", page + "/api/boards/1/command", json={"command": "pause"})
            # The arbiter's own program, with the token: live, and flip stays its own view.
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"ws://127.0.0.1:{lc}/api/v1.0?token={TOKEN}")
                got = await _subscribe_and_flip(ws)
            await asyncio.sleep(0.3)
            received = [r for f in fakes for r in f.received]
        finally:
            await relay.stop()
            for f in fakes:
                f.close()
        return tried, got, received

    tried, got, received = run(body())
    for route, (status, text) in tried.items():
        for secret in SECRETS + ("e2e4", '"e4"', "1. e4"):
            assert secret not in text, (route, secret, text[:300])
    assert tried["/api/state"][0] == 200 and '"Cy"' in tried["/api/state"][1]  # the pairings are public
    assert tried["/boards/1001.pgn"][0] == 404 and tried["/board/1001"][0] == 404
    assert tried["/api/round"][0] == 401 and tried["/api/alerts"][0] == 401 and tried["command"][0] == 401
    assert tried["livechess on the hall's address"][0] is None
    assert tried["eboards on the hall's address"][0] is None
    assert tried["livechess, no token"][0] == 403 and tried["livechess, no Origin, wrong token"][0] == 403
    assert tried["eboards, no token"][0] == 403
    feeds = [m for m in got if m["response"] == "feed"]
    assert feeds and feeds[-1]["param"]["san"] == ["e4"] and feeds[-1]["param"]["flipped"] is True
    assert {"response": "call", "id": 2, "param": True} in got
    assert not [r for r in received if r.startswith("config")]  # nothing reached the board's settings


def test_without_a_delay_the_livechess_api_stays_on_this_machine_and_flip_never_reaches_a_board(hall):
    async def body():
        fake = FakeBoard(str(hall / "boards" / "s"), serial="sight1", events=[GAME])
        relay = _relay(hall, host=HALL, token=TOKEN)
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record is not None, 10)
            lc = relay.livechess_port
            connector = aiohttp.TCPConnector(local_addr=(HALL, 0))
            async with aiohttp.ClientSession(connector=connector) as http:
                away = await _ws(http, f"ws://{HALL}:{lc}/api/v1.0")
                ws = await http.ws_connect(f"ws://127.0.0.1:{lc}/api/v1.0", headers={"Origin": "https://lichess.org"})
                got = await _subscribe_and_flip(ws)
            await asyncio.sleep(0.3)
        finally:
            await relay.stop()
            fake.close()
        return away, got, fake.received

    away, got, received = run(body())
    assert away[0] is None  # nothing listens on the hall's address
    assert {"response": "call", "id": 2, "param": True} in got
    assert not [r for r in received if r.startswith("config")]


def test_a_relay_that_would_speak_the_moves_before_the_delay_is_refused(tmp_path):
    # --speak says each move aloud as it is made: in the hall, with a delay, that is the
    # move early for anyone who hears it. Refused before anything starts, with the reason.
    from host_tools.relay import cli

    args = cli.parse(["--no-discover", "--out", str(tmp_path / "out"), "--delay", "30", "--speak", "en"])
    with pytest.raises(SystemExit) as e:
        asyncio.run(cli.run(args))
    assert "--speak says every move as it is made: with --delay 30 it would tell the hall" in str(e.value)
    assert not (tmp_path / "out" / "boards.json").exists()
