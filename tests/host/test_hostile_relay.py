"""One bad client, device or file never stops the others (#36): each case is played as the
hostile party would, with its exact bytes or requests, beside a board that behaves, and
then the others are checked untouched: that board's next move still arrives, /api/state
answers within a second, and the log has a line for what was refused, not a traceback."""
import asyncio
import contextlib
import json
import logging
import time

import aiohttp
import pytest
import serial

from host_tools.sim import SimulatedBoard
from tests.host.test_relay import LEGAL, START, FakeBoard, _relay, _trace, _until, run

GAME = f"@1:1 game tc=60 fen={START} chess960=- white=A black=B"
LICHESS = {"Origin": "https://lichess.org"}


@contextlib.asynccontextmanager
async def two_boards(tmp_path, first=(GAME, "@1:2 move 1 e2e4 e4"), odd=None, fakes=None, **kw):
    """Board 1 (serial bad1, its events first) and board 2 (serial good2, which behaves) on
    a started relay whose log is kept, and odd (a device that says hello as its serial
    says) beside them if given: yields (relay, good, log); fakes, a list, gets the
    FakeBoards."""
    (tmp_path / "boards").mkdir(exist_ok=True)
    fakes = fakes if fakes is not None else []
    fakes += [FakeBoard(str(tmp_path / "boards" / "a"), serial="bad1", events=list(first)),
              FakeBoard(str(tmp_path / "boards" / "b"), serial="good2", events=[GAME])]
    if odd:
        fakes.append(FakeBoard(str(tmp_path / "boards" / "c"), serial=odd, events=[GAME]))
    log = []
    relay = _relay(tmp_path, log=log.append, **kw)
    await relay.start()
    try:
        assert await _until(lambda: len(relay.sessions) == len(fakes) and all(
            s.record is not None for s in relay.sessions.values() if s.serial in ("bad1", "good2")))
        yield relay, fakes[1], log
    finally:
        await relay.stop()
        for fake in fakes:
            fake.close()


async def others_untouched(relay, good, caplog, ply=None):
    """The behaving board's next move reaches the relay, /api/state answers within a
    second, and nothing was logged with a traceback."""
    s = next(s for s in relay.sessions.values() if s.serial == "good2")
    n = len(s.record.plies) + 1 if ply is None else ply
    uci, san = ("e2e4", "e4") if n % 2 else ("e7e5", "e5")
    good.add(f"@1:{len(good.events) + 1} move {n} {uci} {san}")
    assert await _until(lambda: len(s.record.plies) == n, timeout=10), "the good board's move is lost"
    async with aiohttp.ClientSession() as http:
        t0 = time.monotonic()
        async with http.get(f"http://127.0.0.1:{relay.http_port}/api/state", timeout=aiohttp.ClientTimeout(total=5)) as r:
            assert r.status == 200
            await r.json()
        assert time.monotonic() - t0 < 1.0, "the relay is slow to answer /api/state"
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks]


def _subscribe(rid, fid, serial):
    return json.dumps({"id": rid, "call": "subscribe",
                       "param": {"feed": "eboardevent", "id": fid, "param": {"serialnr": serial}}})


def test_a_livechess_subscribe_flood_is_capped_and_the_relay_goes_on(tmp_path, caplog):
    # One websocket, no token, 5,000 subscribes with different ids (~0.5 MB): each after
    # the cap is refused with a reason, and the relay answers the others all along.
    async def body():
        async with two_boards(tmp_path) as (relay, good, log):
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(relay.urls()["livechess"], headers=LICHESS)
                for i in range(5000):
                    await ws.send_str(_subscribe(i, i, "good2"))
                answers = []
                while len(answers) < 5000:
                    m = await ws.receive_json(timeout=30)
                    if m["response"] != "feed":
                        answers.append(m)
                await others_untouched(relay, good, caplog)
                feeds = []  # the game's move went to the 16 subscriptions, and only to them
                while True:
                    try:
                        feeds.append(await ws.receive_json(timeout=2))
                    except asyncio.TimeoutError:
                        break
                await ws.close()
            return answers, feeds

    answers, feeds = run(body())
    ok = [a for a in answers if a["response"] == "call"]
    refused = [a for a in answers if a["response"] == "error"]
    assert [a["id"] for a in ok] == list(range(16))
    assert len(refused) == 5000 - 16
    assert refused[0]["param"]["message"] == "at most 16 subscriptions on one connection"
    assert {f["id"] for f in feeds if f["param"]["san"] == ["e4"]} == set(range(16))


def test_a_livechess_clients_setup_changes_only_what_that_client_sees(tmp_path, caplog):
    # lichess's DGT page follows board 2 from its start; a second client sets up another
    # position on the same board. The page's feed keeps the game's start and its moves.
    other_fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"

    async def body():
        async with two_boards(tmp_path) as (relay, good, log):
            async with aiohttp.ClientSession() as http:
                page = await http.ws_connect(relay.urls()["livechess"], headers=LICHESS)
                await page.send_str(_subscribe(1, 1, "good2"))
                assert (await page.receive_json())["response"] == "call"
                first = await page.receive_json(timeout=5)
                other = await http.ws_connect(relay.urls()["livechess"], headers=LICHESS)
                await other.send_str(_subscribe(1, 7, "good2"))
                assert (await other.receive_json())["response"] == "call"
                await other.send_str(json.dumps({"id": 2, "call": "call", "param": {
                    "id": 7, "method": "setup", "param": {"fen": other_fen}}}))
                theirs = [await other.receive_json(timeout=5) for _ in range(2)]
                await others_untouched(relay, good, caplog, ply=1)
                page_feed = await page.receive_json(timeout=5)
                await page.close()
                await other.close()
            return first, theirs, page_feed

    first, theirs, page_feed = run(body())
    assert first["param"]["san"] == [] and first["param"]["match"] is True
    setup_feed = next(m for m in theirs if m["response"] == "feed")
    assert setup_feed["param"]["start"] == other_fen and setup_feed["param"]["match"] is False
    assert page_feed["param"]["start"] == START.replace("%20", " ")
    assert page_feed["param"]["san"] == ["e4"] and page_feed["param"]["match"] is True


def test_a_page_feed_token_no_string_can_hold_is_refused_and_leaves_nothing_running(tmp_path, caplog):
    # {"token":"\ud800"}: JSON's escape for a lone surrogate, which no UTF-8 string holds.
    # Each socket is told no, and when the sockets go their tasks go with them.
    async def body():
        async with two_boards(tmp_path, token="secret-token") as (relay, good, log):
            before = len(asyncio.all_tasks())
            url = f"ws://127.0.0.1:{relay.http_port}/ws"
            answers = []
            async with aiohttp.ClientSession() as http:
                for _ in range(20):  # (10 at once: the most one address holds is a spectator's few)
                    socks = [await http.ws_connect(url) for _ in range(10)]
                    for ws in socks:
                        assert (await ws.receive_json(timeout=5))["type"] == "state"
                        await ws.send_str('{"token":"\\ud800"}')
                    for ws in socks:
                        answers.append(await ws.receive_json(timeout=5))
                        await ws.close()
            assert await _until(lambda: len(asyncio.all_tasks()) <= before, timeout=10), \
                [t.get_coro() for t in asyncio.all_tasks()]
            await others_untouched(relay, good, caplog)
            return answers

    answers = run(body())
    assert len(answers) == 200 and all(a == {"type": "arbiter", "ok": False, "alerts": []} for a in answers)


def test_clients_that_go_mid_answer_leave_no_traceback(tmp_path, caplog):
    # A client sends 300 calls on each websocket and cuts its connection without reading
    # an answer: the answers meet a closing transport, which is no error of the relay's.
    async def body():
        async with two_boards(tmp_path, token="secret-token") as (relay, good, log):
            async with aiohttp.ClientSession() as http:
                for url, headers, text in (
                        (relay.urls()["livechess"], LICHESS, json.dumps({"id": 1, "call": "eboards"})),
                        (f"ws://127.0.0.1:{relay.http_port}/ws", {}, '{"token": "wrong"}')):
                    for _ in range(10):
                        ws = await http.ws_connect(url, headers=headers)
                        for _ in range(300):
                            await ws.send_str(text)
                        ws._response.connection.transport.abort()
                await asyncio.sleep(0.5)
            await others_untouched(relay, good, caplog)

    run(body())


def test_a_device_with_an_unreadable_start_position_does_not_stop_the_round(tmp_path, caplog):
    # A device's game line with a FEN no chess program reads: its board says why, and the
    # round's PGN (what lichess polls) goes on for every other board, file and URL.
    async def body():
        bad_game = "@1:1 game tc=60 fen=not%20a%20fen chess960=- white=C black=D"
        async with two_boards(tmp_path, first=(bad_game, "@1:2 move 1 e2e4 e4")) as (relay, good, log):
            await others_untouched(relay, good, caplog)
            async with aiohttp.ClientSession() as http:
                async with http.get(relay.urls()["round_pgn"]) as r:
                    status, pgn = r.status, await r.text()
            bad = next(s for s in relay.sessions.values() if s.serial == "bad1")
            round_file = tmp_path / "out" / "round.pgn"
            assert await _until(lambda: round_file.exists() and "1. e4 *" in round_file.read_text())
            return status, pgn, bad.problem, log

    status, pgn, problem, log = run(body())
    assert status == 200 and '[White "A"]' in pgn and "1. e4 *" in pgn
    assert problem == "game 1: a start position no chess program reads: 'not a fen'"
    assert sum("not a fen" in line for line in log) >= 1


def test_numbers_no_int_can_read_are_refused_as_such(tmp_path, caplog):
    # 5,000 digits (past Python's int() limit) in a URL, a rating "²" (a digit to Python,
    # which int() refuses) in a round: a 404 and a 400 with the reason, no server error.
    many = "9" * 5000
    auth = {"Authorization": "Bearer secret-token"}

    async def body():
        async with two_boards(tmp_path, token="secret-token") as (relay, good, log):
            base = f"http://127.0.0.1:{relay.http_port}"
            async with aiohttp.ClientSession() as http:
                got = []
                for method, path, body_ in (("GET", f"/boards/1/games/{many}.pgn", None),
                                            ("GET", f"/boards/{many}.pgn", None),
                                            ("POST", f"/api/alerts/{many}/seen", None),
                                            ("POST", "/api/round", {"boards": {"1": {"white_rating": "\u00b2"}}}),
                                            ("POST", "/api/round", {"boards": {many: {"white": "A"}}}),
                                            ("POST", "/api/round", {"boards": {"1": {"white_fide_id": many}}})):
                    async with http.request(method, base + path, json=body_, headers=auth) as r:
                        got.append((r.status, (await r.text())[:80]))
            await others_untouched(relay, good, caplog)
            return got

    got = run(body())
    assert [status for status, _ in got] == [404, 404, 404, 400, 400, 400], got
    assert got[3][1] == "bad round: board 1's white_rating is a whole number, not '²'"
    assert got[4][1] == "bad round: a board number is a whole number, not '99999999999999999999'"


def test_a_device_whose_hello_names_no_board_is_left_alone(tmp_path, caplog):
    # A device that says hello with a board name no serial has (a line break, spaces,
    # 5,000 characters): left alone with the reason; the board beside it plays on.
    async def body():
        async with two_boards(tmp_path, odd="x%0A%5BEvent%20%22forged%22%5D") as (relay, good, log):
            await others_untouched(relay, good, caplog)
            s = next(s for s in relay.sessions.values() if s.source.endswith("/c"))
            return s.state, s.problem

    state, problem = run(body())
    assert state == "INCOMPATIBLE"
    assert problem.startswith("names itself 'x") and "\n" not in problem
    assert problem.endswith("', not a board name (letters, digits, . _ : -): left alone")


async def _half_requests(port, n, source):
    """n connections from address source, each with a request's first lines and no end."""
    held = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(b"GET /api/state HTTP/1.1\r\nHost: relay\r\nX-Slow: ")
        held.append((reader, writer))
    return held


async def _closed(held, timeout):
    """How many of the held connections the relay closed within timeout."""
    async def one(reader):
        try:
            return await asyncio.wait_for(reader.read(), timeout) == b""
        except (asyncio.TimeoutError, ConnectionError):
            return False
    return sum(await asyncio.gather(*(one(r) for r, _ in held)))


DOOR = {"total": 24, "per_client": 8, "header_s": 1.5, "body_s": 1.5, "say_every_s": 1.0}


def test_half_open_requests_are_capped_per_client_and_closed_in_time(tmp_path, caplog):
    # Slowloris from 127.0.0.2: 40 connections that never finish their headers, to both
    # servers. 8 are held (the most from one address), the rest closed at once; the held
    # ones are closed when their time is up. The relay serves 127.0.0.1 all along, and
    # says what it turned away in a line or two, not a line per connection.
    async def body():
        async with two_boards(tmp_path, door=DOOR) as (relay, good, log):
            held = await _half_requests(relay.http_port, 30, "127.0.0.2")
            held += await _half_requests(relay.livechess_port, 10, "127.0.0.2")
            at_once = await _closed(held, 0.5)
            await others_untouched(relay, good, caplog)
            later = await _closed(held, 3.0)
            await asyncio.sleep(1.5)  # the door's next line
            for _, w in held:
                w.close()
            return at_once, later, [line for line in log if "turned away" in line]

    at_once, later, said = run(body())
    assert at_once == 32 and later == 40
    assert 2 <= len(said) <= 4, said
    assert said[0] == ("connections turned away: 1 (8 connections from one address, the most; "
                       "the latest from 127.0.0.2)")
    assert any(line.startswith("connections turned away: 8 (no request within 1.5 s") for line in said), said


def test_half_open_requests_from_a_few_devices_never_shut_out_a_newcomer(tmp_path, caplog):
    # Half-open requests from three addresses (#51: phones in the hall) try to fill the
    # relay's 24 places: each address gets at most 8, and the last 3 places are kept for
    # addresses not seen yet. Spectators arriving from three fresh addresses are served at
    # once: the first ones in the kept places, the last when every place is taken by
    # closing the oldest half-open request. The arbiter (his token) is served too.
    async def body():
        async with two_boards(tmp_path, door=DOOR, token="secret-token") as (relay, good, log):
            held = []
            for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
                held += await _half_requests(relay.http_port, 10, source)
            served, sessions = [], []
            try:
                for source in ("127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8"):
                    # each keeps its connection open (a spectator's page stays)
                    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
                    sessions.append(http)
                    headers = {"Authorization": "Bearer secret-token"} if source == "127.0.0.8" else {}
                    async with http.get(f"http://127.0.0.1:{relay.http_port}/api/state", headers=headers,
                                        timeout=aiohttp.ClientTimeout(total=5)) as r:
                        served.append(r.status)
                shut = await _closed(held, 0.5)
            finally:
                for http in sessions:
                    await http.close()
            await others_untouched(relay, good, caplog)
            await asyncio.sleep(1.2)  # the door's next line
            for _, w in held:
                w.close()
            return served, shut, log

    served, shut, log = run(body())
    assert served == [200, 200, 200, 200]
    assert shut >= 30 - 21 + 1  # those refused at once, and at least one closed to make room
    assert any("8 connections from one address, the most" in line for line in log), log
    assert any("a request that had not come in, closed to make room" in line for line in log), log


def test_a_request_body_that_never_comes_is_answered_408(tmp_path, caplog):
    async def body():
        async with two_boards(tmp_path, door=DOOR, token="secret-token") as (relay, good, log):
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.http_port)
            writer.write(b"POST /api/round HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer secret-token\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"boards\"")
            head = await asyncio.wait_for(reader.readline(), 5)
            writer.close()
            await others_untouched(relay, good, caplog)
            return head

    assert run(body()).startswith(b"HTTP/1.1 408 ")


@pytest.mark.parametrize("before", [b"sta", b"\x42\x45\x4d", b"\xff\x00garbage\x1b[2J\x13"],
                         ids=["half a line", "DGT commands", "noise"])
def test_the_relay_finds_a_board_whatever_came_before_its_hello(tmp_path, before):
    # Something wrote to the board's line before the relay opened it: half a command, a
    # DGT program's bytes, noise. The relay's first words end it; the board answers the
    # hello, and its game reaches the relay whole.
    (tmp_path / "boards").mkdir()
    trace = _trace(tmp_path, LEGAL[:4], "t.trace")

    async def body():
        board = SimulatedBoard(trace, link=str(tmp_path / "boards" / "b1"), presets=str(tmp_path / "p.json"))
        try:
            port = serial.Serial(board.path, timeout=0.2)
            port.write(before)
            port.flush()
            time.sleep(0.3)
            port.close()
            relay = _relay(tmp_path)
            await relay.start()
            try:
                ok = await _until(lambda: 1 in relay.sessions and relay.sessions[1].record is not None
                                  and len(relay.sessions[1].record.plies) == 4, timeout=30)
                return ok, relay.sessions.get(1) and relay.sessions[1].state
            finally:
                await relay.stop()
        finally:
            board.stop()

    ok, state = run(body())
    assert ok and state == "ACTIVE"


def test_livechess_subscriptions_are_limited_per_address_and_not_for_the_token(tmp_path, caplog):
    # Five connections from one address, 16 subscriptions each: the 65th is refused with
    # the reason; the arbiter's program (the token) from the same address is not counted.
    async def body():
        async with two_boards(tmp_path, token="secret-token") as (relay, good, log):
            connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0), limit=0)
            async with aiohttp.ClientSession(connector=connector) as http:
                socks = [await http.ws_connect(relay.urls()["livechess"], headers=LICHESS) for _ in range(5)]
                socks.append(await http.ws_connect(relay.urls()["livechess"] + "?token=secret-token"))
                answers = []
                for ws in socks:
                    for i in range(16):
                        await ws.send_str(_subscribe(i, i, "good2"))
                    got = []
                    while len(got) < 16:
                        m = await ws.receive_json(timeout=10)
                        if m["response"] != "feed":
                            got.append(m)
                    answers.append(got)
                await others_untouched(relay, good, caplog)
                counted = relay.livechess.by_host.get("127.0.0.2"), relay.livechess.count
                for ws in socks:
                    await ws.close()
            await asyncio.sleep(0.2)
            return answers, counted, relay.livechess.count

    answers, counted, after = run(body())
    refused = [a for got in answers for a in got if a["response"] == "error"]
    assert len(refused) == 16 and all(a["param"]["message"] == "at most 64 subscriptions from one address"
                                      for a in refused)
    assert all(a["response"] == "call" for a in answers[-1])  # the token's: all 16
    assert counted == (64, 80) and after == 0


def test_livechess_subscriptions_cost_one_reconstruction_per_change_not_one_each(tmp_path, caplog, monkeypatch):
    # Ten connections with 16 subscriptions each to one board of a game in progress, each
    # set up at the game's start (#51: every clock line rebuilt each subscription's feed,
    # replaying the game after its setup, on the event loop). Clock lines come, then a
    # move: no game is replayed for them; the move is carried on once, for all 160.
    import chess

    plies = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7".split()
    b = chess.Board()
    events = [GAME]
    for i, u in enumerate(plies):
        m = chess.Move.from_uci(u)
        events.append(f"@1:{i + 2} move {i + 1} {u} {b.san(m)}")
        b.push(m)
    pushed = []
    real_push = chess.Board.push

    def counting_push(self, move):
        pushed.append(move)
        return real_push(self, move)

    async def body():
        fakes = []
        async with two_boards(tmp_path, first=events, fakes=fakes) as (relay, good, log):
            bad_fake = fakes[0]
            bad = next(s for s in relay.sessions.values() if s.serial == "bad1")
            assert await _until(lambda: len(bad.record.plies) == len(plies), 10)
            socks = []
            async with aiohttp.ClientSession() as http:
                for _ in range(10):
                    ws = await http.ws_connect(relay.urls()["livechess"], headers=LICHESS)
                    for i in range(16):
                        await ws.send_str(_subscribe(i, i, "bad1"))
                        await ws.send_str(json.dumps({"id": 100 + i, "call": "call", "param": {
                            "id": i, "method": "setup", "param": {"fen": chess.STARTING_FEN}}}))
                    socks.append(ws)
                await asyncio.sleep(1.5)  # every subscription fed once, from its setup
                monkeypatch.setattr(chess.Board, "push", counting_push)
                for i in range(20):
                    bad_fake.send(f"clock {300000 - i} 300000 w running moves=5,5 period=0,0 flags=0,0")
                    await asyncio.sleep(0.02)
                await asyncio.sleep(0.5)
                on_clock = len(pushed)
                bad_fake.add(f"@1:{len(events) + 1} move 11 c2c3 c3")
                assert await _until(lambda: len(bad.record.plies) == 11, 10)
                await asyncio.sleep(0.5)
                on_move = len(pushed) - on_clock
                await others_untouched(relay, good, caplog)
                for ws in socks:
                    await ws.close()
            return on_clock, on_move

    on_clock, on_move = run(body())
    assert on_clock == 0  # 20 clock lines, 160 subscriptions: no game replayed
    assert on_move <= 3  # the move itself (the record's), and the one reconstruction carried on by it


def test_a_standings_poller_makes_the_standings_once_per_change_off_the_event_loop(tmp_path, caplog, monkeypatch):
    # A client polls /api/standings ten times a second for three seconds (#51: with 10^5
    # earlier games the relay made them again every second on its event loop, stalling
    # every other request). Nothing changes meanwhile: they are made once, in a thread;
    # a result the public sees makes them once more.
    import threading

    from host_tools.relay import standings

    made = []
    real = standings.standings

    def counting(games, feds=None, base=None):
        made.append(threading.current_thread() is threading.main_thread())
        return real(games, feds, base)
    monkeypatch.setattr(standings, "standings", counting)

    async def body():
        fakes = []
        async with two_boards(tmp_path, fakes=fakes) as (relay, good, log):
            url = f"http://127.0.0.1:{relay.http_port}/api/standings"
            async with aiohttp.ClientSession() as http:
                for _ in range(30):
                    async with http.get(url) as r:
                        assert r.status == 200
                    await asyncio.sleep(0.1)
                quiet = len(made)
                fakes[0].add("@1:3 result 1-0 resignation")
                await asyncio.sleep(1.2)
                answers = []
                for _ in range(5):
                    async with http.get(url) as r:
                        answers.append(await r.json())
                await others_untouched(relay, good, caplog)
            return quiet, made, answers

    quiet, made, answers = run(body())
    assert quiet == 1 and len(made) == 2 and not any(made)  # once, once more, never on the loop's thread
    assert answers[-1]["standings"][0]["points"] == 1.0
