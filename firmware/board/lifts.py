# What the hands did since the board was last in order: which squares of the position
# went empty, in which order they were first lifted, and when a lifted square was filled
# again. A capture needs this evidence (a lifted piece alone looks exactly like a
# capture): its target is filled after the capturing piece was lifted, while a piece
# merely brushed is back before.

_ZEROS = bytes(64)  # clears the records in one copy


class Lifts:
    def __init__(self):
        self.lifted = bytearray(8)  # squares seen empty since the board was last in order
        self.order = bytearray(64)  # when each of those squares was first lifted...
        self.refill = bytearray(64)  # ...and when it was last filled again (a sequence)
        self.count = 0  # lifts and refills seen (up to 255)

    def clear(self):
        for r in range(8):
            self.lifted[r] = 0
        if self.count:
            self.order[:] = _ZEROS
            self.refill[:] = _ZEROS
            self.count = 0

    def was_lifted(self, sq):
        return (self.lifted[sq >> 3] >> (sq & 7)) & 1

    def note(self, board, expected, before):
        """The stable board changed from before to board; expected: the position's."""
        lifted = self.lifted
        # Refills first: seen in one update with a lift, a refill cannot be the landing
        # of the piece lifted (that comes strictly later), so it counts as earlier.
        for r in range(8):
            back = lifted[r] & board[r] & ~before[r]
            if back:
                if self.count < 255:
                    self.count += 1
                for f in range(8):
                    if (back >> f) & 1:
                        self.refill[r * 8 + f] = self.count
        for r in range(8):
            gone = expected[r] & ~board[r] & ~lifted[r]
            if gone:
                lifted[r] |= gone
                if self.count < 255:
                    self.count += 1
                for f in range(8):
                    if (gone >> f) & 1:
                        self.order[r * 8 + f] = self.count
