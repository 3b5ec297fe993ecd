# How a game ended, as data: a termination reason and a winner (WHITE, BLACK or None).
from firmware.rules.squares import WHITE, BLACK

# Termination reasons decided by the rules (python-chess's names).
CHECKMATE = "checkmate"
STALEMATE = "stalemate"
INSUFFICIENT_MATERIAL = "insufficient_material"  # a dead position, art. 5.2.2
SEVENTYFIVE_MOVES = "seventyfive_moves"  # art. 9.6.2
FIVEFOLD_REPETITION = "fivefold_repetition"  # art. 9.6.1
FIFTY_MOVES = "fifty_moves"  # claimed, art. 9.3
THREEFOLD_REPETITION = "threefold_repetition"  # claimed, art. 9.2
# Reasons decided by the players, the clock or the arbiter.
TIME_FORFEIT = "time_forfeit"  # art. 6.9
RESIGNATION = "resignation"  # art. 5.1.2
AGREEMENT = "agreement"  # art. 5.2.3
ILLEGAL_MOVES = "illegal_moves"  # art. 7.5.5
ARBITER = "arbiter"


class Outcome:

    def __init__(self, termination, winner=None):
        self.termination = termination
        self.winner = winner

    def result(self):
        if self.winner == WHITE:
            return "1-0"
        if self.winner == BLACK:
            return "0-1"
        return "1/2-1/2"

    def __eq__(self, other):
        return (isinstance(other, Outcome) and self.termination == other.termination
                and self.winner == other.winner)

    def __repr__(self):
        return "Outcome(%s, %s)" % (self.termination, self.result())
