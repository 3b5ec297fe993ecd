# The SAN of each legal move of the position, worked out while the player thinks (one
# move an idle step), so that a move's line goes out without the cost of its SAN (a
# check, a mate and a disambiguation each ask the rule checker). The moves are the move
# recogniser's table of the position once it is built (firmware/board/recognizer.py).
# The SANs are kept in one bytearray, 8 bytes a move of the table (its length, then at
# most 7 characters), not as a string each in a dict: a few hundred bytes of heap, not
# one or two thousand.
from firmware.rules.san import san

_SLOT = 8  # a SAN is at most 7 characters (the event log keeps as many)


class SanCache:
    def __init__(self, game, recognizer):
        self.game = game
        self.recognizer = recognizer
        self._sans = bytearray(0)  # slot i: the SAN of the table's move i, of the position below
        self._stamp = -1  # the position they belong to (the recogniser's count of positions)
        self._next = 0  # the next move of the table to work out (those before it are done)
        self._moves = None  # the table's moves (the recogniser's, as it gave them)

    def _position(self):
        stamp = self.recognizer.positions
        if stamp != self._stamp:
            self._stamp = stamp
            self._next = 0

    def idle(self):
        """One more SAN worked out; whether there is more to do."""
        self._position()
        moves, n = self.recognizer.legal_moves()
        i = self._next
        if i >= n:
            return False
        if len(self._sans) < _SLOT * n:  # grown for the most moves a position had so far
            self._sans = bytearray(_SLOT * n)
        self._moves = moves
        text = san(self.game.position, moves[i]).encode()
        o = i * _SLOT
        k = len(text) if len(text) < _SLOT else 0  # (0: worked out again when asked)
        self._sans[o] = k
        self._sans[o + 1:o + 1 + k] = text[:k]
        self._next = i + 1
        return True

    def san(self, m):
        """The SAN of m, a legal move of the position."""
        self._position()
        moves = self._moves
        for i in range(self._next):
            if moves[i] == m:
                o = i * _SLOT
                k = self._sans[o]
                if k:
                    return bytes(self._sans[o + 1:o + 1 + k]).decode()
                break
        return san(self.game.position, m)
