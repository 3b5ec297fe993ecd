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


def test_the_rounds_games_read_once_give_what_a_whole_reading_gives():
    # The standings under a hall: each game's tags are read once (standings.games_from_round,
    # kept by their tags but the clocks), not the whole round's PGN at every result. Held
    # against python-chess reading the whole text, game by game, as the relay writes it
    # (clocks, comments, a note, a finished game's termination) and as another program may.
    import chess

    from host_tools.board.session import BoardSession
    from host_tools.relay.standings import games_from_round

    def game(n, sans, result=None, note=None):
        b, ev = chess.Board(), [f"@1:1 game tc=600+5 fen={START} chess960=- white=W{n} black=B{n}", "@1:2 start"]
        for ply, san in enumerate(sans, 1):
            m = b.parse_san(san)
            b.push(m)
            ev += [f"@1:{len(ev) + 1} move {ply} {m.uci()} {san}", f"@1:{len(ev) + 2} clk {ply} {600000 - ply * 1000}"]
        if result:
            ev.append(f"@1:{len(ev) + 1} result {result}")
        s = BoardSession(n)
        s.replay(ev)
        if note:
            s.record.notes.append((1, note))
        return s.record.pgn(event="Open", site="Hall", date="2026.11.28", round_=f"3.{n}", game_id=f"b{n}-g1",
                            white=f"P{n}", black=f"Q{n}")

    played = [game(1, ["e4", "e5"], "1-0 resignation"), game(2, ["d4"]), game(3, ["c4", "c5"], note="note a word"),
              game(4, [], "1/2-1/2 agreement")]
    known = {}
    text = "".join(played)
    assert games_from_round(text, "r", known) == games_from_pgn(text, "r", whole=False)
    assert len(known) == 4
    # Board 2 moves on (its clocks change), board 3's game ends: read again, one game only new.
    played[1], played[2] = game(2, ["d4", "d5", "c4"]), game(3, ["c4", "c5"], "0-1 resignation", note="note a word")
    text = "".join(played)
    before = dict(known)
    assert games_from_round(text, "r", known) == games_from_pgn(text, "r", whole=False)
    assert [k for k in known if k not in before] and sum(k not in before for k in known) == 1
    # Another program's PGN (no blank line between tags and moves): read whole, the same.
    assert games_from_round(ROUND_1 + ROUND_2, "r", {}) == games_from_pgn(ROUND_1 + ROUND_2, "r", whole=False)
