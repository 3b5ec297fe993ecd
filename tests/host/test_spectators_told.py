"""Spectators told what they see (#51), in a real headless browser as in test_web_page.py:
with a delay the page says "delayed N s", not "live"; the evaluation switch shows off
when the relay runs none; an idle board (no move, no running clock) shows "not started"
and its control's time, never two clocks at 0.0 (two fallen flags at a glance); and each
finished game's PGN file is written when the game ends, not when the next one begins."""
import asyncio

import pytest

from tests.host.test_relay import START, FakeBoard, _relay, _until, run
from tests.host.test_web_page import ARGS, CHROMIUM


def test_the_page_says_the_delay_the_evaluation_off_and_an_idle_board(tmp_path):
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()

    async def body():
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=[
            f"@1:1 game tc=5400+30 fen={START} chess960=- white=Anna black=Bo"])
        relay = _relay(tmp_path, delay_s=1)
        await relay.start()
        seen = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record, 10)
            fake.send("clock 0 0 w stopped moves=0,0 period=0,0 flags=0,0")
            await asyncio.sleep(1.5)  # the delay
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                await page.goto(relay.urls()["page"])
                await page.wait_for_selector("#board-1 [data-clock=white]")
                await page.wait_for_function("document.getElementById('link').textContent.startsWith('delayed')")
                seen["link"] = await page.inner_text("#link")
                seen["evaluation"] = await page.eval_on_selector(
                    "#engine-toggle", "e => [e.checked, e.disabled, e.parentElement.textContent.trim()]")
                seen["clocks"] = [await page.inner_text(f"#board-1 [data-clock={c}]") for c in ("white", "black")]
                seen["badges"] = await page.inner_text("#board-1 [data-part=badges]")
                await browser.close()
        finally:
            await relay.stop()
            fake.close()
        return seen

    seen = run(body())
    assert seen["link"] == "delayed 1 s"
    assert seen["evaluation"] == [False, True, "Evaluation (off)"]
    assert seen["clocks"] == ["1:30:00", "1:30:00"] and "not started" in seen["badges"]


def test_a_finished_games_pgn_is_written_when_it_ends(tmp_path):
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 f2f3 f3", "@1:4 move 2 e7e5 e5", "@1:5 move 3 g2g4 g4", "@1:6 move 4 d8h4 Qh4#",
              "@1:7 result 0-1 checkmate"]

    async def body():
        (tmp_path / "boards").mkdir()
        fake = FakeBoard(str(tmp_path / "boards" / "f"), events=events)
        relay = _relay(tmp_path)
        await relay.start()
        try:
            path = tmp_path / "out" / "board-1-game-1.pgn"
            return await _until(lambda: path.exists() and '[Result "0-1"]' in path.read_text(), 10)
        finally:
            await relay.stop()
            fake.close()

    assert run(body())
