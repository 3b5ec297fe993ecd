"""What the page, the feed and the LiveChess API show of a board and of the round, as
JSON-ready dicts. Pure functions of a board's session and the round: no I/O."""
from __future__ import annotations

import time

import chess

from host_tools.relay.twoboards import PAIRED
from host_tools.relay.round import RoundInfo
from host_tools.board.session import BoardSession


# What only the arbiter's page gets of a board: its serial, its line's and its position's
# trouble ("board differs: ...", an unreadable line) and the arbiter's last command with
# the board's answer. Spectators see the game, the clocks and the result.
ARBITER_ONLY = ("serial", "problem", "status", "command")


def public(board: dict) -> dict:
    """A board_json as spectators get it (the page, /api/state without the token)."""
    return {k: v for k, v in board.items() if k not in ARBITER_ONLY}


def board_json(s: BoardSession, round_info: RoundInfo, since: int = 0) -> dict:
    """A board for the page and the feed. The page draws any earlier position itself from
    `start` and the moves (`uci`, with `san` for the move list and its check signs), and
    the time chart from `clk` (each player's clock after each of his moves: right however
    time was added - increments, a new period, a penalty). since: the lists only from that
    ply on, said by `from` (a feed's message: the page has the plies before it)."""
    rec = s.record
    entry = round_info.boards.get(s.number, {})
    if not entry and s.number > PAIRED:  # a blind player's board: its pairing's players (relay/twoboards.py)
        entry = round_info.boards.get(s.number - PAIRED, {})
    out = {"number": s.number, "serial": s.serial, "state": s.state, "problem": s.problem,
           "status": s.board_status, "flipped": s.flipped, "command": s.last_command,
           "players": entry.get("info", {}), "analysis": s.analysis,
           # every game of the board (/boards/<n>/games/<g>.pgn) but one replaced before its
           # first move (a board's own first game, before the arbiter's `new`)
           "games": sorted(g for g, r in s.records.items() if r.plies or g == s.current)}
    if rec is None:
        return out
    plies = rec.plies[since:] if since else rec.plies
    try:
        board = rec.position()  # read only: no copy of a long game at every move
    except ValueError:
        board = chess.Board()
    last = board.peek() if board.move_stack else None
    out.update({
        "game": rec.game, "white": entry.get("white", rec.white), "black": entry.get("black", rec.black),
        "tc": rec.tc, "start": rec.fen, "fen": board.fen(), "result": rec.result, "termination": rec.termination,
        "last": [chess.square_name(last.from_square), chess.square_name(last.to_square)] if last else None,
        "check": chess.square_name(board.king(board.turn)) if board.is_check() else None,
        "uci": [p.uci for p in plies], "san": [p.san for p in plies], "clk": [p.clk_ms for p in plies],
        "clock": clock_json(s),
    })
    if since:
        out["from"] = since
    return out


def _stamp(s: BoardSession, round_info: RoundInfo) -> tuple:
    """What board_json reads of a board, but its clock and the %clk of its earlier moves
    (a change of those is published, and the publisher makes the board again then)."""
    rec = s.record
    return (id(s), s.serial, id(round_info), s.state, s.problem, s.board_status, s.flipped, s.last_command, id(s.analysis),
            s.current, len(s.records), id(rec), len(rec.plies) if rec else 0,
            rec.plies[-1].clk_ms if rec and rec.plies else None, rec.result if rec else None,
            rec.termination if rec else None, rec.white if rec else None, rec.black if rec else None)


def board_made(s: BoardSession, round_info: RoundInfo, made: dict) -> dict:
    """board_json(s) whole, from made (board number -> (stamp, board_json) as the
    publisher made it at the board's last change) while nothing it shows changed since,
    its clock as now: the whole state of a hall of 2,000 boards took the event loop 0.2 s
    when every board's position was made again."""
    hit = made.get(s.number)
    stamp = _stamp(s, round_info)
    if hit is None or hit[0] != stamp:
        board = board_json(s, round_info)
        made[s.number] = (stamp, board)
        return board
    board = hit[1]
    return dict(board, clock=clock_json(s)) if "clock" in board else board


def made_board(s: BoardSession, round_info: RoundInfo, made: dict) -> dict:
    """The board as board_made keeps it (its clock as when it was made): not to be changed."""
    hit = made.get(s.number)
    if hit is None or hit[0] != _stamp(s, round_info):
        board_made(s, round_info, made)
    return made[s.number][1]


def clock_json(s: BoardSession) -> dict:
    c = s.clock
    return {"white": c.white_ms, "black": c.black_ms, "running": c.running, "state": c.state,
            "flags": list(c.flags), "age_ms": int((time.time() - c.at) * 1000) if c.at else None}


def round_json(round_info: RoundInfo) -> dict:
    return {"event": round_info.event, "site": round_info.site, "date": round_info.date, "round": round_info.round,
            "lichess_round": round_info.lichess_round}


def state_json(sessions: dict, round_info: RoundInfo, arbiter: bool = False, made: dict | None = None) -> dict:
    """The round and its boards: every board the relay has, and every pairing of the round
    whose board has not connected yet (its players shown, WAITING); as the arbiter sees
    them, or as spectators do. made: the boards as last made (board_made)."""
    # The blind player's board of a pair (relay/twoboards.py) is the arbiter's: spectators
    # follow the game on the sighted player's board.
    made = {} if made is None else made
    boards = {n: board_made(s, round_info, made) for n, s in sessions.items() if arbiter or n < PAIRED}
    for n, entry in round_info.boards.items():
        if n not in boards:
            boards[n] = waiting_json(n, entry)
    shown = (lambda b: b) if arbiter else public
    return {"round": round_json(round_info), "boards": [shown(boards[n]) for n in sorted(boards)]}


def waiting_json(n: int, entry: dict) -> dict:
    """A pairing of the round whose board is not there yet."""
    return {"number": n, "serial": entry.get("serial", ""), "state": "WAITING", "problem": None,
            "status": "sync", "flipped": False, "command": None, "players": entry.get("info", {}),
            "analysis": None, "games": [], "white": entry.get("white", "?"), "black": entry.get("black", "?")}
