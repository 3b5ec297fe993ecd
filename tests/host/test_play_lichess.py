"""`play lichess` (host_tools/play/online.py) against a local server that follows lichess's
documented Board API (tests/host/lichess_server.py), with the simulated board running the real
firmware and a person at it (host_tools/hands.py): he moves his pieces, the opponent's
moves come from the server and he carries them out from what the LEDs show; a promotion
each way, a take-back granted on lichess, a move whose answer is lost on the network, a
dropped stream, a flag, a resignation. Nothing leaves the machine."""
from __future__ import annotations

import json
import random
import threading
import time

import chess
import pytest

from host_tools.board.link import BoardLink
from host_tools.play.lichess_api import BoardApi, LichessError
from host_tools.play.online import OnlineGame
from tests.host import surfacefuzz
from tests.host.lichess_server import TOKEN, FakeLichess
from tests.playing import lit_move, wait_until


class Online:
    def __init__(self, tmp_path, server: FakeLichess):
        from host_tools.sim import SimulatedBoard

        self.server = server
        self.outputs = str(tmp_path / "outputs.txt")
        self.sim = SimulatedBoard(hands=True, outputs=self.outputs, link=str(tmp_path / "board"))
        self.link = BoardLink(str(tmp_path / "board"), retry_s=0.2)
        assert self.link.connected.wait(10)
        self.api = BoardApi(TOKEN, server.url)
        self.said: list[str] = []
        self.game = OnlineGame(self.link, self.api, say=self.said.append)
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        self._thread = threading.Thread(target=self.game.run, kwargs={"until": self._stop.is_set}, daemon=True)
        self._thread.start()

    def wait(self, what, timeout=30.0):
        return wait_until(what, self.said, timeout)

    def record(self):
        return self.link.session.record

    def plies(self):
        r = self.record()
        return [p.uci for p in r.plies] if r else []

    def lichess_game(self, me_white, minutes, inc, fen=None) -> str:
        """A game started on lichess (he accepted a challenge there): the tool waits for
        it, runs, and the board plays it. Its id."""
        gid = self.server.new_game(me_white=me_white, minutes=minutes, inc=inc, fen=fen)
        self.game.wait()
        self.start()
        self.on_board()
        return gid

    def on_board(self):
        """The board plays the lichess game: its game line names it."""
        return self.wait(lambda: self.record() is not None and self.game.game_id and
                         self.record().source == f"lichess.org/{self.game.game_id}")

    def setup(self, fen):
        """The person sets the pieces up as fen."""
        b = chess.Board(fen)
        self.sim.hands._play([f"0 occ {sum(1 << sq for sq in b.piece_map()):016x}"])
        self.sim.hands.occ = set(b.piece_map())

    def my_move(self, uci, press=False):
        b = self.record().board()
        n = len(b.move_stack)
        self.sim.hands.move(b, chess.Move.from_uci(uci), press=press)
        self.wait(lambda: len(self.plies()) > n)
        # ...and lichess has it (the opponent answers only then).
        self.wait(lambda: len(self.server.games[self.game.game_id].moves) > n)

    def opponent(self, uci):
        gid = self.game.game_id
        n = len(self.plies())
        self.server.opponent_move(gid, uci)
        # The person looks at the LEDs: the move's two squares, lit as a move to carry out.
        move = chess.Move.from_uci(uci)

        def lit():
            frm, to = lit_move(self.outputs)
            return chess.square_name(move.from_square) in frm and chess.square_name(move.to_square) in to
        self.wait(lit)
        self.sim.hands.carry_out(self.record().board(), move)
        self.wait(lambda: len(self.plies()) == n + 1)

    def close(self):
        self._stop.set()
        if self._thread:
            self._thread.join(5)
        self.link.close()
        self.api.close()
        self.sim.stop()


@pytest.fixture
def online(tmp_path):
    server = FakeLichess()
    o = Online(tmp_path, server)
    yield o
    o.close()
    server.close()


def test_a_game_from_a_seek_with_a_takeback_a_lost_answer_a_dropped_stream_and_a_resignation(online):
    o = online
    o.game.seek(10, 5)  # (the Board API takes rapid and slower: lila refuses 5+3)
    o.start()
    o.on_board()
    gid = o.game.game_id
    assert o.game.color == chess.WHITE and o.record().white.startswith("Player")
    o.my_move("e2e4")  # no press: lichess keeps the time
    o.wait(lambda: o.server.received == [(gid, "e2e4")])
    o.opponent("e7e5")
    o.my_move("g1f3")
    o.opponent("b8c6")
    # lichess's clocks are on the board's clock.
    w, b = o.server.games[gid].times()
    o.wait(lambda: abs(o.link.session.clock.white_ms - w) < 1500)
    # A take-back asked at the keyboard and granted: he puts the pieces back.
    o.game.keyboard("takeback")
    o.server.opponent_accepts_takeback(gid)
    o.wait(lambda: any("Take-back on lichess" in s for s in o.said))
    after = o.record().board()
    o.sim.hands.take_back(after)
    after.pop()
    o.sim.hands.take_back(after)
    o.wait(lambda: o.plies() == ["e2e4", "e7e5"])
    # His move's answer is lost on the network (lichess has it): it is not sent twice.
    o.server.fail_moves = 1
    o.my_move("f1c4")
    o.wait(lambda: o.server.games[gid].moves[-1:] == ["f1c4"])
    o.opponent("g8f6")
    assert o.server.received.count((gid, "f1c4")) == 1
    # The streams drop; he moves and the opponent answers meanwhile: nothing is lost.
    o.server.drop_streams()
    o.my_move("d2d3")
    o.opponent("f8c5")
    assert o.plies() == ["e2e4", "e7e5", "f1c4", "g8f6", "d2d3", "f8c5"] == o.server.games[gid].moves
    assert any("dropped" in s for s in o.said) or o.server.requests.count(("GET", f"/api/board/game/stream/{gid}",
                                                                          o.server.requests[-1][2])) >= 2
    # He resigns at the keyboard: the board has the result.
    o.game.keyboard("resign")
    o.wait(lambda: o.record().result == "0-1")
    o.wait(lambda: any("Game over: 0-1 (resign)" in s for s in o.said))
    assert all(ua.startswith("open-chess-board") for _, _, ua in o.server.requests)


def test_promotions_both_ways_from_a_position(online):
    o = online
    fen = "8/P6k/8/8/8/8/p6K/8 w - - 0 1"
    gid = o.lichess_game(me_white=True, minutes=5, inc=3, fen=fen)
    o.setup(fen)
    o.wait(lambda: o.record().board().fen() == chess.Board(fen).fen())
    time.sleep(1.0)
    # His promotion: the knight chosen with the clock's buttons, and his press.
    o.my_move("a7a8n", press=True)
    o.wait(lambda: o.server.received == [(gid, "a7a8n")])
    # The opponent's promotion to a rook: taken as the expected piece.
    o.opponent("a2a1r")
    assert o.plies() == ["a7a8n", "a2a1r"] and o.record().plies[1].san.startswith("a1=R")


def test_a_flag_on_lichess_ends_the_game_on_the_board(online):
    o = online
    gid = o.lichess_game(me_white=False, minutes=0.2, inc=0)  # 12 s each
    o.opponent("d2d4")
    o.my_move("d7d5")
    o.wait(lambda: o.server.received == [(gid, "d7d5")])
    o.opponent("c2c4")
    # He thinks too long: lichess's flag falls, not the board's own.
    o.wait(lambda: o.record().result == "1-0", timeout=30)
    o.wait(lambda: any("outoftime" in s for s in o.said))


def test_a_bad_token_and_a_game_that_does_not_exist_say_so(tmp_path):
    server = FakeLichess()
    try:
        api = BoardApi("lip_wrong", server.url)
        with pytest.raises(LichessError, match="refused the token"):
            api.account()
        api.close()
        api = BoardApi(TOKEN, server.url)
        with pytest.raises(LichessError, match="Not found"):
            api.move("nosuchgame", "e2e4")
        api.close()
    finally:
        server.close()


def test_an_illegal_move_from_the_server_changes_nothing_on_the_board(online):
    o = online
    gid = o.lichess_game(me_white=False, minutes=5, inc=3)
    o.server._do(lambda: (o.server.games[gid].moves.append("e2e5"), o.server._publish(o.server.games[gid])))
    o.wait(lambda: any("did not take lichess's move e2e5" in s for s in o.said))
    assert o.plies() == []


@pytest.mark.parametrize("args, env, says", [
    (["lichess", "--seek", "10+5"], {"LICHESS_TOKEN": ""}, "no LICHESS_TOKEN"),
    (["lichess", "--seek", "ten"], {"LICHESS_TOKEN": "x"}, "--seek: minutes+increment"),
    (["lichess", "--seek", "500+0"], {"LICHESS_TOKEN": "x"}, "--seek: 0 to 180 minutes"),
    (["lichess", "--seek", "3+0"], {"LICHESS_TOKEN": "x"}, "only rapid or slower games"),
    (["lichess", "--seek", "5+3"], {"LICHESS_TOKEN": "x"}, "(5+3 is 420 s)"),
    (["lichess", "--challenge", "someone", "--tc", "1+0"], {"LICHESS_TOKEN": "x"}, "only blitz or slower games"),
    (["engine", "--engine", "/no/such/engine"], {}, "not an executable file"),
    (["engine", "--engine", "/bin/true", "--fen", "not a fen"], {}, "--fen:"),
    (["engine", "--engine", "/bin/true", "--port", "/dev/no-such-board"], {}, "no serial port /dev/no-such-board"),
])
def test_a_bad_play_command_line_says_why_in_one_line(args, env, says):
    import os
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "host_tools", "play", *args], capture_output=True, text=True,
                       timeout=60, env={**os.environ, **env}, stdin=subprocess.DEVNULL)
    assert r.returncode != 0
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("python -m host_tools play: error: ") and says in lines[0], r.stderr


def test_a_bad_token_on_the_command_line_is_refused_before_anything_starts():
    import os
    import subprocess
    import sys

    server = FakeLichess()
    try:
        r = subprocess.run([sys.executable, "-m", "host_tools", "play", "lichess", "--server", server.url,
                            "--port", "/dev/null"], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "LICHESS_TOKEN": "lip_wrong"}, stdin=subprocess.DEVNULL)
    finally:
        server.close()
    assert r.returncode != 0 and "refused the token" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_joining_a_game_that_does_not_exist_says_so(online):
    o = online
    o.game.join("nosuchgm")
    o.start()
    o.wait(lambda: any("lichess has no game nosuchgm" in s for s in o.said))
    assert o.plies() == [] or o.record().source == ""


def test_an_outage_of_lichess_warns_him_and_his_move_made_meanwhile_reaches_it_once(online, monkeypatch):
    from host_tools.play import online as online_mod

    monkeypatch.setattr(online_mod, "GONE_WARN_S", 2)
    o = online
    gid = o.lichess_game(me_white=True, minutes=5, inc=3)
    o.my_move("e2e4")
    o.opponent("e7e5")
    # lichess cannot be reached: every request gets 503, the streams are cut.
    o.server.unreachable = True
    o.server.drop_streams()
    o.wait(lambda: any("counts you as gone" in s for s in o.said))
    # He moves meanwhile: the board has it, lichess cannot take it yet.
    b = o.record().board()
    o.sim.hands.move(b, chess.Move.from_uci("g1f3"))
    o.wait(lambda: o.plies()[-1:] == ["g1f3"])
    o.wait(lambda: any("may not have reached lichess" in s for s in o.said))
    tries = sum(1 for m, p, _ in o.server.requests if p.endswith("/move/g1f3"))
    time.sleep(3)  # not sent again and again while lichess is away
    assert sum(1 for m, p, _ in o.server.requests if p.endswith("/move/g1f3")) <= tries + 1
    o.server.unreachable = False
    o.wait(lambda: any("lichess is back" in s for s in o.said))
    o.wait(lambda: o.server.games[gid].moves == ["e2e4", "e7e5", "g1f3"])
    assert o.server.received.count((gid, "g1f3")) == 1
    o.opponent("b8c6")
    assert o.plies() == ["e2e4", "e7e5", "g1f3", "b8c6"]


def test_his_mate_reaches_lichess_and_the_opponents_mate_is_shown_and_said(online):
    # Fool's mate both ways. His own mating move ends the game on the board: lichess must
    # have it still (its clock would run on, and he would lose on time). The opponent's
    # mate is lit on the board and said, he carries it out, and the board has the result.
    o = online
    gid = o.lichess_game(me_white=False, minutes=10, inc=0)
    o.opponent("f2f3")
    o.my_move("e7e5")
    o.opponent("g2g4")
    b = o.record().board()
    o.sim.hands.move(b, chess.Move.from_uci("d8h4"), press=False)
    o.wait(lambda: o.server.games[gid].moves[-1:] == ["d8h4"])
    assert o.server.games[gid].status == "mate"
    o.wait(lambda: o.record().result == "0-1")
    o.wait(lambda: any("Game over: 0-1 (mate)" in s and "quit" in s for s in o.said))
    # A new game: he is White and is mated.
    o.server.new_game(me_white=True, minutes=10, inc=0)
    o.wait(lambda: o.game.game_id != gid)
    gid2 = o.game.game_id
    o.wait(lambda: o.record() is not None and o.record().source == f"lichess.org/{gid2}")
    o.setup(chess.STARTING_FEN)
    o.my_move("f2f3")
    o.opponent("e7e5")
    o.my_move("g2g4")
    o.opponent("d8h4")  # lit on the board, carried out: the board finds the mate itself
    o.wait(lambda: o.record().result == "0-1" and o.record().termination == "checkmate")
    assert any("Your opponent played Qh4#" in s for s in o.said)


def test_a_move_refused_with_429_goes_again_after_the_minute(online, monkeypatch):
    from host_tools.play import online as online_module

    monkeypatch.setattr(online_module, "RETRY_429_S", 1.5)  # lichess's minute, shortened
    o = online
    gid = o.lichess_game(me_white=True, minutes=10, inc=0)
    o.server.too_many = 1
    b = o.record().board()
    o.sim.hands.move(b, chess.Move.from_uci("e2e4"), press=False)
    o.wait(lambda: any("wait a minute" in s for s in o.said))
    assert o.server.games[gid].moves == []
    o.wait(lambda: o.server.games[gid].moves == ["e2e4"], 10)
    assert o.server.received.count((gid, "e2e4")) == 1
    assert not any("Take it back" in s for s in o.said)



def test_a_stream_line_too_long_is_told_in_words_and_the_stream_opens_again():
    # A line over aiohttp's limit (here 600 KB) raised LineTooLong, which is not a
    # ClientError: the stream's task died silently. Now it is told, in words, and the
    # stream is opened again; the next connection's events arrive.
    import asyncio
    import queue as queue_module

    from aiohttp import web

    calls = []

    async def stream(request):
        calls.append(1)
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        if len(calls) == 1:
            await resp.write(b'{"type": "x", "pad": "' + b"a" * 600_000 + b'"}\n')
        else:
            await resp.write(b'{"type": "gameStart", "game": {"gameId": "abcdefgh"}}\n')
        return resp

    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_get("/api/stream/event", stream)
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]
    threading.Thread(target=loop.run_forever, daemon=True).start()
    api = BoardApi(TOKEN, f"http://127.0.0.1:{port}")
    try:
        api.events()
        got = []
        end = time.monotonic() + 20
        while time.monotonic() < end and not any(w == "event" for w, _ in got):
            try:
                got.append(api.items.get(timeout=0.2))
            except queue_module.Empty:
                pass
        errors = [d for w, d in got if w == "event-error"]
        assert errors and "cannot read" in errors[0] and "LineTooLong" in errors[0], got[:3]
        assert ("event", {"type": "gameStart", "game": {"gameId": "abcdefgh"}}) in got
    finally:
        api.close()
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)


def test_a_seek_with_a_game_left_unfinished_plays_the_new_game(online):
    # lichess's event stream first announces the games he has going; a seek wants a new
    # one: the old game is named (with how to play it) and the new one comes to the board.
    o = online
    old = o.server.new_game(me_white=True, minutes=10, inc=0)
    o.game.seek(10, 0)
    o.start()
    o.wait(lambda: o.game.game_id not in (None, old))
    o.on_board()
    assert any(f"unfinished game on lichess (lichess.org/{old})" in s and f"--game {old}" in s for s in o.said)
    o.setup(chess.STARTING_FEN)
    o.my_move("e2e4")
    o.wait(lambda: any("Your move e2e4 is on lichess." in s for s in o.said))
    assert o.server.games[old].moves == []


def test_streams_cut_without_their_last_chunk_lose_nothing_and_are_said_once(online):
    # The network cuts the streams mid-body (no terminating chunk: aiohttp reads a broken
    # transfer encoding): said once, in words; he moves and the opponent answers meanwhile;
    # nothing is lost or sent twice.
    o = online
    gid = o.lichess_game(me_white=True, minutes=10, inc=0)
    o.setup(chess.STARTING_FEN)
    o.my_move("d2d4")
    o.opponent("d7d5")
    o.server.drop_streams(abrupt=True)
    o.my_move("c2c4")
    o.opponent("e7e6")
    assert o.plies() == ["d2d4", "d7d5", "c2c4", "e7e6"] == o.server.games[gid].moves
    assert o.server.received.count((gid, "c2c4")) == 1
    drops = [s for s in o.said if "dropped" in s]
    assert len(drops) <= 1 and not any("TransferEncodingError" in s or "ssl" in s for s in o.said)


def test_his_stalemating_move_reaches_lichess(online):
    # Qe7-f7 stalemates: the board ends the game at once (1/2-1/2), and lichess must have
    # the move too.
    o = online
    fen = "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"
    gid = o.lichess_game(me_white=True, minutes=10, inc=0, fen=fen)
    o.setup(fen)
    b = o.record().board()
    o.sim.hands.move(b, chess.Move.from_uci("e7f7"), press=False)
    o.wait(lambda: o.server.games[gid].moves == ["e7f7"])
    assert o.server.games[gid].status == "stalemate"
    o.wait(lambda: o.record().result == "1/2-1/2")



def _harmless(line: bytes, moves: str) -> bool:
    """A mangled stream line that claims nothing new of the game: no end, no other moves,
    no other white player (those a real server could send, and the tool rightly acts on)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return True
    if isinstance(obj, dict) and obj.get("type") == "gameFull" and isinstance(obj.get("white"), dict) \
            and obj["white"].get("id") != "player":
        return False
    for part in (obj, obj.get("state")) if isinstance(obj, dict) else ():
        if isinstance(part, dict) and (part.get("status", "started") != "started"
                                       or part.get("moves", moves) != moves):
            return False
    return True


def test_a_game_stream_of_mangled_lines_leaves_the_game_playing(online):
    # 400 lines a broken server might stream mid-game: events with values of every wrong
    # type (a player as a string, Infinity for a clock, 5,000 digits), JSON that is no
    # object, no JSON at all. The tool reads past them; the game goes on both ways.
    o = online
    o.lichess_game(me_white=True, minutes=10, inc=5)
    o.my_move("e2e4")
    rng = random.Random(11)
    lines = []
    while len(lines) < 400:
        line = surfacefuzz.stream_line(rng)
        if _harmless(line, "e2e4"):
            lines.append(line)
    o.server.stream_raw(o.game.game_id, lines)
    o.opponent("e7e5")
    o.my_move("g1f3")
    assert o._thread.is_alive()
    assert o.server.received[-1] == (o.game.game_id, "g1f3")


def test_a_server_answering_its_account_with_a_page_is_not_taken_for_lichess():
    # A captive portal or a proxy answers every URL with its own HTML page and 200.
    import asyncio

    from aiohttp import web

    loop = asyncio.new_event_loop()

    async def portal(request):
        return web.Response(text="<html><body>Sign in to the hotel's wifi</body></html>", content_type="text/html")

    async def start():
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", portal)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, runner.addresses[0][1]

    runner, port = loop.run_until_complete(start())
    threading.Thread(target=loop.run_forever, daemon=True).start()
    try:
        api = BoardApi(TOKEN, f"http://127.0.0.1:{port}")
        with pytest.raises(LichessError, match="answered /api/account with no account: is it lichess"):
            api.account()
        api.close()
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
