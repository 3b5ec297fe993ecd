"""The event across its rounds: the earlier rounds' games (their PGN, `relay --earlier
FILE`: the relay's own round.pgn of that round, or lichess's download of it) and the
round being played make the standings, and each earlier round can be looked at again.

A player is his FIDE ID where the PGN gives one (WhiteFideId), else his name. A game
counts once it has a result (1-0, 0-1, 1/2-1/2); a game left at * (replaced, abandoned)
does not. The ranking: points, then Buchholz Cut-1, then Buchholz (the sum of the
opponents' points; FIDE's tie-break regulations, without the adjustments for unplayed
games: the relay knows of no bye or forfeit but a game's result), then the name."""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import chess.pgn

from host_tools.relay.round import RoundError

RESULTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}  # half-points each
MAX_EARLIER_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Player:
    key: str  # "fide:1503014", or "name:Carlsen, Magnus"
    name: str
    title: str = ""
    rating: int | None = None


@dataclass(frozen=True)
class Game:
    round: str  # the round's name ("3"), from the Round tag "3.12"
    board: int | None  # 12 (None when the tag gives no board)
    white: Player
    black: Player
    result: str
    pgn: str  # the game as PGN, for the round's download


def round_of(tag: str) -> tuple[str, int | None]:
    """A Round tag as (round, board): "3.12" -> ("3", 12), "3" -> ("3", None)."""
    head, _, tail = tag.partition(".")
    return head, int(tail) if tail.isascii() and tail.isdigit() and len(tail) <= 4 else None


def _player(headers, color: str) -> Player:
    name = headers.get(color, "?")
    fide = headers.get(color + "FideId", "")
    elo = headers.get(color + "Elo", "")
    return Player(f"fide:{fide}" if fide.isascii() and fide.isdigit() and fide != "0" else f"name:{name}", name,
                  headers.get(color + "Title", ""), int(elo) if elo.isascii() and elo.isdigit() and len(elo) <= 4 else None)


def games_from_pgn(text: str, what: str, whole: bool = True) -> list[Game]:
    """Every game of a PGN text (a RoundError names the game a reader cannot take); whole:
    its moves read and kept as PGN, else its tags only (the round being played: fast)."""
    games = []
    f = io.StringIO(text)
    while True:
        try:
            game = chess.pgn.read_game(f) if whole else chess.pgn.read_headers(f)
        except (ValueError, RecursionError) as e:
            raise RoundError(f"{what}: game {len(games) + 1} cannot be read: {e}") from None
        if game is None:
            return games
        h = game.headers if whole else game
        if whole and game.errors:
            raise RoundError(f"{what}: {_who(h, len(games))}: {game.errors[0]}")
        games.append(_game(h, what, len(games), str(game) + "\n\n" if whole else ""))


def _who(h, i: int) -> str:
    return f"game {i + 1} ({h.get('White', '?')} - {h.get('Black', '?')})"


def _game(h, what: str, i: int, pgn: str) -> Game:
    """The i-th game of what, from its tags h."""
    rnd, board = round_of(h.get("Round", "?"))
    if rnd in ("", "?", "-"):
        raise RoundError(f"{what}: {_who(h, i)} names no round (its Round tag is {h.get('Round', 'missing')!r})")
    return Game(rnd, board, _player(h, "White"), _player(h, "Black"), h.get("Result", "*"), pgn)


_CLOCK_TAGS = ("[WhiteClock ", "[BlackClock ")


def games_from_round(text: str, what: str, known: dict) -> list[Game]:
    """The games of the round being played (the relay's round PGN, as games_from_pgn(...,
    whole=False) reads it): each game's tags read once - known keeps them by its tag block
    but the clocks (which change at every move) - so that a making of the standings reads
    only the games whose result or players changed, not a hall's whole round (0.1-0.2 s at
    2,000 boards, in a thread that holds the interpreter the event loop needs). A text
    that is not one tag block and one movetext a game is read whole, as before."""
    blocks = text.split("\n\n")
    if blocks and not blocks[-1].strip():
        blocks.pop()
    if len(blocks) % 2 or any(not b.startswith("[") or not b.endswith("]") for b in blocks[0::2]) \
            or any(b.startswith("[") for b in blocks[1::2]):
        return games_from_pgn(text, what, whole=False)
    games, seen = [], {}
    for i, block in enumerate(blocks[0::2]):
        key = "\n".join(line for line in block.split("\n") if not line.startswith(_CLOCK_TAGS))
        game = known.get(key)
        if game is None:
            h = chess.pgn.read_headers(io.StringIO(block + "\n\n*\n"))
            if h is None:
                return games_from_pgn(text, what, whole=False)
            game = _game(h, what, i, "")
        seen[key] = game
        games.append(game)
    known.clear()
    known.update(seen)  # (the games of this making only: a replaced game's tags go)
    return games


def load_earlier(paths) -> list[Game]:
    """The earlier rounds' games from their PGN files, in the order given."""
    games = []
    for p in paths or ():
        path = Path(p)
        try:
            if path.stat().st_size > MAX_EARLIER_BYTES:
                raise RoundError(f"the earlier round {p} is larger than {MAX_EARLIER_BYTES >> 20} MB")
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            raise RoundError(f"cannot read the earlier round {p}: {e}") from None
        games += games_from_pgn(text, f"the earlier round {p}")
    return games


def tally(games: list[Game], base: tuple | None = None) -> tuple[dict, dict, dict]:
    """(half-points, opponents, player) by player key after games, from base (an earlier
    tally, left as it was): the earlier rounds are tallied once, this round's games on it."""
    half: dict[str, int] = dict(base[0]) if base else {}
    played: dict[str, list[str]] = {k: list(v) for k, v in base[1].items()} if base else {}
    info: dict[str, Player] = dict(base[2]) if base else {}
    for g in games:
        if g.result not in RESULTS:
            continue
        w, b = RESULTS[g.result]
        for me, other, pts in ((g.white, g.black, w), (g.black, g.white, b)):
            half[me.key] = half.get(me.key, 0) + pts
            played.setdefault(me.key, []).append(other.key)
            was = info.get(me.key)
            info[me.key] = Player(me.key, me.name, me.title or (was.title if was else ""),
                                  me.rating if me.rating is not None else (was.rating if was else None))
    return half, played, info


def standings(games: list[Game], feds: dict | None = None, base: tuple | None = None) -> list[dict]:
    """The table: each player's rank (equal ranks for players equal on every tie-break),
    points, games, Buchholz Cut-1 and Buchholz, after base (tally's, of the earlier
    rounds) and games. feds: a player's key -> his federation (the round file's; PGN has
    no tag for it)."""
    half, played, info = tally(games, base)
    rows = []
    for key, opponents in played.items():
        opp = sorted(half[o] for o in opponents)
        bh = sum(opp)
        cut1 = bh - opp[0] if len(opp) > 1 else bh
        p = info[key]
        rows.append({"name": p.name, "title": p.title, "rating": p.rating, "fed": (feds or {}).get(key, ""),
                     "points": half[key] / 2, "games": len(opponents), "buchholz_cut1": cut1 / 2,
                     "buchholz": bh / 2, "_key": (-half[key], -cut1, -bh)})
    rows.sort(key=lambda r: (r["_key"], r["name"]))
    for i, r in enumerate(rows):
        r["rank"] = rows[i - 1]["rank"] if i and rows[i - 1]["_key"] == r["_key"] else i + 1
    for r in rows:
        del r["_key"]
    return rows


def rounds_json(games: list[Game]) -> list[dict]:
    """The earlier rounds, each with its games (board, players, result), in the order met."""
    out: dict[str, list] = {}
    for g in games:
        out.setdefault(g.round, []).append({
            "board": g.board, "result": g.result,
            "white": g.white.name, "black": g.black.name,
            "players": {"white": _shown(g.white), "black": _shown(g.black)}})
    return [{"round": r, "games": sorted(gs, key=lambda x: (x["board"] is None, x["board"] or 0))}
            for r, gs in out.items()]


def _shown(p: Player) -> dict:
    return {k: v for k, v in (("title", p.title), ("rating", p.rating)) if v}
