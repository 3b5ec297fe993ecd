"""The event across rounds (relay/standings.py, `relay --earlier PGN`): the standings from
the earlier rounds' PGN and this round's finished games, the earlier rounds shown again,
and what is refused in an earlier round's file."""
import asyncio

import pytest

from host_tools.relay.app import Relay
from host_tools.relay.round import RoundError
from host_tools.relay.standings import games_from_pgn, load_earlier, standings
from tests.host.test_relay import START, _until, fake_board_on_a_relay, run


def pgn(rnd, white, black, result, extra="", moves="1. e4 e5"):
    return (f'[Event "Open"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n{extra}\n{moves} {result}\n\n')


ROUND_1 = (pgn("1.1", "Anna", "Bo", "1-0", '[WhiteFideId "100"]\n[WhiteElo "2400"]\n[WhiteTitle "IM"]')
           + pgn("1.2", "Cy", "Di", "1/2-1/2") + pgn("1.3", "Ed", "Flo", "0-1"))
ROUND_2 = (pgn("2.1", "Flo", "Anna R.", "0-1", '[BlackFideId "100"]')  # the same player, by FIDE ID
           + pgn("2.2", "Bo", "Cy", "1/2-1/2") + pgn("2.3", "Di", "Ed", "*"))  # unfinished: no points


def table(games):
    return {r["name"]: (r["rank"], r["points"], r["games"], r["buchholz_cut1"], r["buchholz"]) for r in standings(games)}


def test_points_buchholz_and_ranks_from_two_rounds():
    games = games_from_pgn(ROUND_1, "r1") + games_from_pgn(ROUND_2, "r2")
    t = table(games)
    # Anna: 2 points from 2 games (one under another spelling, the same FIDE ID); her
    # opponents Bo 0.5 and Flo 1: Buchholz 1.5, Cut-1 1.0.
    assert t["Anna R."] == (1, 2.0, 2, 1.0, 1.5)
    assert t["Flo"][1:3] == (1.0, 2) and t["Bo"][1:3] == (0.5, 2) and t["Cy"][1:3] == (1.0, 2)
    assert t["Di"][1:3] == (0.5, 1) and t["Ed"][1:3] == (0.0, 1)  # round 2's unfinished game counts for neither
    # Flo and Cy have a point each: Flo's opponents (Ed 0, Anna 2) give BH 2.0, Cy's (Di 0.5, Bo 0.5) 1.0.
    assert t["Flo"][0] == 2 and t["Cy"][0] == 3
    first = standings(games)[0]
    assert (first["title"], first["rating"]) == ("IM", 2400)  # kept from the game that gave them


def test_players_equal_on_every_tie_break_share_a_rank():
    t = table(games_from_pgn(pgn("1.1", "A", "B", "1/2-1/2") + pgn("1.2", "C", "D", "1/2-1/2"), "r"))
    assert {v[0] for v in t.values()} == {1}


@pytest.mark.parametrize("text, said", [
    (pgn("?", "A", "B", "1-0"), "names no round"),
    ('[Event "x"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n\n', "names no round"),
    (pgn("1.1", "A", "B", "1-0", moves="1. e4 e5 2. Ke3"), "illegal san"),
])
def test_an_earlier_round_that_cannot_be_read_is_refused_with_the_game_named(tmp_path, text, said):
    f = tmp_path / "r1.pgn"
    f.write_text(text)
    with pytest.raises(RoundError, match=said) as e:
        load_earlier([f])
    assert "r1.pgn" in str(e.value) and "game 1 (A - B)" in str(e.value)


def test_a_relay_refuses_an_earlier_round_that_is_the_round_being_played(tmp_path):
    f = tmp_path / "r1.pgn"
    f.write_text(ROUND_1)
    with pytest.raises(RoundError, match="round 1, the round being played"):
        Relay(tmp_path / "out", [], discover=False, earlier=[f], log=lambda s: None)
    assert not (tmp_path / "out").exists()  # refused before anything was made


def test_the_relay_serves_the_standings_and_the_earlier_rounds(tmp_path):
    import aiohttp

    (tmp_path / "r1.pgn").write_text(ROUND_1)
    (tmp_path / "r2.pgn").write_text(ROUND_2)
    round_file = tmp_path / "round.json"
    round_file.write_text('{"event": "Open", "round": "3", "boards": {"1": {"white": "Anna R.", "black": "Cy",'
                          ' "white_fide_id": 100, "white_fed": "ITA", "serial": "fake1"}}}')
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=x black=y", "@1:2 start", "@1:3 move 1 e2e4 e4"]

    async def body():
        async with fake_board_on_a_relay(tmp_path, events, round_file=round_file,
                                         earlier=[tmp_path / "r1.pgn", tmp_path / "r2.pgn"]) as (fake, relay):
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                got = {"rounds": await (await http.get(base + "api/rounds")).json(),
                       "before": await (await http.get(base + "api/standings")).json(),
                       "r2": await (await http.get(base + "rounds/2.pgn")).text(),
                       "r9": (await http.get(base + "rounds/9.pgn")).status}
                fake.add("@1:4 result 1-0 resignation")
                await _until(lambda: relay.sessions[1].record.result == "1-0")
                await asyncio.sleep(1.1)  # the standings are made again at most once a second
                got["after"] = await (await http.get(base + "api/standings")).json()
        return got

    got = run(body())
    assert got["rounds"]["current"] == "3"
    assert [r["round"] for r in got["rounds"]["earlier"]] == ["1", "2"]
    assert [(g["board"], g["white"], g["result"]) for g in got["rounds"]["earlier"][1]["games"]] == \
        [(1, "Flo", "0-1"), (2, "Bo", "1/2-1/2"), (3, "Di", "*")]
    assert got["r2"].count("[Event ") == 3 and '[Round "2.1"]' in got["r2"] and got["r9"] == 404
    anna = lambda s: next(r for r in s["standings"] if r["name"].startswith("Anna"))
    assert got["before"]["rounds"] == ["1", "2", "3"]
    assert (anna(got["before"])["points"], anna(got["before"])["games"]) == (2.0, 2)
    # Round 3's win counts at once, under the round file's name, with its federation.
    assert (anna(got["after"])["points"], anna(got["after"])["games"], anna(got["after"])["fed"]) == (3.0, 3, "ITA")
    assert got["after"]["standings"][0]["name"] == "Anna R."
