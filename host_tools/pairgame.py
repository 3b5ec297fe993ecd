"""A game between a sighted and a blind player on two simulated boards (appendix D), as
they play it: each makes his move on his own board and the other repeats it on his; one
clock, the blind player's board's, which both press (the sighted player after his move,
D.2.5; the blind player after his, D.2.4). The hands are host_tools/hands.py's, in real
time, on two SimulatedBoards (real firmware) attached to a relay, whose pairing
(host_tools/relay/pairing.py) asks each board for the move to repeat.

Things go wrong once each, as they do at a real board, for the arbiter to see:
  lag_ply:     the move of that ply is repeated late (the board lags a move for a while);
  wrong_ply:   the sighted player repeats the blind player's move of that ply wrongly (he
               misheard it): his board refuses it and the relay tells the arbiter at once
               (D.2.9); the piece is put right and the move repeated;
  missing_ply: the blind player does not repeat the sighted player's move of that ply: he
               makes his own next move and presses; the relay tells the arbiter at once,
               he takes his move back, repeats the sighted player's, and plays on.
Used by `python -m host_tools demo --appendix-d` and tests/test_appendix_d.py."""
from __future__ import annotations

import time

import chess

from host_tools.relay.pairing import PAIRED

REPEAT_S = 0.4  # the other player hears the move announced and reaches for the piece
LAG_S = 3.0  # the lagging repetition's delay


def wait_for(test, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return test()


def misheard(board: chess.Board, move: chess.Move) -> chess.Move:
    """Another legal move, as a misheard announcement gives: the same piece elsewhere if
    it can go elsewhere (a plain move: no capture, castling or promotion)."""
    plain = [m for m in board.legal_moves if m != move and not board.is_capture(m)
             and not board.is_castling(m) and not m.promotion]
    return ([m for m in plain if m.from_square == move.from_square] or plain)[0]


def play(moves, sighted, blind, blind_color: chess.Color, sessions: dict, number: int = 1,
         lag_ply: int | None = None, wrong_ply: int | None = None, missing_ply: int | None = None,
         alerts=None, log=print, board: chess.Board | None = None) -> dict:
    """Play moves (chess.Move from board, the start if None) with sighted's and blind's hands (Hands of the
    two simulated boards); sessions: the relay's (to see each move arrive there); alerts():
    the relay's alerts (to wait for the one the wrong repetition gives). Returns what
    happened: {"wrong": (tried, alert seconds), "missing": alert seconds, "lag": ply}
    (seconds None: no alert came)."""
    board = (board or chess.Board()).copy()
    a_n, b_n = number, number + PAIRED
    done = {}

    def plies(n):
        s = sessions.get(n)
        return len(s.record.plies) if s is not None and s.record is not None else -1

    for ply, move in enumerate(moves):
        by_blind = board.turn == blind_color
        own, other = (blind, sighted) if by_blind else (sighted, blind)
        own_n, other_n = (b_n, a_n) if by_blind else (a_n, b_n)
        own.move(board, move, press=by_blind)  # the blind player presses his own board's clock
        if not by_blind:
            blind.press(board.turn)  # the sighted player presses the one clock: the blind player's
        if not wait_for(lambda: plies(own_n) >= ply + 1, 20):
            raise RuntimeError(f"board {own_n} did not take {board.san(move)}")
        if ply == lag_ply:
            log(f"  board {other_n} lags: {board.san(move)} is repeated {LAG_S:g} s late")
            time.sleep(LAG_S)
        time.sleep(REPEAT_S)
        if ply == missing_ply:
            if by_blind or ply + 1 >= len(moves):
                raise ValueError("missing_ply: a move of the sighted player's, with the blind player's after it")
            mine = moves[ply + 1]
            board.push(move)
            log(f"  the blind player forgets to repeat {board.peek().uci()} and plays {board.san(mine)} on his board")
            board.pop()
            before = len(alerts()) if alerts else 0
            t0 = time.monotonic()
            other.shift(mine.from_square, mine.to_square)
            other.press(not board.turn)
            told = wait_for(lambda: alerts is not None and any(
                x["kind"] == "pair-differs" for x in alerts()[before:]), 10)
            done["missing"] = time.monotonic() - t0 if told else None
            other.shift(mine.to_square, mine.from_square)  # his move back; the repetition follows
            time.sleep(0.5)
        if ply == wrong_ply and not by_blind:
            raise ValueError("wrong_ply: a move of the blind player's (the sighted player repeats it wrongly)")
        if ply == wrong_ply:
            wrong = misheard(board, move)
            before = len(alerts()) if alerts else 0
            t0 = time.monotonic()
            log(f"  the sighted player repeats {board.san(move)} as {board.san(wrong)} (misheard)")
            other.shift(wrong.from_square, wrong.to_square)
            told = wait_for(lambda: alerts is not None and any(
                x["kind"] == "pair-differs" for x in alerts()[before:]), 10)
            done["wrong"] = (board.san(wrong), time.monotonic() - t0 if told else None)
            other.shift(wrong.to_square, wrong.from_square)  # put right: the piece back...
            time.sleep(0.5)
        other.carry_out(board, move)  # ...and the move repeated
        if not wait_for(lambda: plies(other_n) >= ply + 1, 20):
            raise RuntimeError(f"board {other_n} did not take the repeated {board.san(move)}")
        board.push(move)
    done["lag"] = lag_ply
    return done
