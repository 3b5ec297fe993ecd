"""The LiveChess API played by a client that does what lichess's DGT page does (lila
ui/dgt/src/play.ts, connectToLiveChess and sendBoardToLiveChess): it asks for the eboards,
subscribes to the first, sends `setup` with lichess's position each time it attaches to a
game, counts the new moves of a feed as the length of `san` minus the length it saw last,
ignores a list it has already seen, holds back a feed with more than one new move on its
own turn for 2.5 s, sends its player's moves to lichess and takes the opponent's moves,
carried out on the board, as adjustments. Whole games with castling and a promotion, as
White and as Black, with the page reloaded in the middle."""
import asyncio
import json

import aiohttp
import chess
import pytest

from tests.host.test_relay import START, FakeBoard, _relay, _until, run

# White promotes on a8 (taking the rook); both sides castle short.
GAME = "e4 d5 exd5 c6 dxc6 Nf6 cxb7 Bg4 bxa8=Q Qd7 Nf3 e6 Be2 Bc5 O-O O-O Qxb8 Rxb8".split()
RELOAD_AFTER = 7  # plies: the page is reloaded here


class Lichess:
    """The game on lichess: its moves (UCI, as the Board API's gameState has them)."""

    def __init__(self):
        self.board = chess.Board()

    def last_uci(self):
        return self.board.peek().uci() if self.board.move_stack else None


class LichessDgtPage:
    """The page's LiveChess side, step for step."""

    def __init__(self, url, color, lichess):
        self.url, self.color, self.lichess = url, color, lichess
        self.local = chess.Board()
        self.last = None  # lastLegalParam
        self.sent = []  # moves sent to lichess (POST /api/board/game/{id}/move/{uci})
        self.errors = []  # what the page would announce as illegal or a mismatch
        self.ws = None

    async def attach(self, http):
        self.ws = await http.ws_connect(self.url, headers={"Origin": "https://lichess.org"})
        await self.ws.send_str('{"id":1,"call":"eboards"}')
        self.task = asyncio.create_task(self._read())

    async def _read(self):
        async for msg in self.ws:
            await self._message(json.loads(msg.data))

    async def _message(self, message):
        if message["response"] == "call" and message["id"] == 1:
            serial = message["param"][0]["serialnr"]
            await self.ws.send_str(json.dumps({"id": 2, "call": "subscribe", "param": {
                "feed": "eboardevent", "id": 1, "param": {"serialnr": serial}}}))
            # A game in progress on lichess: the board is set up as lichess has it.
            await self.ws.send_str(json.dumps({"id": 3, "call": "call", "param": {
                "id": 1, "method": "setup", "param": {"fen": self.lichess.board.fen()}}}))
            self.local = self.lichess.board.copy()
            self.last = {"board": "", "san": []}
        elif message["response"] == "feed" and message["param"].get("san") is not None:
            param = message["param"]
            san = param["san"]
            if not san:
                return
            if self.last is not None and self.last["san"] == san:
                return  # a duplicate
            n = 1 if self.last is None else len(san) - len(self.last["san"])
            if n > 1 and self.local.turn == self.color:
                held = self.last
                await asyncio.sleep(2.5)  # the page's quarantine
                if self.last is not held or (self.last is not None and self.last["san"] == san):
                    return
            self.last = param
            for i in range(n, 0, -1):
                text = san[len(san) - i]
                try:
                    move = self.local.parse_san(text)
                except ValueError:
                    if text != self.lichess.last_uci() and not text.startswith("O-"):
                        self.errors.append(f"not legal here: {text} in {self.local.fen()}")
                    continue
                if self.local.turn == self.color:
                    self.sent.append(move.uci())
                    self.local.push(move)
                elif move.uci() == self.lichess.last_uci():
                    self.local.push(move)  # the opponent's move carried out on the board
                else:
                    self.errors.append(f"wrong adjustment: {text}, lichess played {self.lichess.last_uci()}")

    async def detach(self):
        await self.ws.close()
        self.task.cancel()


@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK], ids=["white", "black"])
def test_a_whole_game_through_lichess_dgt_page(tmp_path, color):
    (tmp_path / "boards").mkdir()
    lichess = Lichess()

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f1"),
                         events=[f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start"])
        relay = _relay(tmp_path)
        await relay.start()
        seq = 2
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and relay.sessions[1].record.last_seq == 2)
            url = relay.urls()["livechess"]
            async with aiohttp.ClientSession() as http:
                page = LichessDgtPage(url, color, lichess)
                await page.attach(http)
                await asyncio.sleep(0.3)
                board = chess.Board()
                for ply, text in enumerate(GAME, 1):
                    move = board.parse_san(text)
                    mover = board.turn
                    if mover != color:
                        lichess.board.push(move)  # the opponent's move, on lichess first
                    fake.add(f"@1:{seq + 1} move {ply} {move.uci()} {text}")
                    fake.add(f"@1:{seq + 2} clk {ply} 300000")
                    seq += 2
                    board.push(move)
                    if mover == color:
                        assert await _until(lambda: move.uci() in page.sent[-1:], 10), (ply, text, page.errors)
                        lichess.board.push(move)  # lichess has it: the opponent's turn
                    else:
                        assert await _until(lambda: len(page.local.move_stack) == len(lichess.board.move_stack), 10), \
                            (ply, text, page.errors)
                    if ply == RELOAD_AFTER:
                        await page.detach()
                        sent = page.sent
                        page = LichessDgtPage(url, color, lichess)
                        page.sent = sent
                        await page.attach(http)
                        await asyncio.sleep(1.5)  # a first feed, and clock feeds, come and go
                await asyncio.sleep(1.5)
                await page.detach()
        finally:
            await relay.stop()
            fake.close()
        return page, fake.received

    page, received = run(body())
    mine = []
    b = chess.Board()
    for text in GAME:
        m = b.parse_san(text)
        if b.turn == color:
            mine.append(m.uci())
        b.push(m)
    assert page.errors == []
    assert page.sent == mine  # each of the player's moves once, nothing of the opponent's
    assert page.local.fen() == b.fen()
    assert not [r for r in received if r.split()[0] in ("new", "start", "pause", "resume", "set")]
