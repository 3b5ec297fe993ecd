# The firmware side of bench/perft.py: runs under CPython or inside micropython.
#   micropython -X heapsize=128K bench/perft_core.py perft FEN DEPTH [chess960]
#   micropython -X heapsize=64K bench/perft_core.py game PLIES
# prints "nodes <N> us <microseconds>" or "plies <N> push_us ... outcome_us ... claim_us ...".
import sys

try:
    from time import ticks_us, ticks_diff
except ImportError:  # CPython
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def perft(fen, depth, chess960=False):
    from firmware.rules.position import Position

    p = Position(fen, chess960)
    t = ticks_us()
    n = p.perft(depth)
    return n, ticks_diff(ticks_us(), t)


def game(plies):
    """A deterministic game of `plies` plies (a new game when one ends), timing per ply:
    the push of a legal move, the automatic game-end state (outcome), and the claimable
    draws (threefold, 50 moves) that a player may ask for."""
    from firmware.rules.game import Game
    from firmware.rules.position import new_move_buffer

    g = Game()
    buf = new_move_buffer()
    push = outcome = claim = 0
    worst = 0
    for ply in range(plies):
        n = g.position.gen_legal(buf, 0)
        m = buf[(ply * 7) % n]
        t0 = ticks_us()
        g.push(m)
        t1 = ticks_us()
        end = g.outcome()
        t2 = ticks_us()
        g.can_claim_draw()
        t3 = ticks_us()
        push += ticks_diff(t1, t0)
        outcome += ticks_diff(t2, t1)
        claim += ticks_diff(t3, t2)
        step = ticks_diff(t3, t0)
        if step > worst:
            worst = step
        if end is not None:
            g.reset()
    return push, outcome, claim, worst


def main(argv):
    sys.path.append(".")  # after MICROPYPATH, so that a precompiled build comes first
    if argv[0] == "perft":
        n, us = perft(argv[1], int(argv[2]), len(argv) > 3 and argv[3] == "chess960")
        print("nodes %d us %d" % (n, us))
    else:
        plies = int(argv[1])
        push, outcome, claim, worst = game(plies)
        print("plies %d push_us %d outcome_us %d claim_us %d worst_step_us %d"
              % (plies, push, outcome, claim, worst))


if __name__ == "__main__":
    main(sys.argv[1:])
