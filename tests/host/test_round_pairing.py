"""A round file that cannot pair wrongly (#51), played as the mistaken organiser would:
the whole round is checked together and refused with the line and the reason (at start
and through the arbiter's form); a round corrected after a restart wins over what
boards.json remembers; boards the round names no serial for take its empty pairings in
order, and the arbiter is told which took which."""
import json

import aiohttp
import pytest

from host_tools.relay.round import RoundError, RoundInfo
from tests.host.test_relay import START, FakeBoard, _relay, _until, run

TOKEN = "round-token"
GAME = f"@1:1 game tc=5400+30 fen={START} chess960=- white=A black=B"

WRONG = {
    "blind board is the board itself": (
        {"1": {"white": "A", "black": "B", "serial": "s1", "blind_serial": "s1", "blind": "black"}},
        "1", "board 1: blind_serial is the board's own serial"),
    "one blind board in two pairings": (
        {"1": {"serial": "s1", "blind_serial": "b1", "blind": "black"},
         "2": {"serial": "s2", "blind_serial": "b1", "blind": "white"}},
        "2", "board 2's blind_serial b1 is board 1's blind_serial already"),
    "one board in two pairings": (
        {"1": {"serial": "s1"}, "2": {"white": "C", "serial": "s1"}},
        "2", "board 2's serial s1 is board 1's serial already"),
    "a blind board that plays a pairing too": (
        {"1": {"serial": "s1", "blind_serial": "b1", "blind": "black"}, "2": {"serial": "b1"}},
        "2", "board 2's serial b1 is board 1's blind_serial already"),
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_round_that_pairs_wrongly_is_refused_with_its_line_and_reason(tmp_path, case):
    boards, board, reason = WRONG[case]
    path = tmp_path / "round.json"
    text = json.dumps({"event": "Open", "round": 1, "boards": boards}, indent=1)
    path.write_text(text)
    line = 1 + next(i for i, t in enumerate(text.splitlines()) if t.strip().startswith(f'"{board}": {{'))
    with pytest.raises(RoundError) as e:
        RoundInfo.load(path)
    assert str(e.value).startswith(f"the round file {path}, line {line}: {reason}")

    async def form():  # the arbiter's form sends the same round: refused, the round in force stays
        relay = _relay(tmp_path, token=TOKEN)
        await relay.start()
        try:
            async with aiohttp.ClientSession() as http:
                r = await http.post(f"http://127.0.0.1:{relay.http_port}/api/round", headers={
                    "Authorization": f"Bearer {TOKEN}"}, json={"event": "Open", "boards": boards})
                return r.status, await r.text(), relay.round.boards
        finally:
            await relay.stop()

    (tmp_path / "boards").mkdir()
    status, text, kept = run(form())
    assert status == 400 and reason in text and kept == {}


def test_a_corrected_round_after_a_restart_wins_over_boards_json(tmp_path):
    # Round 1 named the wrong blind board; it connected and became board 1001. The
    # organiser corrects the file and restarts the relay with both boards plugged in:
    # the right one is board 1001, the wrong one moves off with its journal.
    (tmp_path / "boards").mkdir()
    first = {"round": 1, "boards": {"1": {"white": "A", "black": "B", "serial": "sight1",
                                          "blind_serial": "wrong1", "blind": "black"}}}
    (tmp_path / "round.json").write_text(json.dumps(first))

    async def once(names):
        fakes = [FakeBoard(str(tmp_path / "boards" / n), serial=n, events=[GAME]) for n in names]
        relay = _relay(tmp_path, round_file=tmp_path / "round.json")
        await relay.start()
        try:
            await _until(lambda: len([s for s in relay.sessions.values() if s.send]) == len(names), 10)
            return {n: s.serial for n, s in relay.sessions.items()}, {
                n: s.send is not None for n, s in relay.sessions.items()}
        finally:
            await relay.stop()
            for f in fakes:
                f.close()
            for n in names:
                (tmp_path / "boards" / n).unlink()

    before, _ = run(once(["sight1", "wrong1"]))
    assert before == {1: "sight1", 1001: "wrong1"}
    first["boards"]["1"]["blind_serial"] = "right1"
    (tmp_path / "round.json").write_text(json.dumps(first))
    after, connected = run(once(["sight1", "wrong1", "right1"]))
    assert after[1] == "sight1" and after[1001] == "right1" and connected[1001]
    moved = next(n for n, serial in after.items() if serial == "wrong1")
    assert moved not in (1, 1001) and connected[moved]
    assert (tmp_path / "out" / f"board-{moved}.events").read_text().startswith("@1:1 game")


def test_boards_with_no_serial_named_take_the_empty_pairings_in_order(tmp_path):
    # A round of two pairings that names no boards; two boards connect (and a third that
    # the round has no place for): boards 1 and 2 in the order they came, the third 3.
    (tmp_path / "boards").mkdir()
    (tmp_path / "round.json").write_text(json.dumps({"round": 3, "boards": {
        "1": {"white": "Anna", "black": "Bo"}, "2": {"white": "Cy", "black": "Di"}}}))

    async def body():
        relay = _relay(tmp_path, round_file=tmp_path / "round.json", token=TOKEN)
        await relay.start()
        fakes = []
        try:
            for name in ("p-a", "p-b", "p-c"):
                fakes.append(FakeBoard(str(tmp_path / "boards" / name), serial=name, events=[GAME]))
                assert await _until(lambda: any(s.serial == name and s.send for s in relay.sessions.values()), 10)
            return {n: s.serial for n, s in relay.sessions.items()}, relay.alerts_json(), relay.round_pgn()
        finally:
            await relay.stop()
            for f in fakes:
                f.close()

    numbers, alerts, pgn = run(body())
    assert numbers == {1: "p-a", 2: "p-b", 3: "p-c"}
    took = [(a["board"], a["text"]) for a in alerts if a["kind"] == "took"]
    assert took == [(1, "p-a took pairing 1 (Anna - Bo), the round's first pairing with no board named"),
                    (2, "p-b took pairing 2 (Cy - Di), the round's first pairing with no board named")]
    assert '[Round "3.1"]' in pgn and '[White "Anna"]' in pgn and '[White "Cy"]' in pgn
