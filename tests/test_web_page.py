"""The live page in a real headless browser (Debian's chromium, driven by playwright): it
shows the moves, clocks and result that a board sent, the running clock ticks, the last
move is highlighted, and the time chart is drawn; on a phone-sized window too."""
import asyncio
import shutil

import pytest

from tests.test_relay import START, FakeBoard, _relay, _until, fake_board_on_a_relay

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
                    "#board-1 rect", "rs => rs.filter(r => r.style.fill.includes('--hi')).map(r => r.dataset.square)")
                shots["knights"] = await page.eval_on_selector_all("#board-1 text[data-piece=N]", "es => es.length")
                shots["chart"] = await page.eval_on_selector("#board-1 svg.chart polyline", "e => e.getAttribute('points')")
                fake.add("@1:9 result 1-0 resignation")
                await page.wait_for_function("document.querySelector('#board-1 [data-result]').textContent.includes('1-0')")
                shots["result"] = await page.inner_text("#board-1 [data-result]")
                await page.click("#settings-open")
                await page.fill("#settings [name=token]", relay.token)
                await page.fill("#settings [name=event]", "Club night")
                await page.fill("#settings [name=w1]", "Anna Rudolf")
                await page.click("#settings button[type=submit]")
                await page.wait_for_function(
                    "document.querySelector('#board-1 .player.white').textContent.includes('Anna Rudolf')")
                shots["event"] = await page.inner_text("#event")
                await page.fill("#settings [name=token]", "wrong")
                await page.click("#settings button[type=submit]")
                await page.wait_for_function("document.getElementById('settings-said').textContent.includes('not saved')")
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
                await page.click("#settings-open")
                got["form"] = await page.input_value("#settings [name=w1]")
                got["form_b"] = await page.input_value("#settings [name=b1]")
                await browser.close()
        return got

    got = asyncio.run(body())
    assert got["white"] == evil and got["black"] == 'Bo"><b>x'
    assert got["imgs"] == 0 and got["title"] != "pwned"
    assert got["form"] == evil and got["form_b"] == 'Bo"><b>x'
