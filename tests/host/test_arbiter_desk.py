"""The arbiter's desk (#51), played by the arbiter on the real firmware (a simulated board):
a time control typed as FIDE writes it is read before it is sent; his own penalty is
never raised as an alert against a player, and its answer says what changed ("+2:00 to
White"); alerts name the move as a scoresheet does; time is added in pause with the
answer saying so; a forfeit with its reason ends the game with the PGN's Termination."""
import asyncio

import aiohttp
import chess

from host_tools.sim import SimulatedBoard
from tests.host.test_arbiter import AUTH, Hands, _relay
from tests.host.test_relay import _until, run


def test_the_arbiters_desk_reads_fide_controls_and_says_what_his_actions_changed(tmp_path):
    (tmp_path / "boards").mkdir()

    async def body():
        sim = SimulatedBoard(hands=True, link=str(tmp_path / "boards" / "b1"))
        relay = _relay(tmp_path)
        await relay.start()
        base = relay.urls()["page"]
        got = {}
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record, 20)
            async with aiohttp.ClientSession() as http:
                async def cmd(line):
                    r = await http.post(base + "api/boards/1/command", json={"command": line}, headers=AUTH)
                    return r.status, await r.json() if r.status in (200, 422) else await r.text()

                async def tc(text, headers=AUTH):
                    r = await http.get(base + "api/timecontrol", params={"text": text}, headers=headers)
                    return r.status, (await r.json()) if r.status == 200 else await r.text()

                got["90+30"] = await tc("90+30")
                got["40/90+30:30+30"] = await tc("40/90+30, 30+30")
                got["bad"] = await tc("90 minutes")
                got["no token"] = await tc("90+30", headers={})
                assert (await cmd("new tc=" + got["90+30"][1]["control"] + " white=A black=B"))[0] == 200
                assert await _until(lambda: relay.sessions[1].record.tc == "5400+30", 10)
                got["start"] = await cmd("start")
                hands = Hands(sim, relay)
                await hands.move("e4")
                await hands.move("e5")
                got["add running"] = await cmd("add w 60000")
                got["penalty"] = await cmd("penalty illegal b")
                got["pause"] = await cmd("pause")
                await asyncio.sleep(0.5)
                got["add"] = await cmd("add w 60000")
                got["forfeit"] = await cmd("forfeit b did%20not%20return%20to%20the%20board")
                await asyncio.sleep(0.5)
                got["pgn"] = relay.pgn(relay.sessions[1], relay.sessions[1].record)
                got["alerts"] = relay.alerts_json()
                # The next game: neither player came (a double forfeit, 0-0).
                before = relay.sessions[1].record.game
                assert (await cmd("new white=C black=D"))[0] == 200
                assert await _until(lambda: relay.sessions[1].record.game != before, 10)
                got["double"] = await cmd("forfeit both neither%20player%20came")
                await asyncio.sleep(0.5)
                got["double_pgn"] = relay.pgn(relay.sessions[1], relay.sessions[1].record)
        finally:
            await relay.stop()
            sim.stop()
        return got

    got = run(body())
    assert got["90+30"] == (200, {"control": "5400+30", "words": "90 min, 30 s a move: standard"})
    assert got["40/90+30:30+30"][1]["control"] == "40/5400+30:1800+30"
    assert got["bad"][0] == 400 and "FIDE writes 90+30" in got["bad"][1]
    assert got["no token"][0] == 401
    assert got["add running"][0] == 409 and "pause the clock first" in got["add running"][1]
    status, penalty = got["penalty"]
    assert status == 200 and "+2:00 to White" in penalty["changed"], penalty
    assert "+2:00 to White" in penalty["said"]
    status, add = got["add"]
    assert status == 200 and add["changed"][0] == "+1:00 to White" and "White's clock set to 1:3" in add["said"], add
    status, forfeit = got["forfeit"]
    assert status == 200 and "Black forfeits: did not return to the board" in forfeit["said"], forfeit
    # The arbiter's own penalty and result are for the record, never an alarm against a player.
    assert not [a for a in got["alerts"] if a["urgent"]], got["alerts"]
    mine = [a for a in got["alerts"] if a["kind"] == "arbiter"]
    assert mine and mine[0]["text"].startswith("the arbiter's decision: Black completed an illegal move")
    assert mine[0]["move"] == "1... e5"
    assert '[Result "1-0"]' in got["pgn"] and '[Termination "rules infraction"]' in got["pgn"]
    assert "arbiter: Black forfeits: did not return to the board" in got["pgn"]
    status, double = got["double"]
    assert status == 200 and double["said"].startswith("double forfeit: neither player came"), double
    assert '[Result "0-0"]' in got["double_pgn"] and '[Termination "rules infraction"]' in got["double_pgn"]
    assert "arbiter: double forfeit: neither player came" in got["double_pgn"]
