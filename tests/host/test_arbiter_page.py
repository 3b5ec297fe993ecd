"""The arbiter's page (/arbiter) in a real headless browser (chromium, playwright), as an
arbiter uses it on two simulated boards running the real firmware: signing in with the
token (a wrong one refused), a board's alert arriving highlighted and sounded, marked seen;
a note (a piece put back) folded under its board, a claim's alerts marked seen at once;
the clock started (twice: the refusal in words), paused, corrected (the time field saying
how it reads 1:30) and resumed, a penalty, a draw claim with the written move, a result (one
declined at the confirmation), a new game with a control - each confirmed by the board's own
answer, and those that change a game for good asked again first; and
a board given the pairing of another board's number. The PGN then has the arbiter's doings
as comments."""
import asyncio
import io
import json

import chess
import chess.pgn
import pytest

from host_tools.sim import SimulatedBoard
from tests.host.test_arbiter import TOKEN, Hands, _relay
from tests.host.test_relay import _until, run
from tests.host.test_web_page import ARGS, CHROMIUM, shot

# Counts the beeps the page makes (its WebAudio oscillators), as a test can hear them.
COUNT_BEEPS = """
window.__beeps = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__beeps++; return make.call(this); };
"""


def test_the_arbiters_page(tmp_path):
    if CHROMIUM is None:
        pytest.fail("chromium is missing: ./run test installs it (Debian package chromium)")
    from playwright.async_api import async_playwright

    (tmp_path / "boards").mkdir()
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps({"event": "Club", "round": 2, "boards": {
        "1": {"white": "Anna", "black": "Bo", "serial": "sim-a"},
        "2": {"white": "Cy", "black": "Di", "serial": "sim-b"}}}))
    got = {}

    async def body():
        a = SimulatedBoard(hands=True, link=str(tmp_path / "boards" / "a"), board_id="sim-a")
        b = SimulatedBoard(None, link=str(tmp_path / "boards" / "b"), board_id="sim-b")
        relay = _relay(tmp_path, round_file=str(round_file))
        await relay.start()
        try:
            s = relay.sessions
            assert await _until(lambda: all(n in s and s[n].record for n in (1, 2)), 20)
            hands = Hands(a, relay)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS + ["--autoplay-policy=no-user-gesture-required"])
                page = await browser.new_page(viewport={"width": 1280, "height": 900})
                await page.add_init_script(COUNT_BEEPS)
                # The page asks before what ends or changes a game for good: the arbiter
                # accepts, except once (the result he then thinks better of).
                asked, decline = [], []

                async def answer(dialog):
                    asked.append(dialog.message)
                    await (dialog.dismiss() if decline and decline.pop() else dialog.accept())
                page.on("dialog", answer)
                await page.goto(relay.urls()["page"] + "arbiter")
                await page.fill("#login [name=token]", "guess")
                await page.click("#login button")
                await page.wait_for_function("document.getElementById('login-said').textContent.includes('not the relay')")
                got["refused_alerts"] = await page.eval_on_selector_all("#alerts li", "l => l.length")
                await page.fill("#login [name=token]", TOKEN)
                await page.click("#login button")
                await page.wait_for_selector("#board-1 [data-cmd=start]")
                await page.wait_for_selector("#board-2 [data-cmd=start]")
                got["players"] = await page.inner_text("#board-1 [data-part=players]")

                async def said(n, text):
                    await page.wait_for_function(
                        f"document.querySelector('#board-{n} [data-part=said]').textContent.includes({json.dumps(text)})")
                    return await page.inner_text(f"#board-{n} [data-part=said]")

                async def submit(form, choose={}, fill={}):
                    """One of board 1's forms: its selects chosen, its fields typed, sent."""
                    at = f"#board-1 [data-form={form}]"
                    for name, value in choose.items():
                        await page.select_option(f"{at} [name={name}]", value)
                    for name, value in fill.items():
                        await page.fill(f"{at} [name={name}]", value)
                    await page.click(f"{at} button")

                await page.click("#board-1 [data-cmd=start]")
                got["start"] = await said(1, "ok start")
                await page.click("#board-1 [data-cmd=start]")  # again: the board's refusal, in words
                got["start_again"] = await said(1, "refused")
                await hands.move("e4")
                await hands._do(a.hands.press, chess.BLACK)  # Black presses with no move made
                await page.wait_for_selector("#alerts li.urgent")
                got["alert"] = await page.inner_text("#alerts li.urgent")
                got["title"] = await page.title()
                got["beeps"] = await page.evaluate("window.__beeps")
                got["desk_alerted"] = await page.eval_on_selector("#board-1", "e => e.classList.contains('alerted')")
                await page.click("#alerts li.urgent [data-seen]")
                await page.wait_for_function("!document.querySelector('#alerts li.urgent')")
                got["title_after"] = await page.title()

                # The desk live (#51): the board's moves numbered, the state word true after each action.
                await page.wait_for_function("document.querySelector('#board-1 [data-part=state]').textContent === 'running'")
                got["scoresheet"] = await page.inner_text("#board-1 [data-part=scoresheet]")
                # Board 2 has neither a move nor a running clock: not started, its control's
                # time (never 0.0 twice: two fallen flags at a glance).
                got["idle"] = (await page.inner_text("#board-2 [data-part=state]"),
                               await page.inner_text("#board-2 [data-part=clock]"))
                got["squares"] = await page.eval_on_selector_all("#board-1 [data-part=diagram] td", "l => l.length")
                got["link"] = await page.eval_on_selector_all("#board-1 h2 a", "l => l.length")
                await page.click("#board-1 [data-cmd=pause]")
                await said(1, "pause → ok pause")
                await page.wait_for_function("document.querySelector('#board-1 [data-part=state]').textContent === 'paused'")
                await submit("set", choose={"what": "time", "side": "w"}, fill={"value": "1:30"})
                got["means_short"] = await page.inner_text("#board-1 [data-part=means]")
                await submit("set", choose={"what": "time", "side": "w"}, fill={"value": "1:30:00"})
                got["means"] = await page.inner_text("#board-1 [data-part=means]")
                got["set"] = await said(1, "set time w 5400000 → ok set time")
                await page.wait_for_function("document.querySelector('#board-1 [data-part=clock]').textContent.includes('White 1:30:00')")
                await submit("set", fill={"value": "ninety"})
                got["set_bad"] = await said(1, "a time as")
                await page.click("#board-1 [data-cmd=resume]")
                await said(1, "resume → ok resume")
                await page.wait_for_function("document.querySelector('#board-1 [data-part=state]').textContent === 'running'")
                await submit("penalty", choose={"why": "illegal", "side": "b"})
                got["penalty"] = await said(1, "ok penalty")
                await submit("claim", choose={"side": "b"}, fill={"move": "Nf6"})
                got["claim"] = await said(1, "incorrect")
                await hands.put(chess.G1, chess.G1)  # a knight lifted and put back: a note, not an alert
                await page.wait_for_selector("#alerts-board-1 .group-notes li.note", state="attached")
                got["note_folded"] = await page.eval_on_selector("#alerts-board-1 details", "d => !d.hidden && !d.open")
                got["urgent_after_note"] = await page.eval_on_selector_all("#alerts li.urgent", "l => l.map(e => e.textContent)")
                # The arbiter's own penalty and claim are his decisions, noted: nothing to mark seen (#51).
                got["urgent_after_claim"] = await page.eval_on_selector_all("#alerts li.urgent", "l => l.length")
                decline.append(True)
                await submit("result", choose={"result": "1-0"})
                await page.wait_for_timeout(500)
                got["declined_result"] = s[1].record.result
                await submit("result", choose={"result": "1/2-1/2"})
                got["result"] = await said(1, "ok result")
                await page.fill("#board-1 [data-form=new] [name=tc]", "90+30")  # as FIDE writes it (#51)
                await page.wait_for_function("document.querySelector('#board-1 [data-part=reads]').textContent.includes('5400+30')")
                got["reads"] = await page.inner_text("#board-1 [data-part=reads]")
                await submit("new", fill={"tc": "90+30", "white": "Anna Rudolf", "black": "Bo"})
                got["new"] = await said(1, "ok new")
                await page.wait_for_function("document.querySelector('#board-1 [data-part=players]').textContent.includes('game 2')")
                got["game1_pgn"] = relay.pgn(s[1], s[1].records[1])
                got["game2"] = (s[1].record.tc, s[1].record.white)
                got["asked"] = list(asked)
                await page.screenshot(path=shot(tmp_path, "arbiter.png"), full_page=True)  # the docs' picture

                # The board of sim-a is to play pairing 2: the two boards swap numbers.
                await page.select_option("#board-1 [data-form=pair] select", "2")
                await page.click("#board-1 [data-form=pair] button")
                await page.wait_for_function("document.querySelector('#board-2 [data-part=players]').textContent.includes('sim-a')")
                await page.wait_for_function("document.querySelector('#board-1 [data-part=players]').textContent.includes('sim-b')")
                got["swapped"] = {n: (s[n].serial, relay.board_json(s[n])["white"]) for n in (1, 2)}
                # sim-a's alerts went with it to board 2 (#51: an old board's group stayed)
                await page.wait_for_function("(document.querySelector('#alerts-board-2') || {}).textContent?.includes('pressed the clock')")
                got["groups"] = await page.eval_on_selector_all(
                    "#alerts .alert-group", "gs => gs.map(g => [g.dataset.board, g.textContent.includes('pressed the clock')])")
                got["round_serials"] = {n: e.get("serial") for n, e in relay.round.boards.items()}
                await browser.close()
        finally:
            await relay.stop()
            a.stop()
            b.stop()
        again = _relay(tmp_path, round_file=str(round_file))  # a restart: the numbers stay swapped
        got["after_restart"] = {n: again.sessions[n].records[min(again.sessions[n].records)].plies[:1]
                                for n in (1, 2)}
        got["files"] = sorted(p.name for p in (tmp_path / "out").glob("board-*"))

    run(body())
    assert got["refused_alerts"] == 0
    assert got["scoresheet"] == "1. e4" and got["squares"] == 64 and got["link"] == 0
    assert got["idle"][0] == "not started" and "0.0" not in got["idle"][1] and got["idle"][1].startswith("White "), got["idle"]
    assert got["players"].startswith("Anna – Bo · sim-a")
    assert got["start"] == "start → ok start"
    assert got["start_again"].startswith("start → refused: ") and "%20" not in got["start_again"]
    assert "Board 1" in got["alert"] and "Black pressed the clock without a legal move" in got["alert"]
    assert got["title"] == "(1) Arbiter" and got["beeps"] >= 1 and got["desk_alerted"]
    assert got["title_after"] == "Arbiter"
    assert got["means_short"] == "= 1 min 30 s" and got["means"] == "= 1 h 30 min"
    assert got["set"] == "set time w 5400000 → ok set time · White's clock set to 1:30:00"
    assert got["note_folded"] and not any("put back" in t for t in got["urgent_after_note"]) and got["declined_result"] == "*"
    assert got["asked"] == ["Board 1: pause the clock?", "Board 1: give Black the penalty for illegal move (7.5.5)?",
                            "Board 1: end the game 1-0?", "Board 1: end the game ½-½?",
                            "Board 1: end this game and start a new one with 90 min, 30 s a move: standard (5400+30)?"]
    assert got["reads"] == "= 90 min, 30 s a move: standard (5400+30)" and got["urgent_after_claim"] == 0
    assert got["set_bad"].startswith("a time as h:mm:ss")
    assert got["penalty"].startswith("penalty illegal b → ok penalty")
    assert got["claim"].startswith("Black claims a draw with the written move 1... Nf6") and got["claim"].endswith("→ ok penalty claim · +1:00 to White")
    assert got["result"] == "result 1/2-1/2 → ok result"
    assert got["new"].startswith("new tc=5400+30 white=Anna Rudolf black=Bo → ok new")
    assert got["game2"] == ("5400+30", "Anna Rudolf")
    game = chess.pgn.read_game(io.StringIO(got["game1_pgn"]))
    text = " ".join(n.comment for n in game.mainline())
    for said_ in ("clock paused by the arbiter", "arbiter: White's clock set to 1:30:00", "clock resumed",
                  "illegal move by Black (first; 7.5)", "Black claims a draw with the written move 1... Nf6"):
        assert said_ in text, (said_, text)
    assert game.headers["Result"] == "1/2-1/2"
    # sim-a plays pairing 2 (Cy - Di) now, sim-b pairing 1: the names go with the numbers.
    assert got["swapped"] == {1: ("sim-b", "Anna"), 2: ("sim-a", "Cy")}
    assert ["2", True] in got["groups"] and ["1", True] not in got["groups"]
    assert got["round_serials"] == {1: "sim-b", 2: "sim-a"}
    # The journals went with the boards: board 2's first game is sim-a's (1. e4).
    assert [p.uci for p in got["after_restart"][2]] == ["e2e4"] and got["after_restart"][1] == []
    assert "board-2.events" in got["files"] and "board-1.events" in got["files"]
