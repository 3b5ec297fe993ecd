"""What the page, the feed and the LiveChess API show of a board and of the round, as
JSON-ready dicts. Pure functions of a board's session and the round: no I/O."""
from __future__ import annotations

import time

import chess

from firmware.clock.timecontrol import FISCHER, TimeControlError, parse as parse_control
from host_tools.relay.round import RoundInfo
from host_tools.relay.session import BoardSession


def _base_and_increment(tc: str) -> tuple[int | None, int]:
    """The first period's time and its Fischer increment, in ms (None: no base to count
    down from, as in upcount or an unreadable control)."""
    try:
        control = parse_control(tc)
    except TimeControlError:
        return None, 0
    if not control.has_flag():
        return None, 0
    p = control.periods[0]
    return p.base_ms, p.extra_ms if p.method == FISCHER and control.method == FISCHER else 0


def time_used(rec) -> list[int | None]:
    """Time used per move, for the page's chart: the clock before, minus after, plus the
    increment the press added (None where a move has no clock time)."""
    base, inc = _base_and_increment(rec.tc)
    prev = {chess.WHITE: base, chess.BLACK: base}
    first = chess.WHITE if rec.fen.split()[1:2] != ["b"] else chess.BLACK
    used = []
    for i, p in enumerate(rec.plies):
        color = first if i % 2 == 0 else not first
        if p.clk_ms is None or prev[color] is None:
            used.append(None)
        else:
            used.append(max(0, prev[color] - p.clk_ms + inc))
            prev[color] = p.clk_ms
    return used


def board_json(s: BoardSession, round_info: RoundInfo) -> dict:
    rec = s.record
    names = round_info.boards.get(s.number, {})
    out = {"number": s.number, "serial": s.serial, "state": s.state, "problem": s.problem,
           "status": s.board_status, "flipped": s.flipped, "command": s.last_command}
    if rec is None:
        return out
    try:
        board = rec.position()  # read only: no copy of a long game at every move
    except ValueError:
        board = chess.Board()
    last = board.peek() if board.move_stack else None
    out.update({
        "game": rec.game, "white": names.get("white", rec.white), "black": names.get("black", rec.black),
        "tc": rec.tc, "fen": board.fen(), "result": rec.result, "termination": rec.termination,
        "last": [chess.square_name(last.from_square), chess.square_name(last.to_square)] if last else None,
        "san": [p.san for p in rec.plies], "clk": [p.clk_ms for p in rec.plies], "used": time_used(rec),
        "clock": clock_json(s),
    })
    return out


def clock_json(s: BoardSession) -> dict:
    c = s.clock
    return {"white": c.white_ms, "black": c.black_ms, "running": c.running,
            "age_ms": int((time.time() - c.at) * 1000) if c.at else None}


def round_json(round_info: RoundInfo) -> dict:
    return {"event": round_info.event, "site": round_info.site, "round": round_info.round}


def state_json(sessions: dict, round_info: RoundInfo) -> dict:
    return {"round": round_json(round_info),
            "boards": [board_json(s, round_info) for _, s in sorted(sessions.items())]}
