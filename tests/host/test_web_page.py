"""The live page in a real headless browser (Debian's chromium, driven by playwright), as a
spectator uses it: the moves, clocks and result that a board sent, the running clock
ticking, the last move and a king in check highlighted, coordinates, flipping, stepping
through the moves with the mouse and the keyboard, a board alone at its own URL, paused and
flag-fallen games, the players' titles, ratings and federations, the clock chart through a
penalty, the PGN links, the engine's evaluation (and switching it off), new moves announced
to a screen reader, the high-contrast theme; on desktop and phone sizes."""
import asyncio
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from host_tools.engines import EngineMissing, find_engine
from tests.host.test_relay import START, FakeBoard, _relay, _until, fake_board_on_a_relay

# The docs' pictures (docs/img/) are taken by these tests: into the test's own temporary
# folder at every run (a test never writes into the repository), and into the folder
# PAGE_SHOTS names when asked - `PAGE_SHOTS=docs/img` renews the docs' pictures
# (docs/developer.md), the boards in a fixed order.


def shot(tmp_path, name: str) -> str:
    """Where a page's picture `name` goes: PAGE_SHOTS's folder, else the test's tmp_path."""
    folder = Path(os.environ.get("PAGE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / name)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_the_page_shows_the_boards(tmp_path):
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=Anna black=Bo", "@1:2 start",
              "@1:3 move 1 e2e4 e4", "@1:4 clk 1 301000", "@1:5 move 2 e7e5 e5", "@1:6 clk 2 299500",
              "@1:7 move 3 g1f3 Nf3", "@1:8 clk 3 297000"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        relay = _relay(tmp_path)
        await relay.start()
        shots = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and relay.sessions[1].record.last_seq == 8)
            fake.send("clock 297000 299500 b running moves=2,1 period=0,0 flags=0,0")
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-1 [data-moves] span")
                await page.wait_for_function(
                    "document.querySelector('#board-1 .player.black').classList.contains('running')")
                shots["moves"] = await page.inner_text("#board-1 [data-moves]")
                shots["white"] = await page.inner_text("#board-1 [data-clock=white]")
                first = await page.inner_text("#board-1 [data-clock=black]")
                await asyncio.sleep(1.3)
                shots["ticked"] = (first, await page.inner_text("#board-1 [data-clock=black]"))
                shots["highlight"] = await page.eval_on_selector_all(
                    "#board-1 rect.last", "rs => rs.map(r => r.dataset.square)")
                shots["knights"] = await page.eval_on_selector_all("#board-1 text[data-piece=N]", "es => es.length")
                shots["chart"] = await page.eval_on_selector("#board-1 svg.chart polyline.line-white", "e => e.getAttribute('points')")
                fake.add("@1:9 result 1-0 resignation")
                await page.wait_for_function("(document.querySelector('#board-1 [data-result]') || {}).textContent?.includes('1-0')")
                shots["result"] = await page.inner_text("#board-1 [data-result]")
                # The arbiter names the round and a player on his page; the spectators'
                # page follows, and has no form of its own.
                arbiter = await browser.new_page()
                await edit_round(arbiter, relay, {"event": "Club night"}, {1: {"white": "Anna Rudolf"}})
                await page.wait_for_function(
                    "document.querySelector('#board-1 .player.white').textContent.includes('Anna Rudolf')")
                shots["event"] = await page.inner_text("#event")
                shots["forms"] = await page.eval_on_selector_all("form, input[type=password]", "es => es.length")
                await page.screenshot(path=str(tmp_path / "page.png"))
                phone = await browser.new_page(viewport={"width": 390, "height": 844})
                await phone.goto(relay.urls()["page"])
                await phone.wait_for_selector("#board-1 svg.board")
                box = await phone.eval_on_selector("#board-1 svg.board", "e => e.getBoundingClientRect().width")
                shots["phone_width"] = box
                await phone.screenshot(path=str(tmp_path / "phone.png"))
                await browser.close()
        finally:
            await relay.stop()
            fake.close()
        return shots

    s = asyncio.run(body())
    assert "1. e4 e5" in s["moves"].replace("\n", " ") and "Nf3" in s["moves"]
    assert s["white"] == "4:57"
    first, later = s["ticked"]
    assert first != later  # Black's clock runs on the page between messages
    assert sorted(s["highlight"]) == ["f3", "g1"]
    assert s["knights"] == 2  # White's knights: b1 and f3
    assert s["chart"] and len(s["chart"].split()) >= 2
    assert "1-0" in s["result"] and "resignation" in s["result"]
    assert 300 <= s["phone_width"] <= 390  # the board fits a phone's width
    assert s["event"].startswith("Club night")
    assert s["forms"] == 0  # no round form, no token field for spectators


async def edit_round(page, relay, fields: dict, boards: dict) -> None:
    """On the arbiter's page (signed in with the relay's token): the round's fields
    (event, round) and the pairings' names (board -> {white, black, serial}) typed in its
    round form and saved, as an arbiter does."""
    if not page.url.endswith("/arbiter"):
        await page.goto(relay.urls()["arbiter"])
        await page.fill("#login [name=token]", relay.token)
        await page.click("#login button")
    await page.click("#round-panel summary")
    for name, value in fields.items():
        await page.fill(f"#round-form [name={name}]", value)
    for n, names in boards.items():
        for color, value in names.items():
            await page.fill(f"#pairings tr[data-board='{n}'] [name={color}]", value)
    await page.eval_on_selector("#round-said", "e => e.textContent = ''")
    await page.click("#round-form button[type=submit]")
    await page.wait_for_function("document.getElementById('round-said').textContent !== ''")
    said = await page.inner_text("#round-said")
    assert said == "saved", said


def test_names_show_as_text_never_as_markup(tmp_path):
    # A name is the board's or the round's text: on the page it stays text (no element, no
    # script), in the card and in the round form.
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    from host_tools.protocol import encode

    evil = "<img src=x onerror=\"document.title='pwned'\">"
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white={encode(evil)} black=Bo%22%3E%3Cb%3Ex",
              "@1:2 start", "@1:3 move 1 e2e4 e4"]

    async def body():
        async with fake_board_on_a_relay(tmp_path, events) as (fake, relay):
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page()
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-1 [data-moves] span")
                await asyncio.sleep(0.3)
                got = {"white": await page.inner_text("#board-1 .player.white span"),
                       "black": await page.inner_text("#board-1 .player.black span"),
                       "imgs": await page.eval_on_selector_all("#board-1 img, #board-1 b:not([data-moves] b)",
                                                               "es => es.length"),
                       "title": await page.title()}
                arbiter = await browser.new_page()
                arbiter.on("dialog", lambda d: asyncio.ensure_future(d.dismiss()))
                await arbiter.goto(relay.urls()["arbiter"])
                await arbiter.fill("#login [name=token]", relay.token)
                await arbiter.click("#login button")
                await arbiter.wait_for_selector("#pairings tr[data-board='1']", state="attached")
                got["form"] = await arbiter.input_value("#pairings tr[data-board='1'] [name=white]")
                got["form_b"] = await arbiter.input_value("#pairings tr[data-board='1'] [name=black]")
                got["desk"] = await arbiter.inner_text("#board-1 [data-part=players]")
                got["arbiter_title"] = await arbiter.title()
                await browser.close()
        return got

    got = asyncio.run(body())
    assert got["white"] == evil and got["black"] == 'Bo"><b>x'
    assert got["imgs"] == 0 and got["title"] != "pwned"
    assert got["form"] == evil and got["form_b"] == 'Bo"><b>x'
    assert got["desk"].startswith(evil) and got["arbiter_title"] != "pwned"


PROMOTION_FEN = "7k/P7/8/8/8/8/8/K7%20w%20-%20-%200%2040"
BOARD_1 = [f"@1:1 game tc=300+2 fen={PROMOTION_FEN} chess960=- white=Anna black=Bo", "@1:2 start",
           "@1:3 move 1 a7a8q a8=Q+", "@1:4 clk 1 301000", "@1:5 move 2 h8h7 Kh7", "@1:6 clk 2 299000",
           "@1:7 penalty b 120000", "@1:8 move 3 a8b7 Qb7+", "@1:9 clk 3 298000",
           "@1:10 move 4 h7g6 Kg6", "@1:11 clk 4 417000"]
BOARD_2 = [f"@1:1 game tc=5400/40+1800+30 fen={START} chess960=- white=Carla black=Dan", "@1:2 start",
           "@1:3 move 1 e2e4 e4", "@1:4 clk 1 5420000", "@1:5 move 2 e7e5 e5", "@1:6 clk 2 5410000"]
ROUND = {"event": "Club night", "round": "4", "site": "Milan", "date": "2026.11.24", "boards": {
    "1": {"serial": "fake1", "white": "Anna Rudolf", "black": "Bo", "white_title": "IM", "white_rating": 2360,
          "white_fed": "HUN", "black_rating": 1840, "black_fed": "ITA"},
    "2": {"serial": "fake2", "white": "Carla", "black": "Dan"}}}


def _stockfish():
    try:
        return find_engine()
    except EngineMissing:
        pytest.fail("Stockfish is missing: ./run test installs it (Debian package stockfish)")


def test_a_spectator_follows_two_boards(tmp_path):
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps(ROUND))

    async def body():
        one = FakeBoard(str(tmp_path / "boards" / "a"), serial="fake1", events=BOARD_1)
        two = FakeBoard(str(tmp_path / "boards" / "b"), serial="fake2", events=BOARD_2)
        relay = _relay(tmp_path, round_file=round_file,
                       analysis={"engine_path": _stockfish(), "movetime_ms": 100})
        await relay.start()
        got, errors = {}, []
        try:
            s = relay.sessions
            assert await _until(lambda: all(n in s and s[n].record for n in (1, 2))
                                and s[1].record.last_seq == 11 and s[2].record.last_seq == 6)
            one.send("clock 298000 417000 w running moves=2,2 period=0,0 flags=0,0")
            two.send("clock 5420000 5410000 w paused moves=1,1 period=0,0 flags=0,0")
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-2 [data-paused]")
                await page.wait_for_selector("#board-1 .player.white.running")
                got["coords"] = await page.eval_on_selector_all("#board-1 text.coord", "es => es.map(e => e.textContent).join('')")
                got["check"] = await page.eval_on_selector_all("#board-1 rect.check", "rs => rs.map(r => r.dataset.square)")
                got["queen"] = await page.eval_on_selector_all("#board-1 text[data-piece=Q]", "es => es.map(e => e.dataset.on)")
                got["white"] = await page.inner_text("#board-1 .player.white .who")
                got["black"] = await page.inner_text("#board-1 .player.black .who")
                got["paused_clock"] = await page.inner_text("#board-2 [data-clock=white]")
                await asyncio.sleep(1.2)
                got["paused_later"] = await page.inner_text("#board-2 [data-clock=white]")
                # The clock chart: Black's clock goes up after the penalty, never clipped.
                got["chart_black"] = await page.eval_on_selector(
                    "#board-1 polyline.line-black", "e => e.getAttribute('points')")
                got["legend"] = await page.inner_text("#board-1 .legend")
                got["ticks"] = await page.eval_on_selector_all("#board-1 svg.chart text.tick", "es => es.length")
                # Flipping: a1 goes from the bottom row to the top one.
                a1 = "e => e.getAttribute('y')"
                got["a1_before"] = await page.eval_on_selector("#board-1 rect[data-square=a1]", a1)
                await page.click("#board-1 [data-flip]")
                got["a1_flipped"] = await page.eval_on_selector("#board-1 rect[data-square=a1]", a1)
                got["top_player_flipped"] = await page.eval_on_selector(
                    "#board-1 .side .player", "e => e.classList.contains('white')")
                await page.click("#board-1 [data-flip]")
                # Stepping through the moves: a click, the arrows, Home and End.
                await page.click("#board-1 button.move[data-ply='1']")
                got["at_1"] = (await page.inner_text("#board-1 [data-where]"),
                               await page.eval_on_selector_all("#board-1 text[data-piece=Q]", "es => es.map(e => e.dataset.on)"),
                               await page.eval_on_selector_all("#board-1 rect.check", "rs => rs.map(r => r.dataset.square)"))
                await page.focus("#board-1")
                await page.keyboard.press("ArrowLeft")
                got["at_0"] = (await page.eval_on_selector_all("#board-1 text[data-piece=P]", "es => es.map(e => e.dataset.on)"),
                               await page.eval_on_selector_all("#board-1 rect.last", "rs => rs.length"))
                await page.keyboard.press("ArrowRight")
                await page.keyboard.press("ArrowRight")
                got["at_2"] = await page.eval_on_selector_all("#board-1 text[data-piece=k]", "es => es.map(e => e.dataset.on)")
                # A new move while the spectator looks back: he stays where he is, and hears it.
                one.add("@1:12 move 5 b7b6 Qb6+")
                await page.wait_for_function("document.getElementById('announce').textContent.includes('Qb6+')")
                got["announced"] = await page.inner_text("#announce")
                got["still_at_2"] = await page.inner_text("#board-1 [data-where]")
                await page.keyboard.press("End")
                got["live"] = (await page.inner_text("#board-1 [data-where]"),
                               await page.eval_on_selector_all("#board-1 text[data-piece=Q]", "es => es.map(e => e.dataset.on)"),
                               await page.eval_on_selector_all("#board-1 rect.check", "rs => rs.map(r => r.dataset.square)"))
                got["label"] = await page.eval_on_selector("#board-1 svg.board", "e => e.getAttribute('aria-label')")
                # The flag: on the clock line, which flag fell first.
                one.send("clock 0 417000 w stopped moves=3,2 period=0,0 flags=1,0")
                await page.wait_for_selector("#board-1 [data-flag]")
                got["flag"] = (await page.inner_text("#board-1 [data-flag]"), await page.inner_text("#board-1 .player.white .flag"))
                # The engine's evaluation, for spectators, and switched off.
                await page.wait_for_selector("#board-2 .evalbar:not(.pending)")
                got["eval"] = await page.eval_on_selector("#board-2 .evalbar:not(.pending)", "e => e.dataset.eval")
                got["pv"] = await page.inner_text("#board-2 .pv")
                await page.wait_for_selector("#board-1 .evalbar:not(.pending)")
                got["eval_1"] = await page.eval_on_selector("#board-1 .evalbar:not(.pending)", "e => e.dataset.eval")
                await page.click("#engine-toggle")
                got["eval_off"] = await page.eval_on_selector_all(".evalbar, .pv", "es => es.length")
                # High contrast.
                light = "getComputedStyle(document.documentElement).getPropertyValue('--light').trim()"
                got["light"] = await page.evaluate(light)
                await page.click("#contrast-toggle")
                got["light_contrast"] = await page.evaluate(light)
                # The PGN links.
                hrefs = await page.eval_on_selector_all("a[download]", "es => es.map(e => e.getAttribute('href'))")
                got["hrefs"] = hrefs
                got["pgn_1"] = await page.evaluate("fetch('/boards/1.pgn').then(r => r.text())")
                got["round_pgn"] = await page.evaluate("fetch('/round.pgn').then(r => r.text())")
                # A second game on board 1: the first stays a link away.
                one.send(f"@2:1 game tc=300+2 fen={START} chess960=- white=Anna black=Bo")
                await page.wait_for_selector("#board-1 a[data-game='1']")
                href = await page.eval_on_selector("#board-1 a[data-game='1']", "e => e.getAttribute('href')")
                got["earlier"] = (href, await page.evaluate(f"fetch('{href}').then(r => r.text())"),
                                  await page.evaluate("fetch('/boards/1.pgn').then(r => r.text())"))
                # A name changed on the arbiter's page: titles, ratings, federations stay.
                arbiter = await browser.new_page()
                await edit_round(arbiter, relay, {}, {1: {"black": "Bo Larsen"}})
                await arbiter.close()
                await page.wait_for_function(
                    "document.querySelector('#board-1 .player.black').textContent.includes('Bo Larsen')")
                got["kept"] = (await page.inner_text("#board-1 .player.white .who"),
                               await page.inner_text("#board-1 .player.black .who"))
                got["kept_tags"] = await page.evaluate("fetch('/boards/1/games/1.pgn').then(r => r.text())")
                await page.screenshot(path=shot(tmp_path, "page.png"), full_page=True)
                # One board alone, at its own URL (and the preference kept).
                await page.click("#board-2 a.open")
                await page.wait_for_selector("#board-2 svg.board")
                got["single_url"] = page.url
                got["single_cards"] = await page.eval_on_selector_all("section.card", "es => es.map(e => e.id)")
                got["single_width"] = await page.eval_on_selector("#board-2 svg.board", "e => e.getBoundingClientRect().width")
                got["single_title"] = await page.title()
                got["single_eval"] = await page.eval_on_selector_all(".evalbar", "es => es.length")
                await page.keyboard.press("ArrowLeft")
                got["single_key"] = await page.inner_text("#board-2 [data-where]")
                await page.screenshot(path=shot(tmp_path, "single.png"))
                phone = await browser.new_page(viewport={"width": 390, "height": 844})
                phone.on("pageerror", lambda e: errors.append(str(e)))
                await phone.goto(relay.urls()["page"].rstrip("/") + "/board/1")
                await phone.wait_for_selector("#board-1 svg.board")
                got["phone"] = await phone.eval_on_selector(
                    "body", "b => [b.scrollWidth, document.querySelector('#board-1 svg.board').getBoundingClientRect().width]")
                await phone.screenshot(path=shot(tmp_path, "phone.png"), full_page=True)
                await browser.close()
            got["to_boards"] = one.received + two.received
        finally:
            await relay.stop()
            one.close()
            two.close()
        return got, errors

    got, errors = asyncio.run(body())
    assert errors == []
    assert sorted(got["coords"]) == sorted("abcdefgh12345678")
    assert got["check"] == []  # after Kg6 no king is in check
    assert got["queen"] == ["b7"]
    assert "IM" in got["white"] and "Anna Rudolf" in got["white"] and "2360" in got["white"] and "HUN" in got["white"]
    assert "1840" in got["black"] and "ITA" in got["black"]
    assert got["paused_clock"] == got["paused_later"] == "1:30:20"  # a paused clock does not tick
    mins = [float(pt.split(",")[1]) for pt in got["chart_black"].split()]
    assert len(mins) == 2 and mins[1] < mins[0]  # higher on the chart: 4:59 then 6:57
    assert "Anna Rudolf" in got["legend"] and "Bo" in got["legend"] and "minutes" in got["legend"]
    assert got["ticks"] >= 4
    assert got["a1_before"] == "7" and got["a1_flipped"] == "0" and got["top_player_flipped"]
    where, queen, check = got["at_1"]
    assert where.startswith("move 1 of 4") and queen == ["a8"] and check == ["h8"]
    pawns, lit = got["at_0"]
    assert pawns == ["a7"] and lit == 0
    assert got["at_2"] == ["h7"]
    assert "Board 1" in got["announced"] and "42. Qb6+" in got["announced"] and "Anna Rudolf" in got["announced"]
    assert got["still_at_2"].startswith("move 2 of 5")
    assert got["live"] == ("live", ["b6"], ["g6"])
    assert "Qb6+" in got["label"] and "queen b6" in got["label"] and "king g6" in got["label"]
    assert "White's flag fell" in got["flag"][0] and "flag" in got["flag"][1]
    assert re.fullmatch(r"[+-]\d+\.\d", got["eval"]), got["eval"]
    assert got["pv"].startswith(got["eval"]) and "2." in got["pv"]
    e1 = got["eval_1"]  # a queen up: White wins (a mate, or a large score)
    assert (e1.startswith("#") and not e1.startswith("#-")) or float(e1) > 5, e1
    assert got["eval_off"] == 0
    assert got["light"] != got["light_contrast"]
    assert "/round.pgn" in got["hrefs"] and "/boards/1.pgn" in got["hrefs"] and "/boards/2.pgn" in got["hrefs"]
    assert '[White "Anna Rudolf"]' in got["pgn_1"] and '[WhiteTitle "IM"]' in got["pgn_1"] and "Qb6+" in got["pgn_1"]
    assert got["round_pgn"].count("[Event ") == 2
    white, black = got["kept"]
    assert "IM" in white and "2360" in white and "HUN" in white and "1840" in black and "ITA" in black
    assert '[WhiteTitle "IM"]' in got["kept_tags"] and '[Black "Bo Larsen"]' in got["kept_tags"]
    assert '[Site "Milan"]' in got["kept_tags"] and '[Date "2026.11.24"]' in got["kept_tags"]
    href, first, now = got["earlier"]
    assert href == "/boards/1/games/1.pgn" and "Qb6+" in first and "Qb6+" not in now
    assert got["single_url"].endswith("/board/2") and got["single_cards"] == ["board-2"]
    assert got["single_width"] > 500 and got["single_title"].startswith("Board 2")
    assert got["single_eval"] == 0  # switched off on this browser: it stays off
    assert got["single_key"].startswith("move 1 of 2")
    width, board = got["phone"]
    assert width <= 390 and 300 <= board <= 390
    # The evaluation is for spectators only: nothing of it reaches a board.
    assert all(line == "hello" or line.startswith("resend ") for line in got["to_boards"]), got["to_boards"]


def test_the_page_follows_the_real_firmware_and_an_arbiters_pause(tmp_path):
    # Two simulated boards running the real firmware: one plays a game to mate (the mated
    # king lit, the result), the other is started, paused and resumed by the arbiter
    # through the relay's API, and the page shows it paused (its clock still) and running.
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    import aiohttp
    from playwright.async_api import async_playwright

    from host_tools.sim import SimulatedBoard
    from tests.host.test_relay import LEGAL, _trace

    (tmp_path / "boards").mkdir()

    async def body():
        b1 = SimulatedBoard(_trace(tmp_path, LEGAL, "a.trace"), fast=True, wait_host=True,
                            link=str(tmp_path / "boards" / "b1"), presets=str(tmp_path / "p1.json"))
        b2 = SimulatedBoard(None, link=str(tmp_path / "boards" / "b2"), presets=str(tmp_path / "p2.json"))
        relay = _relay(tmp_path, token="t0ken")
        await relay.start()
        got, errors = {}, []
        try:
            s = relay.sessions
            assert await _until(lambda: len(s) == 2 and all(x.record for x in s.values())
                                and any(x.record.plies for x in s.values()))  # the trace's board has begun
            mated = next(n for n, x in s.items() if x.record.plies)
            other = 3 - mated
            assert await _until(lambda: s[mated].record.result != "*")
            async with aiohttp.ClientSession() as http, async_playwright() as p:
                async def command(line):
                    r = await http.post(relay.urls()["page"] + f"api/boards/{other}/command",
                                        json={"command": line}, headers={"Authorization": "Bearer t0ken"})
                    return (await r.json())["answer"]
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector(f"#board-{mated} [data-result]")
                got["result"] = await page.inner_text(f"#board-{mated} [data-result]")
                got["check"] = await page.eval_on_selector_all(f"#board-{mated} rect.check", "rs => rs.map(r => r.dataset.square)")
                got["start"] = await command("start")
                await page.wait_for_selector(f"#board-{other} .player.white.running")
                got["pause"] = await command("pause")
                await page.wait_for_selector(f"#board-{other} [data-paused]")
                got["running_in_pause"] = await page.eval_on_selector_all(f"#board-{other} .player.running", "es => es.length")
                first = await page.inner_text(f"#board-{other} [data-clock=white]")
                await asyncio.sleep(1.5)
                got["still"] = (first, await page.inner_text(f"#board-{other} [data-clock=white]"))
                got["resume"] = await command("resume")
                await page.wait_for_selector(f"#board-{other} .player.white.running")
                got["paused_after"] = await page.eval_on_selector_all(f"#board-{other} [data-paused]", "es => es.length")
                # The arbiter's command and the board's answer are the arbiter's: his
                # state has them, the spectators' page and state do not.
                got["card"] = await page.inner_text(f"#board-{other}")
                public = await (await http.get(relay.urls()["page"] + "api/state")).json()
                own = await (await http.get(relay.urls()["page"] + "api/state",
                                            headers={"Authorization": "Bearer t0ken"})).json()
                got["command"] = [[b.get("command") for b in x["boards"] if b["number"] == other][0] for x in (public, own)]
                await browser.close()
        finally:
            await relay.stop()
            b1.stop()
            b2.stop()
        return got, errors

    got, errors = asyncio.run(body())
    assert errors == []
    assert got["result"].startswith("1-0") and "checkmate" in got["result"]
    assert got["check"] == ["e7"]  # Nd5#: the black king on e7
    assert (got["start"], got["pause"], got["resume"]) == ("ok start", "ok pause", "ok resume")
    assert got["running_in_pause"] == 0
    first, later = got["still"]
    assert first == later
    assert got["paused_after"] == 0 and got["command"] == [None, "resume -> ok resume"]
    assert "resume" not in got["card"] and "arbiter" not in got["card"]


def test_what_spectators_see_of_earlier_positions_finished_games_and_unknown_boards(tmp_path):
    # An earlier position shows the clocks of that moment; the evaluation's slot keeps the
    # board in place while a new position waits for its evaluation; a finished game whose
    # board was unplugged needs nobody; /board/9 says there is no such board.
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=Anna black=Bo", "@1:2 start",
              "@1:3 move 1 e2e4 e4", "@1:4 clk 1 301000", "@1:5 move 2 e7e5 e5", "@1:6 clk 2 299500",
              "@1:7 move 3 g1f3 Nf3", "@1:8 clk 3 250000"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        # Each evaluation takes 2 s: a new position waits that long for its own.
        relay = _relay(tmp_path, analysis={"engine_path": _stockfish(), "movetime_ms": 2000})
        await relay.start()
        got = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and relay.sessions[1].record.last_seq == 8)
            fake.send("clock 250000 299500 b running moves=2,1 period=0,0 flags=0,0")
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-1 [data-moves] span")
                await page.wait_for_selector("#board-1 .evalbar:not(.pending)", timeout=60000)
                x = "document.querySelector('#board-1 svg.board').getBoundingClientRect().left"
                got["board_x"] = [await page.evaluate(x)]
                fake.add("@1:9 move 4 b8c6 Nc6")  # a new position: no evaluation for it yet
                await page.wait_for_function("document.querySelector('#board-1 [data-moves]').textContent.includes('Nc6')")
                got["board_x"].append(await page.evaluate(x))
                await page.click("#board-1 svg.board")
                for _ in range(2):  # back to the position after 2...e5
                    await page.keyboard.press("ArrowLeft")
                await page.wait_for_function("document.querySelector('#board-1 [data-where]').textContent.includes('move 2 of 4')")
                got["earlier"] = (await page.inner_text("#board-1 [data-clock=white]"),
                                  await page.inner_text("#board-1 [data-clock=black]"))
                await page.keyboard.press("End")
                fake.add("@1:10 result 1-0 resignation")
                await page.wait_for_selector("#board-1 [data-result]")
                fake.close()  # the cable pulled after the game
                await asyncio.sleep(1.5)
                got["finished"] = (await page.eval_on_selector_all("#board-1 [data-offline]", "es => es.length"),
                                   await page.inner_text("#board-1 .badges"),
                                   relay.sessions[1].state)
                r = await page.goto(relay.urls()["page"] + "board/9")
                got["unknown"] = (r.status, await page.inner_text("h1"))
                await browser.close()
        finally:
            await relay.stop()
            fake.close()
        return got

    got = asyncio.run(body())
    assert got["board_x"][0] == got["board_x"][1]  # the board did not move sideways
    assert got["earlier"] == ("5:01", "4:59")  # after 2...e5, not the live 4:10
    assert got["finished"][0] == 0 and got["finished"][2] != "ACTIVE"
    assert got["finished"][1].startswith("1-0") and "arbiter" not in got["finished"][1]
    assert got["unknown"] == (404, "No board 9")


def test_the_rounds_pairings_are_shown_before_their_boards_connect(tmp_path):
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps({"event": "Open", "round": 1, "boards": {
        "1": {"white": "Anna", "black": "Bo", "serial": "fake1"},
        "2": {"white": "Cy", "black": "Di", "white_title": "GM", "white_rating": 2600},
        "3": {"white": "Ed", "black": "Flo"}}}))
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 move 1 e2e4 e4"]

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        relay = _relay(tmp_path, round_file=str(round_file))
        await relay.start()
        errors = []
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-3 [data-waiting]")
                got = {n: await page.inner_text(f"#board-{n}") for n in (1, 2, 3)}
                await browser.close()
        finally:
            await relay.stop()
            fake.close()
        return got, errors

    got, errors = asyncio.run(body())
    assert errors == []
    assert "Anna" in got[1] and "not connected" not in got[1]
    assert "GM" in got[2] and "Cy" in got[2] and "Di" in got[2] and "board not connected yet" in got[2]
    assert "Ed" in got[3] and "board not connected yet" in got[3]


def test_a_hall_of_boards_is_a_compact_grid_a_spectator_can_narrow(tmp_path):
    # Fourteen boards on a laptop's 1366x768 screen: at least twelve whole in sight, each
    # with its players and both clocks; "Live only" hides a finished game, a range shows
    # only those boards, and the jump list brings the last board into sight.
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    fakes = []

    async def body():
        for i in range(1, 15):
            events = [f"@1:1 game tc=5400+30 fen={START} chess960=- white=W{i} black=B{i}", "@1:2 move 1 e2e4 e4"]
            if i == 2:
                events.append("@1:3 result 1-0 resignation")
            fakes.append(FakeBoard(str(tmp_path / "boards" / f"b{i:02d}"), serial=f"hall{i}", events=events))
        # Each board the number it had (boards.json), whichever connects first: the picture
        # the same at every run.
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "boards.json").write_text(json.dumps({f"hall{i}": i for i in range(1, 15)}))
        relay = _relay(tmp_path)
        await relay.start()
        got = {}
        try:
            assert await _until(lambda: len(relay.sessions) == 14 and all(
                s.record and s.record.plies for s in relay.sessions.values()), 30)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1366, "height": 768})
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-14 svg.board")
                whole = """() => [...document.querySelectorAll('section.card')].filter((c) => {
                    const r = c.getBoundingClientRect();
                    return !c.hidden && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
                }).map((c) => c.id)"""
                got["in_sight"] = await page.evaluate(whole)
                got["first"] = (await page.inner_text("#board-1 .player.white"), await page.inner_text("#board-1 .player.black"))
                got["finished"] = next(n for n, x in relay.sessions.items() if x.serial == "hall2")
                await page.check("#live-only")
                got["live_only"] = await page.eval_on_selector_all("section.card:not([hidden])", "cs => cs.map(c => c.id)")
                await page.uncheck("#live-only")
                await page.fill("#range", "3-5")
                got["range"] = await page.eval_on_selector_all("section.card:not([hidden])", "cs => cs.map(c => c.id)")
                await page.fill("#range", "")
                await page.select_option("#jump", "14")
                got["jumped"] = await page.evaluate(whole)
                await page.screenshot(path=shot(tmp_path, "hall.png"))
                # On a phone: the grid in one or two columns, nothing wider than the screen,
                # each player's name and clock in a line of readable size.
                phone = await browser.new_page(viewport={"width": 390, "height": 844})
                await phone.goto(relay.urls()["page"])
                await phone.wait_for_selector("#board-14 svg.board")
                got["phone"] = await phone.evaluate("""() => {
                    const card = document.querySelector('#board-1'), who = card.querySelector('.player.white');
                    return [document.body.scrollWidth, card.getBoundingClientRect().width, who.getBoundingClientRect().width,
                            parseFloat(getComputedStyle(who).fontSize), who.innerText];
                }""")
                await browser.close()
        finally:
            await relay.stop()
            for f in fakes:
                f.close()
        return got

    got = asyncio.run(body())
    assert len(got["in_sight"]) >= 12, got["in_sight"]
    white, black = got["first"]  # each player's name and clock
    assert re.match(r"W\d+\s+\S", white) and re.match(r"B\d+\s+\S", black), got["first"]
    assert f"board-{got['finished']}" not in got["live_only"] and len(got["live_only"]) == 13
    assert got["range"] == ["board-3", "board-4", "board-5"]
    assert "board-14" in got["jumped"]
    scroll, card, line, font, text = got["phone"]
    assert scroll <= 390 and 180 <= card <= 390 and line <= card and font >= 11, got["phone"]
    assert re.match(r"W\d+\s+\S", text), text


def test_the_events_standings_earlier_rounds_and_federation_flags(tmp_path):
    # An event's third round: the two earlier rounds from their PGN (`--earlier`), the
    # round file's federations shown as flags with their codes; the standings table, open
    # while a game of this round ends, takes its result; an earlier round chosen shows its
    # games and results instead of the boards; on a phone too.
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    from tests.host.test_standings import ROUND_1, ROUND_2

    (tmp_path / "r1.pgn").write_text(ROUND_1)
    (tmp_path / "r2.pgn").write_text(ROUND_2)
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps({"event": "Open", "round": "3", "boards": {"1": {
        "white": "Anna R.", "black": "Cy", "white_fide_id": 100, "white_fed": "ITA", "black_fed": "ENG",
        "serial": "fake1"}}}))
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=x black=y", "@1:2 start", "@1:3 move 1 e2e4 e4"]

    async def body():
        got, errors = {}, []
        async with fake_board_on_a_relay(tmp_path, events, round_file=round_file,
                                         earlier=[tmp_path / "r1.pgn", tmp_path / "r2.pgn"]) as (fake, relay):
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                page.on("pageerror", lambda e: errors.append(str(e)))
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-1 [data-fed=ITA]")
                got["feds"] = await page.eval_on_selector_all("#board-1 [data-fed]", "es => es.map(e => e.textContent)")
                await page.click("#standings-open")
                await page.wait_for_selector("#standings tbody tr")
                rows = "() => [...document.querySelectorAll('#standings tbody tr')].map(r => r.innerText.replace(/\\s+/g, ' ').trim())"
                got["before"] = await page.evaluate(rows)
                fake.add("@1:4 result 1-0 resignation")
                await page.wait_for_function("document.querySelector('#standings tbody tr').innerText.includes('3')")
                got["after"] = await page.evaluate(rows)
                got["said"] = await page.inner_text("#standings-said")
                await page.screenshot(path=shot(tmp_path, "standings.png"))
                await page.select_option("#round-select", "2")
                await page.wait_for_selector("#round-view:not([hidden])")
                got["round_2"] = await page.evaluate(
                    "() => [...document.querySelectorAll('#round-view tbody tr')].map(r => r.innerText.replace(/\\s+/g, ' ').trim())")
                got["boards_hidden"] = await page.eval_on_selector("#boards", "e => e.hidden")
                href = await page.eval_on_selector("#round-view-pgn", "e => e.getAttribute('href')")
                got["round_2_pgn"] = await page.evaluate(f"fetch('{href}').then(r => r.text())")
                await page.select_option("#round-select", "")
                got["back"] = await page.eval_on_selector("#boards", "e => !e.hidden")
                phone = await browser.new_page(viewport={"width": 390, "height": 844})
                await phone.goto(relay.urls()["page"])
                await phone.click("#standings-open")
                await phone.wait_for_selector("#standings tbody tr")
                got["phone"] = await phone.evaluate("document.body.scrollWidth")
                await browser.close()
        return got, errors

    got, errors = asyncio.run(body())
    assert errors == []
    assert sorted(got["feds"], key=lambda t: t[-3:]) == ["🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f ENG", "🇮🇹 ITA"]  # Black (ENG) above, White below
    assert got["before"][0].startswith("1 IM Anna R. 2400 🇮🇹 ITA 2 2")  # rank, player, points, games
    assert got["after"][0].startswith("1 IM Anna R. 2400 🇮🇹 ITA 3 3")  # this round's win, at once
    assert "rounds 1, 2, 3" in got["said"]
    assert got["round_2"] == ["1 Flo 0-1 Anna R.", "2 Bo ½-½ Cy", "3 Di * Ed"]
    assert got["boards_hidden"] and got["back"]
    assert got["round_2_pgn"].count("[Event ") == 3
    assert got["phone"] <= 390
