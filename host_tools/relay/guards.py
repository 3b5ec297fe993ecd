"""What every request to the relay's HTTP and LiveChess servers goes through: header
values ASCII only, the token for what changes state, JSON bodies parsed with a reason for
anything else (deep nesting included), and the LiveChess API's Origin allow-list."""
from __future__ import annotations

import asyncio
import secrets

from aiohttp import web

from host_tools.relay.door import BODY_S
from host_tools.relay.round import RoundError, parse_json


BODY_TIME = web.AppKey("body_s", float)  # an app's time for a request's body (door.py)


def authorised(token: str, request) -> bool:
    got = request.headers.get("Authorization", "")
    return got.startswith("Bearer ") and token_matches(token, got[7:])


def token_matches(token: str, given) -> bool:
    """given (anything a client sent) is the token; compared in constant time."""
    return isinstance(given, str) and secrets.compare_digest(
        given.encode("utf-8", "surrogatepass"), token.encode())  # JSON may hold a lone surrogate


def require_token(token: str, request) -> None:
    if not authorised(token, request):
        raise web.HTTPUnauthorized(text="a token is needed")


@web.middleware
async def ascii_headers(request, handler):
    """Header values this relay reads are ASCII; anything else is refused here, whole (it
    would otherwise trip aiohttp's own error pages into a server error)."""
    for value in request.headers.values():
        if not value.isascii():
            raise web.HTTPBadRequest(text="header values must be ASCII")
    return await handler(request)


async def json_body(request):
    """The request's JSON body; 400 with the reason for anything else."""
    body_s = request.config_dict.get(BODY_TIME, BODY_S)
    try:
        return parse_json(await asyncio.wait_for(request.text(), body_s), "the request")
    except asyncio.TimeoutError:
        raise web.HTTPRequestTimeout(text=f"the request's body did not come within {body_s:g} s")
    except (RoundError, UnicodeDecodeError) as e:
        raise web.HTTPBadRequest(text=str(e))


def origin_allowed(origin: str | None, allowed) -> bool:
    if origin is None:
        return True  # not a browser: curl, LiveChess clients, scripts
    for a in allowed:
        if origin == a or (origin.startswith(a + ":") and origin[len(a) + 1:].isdigit()):
            return True
    return False
