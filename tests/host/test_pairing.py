"""Two boards, one game (#39, appendix D; host_tools/relay/twoboards.py): the sighted player's
board and the blind player's paired in the round file. A move made on one is asked of the
other (`expect`); a second move before the first was repeated, or another move in its
place, is an urgent alert at once (D.2.9) that names the move where the games part and
what each board has, and both boards are told; spectators and the round PGN see one game."""
import asyncio
import contextlib
import json

import aiohttp

from tests.host.test_relay import START, FakeBoard, _relay, _until, run

GAME = f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B"


def _pair(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps({"event": "Open", "round": "1", "boards": {"1": {
        "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sighted1", "blind_serial": "tactile1",
        "blind": "black"}}}))
    sighted = FakeBoard(str(tmp_path / "boards" / "a"), serial="sighted1", events=[GAME, "@1:2 start"])
    blind = FakeBoard(str(tmp_path / "boards" / "b"), serial="tactile1", events=[GAME, "@1:2 start"])
    return sighted, blind


@contextlib.asynccontextmanager
async def _paired(tmp_path, *boards):
    """A relay on the pair's round, once both boards are there with their games: (relay,
    its sessions); then the relay stopped and the boards unplugged."""
    relay = _relay(tmp_path, round_file=tmp_path / "round.json", token="t0ken")
    await relay.start()
    try:
        s = relay.sessions
        assert await _until(lambda: 1 in s and 1001 in s and s[1].record and s[1001].record)
        yield relay, s
    finally:
        await relay.stop()
        for b in boards:
            b.close()


def test_a_move_is_asked_of_the_other_board_and_parting_games_are_told_at_once(tmp_path):
    sighted, blind = _pair(tmp_path)

    async def body():
        got = {}
        async with _paired(tmp_path, sighted, blind) as (relay, s):
            sighted.add("@1:3 move 1 e2e4 e4")  # White (sighted) moves on his board...
            assert await _until(lambda: "expect e2e4" in blind.received, 2)  # ...the blind board is asked
            blind.add("@1:3 move 1 e2e4 e4")  # repeated there
            blind.add("@1:4 move 2 e7e5 e5")  # Black (blind) moves on his board
            assert await _until(lambda: "expect e7e5" in sighted.received, 2)
            sighted.add("@1:4 move 2 e7e5 e5")
            await asyncio.sleep(0.3)
            got["in_step"] = [a["text"] for a in relay.alerts_json() if a["kind"] == "pair-differs"]
            # White moves twice on his board before the blind board repeats: at once, named.
            sighted.add("@1:5 move 3 g1f3 Nf3")
            sighted.add("@1:6 move 4 b8c6 Nc6")
            t0 = asyncio.get_running_loop().time()
            assert await _until(lambda: any(a["kind"] == "pair-differs" for a in relay.alerts_json()), 2)
            got["within"] = asyncio.get_running_loop().time() - t0
            got["parted"] = [a for a in relay.alerts_json() if a["kind"] == "pair-differs"]
            assert await _until(lambda: "message DIFFER" in blind.received and "message DIFFER" in sighted.received, 2)
            # Put right on the blind board: one game again, and said so.
            blind.add("@1:5 move 3 g1f3 Nf3")
            blind.add("@1:6 move 4 b8c6 Nc6")
            assert await _until(lambda: any(a["text"] == "the two boards are one game again" for a in relay.alerts_json()), 2)
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                public = await (await http.get(base + "api/state")).json()
                own = await (await http.get(base + "api/state", headers={"Authorization": "Bearer t0ken"})).json()
                got["pgn"] = await (await http.get(base + "round.pgn")).text()
            got["public"] = [b["number"] for b in public["boards"]]
            got["own"] = [b["number"] for b in own["boards"]]
        return got

    got = run(body())
    assert got["in_step"] == []  # each move repeated: nothing to tell
    assert got["within"] < 1.0
    (parted,) = got["parted"][:1]
    assert parted["urgent"] and parted["board"] == 1
    assert parted["text"] == ("D.2.9: the two boards differ from move 2 (White): the sighted player's board has "
                              "Nf3, Nc6, the blind player's board (board 1001) nothing; squares that differ: "
                              "g1 (empty / white knight), f3 (white knight / empty), c6 (black knight / empty), "
                              "b8 (empty / black knight)")
    assert got["public"] == [1] and got["own"] == [1, 1001]  # the blind player's board is the arbiter's
    assert got["pgn"].count("[Event ") == 1 and "1. e4 e5 2. Nf3 Nc6" in got["pgn"]
    # The arbiter's correction, in the game's PGN where the boards were one game again.
    assert "Nc6 { D.2.9, put right by the arbiter from both records: the two boards differ from move 2" in got["pgn"]


def test_one_clock_the_blind_players_and_what_the_arbiter_and_the_blind_player_are_told(tmp_path):
    # Each board is told what it is; board 1 - the public's game - shows the clock of board
    # 1001, the blind player's, and takes its %clk; the arbiter's pause on board 1 goes to
    # that clock; another move tried where one was to be repeated is named at once; with
    # touches, the sighted player's touched piece is sent to the blind player's board.
    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps({"round": "1", "boards": {"1": {
        "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sighted1", "blind_serial": "tactile1",
        "blind": "black", "touches": True}}}))
    sighted = FakeBoard(str(tmp_path / "boards" / "a"), serial="sighted1", events=[GAME])
    blind = FakeBoard(str(tmp_path / "boards" / "b"), serial="tactile1", events=[GAME, "@1:2 start"])
    got = {}

    async def body():
        async with _paired(tmp_path, sighted, blind) as (relay, s):
            assert await _until(lambda: "pair b there" in sighted.received and "pair w here" in blind.received, 2)
            sighted.add("@1:2 move 1 e2e4 e4")
            assert await _until(lambda: "expect e2e4" in blind.received, 2)
            blind.send("clock 299000 300000 b running moves=1,0 period=0,0 flags=0,0")  # White pressed there
            sighted.send("clock 300000 300000 - stopped moves=0,0 period=0,0 flags=0,0")  # its own: not the game's
            assert await _until(lambda: s[1].clock.running == "b", 2)
            await asyncio.sleep(0.2)
            got["clock"] = (s[1].clock.white_ms, s[1].clock.running)
            blind.add("@1:3 move 1 e2e4 e4")
            blind.add("@1:4 clk 1 299000")
            assert await _until(lambda: s[1].record.plies[0].clk_ms == 299000, 2)
            blind.send("attempt d7d5")  # nothing to repeat there now: an ordinary attempt, not the pair's
            await asyncio.sleep(0.2)
            got["no_attempt_alert"] = [a for a in relay.alerts_json() if a["kind"] == "pair-differs"]
            blind.add("@1:5 move 2 e7e5 e5")
            assert await _until(lambda: "expect e7e5" in sighted.received, 2)
            sighted.send("attempt g1f3")  # the sighted player moves on instead of repeating e5
            assert await _until(lambda: any(a["kind"] == "pair-differs" for a in relay.alerts_json()), 1)
            got["missing"] = [a["text"] for a in relay.alerts_json() if a["kind"] == "pair-differs"]
            sighted.send("touched g1")
            assert await _until(lambda: "touched g1" in blind.received, 2)
            base = relay.urls()["page"]
            async with aiohttp.ClientSession(headers={"Authorization": "Bearer t0ken"}) as http:
                r = await http.post(base + "api/boards/1/command", json={"command": "pause"})
                got["pause"] = (r.status, await r.json())
                got["pgn"] = await (await http.get(base + "round.pgn")).text()
            got["paused_on"] = ("pause" in blind.received, "pause" in sighted.received)

    run(body())
    assert got["clock"] == (299000, "b")  # board 1 shows the game's clock, not its own
    assert got["no_attempt_alert"] == []
    assert got["missing"] == ["D.2.9: on the sighted player's board g1f3 was tried where e5 was to be repeated"]
    assert got["pause"][0] == 200 and got["pause"][1]["board"] == 1001
    assert got["paused_on"] == (True, False)
    assert "1. e4 { [%clk 0:04:59] }" in got["pgn"]


def test_a_round_file_pairs_a_blind_players_board_only_with_his_colour():
    import pytest

    from host_tools.relay.round import RoundError, RoundInfo

    for bad in ({"blind_serial": "t1"}, {"blind": "black"}, {"blind_serial": "t1", "blind": "red"}):
        with pytest.raises(RoundError, match="blind_serial and blind"):
            RoundInfo.from_json({"boards": {"1": bad}})
    for bad in ({"touches": True}, {"blind_serial": "t1", "blind": "black", "touches": "yes"}):
        with pytest.raises(RoundError, match="touches"):
            RoundInfo.from_json({"boards": {"1": bad}})
    r = RoundInfo.from_json({"boards": {"1": {"serial": "s1", "blind_serial": "t1", "blind": "white"}}})
    assert RoundInfo.from_json(r.to_json()).boards[1]["blind_serial"] == "t1"


def test_two_simulated_boards_on_the_real_firmware_play_one_game(tmp_path):
    # Both players' boards run the firmware; each move is made on both - on the blind
    # player's board 0.15 s after the sighted player's (the same hands, repeating, before the
    # next move is made) - the relay asking the board that lags for it: one game, in step
    # to the mate, no alert, one game in the round PGN. In real time, twice as fast.
    from host_tools.sim import SimulatedBoard
    from tests.host.test_relay import LEGAL, _trace

    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps({"round": "1", "boards": {"1": {
        "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sim-sighted", "blind_serial": "sim-tactile",
        "blind": "black"}}}))
    logged = []

    first = _trace(tmp_path, LEGAL, "a.trace", 1)
    later = tmp_path / "b.trace"  # the same lines, 150 ms later
    later.write_text("".join(("%d %s\n" % (int(l.split(" ", 1)[0]) + 150, l.split(" ", 1)[1])) if l[:1].isdigit()
                             else l + "\n" for l in first.read_text().splitlines()))

    async def body():
        a = SimulatedBoard(first, speed=2, wait_host=True, link=str(tmp_path / "boards" / "a"),
                           presets=str(tmp_path / "pa.json"), board_id="sim-sighted")
        b = SimulatedBoard(later, speed=2, wait_host=True, link=str(tmp_path / "boards" / "b"),
                           presets=str(tmp_path / "pb.json"), board_id="sim-tactile")
        relay = _relay(tmp_path, round_file=tmp_path / "round.json", log=logged.append)
        await relay.start()
        try:
            s = relay.sessions
            done = lambda: all(n in s and s[n].record and s[n].record.result != "*" for n in (1, 1001))
            assert await _until(done, 60)
            await asyncio.sleep(0.5)
            return ([p.san for p in s[1].record.plies], [p.san for p in s[1001].record.plies],
                    [x["kind"] for x in relay.alerts_json()], relay.round_pgn())
        finally:
            await relay.stop()
            a.stop()
            b.stop()

    sighted, blind, kinds, pgn = run(body())
    assert sighted == blind == LEGAL
    assert "pair-differs" not in kinds
    assert pgn.count("[Event ") == 1 and '[White "Sighted, Sam"]' in pgn
    assert any("relay sent 'expect " in line for line in logged)  # the lagging board was asked


def test_the_arbiters_page_shows_the_two_boards_side_by_side(tmp_path):
    # The arbiter's page in chromium: board 1001 beside board 1, each with its position and
    # its recorded game; the squares where the two differ outlined.
    import pytest

    from tests.host.test_web_page import ARGS, CHROMIUM, shot

    if not CHROMIUM:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    sighted, blind = _pair(tmp_path)
    got = {}

    async def body():
        async with _paired(tmp_path, sighted, blind) as (relay, s):
            sighted.add("@1:3 move 1 e2e4 e4")
            blind.add("@1:3 move 1 e2e4 e4")
            sighted.add("@1:4 move 2 e7e5 e5")  # Black's move made on the sighted board...
            blind.add("@1:4 move 2 e7e6 e6")  # ...and another on the blind player's: they differ
            assert await _until(lambda: len(s[1001].record.plies) == 2 and len(s[1].record.plies) == 2)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                await page.goto(relay.urls()["page"] + "arbiter")
                await page.fill("#login [name=token]", "t0ken")
                await page.click("#login button")
                await page.wait_for_selector("#board-1001 [data-part=diagram] td")
                await page.wait_for_function("document.querySelectorAll('#board-1 td.differs').length == 2")
                got["pair"] = await page.evaluate(
                    "() => { const a = document.getElementById('board-1'), b = document.getElementById('board-1001');"
                    " return [a.parentElement === b.parentElement && a.parentElement.classList.contains('pair'),"
                    " a.getBoundingClientRect().top === b.getBoundingClientRect().top,"
                    " a.getBoundingClientRect().right <= b.getBoundingClientRect().left]; }")
                got["differs"] = await page.eval_on_selector_all("#board-1 td.differs", "tds => tds.map(t => t.title)")
                got["sheets"] = [await page.inner_text(f"#board-{n} [data-part=scoresheet]") for n in (1, 1001)]
                pair = await page.query_selector("#board-1 >> xpath=..")
                await pair.screenshot(path=shot(tmp_path, "pair.png"))  # the docs' picture
                await browser.close()

    run(body())
    assert got["pair"] == [True, True, True]  # one beside the other
    assert sorted(got["differs"]) == ["e5", "e6"]
    assert got["sheets"] == ["The sighted player's board: 1. e4 e5", "The blind player's board: 1. e4 e6"]


def test_the_blind_players_seat_follows_him_when_his_colour_changes(tmp_path):
    # The round file names the blind player's half of his clock (blind_seat): round 1 he
    # sits at the left and plays Black, round 2 he plays White at the same seat. His board -
    # the real firmware - is told where White sits each round (`access white=`), and its
    # access settings, kept on its flash, follow: his blind seat stays the left.
    from host_tools.relay.round import RoundInfo
    from host_tools.sim import SimulatedBoard

    (tmp_path / "boards").mkdir()

    def pairing(colour):
        return {"round": "1", "boards": {"1": {
            "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sighted1", "blind_serial": "sim-tactile",
            "blind": colour, "blind_seat": "left"}}}

    (tmp_path / "round.json").write_text(json.dumps(pairing("black")))
    sighted = FakeBoard(str(tmp_path / "boards" / "a"), serial="sighted1", events=[GAME])
    flash = tmp_path / "flash"
    blind = SimulatedBoard(hands=True, wait_host=True, board_id="sim-tactile", link=str(tmp_path / "boards" / "b"),
                           flash=flash, commands=["access blind=left"])
    saved = lambda: json.loads((flash / "access.json").read_text())
    got = {}

    async def body():
        relay = _relay(tmp_path, round_file=tmp_path / "round.json", log=relay_log.append)
        await relay.start()
        try:
            s = relay.sessions
            assert await _until(lambda: 1001 in s and s[1001].record is not None, 20)
            assert await _until(lambda: (flash / "access.json").exists() and saved()["white"] == "right", 10)
            got["black"] = saved()
            relay.set_round(RoundInfo.from_json(pairing("white")))  # the next round: he has White
            assert await _until(lambda: saved()["white"] == "left", 10)
            got["white"] = saved()
            got["sent"] = [line for line in relay_log if "access white=" in line]
        finally:
            await relay.stop()

    relay_log = []
    try:
        run(body())
    finally:
        blind.stop()
        sighted.close()
    assert got["black"]["white"] == "right" and got["black"]["blind"] == "l"  # Black at the left: White right
    assert got["white"]["white"] == "left" and got["white"]["blind"] == "l"  # White at the left, the same seat
    assert [line.split("relay sent ")[1] for line in got["sent"]] == ["'access white=right'", "'access white=left'"]
    assert not [line for line in sighted.received if line.startswith("access")]  # the sighted board: nothing


def test_play_pair_tells_the_blind_players_board_his_seat_and_where_white_sits(tmp_path):
    # `play pair --blind black --seat left`: his board is set by his seat, White at the right.
    import chess

    from host_tools.play import pair

    sighted = FakeBoard(str(tmp_path / "a"), serial="sighted1")
    blind = FakeBoard(str(tmp_path / "b"), serial="tactile1")
    try:
        names = pair.set_up(str(tmp_path / "a"), str(tmp_path / "b"), chess.BLACK, "300+2", "A", "B", "left")
        path = pair.round_file(tmp_path / "out", *names, chess.BLACK, "A", "B", False, seat="left")
    finally:
        sighted.close()
        blind.close()
    assert names == ("sighted1", "tactile1")
    assert "access blind=left white=right" in blind.received
    assert not [line for line in sighted.received if line.startswith("access")]
    assert json.loads(path.read_text())["boards"]["1"]["blind_seat"] == "left"
    assert pair.white_seat(chess.WHITE, "left") == "left" and pair.white_seat(chess.WHITE, "right") == "right"


def test_a_round_changed_during_a_game_leaves_its_seats_until_it_is_over(tmp_path):
    # The next round posted while the blind player's game still runs: his board keeps its
    # seats for that game (a swap would hand his motor and ask key to the other colour),
    # and is told where White sits once its game is over.
    from host_tools.relay.round import RoundInfo

    sighted, blind = _pair(tmp_path)  # he is Black, at the left (blind_seat left unless named)

    async def body():
        got = {}
        async with _paired(tmp_path, sighted, blind) as (relay, s):
            assert await _until(lambda: "access white=right" in blind.received, 2)
            blind.add("@1:3 move 1 e2e4 e4")
            assert await _until(lambda: len(s[1001].record.plies) == 1, 2)
            r = relay.round.to_json()
            r["boards"]["1"]["blind"] = "white"
            relay.set_round(RoundInfo.from_json(r))
            await asyncio.sleep(0.5)
            got["during"] = "access white=left" in blind.received
            blind.add("@1:4 result 1-0 resignation")
            got["after"] = await _until(lambda: "access white=left" in blind.received, 2)
            got["sighted"] = [line for line in sighted.received if line.startswith("access")]
        return got

    got = run(body())
    assert got == {"during": False, "after": True, "sighted": []}


class _SeatedBoard(FakeBoard):
    """The blind player's board with its own access settings: `access` answered as the
    firmware does (`access blind=... white=...`, then `ok access`), what it sets kept."""

    def __init__(self, link, serial, blind):
        self.blind, self.white = blind, "left"
        super().__init__(link, serial=serial, events=[GAME, "@1:2 start"])

    def answer(self, text):
        words = text.split()
        if words[0] == "access":
            for w in words[1:]:
                k, _, v = w.partition("=")
                if k in ("blind", "white"):
                    setattr(self, k, v)
            self.send(f"access blind={self.blind} visual=- buzzer=on code=tactileclock intensity=80,100 "
                      f"thresholds=600,300,60,10 speech=off volume=20 ears=- white={self.white}")
        super().answer(text)


def test_a_blind_players_board_whose_signals_are_not_at_his_seat_is_told_to_the_arbiter(tmp_path):
    # The mistaken party: the blind player's own board, its signals set for the right half
    # (`access blind=right`, kept on its flash from another event), while the round file
    # seats him at the left. The relay asks his board, alerts the arbiter at once (his
    # motor, ask key and voice would be on his opponent's half) and logs it; the arbiter
    # corrects the round's blind_seat and is told that board and round agree. The sighted
    # player's board is never asked.
    from host_tools.relay.round import RoundInfo

    (tmp_path / "boards").mkdir()
    pairing = {"event": "Open", "round": "1", "boards": {"1": {
        "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sighted1", "blind_serial": "tactile1",
        "blind": "black", "blind_seat": "left"}}}
    (tmp_path / "round.json").write_text(json.dumps(pairing))
    sighted = FakeBoard(str(tmp_path / "boards" / "a"), serial="sighted1", events=[GAME, "@1:2 start"])
    blind = _SeatedBoard(str(tmp_path / "boards" / "b"), "tactile1", "right")
    logged = []

    def seat_alerts(relay):
        return [a for a in relay.alerts.json() if a["kind"] == "blind-seat"]

    async def body():
        got = {}
        relay = _relay(tmp_path, round_file=tmp_path / "round.json", log=logged.append)
        await relay.start()
        try:
            assert await _until(lambda: seat_alerts(relay), 10)
            await asyncio.sleep(0.3)
            got["first"] = seat_alerts(relay)
            r = relay.round.to_json()
            r["boards"]["1"]["blind_seat"] = "right"  # the arbiter: he sits at the right after all
            relay.set_round(RoundInfo.from_json(r))
            assert await _until(lambda: len(seat_alerts(relay)) == 2, 10)
            got["then"] = seat_alerts(relay)[-1]
        finally:
            await relay.stop()
        return got

    try:
        got = run(body())
    finally:
        blind.close()
        sighted.close()
    [first] = got["first"]  # once, however often the board says it
    assert first["urgent"] and first["board"] == 1001  # his board's group on the desk
    assert "blind=right" in first["text"] and "seats him at the left" in first["text"]
    assert [line for line in logged if "ALERT" in line and "blind=right" in line]
    assert not got["then"]["urgent"] and "at the right" in got["then"]["text"]
    assert "access" in blind.received
    assert not [line for line in sighted.received if line.startswith("access")]


def test_a_blind_players_board_at_his_seat_raises_nothing(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps({"event": "Open", "round": "1", "boards": {"1": {
        "white": "Sighted, Sam", "black": "Blind, Bea", "serial": "sighted1", "blind_serial": "tactile1",
        "blind": "black", "blind_seat": "right"}}}))
    sighted = FakeBoard(str(tmp_path / "boards" / "a"), serial="sighted1", events=[GAME, "@1:2 start"])
    blind = _SeatedBoard(str(tmp_path / "boards" / "b"), "tactile1", "both")

    async def body():
        async with _paired(tmp_path, sighted, blind) as (relay, s):
            assert await _until(lambda: "access" in blind.received, 5)
            await asyncio.sleep(0.5)
            return [a for a in relay.alerts.json() if a["kind"] == "blind-seat"]

    assert run(body()) == []
