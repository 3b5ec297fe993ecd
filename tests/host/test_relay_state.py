"""What the relay keeps across its own restart: every board's game, clocks, flags, result
and the arbiter's alerts, shown as they were until the board is back and says them anew."""
from tests.host.test_hostile_relay import GAME, two_boards
from tests.host.test_relay import _relay, _until, run


def test_a_relay_restart_keeps_every_boards_clocks_flags_result_and_alerts(tmp_path):
    # Board 1 finished on time (Black's flag fell, 1-0); board 2 is mid-game. The relay
    # stops, and starts again before either board is back: the page's state has the
    # clocks, flags and result of both as they were, still, and the arbiter's alerts.
    finished = [GAME, "@1:2 move 1 e2e4 e4", "@1:3 clk 1 299000", "@1:4 flag b", "@1:5 result 1-0 timeout"]

    async def body():
        fakes = []
        async with two_boards(tmp_path, first=finished, fakes=fakes) as (relay, good, log):
            bad, good_s = (next(s for s in relay.sessions.values() if s.serial == serial)
                           for serial in ("bad1", "good2"))
            fakes[0].send("clock 299000 0 - stopped moves=1,0 period=0,0 flags=0,1")
            good.send("clock 300000 281500 b running moves=1,0 period=0,0 flags=0,0")
            assert await _until(lambda: bad.clock.flags == (0, 1) and good_s.clock.black_ms == 281500)
            relay.boards.alert(bad, "problem", "a test alert", True)
        relay = _relay(tmp_path)  # the boards are not there: their lines are gone
        await relay.start()
        try:
            return relay.state_json(arbiter=True), relay.alerts_json()
        finally:
            await relay.stop()

    after, alerts = run(body())
    by_serial = {b["serial"]: b for b in after["boards"]}
    bad, good = by_serial["bad1"], by_serial["good2"]
    assert (bad["clock"]["white"], bad["clock"]["black"], bad["clock"]["flags"]) == (299000, 0, [0, 1])
    assert bad["clock"]["state"] == "stopped" and bad["result"] == "1-0"
    assert (good["clock"]["white"], good["clock"]["black"], good["clock"]["running"]) == (300000, 281500, None)
    assert any(a["text"] == "a test alert" for a in alerts)
