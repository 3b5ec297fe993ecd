"""The arbiter through the relay (#14): the board's own alerts reach the arbiter (logged, on
his feed with the token and never on the spectators', kept across a relay restart); a
draw claim with the claimant's written move (9.2.1.1) checked and done on the real
firmware, with the 9.5.3 penalty and the written move held to; the arbiter's doings as
comments in the PGN; every game of a round in the round PGN with a GameId of its own, so
that a board's second game becomes a lichess chapter of its own."""
import asyncio
import io
import json

import aiohttp
import chess
import chess.pgn
import pytest

from host_tools.relay.app import Relay
from host_tools.relay.claims import ClaimError, check_claim
from host_tools.sim import SimulatedBoard
from tests.host.test_relay import START, FakeBoard, _until, run

TOKEN = "arb1ter"
AUTH = {"Authorization": "Bearer " + TOKEN}


def _relay(tmp_path, log=None, **kw):
    return Relay(tmp_path / "out", [str(tmp_path / "boards" / "*")], discover=False, http_port=0,
                 livechess_port=0, token=TOKEN, log=log if log is not None else (lambda s: None), **kw)


async def _drain(ws, seconds=0.3):
    out = []
    while True:
        try:
            out.append(await ws.receive_json(timeout=seconds))
        except asyncio.TimeoutError:
            return out


class Hands:
    """The two players at the simulated board, each move made (in a thread: the hands keep
    real time) and seen by the relay before the next."""

    def __init__(self, sim, relay):
        self.sim, self.relay = sim, relay
        self.board = chess.Board()

    async def _do(self, f, *args):
        await asyncio.get_running_loop().run_in_executor(None, f, *args)

    async def move(self, san):
        m = self.board.parse_san(san)
        await self._do(self.sim.hands.move, self.board.copy(), m)
        self.board.push(m)
        n = len(self.board.move_stack)
        assert await _until(lambda: len(self.relay.sessions[1].record.plies) == n
                            and self.relay.sessions[1].record.plies[-1].clk_ms is not None, 20), san

    async def put(self, frm, to, press=None):
        """A piece lifted from frm and put on to (frm again: touched), and the clock of
        press pressed on it, if given."""
        def hands():
            tr = self.sim.hands._trace(self.board)
            tr.lift(frm)
            tr.wait(300, 400)
            tr.place(to)
            tr.wait(800, 900)
            if press is not None:
                tr.press(press)
                tr.wait(300, 400)
            self.sim.hands._finish(tr)
        await self._do(hands)


def test_the_boards_alerts_reach_the_arbiter_and_only_him(tmp_path):
    (tmp_path / "boards").mkdir()
    logged = []

    async def body():
        sim = SimulatedBoard(hands=True, link=str(tmp_path / "boards" / "b1"))
        relay = _relay(tmp_path, log=logged.append)
        await relay.start()
        base = relay.urls()["page"]
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record, 20)
            hands = Hands(sim, relay)
            async with aiohttp.ClientSession() as http:
                spectator = await http.ws_connect(base + "ws")
                arbiter = await http.ws_connect(base + "ws")
                impostor = await http.ws_connect(base + "ws")
                await arbiter.send_json({"token": TOKEN})
                await impostor.send_json({"token": "guess"})
                welcome = [m for m in await _drain(arbiter) if m["type"] == "arbiter"]
                refused = [m for m in await _drain(impostor) if m["type"] == "arbiter"]
                r = await http.post(base + "api/boards/1/command", json={"command": "start"}, headers=AUTH)
                assert r.status == 200
                await hands.move("e4")
                await hands.put(chess.G8, chess.G8)  # Black lifts his knight and puts it back
                await asyncio.sleep(1.0)
                await hands._do(sim.hands.press, chess.BLACK)  # Black presses with no move made
                await asyncio.sleep(1.5)
                await hands.put(chess.G8, chess.G5, chess.BLACK)  # a knight to g5, and the press
                assert await _until(lambda: relay.sessions[1].board_status.startswith("differs"), 10)
                r = await http.post(base + "api/boards/1/command", json={"command": "claim w"}, headers=AUTH)
                assert (await r.json())["answer"] == "ok claim incorrect"
                await asyncio.sleep(0.5)
                got = await _drain(arbiter)
                seen_by_spectator = await _drain(spectator)
                seen_by_impostor = await _drain(impostor)
                assert (await http.get(base + "api/alerts")).status == 401
                listed = (await (await http.get(base + "api/alerts", headers=AUTH)).json())["alerts"]
                first = listed[0]["id"]
                assert (await http.post(base + f"api/alerts/{first}/seen")).status == 401
                r = await http.post(base + f"api/alerts/{first}/seen", headers=AUTH)
                assert r.status == 200 and (await r.json())["seen"] is True
                assert (await http.post(base + "api/alerts/99999/seen", headers=AUTH)).status == 404
                update = [m for m in await _drain(arbiter) if m["type"] == "alert"]
        finally:
            await relay.stop()
            sim.stop()
        again = _relay(tmp_path)  # a relay restarted on the same folder
        return welcome, refused, got, seen_by_spectator, seen_by_impostor, listed, update, again.alerts_json()

    welcome, refused, got, spectator, impostor, listed, update, restored = run(body())
    assert welcome and welcome[0]["ok"] is True and refused == [{"type": "arbiter", "ok": False, "alerts": []}]
    alerts = [m["alert"] for m in got if m["type"] == "alert"]
    kinds = [a["kind"] for a in alerts]
    # What the firmware told, in the order it happened, each in words, at the ply it came.
    assert kinds[:2] == ["touched", "illegal-press"], kinds
    # The claim the arbiter entered himself is his own decision: for the record, not an alarm (#51).
    assert "attempt" in kinds and "differs" in kinds and kinds[-1] == "arbiter", kinds
    by_kind = {a["kind"]: a for a in alerts}
    assert by_kind["touched"]["text"] == "a piece on g8 was lifted and put back (4.3 may apply)"
    assert not by_kind["touched"]["urgent"] and by_kind["illegal-press"]["urgent"]
    assert by_kind["illegal-press"]["text"].startswith("Black pressed the clock without a legal move")
    assert by_kind["attempt"]["text"] == "Black: a piece stands where no legal move goes (g8g5)"
    assert "fix=g5g8" in by_kind["differs"]["text"] and by_kind["differs"]["urgent"]
    assert by_kind["arbiter"]["text"] == "the arbiter's decision: White claimed a draw: incorrect"
    assert not by_kind["arbiter"]["urgent"]
    assert all(a["board"] == 1 and a["game"] is not None and a["ply"] == 1 for a in alerts)
    # Only the feed that gave the token has them.
    assert not [m for m in spectator if m["type"] == "alert"] and not [m for m in impostor if m["type"] == "alert"]
    assert [a["id"] for a in listed][:len(alerts)] == [a["id"] for a in alerts]
    assert update and update[0]["alert"]["seen"] is True
    assert logged and [line for line in logged if "ALERT the board differs from the game" in line]
    # A restarted relay has them all, with what was seen (and the line that went at the end).
    assert [(a["id"], a["kind"], a["seen"]) for a in restored] == \
        [(a["id"], a["kind"], a["id"] == listed[0]["id"]) for a in listed] + [(restored[-1]["id"], "line", False)]


def test_a_claim_with_the_written_move_on_the_real_firmware(tmp_path):
    # 1. Nf3 Nf6 2. Ng1: Black claims with the written move 2... Ng8 (the start again, but
    # only the second time): incorrect, a minute to White (9.5.3; blitz, B.3), and Ng8 must be played;
    # he plays Nc6 instead: the arbiter is alerted. After 5. Nf3, Black's written 5... Nb8
    # would make a position the third time: correct, and the board ends the game.
    (tmp_path / "boards").mkdir()

    async def body():
        sim = SimulatedBoard(hands=True, link=str(tmp_path / "boards" / "b1"))
        relay = _relay(tmp_path)
        await relay.start()
        base = relay.urls()["page"]
        answers = []
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record, 20)
            hands = Hands(sim, relay)
            async with aiohttp.ClientSession() as http:
                async def claim(side, move):
                    r = await http.post(base + "api/boards/1/claim", json={"side": side, "move": move}, headers=AUTH)
                    answers.append((r.status, await r.json() if r.status in (200, 422) else await r.text()))
                for san in ("Nf3", "Nf6", "Ng1"):
                    await hands.move(san)
                await claim("w", "Nc3")  # not White's move
                await claim("b", "Nb5")  # not a legal move
                white_before = relay.sessions[1].clock.white_ms
                await claim("b", "Ng8")
                # The board's default control is a blitz one: one minute (Appendix A.4.2, B).
                assert await _until(lambda: relay.sessions[1].clock.white_ms > white_before + 55_000, 5)
                for san in ("Nc6", "Nf3", "Nb8", "Ng1", "Nc6", "Nf3"):
                    await hands.move(san)
                await claim("b", "Nb8")
                assert await _until(lambda: relay.sessions[1].record.result == "1/2-1/2", 5)
                pgn = await (await http.get(base + "boards/1.pgn")).text()
        finally:
            await relay.stop()
            sim.stop()
        again = _relay(tmp_path)
        return answers, pgn, relay.alerts_json(), again.pgn(again.sessions[1], again.sessions[1].record)

    answers, pgn, alerts, pgn_after_restart = run(body())
    (s1, t1), (s2, t2), (s3, incorrect), (s4, correct) = answers
    assert s1 == 409 and "having the move" in t1
    assert s2 == 409 and "not a legal move" in t2
    assert s3 == 200 and incorrect["sent"] == "penalty claim b" and incorrect["answer"].startswith("ok penalty")
    assert incorrect["claim"]["correct"] is False and incorrect["claim"]["move"] == "f6g8"
    assert s4 == 200 and correct["sent"] == "claim b" and correct["answer"] == "ok claim correct"
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game.headers["Result"] == "1/2-1/2" and game.headers["Termination"] == "normal"
    comments = [n.comment for n in game.mainline()]
    assert ("Black claims a draw with the written move 2... Ng8 (9.2.1.1, 9.3.1): incorrect, no threefold "
            "repetition and no fifty moves; 2... Ng8 must be played (9.5.3)") in comments[2]
    assert "penalty: 1:00 added to White" in comments[2]
    assert ("Black claims a draw with the written move 5... Nb8 (9.2.1.1, 9.3.1): correct, threefold "
            "repetition with the written move (9.2.1.1)") in comments[-1]
    written = [a for a in alerts if a["kind"] == "written-move"]
    assert [a["text"] for a in written] == \
        ["Black played Nc6, not the move written with the claim, 2... Ng8 (9.5.3: it must be played)"]
    assert pgn_after_restart == pgn  # the relay's notes are kept with its journal


def test_check_claim_by_the_laws():
    b = chess.Board()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        b.push_san(san)
    assert check_claim(b, "b", "Ng8").correct  # 9.2.1.1
    assert not check_claim(b, "b", "Nc6").correct and not check_claim(b, "b").correct
    b.push_san("Ng8")
    assert check_claim(b, "w").correct and check_claim(b, "w", "e4").correct  # 9.2.1.2: already there
    with pytest.raises(ClaimError):
        check_claim(b, "b")
    fifty = chess.Board("8/8/4k3/8/8/4K3/4R3/8 w - - 99 80")
    assert check_claim(fifty, "w", "Ra2").correct  # 9.3.1: the written move completes fifty moves
    assert check_claim(fifty, "w", "e2a2").correct  # UCI as well as SAN
    assert not check_claim(fifty, "w").correct
    with pytest.raises(ClaimError):
        check_claim(fifty, "w", "Rxe6")  # a capture that is not there: not a legal move
    with pytest.raises(ClaimError):
        check_claim(fifty, "x")


def test_every_game_of_a_round_with_its_own_game_id_and_lichess_chapter(tmp_path):
    # A board plays game 1 to its end; game 2 is set up and replaced before a move (a false
    # start); game 3 is played. The round PGN has games 1 and 3, each with its GameId, and
    # lichess - matching chapters as its broadcast code does, by GameId when both have one
    # (lila's RelayUpdatePlan) - keeps game 1's chapter and opens one for game 3.
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4",
              "@1:3 move 2 e7e5 e5", "@1:4 result 1/2-1/2 agreement"]
    pushes = []

    async def body():
        from aiohttp import web

        from tests.host.test_relay import _push_server

        async def push(request):
            pushes.append(await request.text())
            return web.json_response({"games": []})

        runner, port = await _push_server(push)
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path, lichess={"round_id": "abcd1234", "token": "lip_x",
                                          "base_url": f"http://127.0.0.1:{port}", "every_s": 0.1})
        await relay.start()
        try:
            assert await _until(lambda: pushes and "1/2-1/2" in pushes[-1], 10)
            after_one = pushes[-1]
            fake.send(f"@2:1 game tc=60 fen={START} chess960=- white=A black=B")
            fake.send(f"@3:1 game tc=60 fen={START} chess960=- white=B black=A")
            fake.send("@3:2 move 1 d2d4 d4")
            assert await _until(lambda: "d4" in pushes[-1], 10)
            rpgn = relay.round_pgn()
        finally:
            await relay.stop()
            fake.close()
            await runner.cleanup()
        return after_one, pushes[-1], rpgn, (tmp_path / "out" / "round.pgn").read_text()

    after_one, last, rpgn, file_pgn = run(body())

    def games(text):
        f, out = io.StringIO(text), []
        while (g := chess.pgn.read_game(f)) is not None:
            out.append(g)
        return out

    assert [g.headers["GameId"] for g in games(rpgn)] == ["fake1-g1", "fake1-g3"]
    assert [g.headers["Result"] for g in games(rpgn)] == ["1/2-1/2", "*"]
    assert rpgn == last == file_pgn

    chapters = []  # lichess's study: (tags, moves)

    def lichess_sync(text):
        """lila's RelayUpdatePlan, as far as this needs it: a game goes to the chapter with
        its GameId when both have one, each chapter taking one game; the rest are appended."""
        used = set()
        for g in games(text):
            moves = [m.uci() for m in g.mainline_moves()]
            i = next((i for i, (tags, _) in enumerate(chapters)
                      if i not in used and tags.get("GameId") == g.headers.get("GameId")), None)
            if i is None:
                chapters.append((dict(g.headers), moves))
                i = len(chapters) - 1
            else:
                chapters[i] = (dict(g.headers), moves)
            used.add(i)

    lichess_sync(after_one)
    lichess_sync(last)
    assert [(c[0]["GameId"], c[1]) for c in chapters] == [("fake1-g1", ["e2e4", "e7e5"]), ("fake1-g3", ["d2d4"])]


def test_alerts_from_lines_a_board_sends():
    # Each kind of line the protocol documents for the arbiter, in words (docs/protocol.md).
    from host_tools.protocol import parse_line
    from host_tools.relay.alerts import alert_of
    from host_tools.board.session import BoardSession

    s = BoardSession(1)
    s.handle(parse_line(f"@1:1 game tc=60 fen={START} chess960=- white=A black=B"))
    said = {}
    for line in ("@1:2 illegal w 2", "@1:3 flag b 1", "@1:4 result 1-0 time_forfeit", "illegal-press b 1",
                 "touched e2", "attempt e2e5", "claim b correct", "board differs missing=e2 fix=e4e2",
                 "board sync", "power 3380 battery low", "power 3900 battery ok", "warning presets damaged",
                 "clock 1 2 w running moves=0,0 period=0,0 flags=0,0", "promotion q e8"):
        m = parse_line(line)
        s.handle(m)
        said[line] = alert_of(s, m)
    assert said["@1:2 illegal w 2"] == ("illegal", "White completed an illegal move (second; 7.5)", True)
    assert said["@1:3 flag b 1"] == ("flag", "Black's flag fell (first)", True)
    assert said["@1:4 result 1-0 time_forfeit"] == ("result", "the game ended 1-0 (time forfeit)", False)
    assert said["board differs missing=e2 fix=e4e2"][0:1] == ("differs",)
    assert said["power 3380 battery low"] == ("power", "low battery (3380 mV): the clock shows its sign", True)
    assert said["power 3900 battery ok"] is None and said["promotion q e8"] is None
    assert said["clock 1 2 w running moves=0,0 period=0,0 flags=0,0"] is None
    assert said["warning presets damaged"] == ("warning", "presets damaged", True)


def test_a_board_given_a_free_number(tmp_path):
    # The arbiter pairs board fake1 (now board 1) with pairing 3, which no board plays: it
    # becomes board 3, its journal and PGN go with it, the pages drop board 1; bad requests
    # change nothing.
    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=60 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"), events=events)
        relay = _relay(tmp_path)
        await relay.start()
        base = relay.urls()["page"]
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and relay.sessions[1].record.last_seq == 2)
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(base + "ws")
                await _drain(ws)
                statuses = []
                for body_, headers in (({"serial": "fake1", "board": 3}, {}),
                                       ({"serial": "fake1", "board": 0}, AUTH),
                                       ({"serial": "fake1", "board": "3"}, AUTH),
                                       ({"serial": "fake1", "board": True}, AUTH),
                                       ({"serial": "fake1\nnew", "board": 3}, AUTH)):
                    r = await http.post(base + "api/round/assign", json=body_, headers=headers)
                    statuses.append(r.status)
                unchanged = sorted(relay.sessions)
                r = await http.post(base + "api/round/assign", json={"serial": "fake1", "board": 3}, headers=AUTH)
                statuses.append(r.status)
                msgs = await _drain(ws)
                fake.add("@1:3 move 2 e7e5 e5")  # the game goes on under its new number
                assert await _until(lambda: 3 in relay.sessions and len(relay.sessions[3].record.plies) == 2)
                round_ = await (await http.get(base + "api/round", headers=AUTH)).json()
        finally:
            await relay.stop()
            fake.close()
        return statuses, unchanged, msgs, sorted(relay.sessions), round_

    statuses, unchanged, msgs, numbers, round_ = run(body())
    assert statuses == [401, 400, 400, 400, 400, 200] and unchanged == [1]
    assert {"type": "removed", "number": 1} in msgs
    assert any(m["type"] == "board" and m["board"]["number"] == 3 for m in msgs)
    assert numbers == [3] and round_["boards"] == {"3": {"serial": "fake1"}}
    out = tmp_path / "out"
    assert not (out / "board-1.events").exists() and len((out / "board-3.events").read_text().splitlines()) == 3
    assert (out / "board-3.pgn").exists()
    assert json.loads((out / "boards.json").read_text()) == {"fake1": 3}
