# The SAN of each legal move of the position, worked out while the player thinks (one
# move an idle step), so that a move's line goes out without the cost of its SAN (a
# check, a mate and a disambiguation each ask the rule checker). The moves are the move
# recogniser's table of the position once it is built (firmware/board/recognizer.py).
from firmware.rules.san import san


class SanCache:
    def __init__(self, game, recognizer):
        self.game = game
        self.recognizer = recognizer
        self._sans = {}  # move -> SAN, of the position below
        self._stamp = -1  # the position they belong to (the recogniser's count of positions)
        self._next = 0  # the next move of the table to work out

    def _position(self):
        stamp = self.recognizer.positions
        if stamp != self._stamp:
            self._stamp = stamp
            self._sans.clear()
            self._next = 0

    def idle(self):
        """One more SAN worked out; whether there is more to do."""
        self._position()
        moves, n = self.recognizer.legal_moves()
        i = self._next
        if i >= n:
            return False
        m = moves[i]
        if m not in self._sans:
            self._sans[m] = san(self.game.position, m)
        self._next = i + 1
        return True

    def san(self, m):
        """The SAN of m, a legal move of the position."""
        self._position()
        s = self._sans.get(m)
        return s if s is not None else san(self.game.position, m)
