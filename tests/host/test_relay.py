"""The relay: games from simulated boards to PGN files, the round PGN URL, the state API and
the websocket feed; the DGT LiveChess API driven with the messages LiveChess clients send;
tokens, origins, paths and sizes; boards that misbehave next to boards that do not; and
nothing lost across a relay restart and an unplugged cable."""
import asyncio
import contextlib
import io
import json
import os
import pty
import random
import subprocess
import sys
import threading
import time
import tty

import aiohttp
import chess
import chess.pgn
import pytest
from aiohttp import web

from host_tools import tracegen
from host_tools.relay.app import Relay
from host_tools.sim import SimulatedBoard

LEGAL = "e4 e5 Nf3 d6 Bc4 Nc6 Nc3 Bg4 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#".split()
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"


def _trace(tmp_path, sans, name, seed=1):
    b = chess.Board()
    moves = []
    for san in sans:
        moves.append(b.parse_san(san))
        b.push(moves[-1])
    p = tmp_path / name
    p.write_text(tracegen.trace_game(chess.Board(), moves, random.Random(seed)))
    return p


class FakeBoard:
    """A pty that answers like a board from a script: the relay opens its path."""

    def __init__(self, link, serial="fake1", proto=1, events=(), answers=True):
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave = slave
        os.symlink(os.ttyname(slave), link)
        self.serial, self.proto = serial, proto
        self.events = list(events)  # lines "@1:n ..."
        self.received = []
        self.answers = answers
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def add(self, line):
        self.events.append(line)
        self.send(line)

    def _serve(self):
        buf = b""
        while not self._stop:
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                text = line.decode().strip()
                if not text:
                    continue  # close()'s wake-up
                self.received.append(text)
                if text == "hello":
                    self.send(f"hello proto={self.proto} fw=0.1.0 board={self.serial} game=1 seq={len(self.events)}")
                elif text.startswith("resend "):
                    first = int(text.split(":")[1])
                    for ev in self.events[first - 1:]:
                        self.send(ev)
                    self.send(f"ok resend 1:{len(self.events)}")
                elif self.answers:  # an arbiter's command, answered as the firmware does
                    self.answer(text)

    def answer(self, text):
        self.send(f"ok {text.split()[0]}")

    def close(self):
        """The cable out: the pty's master end closes (the board's reader thread is woken
        first: a descriptor closed under a blocked read stays open until the read returns)."""
        if self._stop:
            return
        self._stop = True
        try:
            os.write(self.slave, b"\n")
        except OSError:
            pass
        time.sleep(0.05)
        os.close(self.master)


def run(coro):
    return asyncio.run(coro)


async def _until(pred, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        await asyncio.sleep(0.05)
    return False


def _relay(tmp_path, **kw):
    kw.setdefault("log", lambda s: None)
    return Relay(tmp_path / "out", [str(tmp_path / "boards" / "*")], discover=False, http_port=0,
                 livechess_port=0, **kw)


@contextlib.asynccontextmanager
async def fake_board_on_a_relay(tmp_path, events, name="f1", **kw):
    """A FakeBoard that has sent events, on a started relay (kw: the relay's options):
    yields (fake, relay) once the relay holds every event, and stops both after."""
    (tmp_path / "boards").mkdir(exist_ok=True)
    fake = FakeBoard(str(tmp_path / "boards" / name), events=events)
    relay = _relay(tmp_path, **kw)
    await relay.start()
    try:
        s = relay.sessions
        assert await _until(lambda: 1 in s and s[1].record and s[1].record.last_seq == len(events))
        yield fake, relay
    finally:
        await relay.stop()
        fake.close()


def test_two_boards_to_pgn_files_url_state_and_feed(tmp_path):
    (tmp_path / "boards").mkdir()
    other = ["d4", "d5", "c4", "e6", "Nc3", "Nf6"]

    async def body():
        b1 = SimulatedBoard(_trace(tmp_path, LEGAL, "a.trace"), fast=True, wait_host=True,
                            link=str(tmp_path / "boards" / "b1"), presets=str(tmp_path / "p1.json"))
        b2 = SimulatedBoard(_trace(tmp_path, other, "b.trace", 2), fast=True, wait_host=True,
                            link=str(tmp_path / "boards" / "b2"), presets=str(tmp_path / "p2.json"))
        relay = _relay(tmp_path)
        await relay.start()
        try:
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(relay.urls()["page"] + "ws")
                first = await ws.receive_json()
                assert first["type"] == "state"
                done = lambda: sum(1 for s in relay.sessions.values() if s.record and
                                   (s.record.result != "*" or len(s.record.plies) == 6)) == 2
                assert await _until(done)
                got = []
                while True:
                    try:
                        msg = await ws.receive_json(timeout=0.5)
                    except asyncio.TimeoutError:
                        break
                    got.append(msg)
                assert any(m["type"] == "board" and m["board"].get("san") for m in got)
                pgn = await (await http.get(relay.urls()["round_pgn"])).text()
                state = await (await http.get(relay.urls()["page"] + "api/state")).json()
                one = await (await http.get(relay.urls()["page"] + "boards/1.pgn")).text()
                page = await (await http.get(relay.urls()["page"])).text()
        finally:
            await relay.stop()
            b1.stop()
            b2.stop()
        return pgn, state, one, page

    pgn, state, one, page = run(body())
    games = []
    f = io.StringIO(pgn)
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    sans = sorted([g.board().variation_san(g.mainline_moves()) for g in games])
    assert len(games) == 2
    assert any(g.headers["Result"] == "1-0" and g.end().board().is_checkmate() for g in games)
    assert {g.headers["Round"] for g in games} == {"1.1", "1.2"}
    assert all("[%clk" in str(g) for g in games)
    def games_of(text):
        f = io.StringIO(text)
        out = []
        while (g := chess.pgn.read_game(f)) is not None:
            out.append(([m.uci() for m in g.mainline_moves()], g.headers["Result"], g.headers["Round"]))
        return out

    # The file and the URL hold the same games (their clock tags follow the latest clock line).
    assert games_of((tmp_path / "out" / "round.pgn").read_text()) == games_of(pgn)
    assert one.startswith('[Event "?"]') and "Round \"1.1\"" in one
    assert len(state["boards"]) == 2 and {b["state"] for b in state["boards"]} <= {"ACTIVE", "INACTIVE"}
    assert "<script" in page and sans


def test_livechess_api_with_the_messages_clients_send(tmp_path):
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 e2e4 e4", "@1:4 clk 1 301000"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path)
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and relay.sessions[1].record.last_seq == 4)
            fake.send("clock 301000 298000 b running moves=1,0 period=0,0 flags=0,0")
            assert await _until(lambda: relay.sessions[1].clock.running == "b")
            url = relay.urls()["livechess"]
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(url, headers={"Origin": "https://evil.example"}) as bad:
                    pytest.fail("an unknown origin was let in")
        except aiohttp.WSServerHandshakeError as e:
            assert e.status == 403
        try:
            async with aiohttp.ClientSession() as http:
                listed = await (await http.get(url.replace("ws://", "http://") + "/eboards")).json()
                ws = await http.ws_connect(url, headers={"Origin": "https://www.chess.com"})
                await ws.send_str(json.dumps({"id": 1, "call": "eboards"}))
                eboards = await ws.receive_json()
                await ws.send_str(json.dumps({"id": 2, "call": "subscribe", "param": {
                    "feed": "eboardevent", "id": 1, "param": {"serialnr": "fake1"}}}))
                sub = await ws.receive_json()
                feed1 = await ws.receive_json(timeout=10)  # the board as it stands
                fake.add("@1:5 move 2 e7e5 e5")
                feed2 = await ws.receive_json(timeout=10)
                await ws.send_str(json.dumps({"id": 3, "call": "call", "param": {
                    "id": 1, "method": "setup", "param": {"fen": "4k3/8/8/8/8/8/8/4K3"}}}))
                setup = [await ws.receive_json(), await ws.receive_json()]
                await ws.send_str(json.dumps({"id": 4, "call": "call", "param": {
                    "id": 1, "method": "flip", "param": {"flip": True}}}))
                flip = await ws.receive_json()
                while flip.get("response") == "feed":
                    flip = await ws.receive_json()
                await ws.send_str("not json")
                junk = await ws.receive_json()
                while junk.get("response") == "feed":  # the flip's own feed (that client's view)
                    junk = await ws.receive_json()
                await ws.send_str(json.dumps({"id": 6, "call": "subscribe", "param": {
                    "feed": "eboardevent", "id": 2, "param": {"serialnr": "nope"}}}))
                unknown = await ws.receive_json()
                await ws.send_str(json.dumps({"id": 7, "call": "unsubscribe", "param": {"id": 1}}))
                unsub = await ws.receive_json()
                await ws.close()
            await asyncio.sleep(0.3)
        finally:
            await relay.stop()
            fake.close()
        return listed, eboards, sub, feed1, feed2, setup, flip, junk, unknown, unsub, fake.received

    listed, eboards, sub, feed1, feed2, setup, flip, junk, unknown, unsub, received = run(body())
    assert eboards["response"] == "call" and eboards["id"] == 1
    e = eboards["param"][0]
    assert listed == eboards["param"]
    assert e["serialnr"] == "fake1" and e["state"] == "ACTIVE" and e["flipped"] is False
    assert e["board"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert set(e) >= {"serialnr", "source", "state", "battery", "comment", "board", "flipped", "clock"}
    assert sub == {"response": "call", "id": 2, "param": None}
    assert feed1["response"] == "feed" and feed1["id"] == 1 and feed1["param"]["san"] == ["e4"]
    assert feed1["param"]["start"] == chess.STARTING_FEN and feed1["param"]["match"] is True
    assert feed1["param"]["clock"]["white"] == 301 and feed1["param"]["clock"]["run"] is False
    # Every move since the start, not the newest alone (the client counts them).
    assert feed2["param"]["san"] == ["e4", "e5"] and feed2["param"]["board"].startswith("rnbqkbnr/pppp1ppp")
    answer = [m for m in setup if m["response"] == "call"][0]
    after = [m for m in setup if m["response"] == "feed"][0]
    assert answer == {"response": "call", "id": 3, "param": True}
    # A position that is not in the board's game: nothing to count from yet.
    assert after["param"]["start"] == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert after["param"]["san"] == [] and after["param"]["match"] is False
    assert flip == {"response": "call", "id": 4, "param": True}
    assert junk["response"] == "error" and junk["param"]["message"]
    assert unknown["response"] == "error" and "nope" in unknown["param"]["message"]
    assert unsub == {"response": "call", "id": 7, "param": True}
    # setup never starts a game on the board or touches its clock.
    assert not [r for r in received if r.split()[0] in ("new", "start", "pause", "resume", "set")]
    # flip is that client's view: a board's settings are never a LiveChess client's (#51).
    assert not [r for r in received if r.startswith("config")]


def test_an_arbiters_command_gets_the_boards_answer_and_his_state_shows_it(tmp_path):
    # (#14) The real firmware on the simulated board answers; the HTTP answer carries it.
    from host_tools.sim import SimulatedBoard

    (tmp_path / "boards").mkdir()

    async def body():
        board = SimulatedBoard(None, link=str(tmp_path / "boards" / "b1"))
        relay = _relay(tmp_path, token="t0ken")
        await relay.start()
        base = relay.urls()["page"]
        got = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record)
            good = {"Authorization": "Bearer t0ken"}
            async with aiohttp.ClientSession() as http:
                for cmd in ("start", "set time w 60000", "pause", "set time w 60000", "resume"):
                    r = await http.post(base + f"api/boards/1/command", json={"command": cmd}, headers=good)
                    got[cmd] = got.get(cmd, []) + [(r.status, (await r.json())["answer"])]
                state = await (await http.get(base + "api/state", headers=good)).json()
        finally:
            await relay.stop()
            board.stop()
        return got, state

    got, state = run(body())
    assert got["start"] == [(200, "ok start")] and got["pause"] == [(200, "ok pause")]
    # A correction while the clock runs is refused by the board; in pause it is done.
    (s1, a1), (s2, a2) = got["set time w 60000"]
    assert s1 == 422 and a1.startswith("err not-now") and (s2, a2) == (200, "ok set time")
    board = [b for b in state["boards"] if b["number"] == 1][0]
    assert board["command"] == "resume -> ok resume"


def test_a_board_that_does_not_answer_a_command_gets_a_504(tmp_path, monkeypatch):
    from host_tools.relay import web as relay_web

    monkeypatch.setattr(relay_web, "ANSWER_TIMEOUT_S", 0.5)
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events, answers=False)
        relay = _relay(tmp_path, token="t0ken")
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].send)
            async with aiohttp.ClientSession() as http:
                r = await http.post(relay.urls()["page"] + "api/boards/1/command", json={"command": "pause"},
                                    headers={"Authorization": "Bearer t0ken"})
                return r.status, await r.json(), relay.sessions[1].waiting
        finally:
            await relay.stop()
            fake.close()

    status, body_, waiting = run(body())
    assert status == 504 and body_["answer"] is None and "no answer" in body_["error"] and waiting == []


def test_api_tokens_paths_sizes(tmp_path):
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path, token="secret-token")
        await relay.start()
        base = relay.urls()["page"]
        out = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].send)
            async with aiohttp.ClientSession() as http:
                r = await http.post(base + "api/round", json={"event": "X"})
                out["no token"] = r.status
                r = await http.post(base + "api/round", json={"event": "X"}, headers={"Authorization": "Bearer nope"})
                out["bad token"] = r.status
                good = {"Authorization": "Bearer secret-token"}
                r = await http.post(base + "api/round", json={"event": "Club", "round": 3,
                                                               "boards": {"1": {"white": "Anna", "black": "Bo"}}}, headers=good)
                out["round"] = r.status
                r = await http.post(base + "api/round", data=b"{", headers=good)
                out["bad round"] = r.status
                r = await http.post(base + "api/boards/1/command", json={"command": "pause"}, headers=good)
                out["command"] = r.status
                r = await http.post(base + "api/boards/1/command", json={"command": "format c:"}, headers=good)
                out["bad command"] = r.status
                r = await http.post(base + "api/boards/1/command", json={"command": "pause"})
                out["command no token"] = r.status
                r = await http.post(base + "api/round", data=b"x" * 200000, headers=good)
                out["oversized"] = r.status
                for path in ("static/../app.py", "static/%2e%2e/app.py", "static/..%2fapp.py",
                             "boards/../../etc/passwd", "boards/abc.pgn", "boards/99.pgn",
                             "static/../../../../etc/passwd"):
                    r = await http.get(base + path)
                    body_text = await r.text()
                    out[path] = (r.status, "import" in body_text or "root:" in body_text)
                out["pgn"] = await (await http.get(base + "round.pgn")).text()
            assert await _until(lambda: "pause" in fake.received)
        finally:
            await relay.stop()
            fake.close()
        return out

    out = run(body())
    assert out["no token"] == 401 and out["bad token"] == 401 and out["command no token"] == 401
    assert out["round"] == 200 and out["bad round"] == 400
    assert out["command"] == 200 and out["bad command"] == 400
    assert out["oversized"] == 413
    for path in ("static/../app.py", "static/%2e%2e/app.py", "static/..%2fapp.py", "boards/../../etc/passwd",
                 "boards/abc.pgn", "boards/99.pgn", "static/../../../../etc/passwd"):
        status, leaked = out[path]
        assert status in (403, 404) and not leaked, path
    assert '[Event "Club"]' in out["pgn"] and '[White "Anna"]' in out["pgn"] and '[Round "3.1"]' in out["pgn"]


def test_misbehaving_devices_do_not_stop_the_others(tmp_path):
    (tmp_path / "boards").mkdir()
    garbage = tmp_path / "boards" / "g"
    events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]

    async def body():
        old = FakeBoard(str(tmp_path / "boards" / "old"), serial="old", proto=2, events=events)
        good = FakeBoard(str(tmp_path / "boards" / "good"), serial="good", events=events)
        m, sl = pty.openpty()
        tty.setraw(sl)
        os.symlink(os.ttyname(sl), garbage)
        os.write(m, b"\xff\x00garbage\n@@@\n")
        relay = _relay(tmp_path)
        await relay.start()
        try:
            ok = await _until(lambda: any(s.serial == "good" and s.record and len(s.record.plies) == 1
                                          for s in relay.sessions.values()))
            await asyncio.sleep(0.5)
            states = {s.serial: (s.state, s.problem) for s in relay.sessions.values()}
        finally:
            await relay.stop()
            old.close()
            good.close()
            os.close(m)
        return ok, states

    ok, states = run(body())
    assert ok
    assert states["old"][0] == "INCOMPATIBLE" and "protocol 2" in states["old"][1]
    assert states["good"][0] == "ACTIVE"
    assert len(states) == 2  # the line of garbage never became a board


def _assert_the_legal_game_once(tmp_path):
    """Board 1's PGN is exactly Légal's mate, and its journal holds every event once."""
    g = chess.pgn.read_game(io.StringIO((tmp_path / "out" / "board-1.pgn").read_text()))
    assert g.board().variation_san(g.mainline_moves()).split() == \
        "1. e4 e5 2. Nf3 d6 3. Bc4 Nc6 4. Nc3 Bg4 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#".split()
    assert g.headers["Result"] == "1-0"
    lines = (tmp_path / "out" / "board-1.events").read_text().splitlines()
    seqs = [int(l.split()[0].split(":")[1]) for l in lines]
    assert seqs == list(range(1, len(seqs) + 1))  # every event once, in order


def test_restart_and_unplug_lose_nothing(tmp_path):
    (tmp_path / "boards").mkdir()
    link = str(tmp_path / "boards" / "b1")

    async def body():
        board = SimulatedBoard(_trace(tmp_path, LEGAL, "a.trace", 5), link=link,
                               presets=str(tmp_path / "p.json"))
        try:
            relay = _relay(tmp_path)
            await relay.start()
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and len(relay.sessions[1].record.plies) >= 3)
            await relay.stop()  # the relay goes away mid-game...
            board.unplug()  # ...and the cable is pulled
            await asyncio.sleep(3)
            board.plug()
            relay = _relay(tmp_path)  # a new relay on the same folder
            await relay.start()
            assert await _until(lambda: relay.sessions[1].record and relay.sessions[1].record.result != "*", 60)
            await relay.stop()
        finally:
            board.stop()

    run(body())
    _assert_the_legal_game_once(tmp_path)


@pytest.mark.parametrize("seed", [11, 12])
def test_cables_and_relays_fail_at_random_instants(tmp_path, seed):
    """Unplugs (of random length) and relay restarts at random instants through a game
    played in real time: the PGN is exactly the game, each event once."""
    (tmp_path / "boards").mkdir()
    link = str(tmp_path / "boards" / "b1")
    rng = random.Random(seed)
    done = []

    async def body():
        board = SimulatedBoard(_trace(tmp_path, LEGAL, "a.trace", seed), link=link, speed=1,
                               flash=tmp_path / "flash", commands=["start"])
        relay = _relay(tmp_path)
        await relay.start()
        try:
            end = time.time() + 150
            while time.time() < end:
                s = relay.sessions.get(1) if relay else None
                if s and s.record and s.record.result != "*":
                    break
                await asyncio.sleep(rng.uniform(0.2, 1.5))
                what = rng.choice(("unplug", "relay", "both"))
                if what in ("relay", "both"):
                    await relay.stop()
                if what in ("unplug", "both"):
                    board.unplug()
                await asyncio.sleep(rng.uniform(0.05, 2.0))
                if what in ("unplug", "both"):
                    board.plug()
                if what in ("relay", "both"):
                    relay = _relay(tmp_path)
                    await relay.start()
                done.append(what)
            over = await _until(lambda: relay.sessions[1].record and relay.sessions[1].record.result != "*", 60)
            record = relay.sessions[1].record
            assert over, f"after {done}: {record and [p.san for p in record.plies]}"
        finally:
            await relay.stop()
            board.stop()

    run(body())
    assert len(done) >= 3  # the game saw a few failures
    _assert_the_legal_game_once(tmp_path)


async def _push_server(push):
    """A local stand-in for lichess's broadcast push endpoint: (runner, port)."""
    app = web.Application()
    # A handler is a coroutine function: a LilaPush's bound __call__, or a plain one.
    app.router.add_post("/api/broadcast/round/{rid}/push", push if asyncio.iscoroutinefunction(push) else push.__call__)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, runner.addresses[0][1]


def test_lichess_push(tmp_path):
    (tmp_path / "boards").mkdir()
    got = []

    async def body():
        async def push(request):
            got.append((request.match_info["rid"], request.headers.get("Authorization"), await request.text()))
            return web.json_response({"moves": 1})

        runner, port = await _push_server(push)
        events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        relay = _relay(tmp_path, lichess={"round_id": "abcd1234", "token": "lip_x",
                                          "base_url": f"http://127.0.0.1:{port}", "every_s": 0.2})
        await relay.start()
        try:
            assert await _until(lambda: got)
        finally:
            await relay.stop()
            fake.close()
            await runner.cleanup()

    run(body())
    rid, auth, pgn = got[-1]
    assert rid == "abcd1234" and auth == "Bearer lip_x" and "1. e4" in pgn


def test_lichess_push_reads_refused_games_backs_off_on_429_and_says_who_it_is(tmp_path):
    # lichess's push answers as its API documents (games[] with moves or an error); a 429
    # asks for a minute's wait (shortened here); every request names this program.
    (tmp_path / "boards").mkdir()
    got, logged = [], []
    answers = [web.json_response({"error": "Too many requests"}, status=429),
               web.json_response({"games": [{"tags": {"White": "A", "Black": "B"}, "error": "No move found: Pawn a8"}]}),
               web.json_response({"games": [{"tags": {"White": "A", "Black": "B"}, "moves": 1}]})]

    async def body():
        async def push(request):
            got.append((asyncio.get_running_loop().time(), request.headers.get("User-Agent", ""), await request.text()))
            return answers[min(len(got), len(answers)) - 1]

        runner, port = await _push_server(push)
        events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        relay = _relay(tmp_path, lichess={"round_id": "abcd1234", "token": "lip_x",
                                          "base_url": f"http://127.0.0.1:{port}", "every_s": 0.1},
                       log=logged.append)
        await relay.start()
        relay.lichess[0].backoff_s = 1.0
        try:
            assert await _until(lambda: len(got) >= 2)
            fake.add("@1:3 move 2 e7e5 e5")
            assert await _until(lambda: len(got) >= 3)
        finally:
            await relay.stop()
            fake.close()
            await runner.cleanup()

    run(body())
    assert got[1][0] - got[0][0] >= 1.0  # waited after the 429
    assert all(ua.startswith("open-chess-board") for _, ua, _ in got)
    assert any("429" in line for line in logged)
    assert [line for line in logged if "refused the game A - B: No move found: Pawn a8" in line]


class LilaPush:
    """lichess's broadcast push endpoint as lila answers it (controllers/RelayRound.scala
    `push`; modules/relay/src/main/RelayPush.scala, which splits the body with MultiPgn and
    reads each game): 200 with `games`, one entry per game in the PGN's order (`tags` and
    `moves`, or an `error` for a game it cannot read); 403 for a token without the right;
    404 for another round; 429 when pushed too often. `script` gives the status of each
    request in turn (200 after it runs out); `delay_s` holds each answer; it keeps the
    requests' times and how many were under way at once."""

    def __init__(self, script=(), delay_s=0.0):
        self.script = list(script)
        self.delay_s = delay_s
        self.requests = []  # (loop time it came, the PGN)
        self.answered = []  # loop time each was answered
        self.under_way = 0
        self.most_at_once = 0

    async def __call__(self, request):
        loop = asyncio.get_running_loop()
        pgn = await request.text()
        self.requests.append((loop.time(), pgn))
        self.under_way += 1
        self.most_at_once = max(self.most_at_once, self.under_way)
        try:
            await asyncio.sleep(self.delay_s)
            status = self.script.pop(0) if self.script else 200
            if status == "drop":
                request.transport.close()  # the connection goes
                return web.Response(status=500)
            if status != 200:
                return web.json_response({"error": f"status {status}"}, status=status)
            games = []
            stream = io.StringIO(pgn)
            while True:
                game = chess.pgn.read_game(stream)
                if game is None:
                    break
                if game.errors:
                    games.append({"tags": {}, "error": str(game.errors[0])})
                else:
                    games.append({"tags": dict(game.headers), "moves": len(list(game.mainline_moves()))})
            return web.json_response({"games": games})
        finally:
            self.under_way -= 1
            self.answered.append(loop.time())


@contextlib.asynccontextmanager
async def _pushing(tmp_path, push, every_s, log=print, events=None, **kw):
    """A relay pushing to push (a stand-in of lichess's endpoint) every every_s, with a board
    whose game is begun (A - B, 1. e4, unless events say otherwise), kw its other options:
    yields (relay, board)."""
    runner, port = await _push_server(push)
    if events is None:
        events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]
    fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
    relay = _relay(tmp_path, lichess={"round_id": "abcd1234", "token": "lip_x",
                                      "base_url": f"http://127.0.0.1:{port}", "every_s": every_s}, log=log, **kw)
    await relay.start()
    try:
        yield relay, fake
    finally:
        await relay.stop()
        fake.close()
        await runner.cleanup()


def test_lichess_push_one_request_at_a_time_and_a_minute_after_429(tmp_path):
    # The first answer takes 2.5 s and is a 429; moves come meanwhile. lichess asks for one
    # request at a time and a minute's wait (1 s here) after a 429: the moves made during
    # the refused request go after the wait, not at once.
    (tmp_path / "boards").mkdir()
    lila = LilaPush(script=[429], delay_s=2.5)
    logged = []

    async def body():
        async with _pushing(tmp_path, lila, 0.1, logged.append) as (relay, fake):
            relay.lichess[0].backoff_s = 1.0
            assert await _until(lambda: lila.requests)
            fake.add("@1:3 move 2 e7e5 e5")
            await asyncio.sleep(0.5)
            fake.add("@1:4 move 3 g1f3 Nf3")
            lila.delay_s = 0.0
            assert await _until(lambda: len(lila.requests) >= 2 and "Nf3" in lila.requests[-1][1])

    run(body())
    assert lila.most_at_once == 1
    assert lila.requests[1][0] - lila.answered[0] >= 1.0  # the wait after the 429
    assert len([line for line in logged if "429" in line]) == 1


def test_lichess_push_retries_until_the_final_state_is_in(tmp_path):
    # A 500, a 413, a dropped connection, a 403: each logged once in words, and the push
    # tried again with a growing wait; the result reaches lichess in the end.
    (tmp_path / "boards").mkdir()
    lila = LilaPush(script=[500, 413, "drop", 403, 403])
    logged = []

    async def body():
        async with _pushing(tmp_path, lila, 0.02, logged.append) as (relay, fake):
            assert await _until(lambda: lila.requests)
            fake.add("@1:3 result 1-0 resignation")
            assert await _until(lambda: len(lila.requests) >= 6 and "1-0" in lila.requests[-1][1], 60)

    run(body())
    times = [t for t, _ in lila.requests]
    waits = [b - a for a, b in zip(times, times[1:])][:5]
    # Growing (each wait doubles: by the fifth, eight times the first), read loosely enough
    # that a loaded machine's late timer does not count as a shorter wait.
    assert waits[-1] >= 4 * waits[0] and waits[3] + waits[4] >= 2 * (waits[0] + waits[1]), waits
    said = " | ".join(logged)
    assert "HTTP 500" in said and "too large" in said and "did not answer" in said and "contributor" in said
    assert said.count("contributor") == 1  # the same problem: logged once
    assert "takes the round again" in said


def test_lichess_push_names_a_refused_game_from_the_pgn_it_pushed(tmp_path):
    # lila gives no tags for a game it could not read: the game is named from the PGN.
    (tmp_path / "boards").mkdir()
    logged = []

    async def push(request):
        return web.json_response({"games": [{"tags": {}, "error": "Invalid PGN"}]})

    async def body():
        async with _pushing(tmp_path, push, 0.05, logged.append):
            assert await _until(lambda: [line for line in logged if "refused" in line])

    run(body())
    assert [line for line in logged if "refused the game A - B: Invalid PGN" in line]


def test_lichess_push_sends_no_placeholder_chapter(tmp_path):
    # A board plugged in before the arbiter pairs it: its empty "White - Black" game is not
    # pushed (lila would keep a chapter for it that no later push matches); once it has a
    # move it is, with its GameId (the board's serial and game number) from then on.
    (tmp_path / "boards").mkdir()
    lila = LilaPush()

    async def body():
        events = [f"@1:1 game tc=60 fen={START} chess960=- white=White black=Black"]
        async with _pushing(tmp_path, lila, 0.05, events=events) as (relay, fake):
            assert await _until(lambda: relay.sessions.get(1) and relay.sessions[1].record is not None)
            relay.lichess[0].changed()
            await asyncio.sleep(1.0)
            assert [pgn for _, pgn in lila.requests if "[Event" in pgn] == []
            fake.add("@1:2 move 1 e2e4 e4")
            assert await _until(lambda: any("1. e4" in pgn for _, pgn in lila.requests))

    run(body())
    pushed = [pgn for _, pgn in lila.requests if "[Event" in pgn]
    assert all('[GameId "fake1-g1"]' in pgn for pgn in pushed)


def test_the_relay_speaks_moves_and_times_on_request(tmp_path):
    from host_tools.relay.speaker import Speaker

    class Quiet:  # an announcer that writes WAV files instead of using a sound card
        def __init__(self):
            from host_tools.speech import Announcer

            self.real = Announcer("fide")
            self.lang = "fide"
            self.files = []

        def text_for_move(self, san, side, uci=None, en_passant=False):
            return self.real.text_for_move(san, side, uci, en_passant)

        def say(self, text, side=None):
            f = tmp_path / f"said-{len(self.files)}.wav"
            self.real.say(text, side, wav=f)
            self.files.append(f)

    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        quiet = Quiet()
        speaker = Speaker(announcer=quiet)
        relay = _relay(tmp_path, speaker=speaker)
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record)
            fake.add("@1:3 move 1 g1f3 Nf3")
            fake.send("clock 299000 277000 b running moves=1,0 period=0,0 flags=0,0")
            assert await _until(lambda: relay.sessions[1].clock.black_ms == 277000)
            fake.send("ask b time")
            assert await _until(lambda: len(quiet.files) == 2, 20)  # both spoken to their files
        finally:
            await relay.stop()
            fake.close()
        return speaker.said, quiet.files

    said, files = run(body())
    assert said == [("w", "Weiß: Springer Felix drei"), ("b", "Schwarz 4 Minuten 37 Sekunden")]
    assert all(f.stat().st_size > 10000 for f in files)  # spoken to audio


def test_a_board_that_restarted_tells_the_arbiter():
    from host_tools.protocol import parse_line
    from host_tools.board.session import BoardSession

    s = BoardSession(1)
    out = s.handle(parse_line("recovered game=3 seq=40 ply=21 interrupted=w:73000"))
    assert out == [("problem", s.problem)]
    assert "White's clock is paused" in s.problem and "73.0 s" in s.problem
    s.handle(parse_line("recovered game=3 seq=41 ply=21 interrupted=-"))
    assert "paused" not in s.problem


def test_lines_read_by_threads_where_the_loop_cannot_watch_them(tmp_path, monkeypatch):
    # Windows: no file descriptor to watch, no add_reader. The same relay with a reader
    # thread per port: the game arrives, commands go out, an unplug is seen.
    from host_tools.board import lines

    monkeypatch.setattr(lines.SerialLine, "threaded", True)
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 e2e4 e4", "@1:4 clk 1 301000"]

    async def body():
        async with fake_board_on_a_relay(tmp_path, events) as (fake, relay):
            s = relay.sessions
            assert all(line._watched is None for line in relay.lines.lines.values())
            fake.add("@1:5 move 2 e7e5 e5")
            assert await _until(lambda: s[1].record.last_seq == 5)
            assert s[1].send("pause")
            assert await _until(lambda: "pause" in fake.received)
            fake.close()
            assert await _until(lambda: s[1].state == "INACTIVE")
            return [p.san for p in s[1].record.plies]

    assert run(body()) == ["e4", "e5"]


def test_spectators_get_no_arbiter_state_and_the_arbiter_gets_all_of_it(tmp_path):
    # A board that differs from the game, and the arbiter's command with its answer: on the
    # arbiter's feed (the token given) and /api/state with the token; nowhere on the
    # spectators' feed or their /api/state.
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 e2e4 e4"]

    async def body():
        async with fake_board_on_a_relay(tmp_path, events, token="t0ken") as (fake, relay):
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                spectator = await http.ws_connect(base + "ws")
                arbiter = await http.ws_connect(base + "ws")
                await arbiter.send_json({"token": "t0ken"})
                first = {"spectator": await spectator.receive_json(), "arbiter": await arbiter.receive_json()}
                assert (await arbiter.receive_json())["ok"]
                first["arbiter"] = await arbiter.receive_json()  # the boards again, whole
                fake.send("board differs e4 e2")
                r = await http.post(base + "api/boards/1/command", json={"command": "pause"},
                                    headers={"Authorization": "Bearer t0ken"})
                assert r.status == 200
                await asyncio.sleep(0.5)
                feeds = {}
                for who, ws in (("spectator", spectator), ("arbiter", arbiter)):
                    feeds[who] = [first[who]["boards"][0]]
                    while True:
                        try:
                            m = await ws.receive_json(timeout=0.3)
                        except asyncio.TimeoutError:
                            break
                        if m["type"] == "board":
                            feeds[who].append(m["board"])
                states = {who: (await (await http.get(base + "api/state", headers=h)).json())["boards"][0]
                          for who, h in (("spectator", {}), ("arbiter", {"Authorization": "Bearer t0ken"}))}
                await spectator.close()
                await arbiter.close()
        return feeds, states

    feeds, states = run(body())
    hidden = ("serial", "problem", "status", "command")
    for board in feeds["spectator"] + [states["spectator"]]:
        assert not set(hidden) & set(board), board
    assert len(feeds["spectator"]) > 1  # the spectators did get the board's changes
    last = feeds["arbiter"][-1]
    assert last["serial"] == "fake1" and last["status"].startswith("differs") and last["command"] == "pause -> ok pause"
    assert states["arbiter"]["command"] == "pause -> ok pause" and states["arbiter"]["status"].startswith("differs")


def test_a_hall_larger_than_a_lichess_round_pushes_to_several_rounds(tmp_path):
    # lichess keeps at most 100 games of a push: --lichess-round id1,id2 sends boards 1-100
    # to the first round and 101-200 to the second, each board always to the same round;
    # a board beyond the last round's share is said in the log, once.
    (tmp_path / "boards").mkdir()
    got, logged = {}, []
    numbers = {"s1": 7, "s2": 150, "s3": 250}
    (tmp_path / "round.json").write_text(json.dumps({"round": "1", "boards": {
        str(n): {"white": f"W{n}", "black": f"B{n}", "serial": s} for s, n in numbers.items()}}))

    async def body():
        async def push(request):
            got.setdefault(request.match_info["rid"], []).append(await request.text())
            return web.json_response({"games": []})

        runner, port = await _push_server(push)
        fakes = [FakeBoard(str(tmp_path / "boards" / s), serial=s, events=[
            f"@1:1 game tc=60 fen={START} chess960=- white=x black=y", "@1:2 move 1 e2e4 e4"]) for s in numbers]
        relay = _relay(tmp_path, round_file=tmp_path / "round.json", log=logged.append,
                       lichess={"round_id": "aaaa1111,bbbb2222", "token": "lip_x",
                                "base_url": f"http://127.0.0.1:{port}", "every_s": 0.2})
        await relay.start()
        try:
            assert await _until(lambda: len(relay.sessions) == 3 and all(s.record and s.record.plies
                                                                         for s in relay.sessions.values()))
            assert await _until(lambda: all(any("e4" in t for t in got.get(r, [])) for r in ("aaaa1111", "bbbb2222")))
            await asyncio.sleep(0.5)
        finally:
            await relay.stop()
            for f in fakes:
                f.close()
            await runner.cleanup()

    run(body())
    assert set(got) == {"aaaa1111", "bbbb2222"}
    assert all('[Round "1.7"]' in t and '[Round "1.150"]' not in t for t in got["aaaa1111"])
    assert all('[Round "1.150"]' in t and '[Round "1.7"]' not in t for t in got["bbbb2222"])
    assert not any('[Round "1.250"]' in t for ts in got.values() for t in ts)
    assert sum("boards from 201 on have no lichess round" in line for line in logged) == 1
    assert "lichess push: boards 101-200 to the lichess round bbbb2222" in logged


@pytest.mark.parametrize("ids", ["aaaa,aaaa", "aa-bb", ",".join(f"r{i}" for i in range(21)), ""])
def test_lichess_rounds_the_relay_cannot_push_to_are_refused(tmp_path, ids):
    from host_tools.relay.round import RoundError, RoundInfo

    with pytest.raises(RoundError, match="lichess_round"):
        RoundInfo.from_json({"lichess_round": ids})
    if not ids:
        return  # an empty --lichess-round is no push at all
    relay_cli = [sys.executable, "-m", "host_tools", "relay", "--no-discover", "--out", str(tmp_path / "o"),
                 "--lichess-round", ids]
    r = subprocess.run(relay_cli, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LICHESS_TOKEN="lip_x"))
    assert r.returncode == 1 and "error: --lichess-round:" in r.stderr, r.stderr


def test_a_draw_offer_from_the_clock_is_noted_for_the_arbiter_and_he_can_send_a_message(tmp_path):
    # The board's draw key (9.1.2): `draw-offer b` and, the opponent having moved on,
    # `draw-offer b declined` - notes on the arbiter's page; and the arbiter's message
    # reaches the board as a command of its own.
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start"]

    async def body():
        async with fake_board_on_a_relay(tmp_path, events, token="t0ken") as (fake, relay):
            fake.send("draw-offer b")
            fake.send("draw-offer b declined")
            assert await _until(lambda: len([a for a in relay.alerts_json() if a["kind"] == "draw-offer"]) == 2)
            async with aiohttp.ClientSession() as http:
                r = await http.post(relay.urls()["page"] + "api/boards/1/command", json={"command": "message TIME%20UP"},
                                    headers={"Authorization": "Bearer t0ken"})
                answer = (r.status, (await r.json())["answer"])
            return [a["text"] for a in relay.alerts_json() if a["kind"] == "draw-offer"], answer, fake.received

    texts, answer, received = run(body())
    assert texts == ["Black offered a draw (from the clock)", "Black's draw offer lapsed: the opponent moved on"]
    assert answer == (200, "ok message") and "message TIME%20UP" in received


def test_a_restart_makes_the_pgn_files_again_from_the_journal(tmp_path):
    # The PGN files are never fsynced (relay/store.py): after a power cut one may be old,
    # or gone. The relay that starts again on the folder - its board not plugged in (the
    # game is over, the boards are packed) - writes every board's PGN, each earlier game's
    # and the round's again from its journal.
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 e2e4 e4", "@1:4 move 2 e7e5 e5", "@1:5 result 1-0 resignation",
              f"@2:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@2:2 start", "@2:3 move 1 d2d4 d4"]

    async def first():
        (tmp_path / "boards").mkdir()
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path)
        await relay.start()
        try:
            s = relay.sessions
            assert await _until(lambda: 1 in s and s[1].current == 2 and s[1].record and s[1].record.plies, 10)
        finally:
            await relay.stop()
            fake.close()

    run(first())
    out = tmp_path / "out"
    want = {name: (out / name).read_text() for name in ("board-1.pgn", "board-1-game-1.pgn")}
    assert "1. d4" in want["board-1.pgn"] and "1. e4 e5" in want["board-1-game-1.pgn"]
    (out / "board-1.pgn").write_text('[Event "?"]\n\n*\n')  # left old by the power cut
    (out / "board-1-game-1.pgn").unlink()
    (out / "round.pgn").unlink()

    async def again():
        relay = _relay(tmp_path)  # no board on its lines
        await relay.start()
        await relay.stop()

    run(again())
    assert {name: (out / name).read_text() for name in want} == want
    assert "1. e4 e5" in (out / "round.pgn").read_text() and "1. d4" in (out / "round.pgn").read_text()
