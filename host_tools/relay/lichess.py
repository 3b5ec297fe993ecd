"""Pushing the round PGN to a lichess broadcast round: POST
{base}/api/broadcast/round/{round_id}/push with the PGN as the body and the token (from the
environment) as a bearer token, as lichess asks of a client:

- one request at a time, at most one every `every_s` seconds, always the latest PGN: a
  change while a push is under way is pushed after it;
- no placeholder: a board's game goes to lichess once it has a move or the round names
  its players, never as an empty "White - Black" that lila would keep as a chapter no later
  push matches (its GameId, the board's serial and game number, stays from then on);
- after a 429, nothing for a minute;
- a push that fails (a 5xx, a 413, a dropped connection, a time-out; a 401, 403 or 404,
  which the arbiter must mend) is tried again with a growing wait (every_s doubling up to
  MAX_WAIT_S), until the round's latest state is in: a round's final result is never left
  behind;
- lichess answers with one entry per game, in the order of the PGN (`games[]`, each with
  its `tags` and `moves`, or an `error`): a game it refused is logged with its players'
  names from the PGN that was pushed (lichess gives no tags for a game it could not read),
  once until the reason changes;
- lichess keeps at most MAX_GAMES games of a push (lila splits the pushed PGN at
  `RelayFetch.maxChaptersToShow`): a hall with more boards pushes to several lichess
  rounds (`--lichess-round id1,id2`), boards 1-100 to the first, 101-200 to the second and
  so on, a board always to the same round (lila matches chapters by GameId within a
  round); a share of more than MAX_GAMES games, or boards beyond the last round's share,
  are warned about.

lila's side: controllers/RelayRound.scala (`push`: 403 without the right, 404 for another
round, the `games` answer) and modules/relay/src/main/RelayPush.scala."""
from __future__ import annotations

import asyncio

import aiohttp

USER_AGENT = "open-chess-board relay (lichess broadcast push)"
MAX_GAMES = 100  # games lichess keeps of one push (lila's RelayFetch.maxChaptersToShow)
MAX_ROUNDS = 20  # lichess rounds one relay pushes to (2,000 boards)
BACKOFF_429_S = 60.0  # lichess asks a client that got 429 to wait a full minute
MAX_WAIT_S = 300.0  # the longest wait between two tries of a failing push


def game_names(pgn: str) -> list[str]:
    """"White - Black" of each game of a multi-game PGN, in order."""
    names = []
    for line in pgn.splitlines():
        if line.startswith("[Event "):
            names.append(["?", "?"])
        elif names and (line.startswith('[White "') or line.startswith('[Black "')) and line.endswith('"]'):
            names[-1][0 if line.startswith("[White") else 1] = line[8:-2]
    return [f"{w} - {b}" for w, b in names]


def round_ids(text: str) -> list[str]:
    """The lichess rounds to push to, "id1,id2" (a ValueError says what is wrong)."""
    ids = [x.strip() for x in str(text).split(",")]
    if not 1 <= len(ids) <= MAX_ROUNDS or not all(x.isascii() and x.isalnum() and len(x) <= 12 for x in ids):
        raise ValueError(f"a lichess round is its id, letters and digits (lichess.org/broadcast/.../<id>), "
                         f"or up to {MAX_ROUNDS} of them with commas for a hall of more than {MAX_GAMES} boards")
    if len(set(ids)) != len(ids):
        raise ValueError("a lichess round is named twice")
    return ids


def lichess_pushes(relay, lichess: dict, log) -> list:
    """A push per lichess round named in lichess["round_id"]: one round takes every board,
    several share the boards MAX_GAMES each, in board order."""
    ids = round_ids(lichess["round_id"])
    if len(ids) == 1:
        return [LichessPush(relay, **lichess)]
    pushes = []
    for i, rid in enumerate(ids):
        share = range(i * MAX_GAMES + 1, (i + 1) * MAX_GAMES + 1)
        pushes.append(LichessPush(relay, **dict(lichess, round_id=rid), boards=share, last=i == len(ids) - 1))
        log(f"lichess push: boards {share.start}-{share.stop - 1} to the lichess round {rid}")
    return pushes


class LichessPush:
    def __init__(self, relay, round_id: str, token: str, base_url: str = "https://lichess.org",
                 every_s: float = 2.0, boards: range | None = None, last: bool = True):
        """boards: the boards this lichess round takes (None: all); last: the last round's
        share (boards after it have no lichess round)."""
        self.relay = relay
        self.boards = boards
        self.last = last
        self.round_id = round_id
        self.url = f"{base_url.rstrip('/')}/api/broadcast/round/{round_id}/push"
        self.token = token
        self.every_s = every_s
        self.backoff_s = BACKOFF_429_S
        self.max_wait_s = MAX_WAIT_S
        self._dirty = False  # the round changed since the PGN last pushed
        self._task: asyncio.Task | None = None
        self._session: aiohttp.ClientSession | None = None
        self._errors: dict[str, str] = {}  # game (White - Black) -> the error last logged
        self._warned_size = False
        self._next_at = 0.0  # no request before this (loop time)
        self._failed = 0  # pushes failed in a row
        self._last_problem = None
        self.pushes = 0
        self.failures = 0
        self.in_flight = 0  # requests under way (never more than one)

    def changed(self) -> None:
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = self.relay.loop.create_task(self._run())

    async def _run(self) -> None:
        loop = self.relay.loop
        while self._dirty:
            await asyncio.sleep(max(self.every_s, self._next_at - loop.time()))
            self._dirty = False  # a change from here on is pushed after this one
            wait = await self._push()
            if wait is None:  # in
                self._failed = 0
                self._next_at = loop.time() + self.every_s
            else:
                self._dirty = True  # the latest state is not in yet: again
                self._next_at = loop.time() + wait

    async def _push(self) -> float | None:
        """One push of the latest PGN: None when lichess took it, else how long to wait."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        pgn = self.relay.round_pgn(placeholders=False, boards=self.boards)
        names = game_names(pgn)
        if not names:
            return None  # nothing lichess could keep yet
        if not self._warned_size:
            beyond = self.boards is not None and self.last and any(n >= self.boards.stop for n in self.relay.sessions)
            if len(names) > MAX_GAMES or beyond:
                self._warned_size = True
                self.relay.log(
                    f"lichess push: {len(names)} games for the lichess round {self.round_id}, which keeps at most "
                    f"{MAX_GAMES}: give one more round id (--lichess-round id1,id2,...)" if len(names) > MAX_GAMES else
                    f"lichess push: boards from {self.boards.stop} on have no lichess round: give one more round "
                    f"id (--lichess-round id1,id2,...)")
        self.in_flight += 1
        try:
            async with self._session.post(self.url, data=pgn.encode(),
                                          headers={"Authorization": f"Bearer {self.token}",
                                                   "Content-Type": "text/plain",
                                                   "User-Agent": USER_AGENT}) as r:
                if r.status == 200:
                    self.pushes += 1
                    try:
                        body = await r.json(content_type=None)
                    except ValueError:
                        body = None
                    self._game_errors(body, names)
                    if self._last_problem:
                        self.relay.log("lichess push: lichess takes the round again")
                        self._last_problem = None
                    return None
                text = (await r.text())[:200]
                self.failures += 1
                if r.status == 429:
                    self._problem(f"too many requests (429); the next push in {self.backoff_s:g} s")
                    return self.backoff_s
                why = {401: "the token is refused (401): check LICHESS_TOKEN",
                       403: "not allowed to push to this round (403): is the token's account a contributor?",
                       404: "no such broadcast round (404): check the round id",
                       413: "the round PGN is too large for lichess (413)"}.get(r.status, f"HTTP {r.status} {text}")
                return self._retry(why)
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            self.failures += 1
            return self._retry(f"lichess did not answer ({type(e).__name__})")
        finally:
            self.in_flight -= 1

    def _retry(self, why: str) -> float:
        self._failed += 1
        wait = min(self.max_wait_s, self.every_s * 2 ** self._failed)
        self._problem(f"{why}; trying again in {wait:g} s")
        return wait

    def _problem(self, text: str) -> None:
        """Logged when it changes, not at every try."""
        key = text.split(";")[0]
        if key != self._last_problem:
            self._last_problem = key
            self.relay.log("lichess push: " + text)

    def _game_errors(self, body, names: list[str]) -> None:
        games = body.get("games") if isinstance(body, dict) else None
        if not isinstance(games, list):
            return
        for i, g in enumerate(games):
            if not isinstance(g, dict):
                continue
            name = names[i] if i < len(names) else self._tag_name(g)
            err = g.get("error")
            if isinstance(err, str) and self._errors.get(name) != err:
                self._errors[name] = err
                self.relay.log(f"lichess push: lichess refused the game {name}: {err[:200]}")
            elif err is None:
                self._errors.pop(name, None)

    @staticmethod
    def _tag_name(g: dict) -> str:
        tags = g.get("tags") if isinstance(g.get("tags"), dict) else {}
        return f"{tags.get('White', '?')} - {tags.get('Black', '?')}"

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        if self._session is not None:
            await self._session.close()
