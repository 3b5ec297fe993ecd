"""A board's message to the page carries what changed (its plies from `from` on, the
clocks), not the whole move list every time; a page that joins, lacks the plies before, or
missed messages gets the whole state (publish.py, web.py; the pages' withEarlier in
static/common.js, tried in a browser by tests/test_web_page.py). Played by a page's own
websocket against a relay with a board."""
import asyncio
import json

import aiohttp
import pytest

from host_tools.relay import publish
from tests.host.test_relay import START, LilaPush, _pushing, _until, run

MOVES = [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3"), ("b8c6", "Nc6"), ("f1b5", "Bb5"), ("a7a6", "a6")]


def with_earlier(old, b):
    """What the pages do with a board's message (static/common.js withEarlier)."""
    if not b.get("from"):
        return b
    if not old or old.get("game") != b.get("game") or len(old.get("uci") or []) < b["from"]:
        return None
    k = b["from"]
    whole = dict(b, uci=old["uci"][:k] + b["uci"], san=old["san"][:k] + b["san"], clk=old["clk"][:k] + b["clk"])
    del whole["from"]
    return whole


@pytest.mark.parametrize("delay", [0.0, 0.6])
def test_each_message_carries_what_changed_and_adds_up_to_the_state(tmp_path, delay):
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B"]

    async def body():
        async with _pushing(tmp_path, LilaPush(), 5, lambda line: None, events=events, delay_s=delay,
                            token="t0ken") as (relay, fake):
            base = f"http://127.0.0.1:{relay.http_port}"
            assert await _until(lambda: relay.state_json()["boards"], 10)
            async with aiohttp.ClientSession() as http:
                feeds = {}
                for who in ("spectator", "arbiter"):
                    ws = await http.ws_connect(base + "/ws")
                    if who == "arbiter":
                        await ws.send_str(json.dumps({"token": "t0ken"}))
                    feeds[who] = ws
                boards = {who: None for who in feeds}
                messages = {who: [] for who in feeds}

                async def read(who, ws):
                    async for msg in ws:
                        m = json.loads(msg.data)
                        if m["type"] == "state" and m["boards"]:
                            boards[who] = m["boards"][0]
                        elif m["type"] == "board":
                            messages[who].append(m["board"])
                            merged = with_earlier(boards[who], m["board"])
                            assert merged is not None, (who, m)
                            boards[who] = merged

                tasks = [asyncio.create_task(read(w, ws)) for w, ws in feeds.items()]
                seq = 1
                for ply, (uci, san) in enumerate(MOVES, 1):
                    seq += 1
                    fake.add(f"@1:{seq} move {ply} {uci} {san}")
                    seq += 1
                    fake.add(f"@1:{seq} clk {ply} {60000 - ply * 1000}")
                    await asyncio.sleep(0.15)
                seq += 1
                fake.add(f"@1:{seq} takeback 4")  # the arbiter takes two moves back
                await asyncio.sleep(0.15)
                seq += 1
                fake.add(f"@1:{seq} move 5 f1c4 Bc4")
                want = ["e4", "e5", "Nf3", "Nc6", "Bc4"]
                assert await _until(lambda: all((b or {}).get("san") == want for b in boards.values()), 10)
                await asyncio.sleep(0.2)
                states = {who: (await (await http.get(base + "/api/state", headers=h)).json())["boards"][0]
                          for who, h in (("spectator", {}), ("arbiter", {"Authorization": "Bearer t0ken"}))}
                for t in tasks:
                    t.cancel()
                for ws in feeds.values():
                    await ws.close()
        return boards, messages, states

    boards, messages, states = run(body())
    for who in boards:
        assert boards[who]["uci"] == states[who]["uci"] and boards[who]["clk"] == states[who]["clk"]
        assert boards[who]["san"] == states[who]["san"] == ["e4", "e5", "Nf3", "Nc6", "Bc4"]
        assert states[who]["clk"][:4] == [59000, 58000, 57000, 56000]
        # Not the whole list each time: after the first moves only the newest ply (or the
        # plies from a take-back's point) travel.
        cut = [m for m in messages[who] if m.get("from")]
        assert len(cut) >= 4 and all(len(m["uci"]) <= 2 for m in cut), messages[who]
        assert max(len(m.get("uci") or []) for m in messages[who][2:]) <= 2


def test_a_feed_that_missed_messages_gets_the_whole_state_and_one_may_ask_for_it(tmp_path, monkeypatch):
    (tmp_path / "boards").mkdir()
    monkeypatch.setattr(publish, "QUEUE_LIMIT", 1)

    async def body():
        async with _pushing(tmp_path, LilaPush(), 5, lambda line: None) as (relay, fake):
            base = f"http://127.0.0.1:{relay.http_port}"
            assert await _until(lambda: relay.state_json()["boards"], 10)
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(base + "/ws")
                first = await ws.receive_json(timeout=5)
                assert first["type"] == "state"
                # Five messages at once into a feed that holds one: four are missed.
                for _ in range(5):
                    relay.publisher.send({"type": "round", "round": {}})
                got = [await ws.receive_json(timeout=5), await ws.receive_json(timeout=5)]
                # A page that lacks a board's earlier plies asks; asked again and again,
                # it gets one state at once and one more a second later, not one per ask.
                for _ in range(10):
                    await ws.send_str(json.dumps({"state": True}))
                asked = []
                with pytest.raises(asyncio.TimeoutError):
                    while True:
                        asked.append((await ws.receive_json(timeout=2.5))["type"])
                await ws.close()
        return got, asked

    got, asked = run(body())
    assert [m["type"] for m in got] == ["round", "state"] and got[1]["boards"][0]["san"] == ["e4"]
    assert asked == ["state", "state"]


def test_the_whole_state_as_text_is_the_state_with_each_boards_text_kept():
    # A page joining a hall gets the whole state: each board's JSON text is kept from the
    # last time (Publisher.state_text), its clock as now. Held to the state as a dict
    # (Publisher.public_state, serialised whole), for the arbiter and for spectators, a
    # blind player's paired board, a pairing still waiting, and after a board moved.
    import json as json_

    from host_tools.board.session import BoardSession
    from host_tools.protocol import parse_line
    from host_tools.relay.publish import Publisher
    from host_tools.relay.round import RoundInfo

    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"
    sessions = {}
    for n, moves in ((1, ["e2e4 e4", "e7e5 e5"]), (2, ["d2d4 d4"]), (1002, ["d2d4 d4"])):
        s = sessions[n] = BoardSession(n)
        s.serial = f"s{n}"
        s.replay([f"@1:1 game tc=300+2 fen={start} chess960=- white=A black=B", "@1:2 start"]
                 + [f"@1:{i + 3} move {i + 1} {m}" for i, m in enumerate(moves)])
        s.restore_clock("clock 290000 295000 w running moves=1,1 period=0,0 flags=0,0")
    rnd = RoundInfo.from_json({"round": "1", "boards": {"1": {"white": "Ann", "black": "Bo"},
                                                         "3": {"white": "Cy", "black": "Di", "serial": "x"}}})

    class Store:
        def write(self, *a, **k):
            pass

    pub = Publisher(Store(), sessions, lambda: rnd)

    def same(arbiter):
        got, want = json_.loads(pub.state_text(arbiter)), json_.loads(json_.dumps({"type": "state", **pub.public_state(arbiter)}))
        for state in (got, want):
            for b in state["boards"]:
                if b.get("clock"):
                    b["clock"]["age_ms"] = None  # (made a moment apart)
        return got == want, [b["number"] for b in got["boards"]]

    assert same(True) == (True, [1, 2, 3, 1002])
    assert same(False) == (True, [1, 2, 3])
    sessions[2].handle(parse_line("@1:4 move 2 d7d5 d5"))
    assert same(True)[0] and same(False)[0]
    assert json_.loads(pub.state_text())["boards"][1]["san"] == ["d4", "d5"]
