"""lichess's stream lines as `play lichess` reads them (the Board API's gameFull, gameState,
chatLine, opponentGone on a game's stream; gameStart and challengeDeclined on the event
stream: https://lichess.org/api#tag/Board): each checked field by field, with the types
the tool relies on, before any of it is used. A line that is not what lichess documents
(a player as a string, Infinity for a clock, a start position no board reads) is refused
whole with the reason, as a ValueError, and changes nothing."""
from __future__ import annotations

import re

import chess

UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
MAX_PLIES = 1200
MAX_MS = 10 ** 10  # a clock in milliseconds: far beyond any game's
MAX_TEXT = 400


def read(stream: str, obj) -> dict:
    """stream ("event" or "game") line obj as the tool reads it; ValueError if it is not."""
    if not isinstance(obj, dict):
        raise ValueError("not an object")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ValueError("no type")
    if stream == "event":
        if kind == "gameStart":
            game = _dict(obj.get("game"), "game")
            gid = game.get("gameId") or game.get("id")
            compat = _dict(game.get("compat"), "compat")
            return {"type": kind, "game": {"gameId": _text(gid, "gameId", 40), "compat": {
                "board": _bool(compat.get("board", True), "compat.board")}}}
        if kind == "challengeDeclined":
            challenge = _dict(obj.get("challenge"), "challenge")
            return {"type": kind, "challenge": {"declineReason": _text(
                challenge.get("declineReason", ""), "declineReason", MAX_TEXT)}}
        return {"type": kind}
    if kind == "gameFull":
        fen = obj.get("initialFen", "startpos")
        if fen != "startpos":
            try:
                chess.Board(_text(fen, "initialFen", 100))
            except ValueError:
                raise ValueError(f"initialFen {str(fen)[:100]!r} is no position") from None
        clock = obj.get("clock")  # none for a correspondence game
        if clock is not None:
            clock = _dict(clock, "clock")
            clock = {"initial": _number(clock.get("initial", 0), "clock.initial", MAX_MS),
                     "increment": _number(clock.get("increment", 0), "clock.increment", MAX_MS)}
        return {"type": kind, "clock": clock, "white": _player(obj.get("white"), "white"),
                "black": _player(obj.get("black"), "black"), "initialFen": fen,
                "state": game_state(obj.get("state"))}
    if kind == "gameState":
        return game_state(obj)
    if kind == "chatLine":
        return {"type": kind, "username": _text(obj.get("username", ""), "username", 40),
                "text": _text(obj.get("text", ""), "text", MAX_TEXT)}
    if kind == "opponentGone":
        secs = obj.get("claimWinInSeconds")
        return {"type": kind, "gone": _bool(obj.get("gone", False), "gone"),
                "claimWinInSeconds": None if secs is None else _number(secs, "claimWinInSeconds", 10 ** 6)}
    return {"type": kind}


def game_state(st) -> dict:
    """A gameState (also a gameFull's state): moves in UCI, clocks in ms, the status, the
    winner, the offers and the first move's expiry."""
    st = _dict(st, "state")
    moves = _text(st.get("moves", ""), "moves", MAX_PLIES * 6).split()
    if len(moves) > MAX_PLIES or not all(UCI.fullmatch(m) for m in moves):
        raise ValueError("moves are not UCI moves")
    out = {"type": "gameState", "moves": " ".join(moves),
           "status": _text(st.get("status", "started"), "status", 40)}
    for key in ("wtime", "btime", "winc", "binc"):
        if key in st:
            out[key] = _number(st[key], key, MAX_MS)
    winner = st.get("winner")
    if winner not in (None, "white", "black"):
        raise ValueError(f"winner {str(winner)[:20]!r}")
    out["winner"] = winner
    for key in ("wdraw", "bdraw", "wtakeback", "btakeback"):
        out[key] = _bool(st.get(key, False), key)
    if "expiration" in st:
        exp = _dict(st["expiration"], "expiration")
        out["expiration"] = {"millisToMove": _number(exp.get("millisToMove", 0), "millisToMove", MAX_MS),
                             "idleMillis": _number(exp.get("idleMillis", 0), "idleMillis", MAX_MS)}
    return out


def _player(p, what: str) -> dict:
    """A player as the tool names him: name, id, rating, AI level (each may be absent)."""
    p = _dict(p, what)
    out = {}
    for key in ("name", "id"):
        if p.get(key) is not None:
            out[key] = _text(p[key], f"{what}.{key}", 60)
    for key in ("rating", "aiLevel"):
        if p.get(key) is not None:
            out[key] = _number(p[key], f"{what}.{key}", 10000)
    return out


def _dict(value, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def _text(value, what: str, most: int) -> str:
    if not isinstance(value, str) or len(value) > most:
        raise ValueError(f"{what} is not a text of at most {most} characters")
    return value


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} is not true or false")
    return value


def _number(value, what: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ValueError(f"{what} is not a whole number 0..{most}")
    return value
