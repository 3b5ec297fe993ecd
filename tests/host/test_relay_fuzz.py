"""The relay's HTTP and websocket endpoints under bad input (tests/host/webfuzz.py): no answer
is a server error, nothing a bad request sends reaches a board, the published games do not
change, and the relay serves normally afterwards."""
import asyncio

import aiohttp

from tests.host import webfuzz
from tests.host.test_relay import START, FakeBoard, _relay, _until, run

N = 600  # inputs of each kind (raw socket, HTTP client, page websocket, LiveChess websocket)


def test_http_and_websocket_fuzzing_changes_nothing(tmp_path):
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path, token="secret-token")
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and len(relay.sessions[1].record.plies) == 1)
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                before = (await (await http.get(base + "round.pgn")).text(),
                          await (await http.get(base + "api/state")).json())
            received = list(fake.received)
            seen = await webfuzz.run(relay.http_port, relay.livechess_port, N, seed=7)
            async with aiohttp.ClientSession() as http:
                after = (await (await http.get(base + "round.pgn")).text(),
                         await (await http.get(base + "api/state")).json())
                page = await http.get(base)
                ok = page.status
            return seen, before, after, ok, received, list(fake.received)
        finally:
            await relay.stop()
            fake.close()

    seen, before, after, ok, received, received_after = run(body())
    assert seen["raw"] == seen["http"] == N and seen["ws"] == 2 * N
    assert not any(k.startswith("status 5") for k in seen), seen  # never a server error
    # Bad requests get an error status; the few that are only cut short wait for the rest.
    assert seen.get("status None", 0) < N // 10
    assert seen.get("accepted", 0) == 0  # no bad token got a command through
    assert seen.get("status 400", 0) > 0 and seen.get("status 401", 0) > 0 and seen.get("status 404", 0) > 0
    assert seen.get("ws answered", 0) > N // 2  # junk on the LiveChess socket gets an answer
    assert before == after  # the games as published are untouched
    assert ok == 200
    # Nothing reached the board but the relay's own hello, which it says again while a
    # board is quiet (host_tools/relay/boards.py).
    assert [t for t in received_after[len(received):] if t not in ("", "hello")] == []
    assert received_after[:len(received)] == received
