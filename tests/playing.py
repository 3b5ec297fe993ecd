"""What the tests of the player programs (play engine, play lichess) share: waiting for
what the program or the board does, and reading the board's LEDs as the person at it
sees them."""
from __future__ import annotations

import time

import chess


def wait_until(what, said: list, timeout: float = 30.0):
    """what()'s first true value within timeout; else an AssertionError with the last
    things the program said."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out; the program said: {said[-6:]}")


def lit_move(outputs: str, kinds: tuple[int, int] = (4, 5)) -> tuple[set, set]:
    """The squares the board's LEDs show as a move to carry out (from, to): the last
    `squares` line of the simulator's outputs (kinds 4 and 5; a hint's are 6 and 7)."""
    last = None
    with open(outputs) as f:
        for line in f:
            if " squares " in line:
                last = line.split()[-1]
    lit = bytes.fromhex(last) if last else bytes(64)
    return ({chess.square_name(i) for i in range(64) if lit[i] == kinds[0]},
            {chess.square_name(i) for i in range(64) if lit[i] == kinds[1]})
