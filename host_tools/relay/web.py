"""The relay's HTTP server (aiohttp): the live page, the round PGN at a stable URL for
lichess, per-board PGNs, a websocket feed, and an API whose state-changing calls need the
relay's token (`Authorization: Bearer <token>`). Local by default (127.0.0.1); requests
are size-limited, and no path in a request reaches a file outside the static folder or
the output folder. The relay is given (host_tools/relay/app.py); this module uses its
public methods only."""
from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from urllib.parse import unquote

from aiohttp import WSMsgType, web

from host_tools import fidetime
from host_tools.board.record import note_text

from host_tools.relay.claims import ClaimError, check_claim
from host_tools.relay.door import GuardedSite
from host_tools.relay.guards import BODY_TIME, ascii_headers, authorised, json_body, require_token, token_matches
from host_tools.relay.livechess import make_livechess_app
from host_tools.relay.twoboards import PAIRED
from host_tools.relay.round import RoundError, RoundInfo

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
ANSWER_TIMEOUT_S = 5.0  # an arbiter's command waits this long for the board's answer
STATE_EVERY_S = 1.0  # a feed asking for the whole state again gets at most one this often
# Commands the API passes to a board (the protocol's, docs/protocol.md).
BOARD_COMMANDS = {"new", "start", "pause", "resume", "set", "penalty", "claim", "quickplay",
                  "resign", "draw", "result", "config", "message"}
# Appendix D (relay/twoboards.py): on the sighted player's board of a pair these go to the
# game's clock, the blind player's board; these to both boards.
ON_THE_CLOCK = {"start", "pause", "resume", "set", "penalty", "claim", "quickplay", "resign", "draw", "result"}
ON_BOTH = {"new", "message"}
# The desk's own words, made into board commands here: `add w 60000` (time added in pause),
# `forfeit w <reason>` (the game lost by forfeit, the reason into the PGN).
DESK_COMMANDS = {"add", "forfeit"}
ON_THE_CLOCK |= {"add", "forfeit"}
PGN_TYPE = "application/x-chess-pgn"
NO_BOARD = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>No board {n}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="notfound"><h1>No board {n}</h1>
<p>This round has no board {n}, and no board with that number is connected.
<a href="/">Every board of the round</a>.</p></main></body></html>"""


def _board(relay, request, public: bool = False):
    """The board a request names; public: as spectators may have it (a blind player's
    paired board, n + 1000, is the arbiter's: relay/twoboards.py)."""
    try:
        n = int(request.match_info["n"])
    except ValueError:
        raise web.HTTPNotFound(text="no such board")
    s = relay.sessions.get(n)
    if s is None or (public and n >= PAIRED and not authorised(relay.token, request)):
        raise web.HTTPNotFound(text="no such board")
    return s


def make_app(relay) -> web.Application:
    @web.middleware
    async def trusted(request, handler):
        """An address that gives the token is the arbiter's: the door keeps places for it."""
        if authorised(relay.token, request):
            relay.door.trust(request.remote)
        return await handler(request)

    app = web.Application(client_max_size=MAX_BODY, middlewares=[ascii_headers, trusted])
    app[BODY_TIME] = relay.door.body_s
    routes = web.RouteTableDef()

    @routes.get("/")
    async def page(request):
        return web.FileResponse(STATIC / "index.html")

    @routes.get("/arbiter")
    async def arbiter_page(request):  # the page asks for the token; the data needs it
        return web.FileResponse(STATIC / "arbiter.html")

    @routes.get(r"/board/{n:[0-9]{1,9}}")
    async def board_page(request):  # one board, large: the page reads its number from the URL
        n = int(request.match_info["n"])
        if (n not in relay.sessions and n not in relay.round.boards) or n >= PAIRED:
            return web.Response(status=404, content_type="text/html", text=NO_BOARD.format(n=n))
        return web.FileResponse(STATIC / "index.html")

    @routes.get("/round.pgn")
    async def round_pgn(request):
        return web.Response(text=relay.round_pgn(), content_type=PGN_TYPE)

    @routes.get(r"/boards/{n:[0-9]{1,9}}.pgn")
    async def board_pgn(request):
        s = _board(relay, request, public=True)
        text = relay.public_pgn(s.number)
        if text is None:
            raise web.HTTPNotFound(text="no game on that board yet")
        return web.Response(text=text, content_type=PGN_TYPE)

    @routes.get(r"/boards/{n:[0-9]{1,9}}/games/{g:[0-9]{1,9}}.pgn")
    async def game_pgn(request):  # a board's earlier game (or its current one) by number
        s = _board(relay, request, public=True)
        text = relay.public_pgn(s.number, int(request.match_info["g"]))
        if text is None:
            raise web.HTTPNotFound(text="no such game on that board")
        return web.Response(text=text, content_type=PGN_TYPE)

    @routes.get("/api/state")
    async def state(request):  # the arbiter's with the token, the spectators' without
        return web.json_response(relay.state_json(authorised(relay.token, request)))

    @routes.get("/api/standings")
    async def standings(request):  # the event's standings, this round's finished games included
        return web.Response(body=await relay.standings_body(), content_type="application/json")

    @routes.get("/api/rounds")
    async def rounds(request):  # the event's earlier rounds, with their games
        return web.json_response(relay.rounds_json())

    @routes.get(r"/rounds/{name:[^/]{1,10}}.pgn")
    async def earlier_round_pgn(request):
        text = relay.earlier_pgn(request.match_info["name"])
        if text is None:
            raise web.HTTPNotFound(text="no such earlier round")
        return web.Response(text=text, content_type=PGN_TYPE)

    @routes.get("/ws")
    async def ws(request):
        # The arbiter's page sends {"token": ...} once, and its feed then carries the alerts
        # too. A board's message carries only what changed (its plies from `from` on): a
        # page that lacks what came before asks {"state": true} and gets the whole state,
        # in order with the messages; a feed too slow to take every message gets it when it
        # has caught up (publish.py: missed).
        sock = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await sock.prepare(request)
        q = relay.listen()
        missed = relay.publisher.missed

        def state_text() -> str:
            return relay.state_text(arbiter=q in relay.publisher.arbiter_listeners)

        asked_at = [-STATE_EVERY_S, None]  # the last state asked for; one waiting

        def ask_state() -> None:
            """The whole state in the feed's order; asked again and again, at most one
            every STATE_EVERY_S (a state of a large hall is costly to make)."""
            def put():
                asked_at[:] = [loop.time(), None]
                q.put_nowait(state_text())
            loop = asyncio.get_running_loop()
            wait = asked_at[0] + STATE_EVERY_S - loop.time()
            if wait <= 0:
                put()
            elif asked_at[1] is None:
                asked_at[1] = loop.call_later(wait, put)

        async def pump():
            with contextlib.suppress(ConnectionError):  # the client went: the handler ends too
                while True:
                    await sock.send_str(await q.get())  # JSON text, made once for every feed
                    if missed and q in missed and q.empty():
                        missed.discard(q)
                        await sock.send_str(state_text())

        task = None
        try:
            await sock.send_str(relay.state_text())
            task = asyncio.create_task(pump())
            async for msg in sock:
                if msg.type == WSMsgType.ERROR:
                    break
                if msg.type == WSMsgType.TEXT:
                    try:
                        asked = json.loads(msg.data)
                        given = asked.get("token")
                    except (ValueError, AttributeError, RecursionError):
                        asked, given = None, None
                    if given is None and isinstance(asked, dict) and asked.get("state") is True:
                        ask_state()
                        continue
                    ok = token_matches(relay.token, given)
                    if ok:
                        relay.listen_as_arbiter(q)
                        relay.door.trust(request.remote)
                    await sock.send_json({"type": "arbiter", "ok": ok,
                                          "alerts": relay.alerts_json() if ok else []})
                    if ok:  # the boards again, with what only the arbiter sees (after what the feed has waiting)
                        q.put_nowait(state_text())
        except ConnectionError:
            pass  # the client went mid-answer: nothing to tell it, nothing to log
        finally:
            if task is not None:
                task.cancel()
            if asked_at[1] is not None:
                asked_at[1].cancel()
            relay.unlisten(q)
            missed.discard(q)
        return sock

    @routes.get("/api/alerts")
    async def alerts(request):
        require_token(relay.token, request)
        return web.json_response({"alerts": relay.alerts_json()})

    @routes.post(r"/api/alerts/{i:[0-9]{1,9}}/seen")
    async def alert_seen(request):
        require_token(relay.token, request)
        a = relay.alert_seen(int(request.match_info["i"]))
        if a is None:
            raise web.HTTPNotFound(text="no such alert")
        return web.json_response(a)

    @routes.get("/api/round")
    async def get_round(request):  # the round as its file says it, serials included
        require_token(relay.token, request)
        return web.json_response(relay.round.to_json())

    @routes.post("/api/round/assign")
    async def assign(request):
        require_token(relay.token, request)
        body = await json_body(request)
        if not isinstance(body, dict) or not isinstance(body.get("serial"), str) \
                or isinstance(body.get("board"), bool) or not isinstance(body.get("board"), int):
            raise web.HTTPBadRequest(text='send {"serial": "<board serial>", "board": <number>}')
        try:
            relay.assign(body["serial"], body["board"])
        except RoundError as e:
            raise web.HTTPBadRequest(text=f"bad pairing: {e}")
        return web.json_response({"ok": True, "serial": body["serial"], "board": body["board"]})

    @routes.post("/api/round")
    async def set_round(request):
        require_token(relay.token, request)
        try:
            relay.set_round(RoundInfo.from_json(await json_body(request)))
        except RoundError as e:
            raise web.HTTPBadRequest(text=f"bad round: {e}")
        return web.json_response({"ok": True})

    @routes.post(r"/api/boards/{n:[0-9]{1,9}}/command")
    async def command(request):
        require_token(relay.token, request)
        s = _board(relay, request)
        body = await json_body(request)
        if not isinstance(body, dict) or not isinstance(body.get("command"), str):
            raise web.HTTPBadRequest(text='send {"command": "pause"}')
        line = body["command"].strip()
        words = line.split()
        if not words or words[0] not in BOARD_COMMANDS | DESK_COMMANDS or len(line) > 200 \
                or not (line.isascii() and line.isprintable()):
            raise web.HTTPBadRequest(text="not a board command: " + " ".join(sorted(BOARD_COMMANDS | DESK_COMMANDS)))
        target = relay.clock_board(s) if words[0] in ON_THE_CLOCK else s
        forfeit = None
        if words[0] == "add":  # time added to a player's clock: set to what it shows plus that
            side, ms = _side_and_ms(words)
            if target.clock.state == "running":
                raise web.HTTPConflict(text="pause the clock first: time is added in pause (C.02)")
            if not target.clock.at:
                raise web.HTTPConflict(text="the board has not said its clock yet")
            now = target.clock.white_ms if side == "w" else target.clock.black_ms
            line = f"set time {side} {now + ms}"
        elif words[0] == "forfeit":  # a player forfeits, or both (the reason goes into the PGN)
            if len(words) < 2 or words[1] not in ("w", "b", "both"):
                raise web.HTTPBadRequest(text="forfeit w|b|both [reason]")
            forfeit = (words[1], unquote(" ".join(words[2:]))[:120])
            line = {"w": "result 0-1", "b": "result 1-0", "both": "pause"}[words[1]]
            if words[1] == "both" and target.clock.state != "running":  # nothing for the board to do
                if s.record is None or s.record.result != "*":
                    raise web.HTTPConflict(text="no game in progress on that board")
                text = relay.forfeited(s, *forfeit)
                return web.json_response({"sent": None, "answer": None, "ok": True, "said": text, "changed": [text]})
        status, out = await ask_board(relay, target, line)
        if words[0] == "add" and out.get("ok"):
            out["changed"] = [f"+{_hms(ms)} to {'White' if side == 'w' else 'Black'}"] + out["changed"]
            out["said"] = answer_text_of(out) + "".join(" · " + c for c in out["changed"])
        if forfeit is not None and out.get("ok"):
            out["changed"] = out.get("changed", []) + [relay.forfeited(s, *forfeit)]
            out["said"] += " · " + out["changed"][-1]
        if target is not s:
            out["board"] = target.number  # the game's clock is the blind player's board's
        partner = relay.partner(s) if words[0] in ON_BOTH else None
        if partner is not None and out.get("ok"):
            relay.tell_board(partner, line)
        return web.json_response(out, status=status)

    @routes.get("/api/timecontrol")
    async def read_timecontrol(request):  # a control as FIDE writes it, read before a new game is sent
        require_token(relay.token, request)
        try:
            r = fidetime.read(request.query.get("text", ""))
        except ValueError as e:
            raise web.HTTPBadRequest(text=str(e))
        return web.json_response({"control": r.control, "words": r.words})

    @routes.post(r"/api/boards/{n:[0-9]{1,9}}/claim")
    async def claim(request):
        """A draw claim (9.2, 9.3) with the claimant's written move or none, checked on the
        relay's record by python-chess (relay/claims.py). Correct: the board is told the
        claim (it checks it too, and ends the game). Incorrect: the board adds the 9.5.3
        penalty. Either way the claim goes into the PGN as a comment and to the alerts."""
        require_token(relay.token, request)
        s = _board(relay, request)
        body = await json_body(request)
        if not isinstance(body, dict) or body.get("side") not in ("w", "b") \
                or not isinstance(body.get("move") or "", str) or len(body.get("move") or "") > 12:
            raise web.HTTPBadRequest(text='send {"side": "w", "move": "Nf3"} (move: the written one, or null)')
        if s.record is None:
            raise web.HTTPConflict(text="no game on that board")
        try:
            c = check_claim(s.record.board(), body["side"], body.get("move") or None)
        except ClaimError as e:
            raise web.HTTPConflict(text=str(e))
        line = f"claim {c.side}" if c.correct else f"penalty claim {c.side}"
        status, out = await ask_board(relay, relay.clock_board(s), line)
        if out.get("ok"):
            relay.claimed(s, c)
        out["claim"] = {"correct": c.correct, "reason": c.reason, "move": c.move.uci() if c.move else None,
                        "note": c.note()}
        return web.json_response(out, status=status)

    app.add_routes(routes)
    app.router.add_static("/static", STATIC, follow_symlinks=False)
    return app


async def start_web(relay) -> list:
    runners = []
    for app, host, port in ((make_app(relay), relay.host, relay.http_port),
                            (make_livechess_app(relay), relay.livechess_host, relay.livechess_port)):
        # A kept-alive connection's next request has as long as a first one (door.py).
        runner = web.AppRunner(app, access_log=None, keepalive_timeout=relay.door.header_s)
        await runner.setup()
        site = GuardedSite(runner, host, port, relay.door)
        await site.start()
        runners.append(runner)
    if relay.http_port == 0 or relay.livechess_port == 0:  # tests ask for free ports
        relay.http_port = runners[0].addresses[0][1]
        relay.livechess_port = runners[1].addresses[0][1]
    return runners


async def ask_board(relay, s, line: str) -> tuple[int, dict]:
    """Send a checked command line to board s and wait for its answer: (HTTP status, body)."""
    answer = asyncio.get_running_loop().create_future()

    def answered(m):
        if not answer.done():
            answer.set_result(m)
    entry = (line, answered)
    s.waiting.append(entry)
    if s.send is None or not s.send(line):
        s.waiting.remove(entry)
        raise web.HTTPConflict(text="the board is not connected")
    relay.log(f"board {s.number}: arbiter sent {line!r}")
    rec = s.record
    noted = len(rec.notes) if rec is not None else 0
    try:
        m = await asyncio.wait_for(answer, ANSWER_TIMEOUT_S)
    except asyncio.TimeoutError:
        if entry in s.waiting:
            s.waiting.remove(entry)
        s.last_command = f"{line} -> no answer"
        relay.publisher.board_changed(s)
        return 504, {"sent": line, "answer": None,
                     "error": f"no answer from the board within {ANSWER_TIMEOUT_S:g} s"}
    if m is None:
        return 409, {"sent": line, "answer": None, "error": "the board's line went"}
    relay.log(f"board {s.number}: {m.line}")
    changed = [changed_text(n) for _, n in rec.notes[noted:]] if rec is not None and rec is s.record else []
    said = answer_text(m) + "".join(" · " + c for c in changed)
    return (200 if m.kind == "ok" else 422), {"sent": line, "answer": m.line, "ok": m.kind == "ok",
                                              "said": said, "changed": changed}


def answer_text_of(out: dict) -> str:
    """The board's own answer part of a said text (what changed follows it)."""
    return out["said"].split(" · ")[0]


def changed_text(note: str) -> str:
    """What a command changed, as the arbiter wants it said: "+2:00 to White"."""
    w = note.split()
    who = {"w": "White", "b": "Black"}
    try:
        if w[0] == "penalty":
            return f"+{_hms(int(w[2]))} to {who[w[1]]}"
        if w[:2] == ["set", "time"]:
            return f"{who[w[2]]}'s clock set to {_hms(int(w[3]))}"
    except (IndexError, KeyError, ValueError):
        pass
    return note_text(note)


def _hms(ms: int) -> str:
    t = ms // 1000
    return f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}" if t >= 3600 else f"{t // 60}:{t % 60:02d}"


def _side_and_ms(words) -> tuple[str, int]:
    if len(words) != 3 or words[1] not in ("w", "b") or not (words[2].isascii() and words[2].isdigit()) \
            or not 0 < int(words[2]) <= 10 * 3600 * 1000:
        raise web.HTTPBadRequest(text="add w|b <ms> (at most 10 hours)")
    return words[1], int(words[2])


def answer_text(m) -> str:
    """A board's answer in words for the arbiter: its values decoded (the protocol sends
    `err not-now the%20clock%20has...`), a refusal said as one."""
    words = m.args + [f"{k}={v}" for k, v in m.kwargs.items()]
    if m.kind == "err":
        code, text = (words[0], " ".join(words[1:])) if words else ("", "")
        return f"refused: {text} ({code})" if text else f"refused ({code})"
    return " ".join(["ok"] + words)
