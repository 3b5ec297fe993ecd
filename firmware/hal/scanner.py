# The matrix scanned on time, whatever the loop is doing. A timer's (soft) interrupt calls
# tick() every period: MicroPython runs it between two bytecodes even in the middle of a
# long step of the loop (a move being played and checked), so the board is read every
# 10 ms; only a garbage collection or a flash write holds it back, and then only for their
# own duration. Each scan goes into a ring of timestamped boards that the loop takes in
# order (take), so the move recogniser sees every scan at its own time, as if it had
# scanned itself. Allocates nothing in the interrupt. If the loop falls a whole ring
# behind, the oldest scans give way (the recogniser needs the board's states, and a state
# that lasted is still in the ring).
from array import array

RING = 16


class TimedScanner:
    def __init__(self, matrix, ticks_ms):
        self.matrix = matrix
        self.ticks_ms = ticks_ms
        self._boards = [bytearray(8) for _ in range(RING)]
        self._ticks = array("i", bytes(4 * RING))
        self._head = 0  # next slot tick() fills
        self._tail = 0  # next slot take() reads
        self.dropped = 0
        self.count = 0  # scans made

    def tick(self, _timer=None):
        """From the timer: one scan into the ring."""
        h = self._head
        self.matrix.scan(self._boards[h])
        self._ticks[h] = self.ticks_ms()
        nxt = (h + 1) % RING
        if nxt == self._tail:  # full: the oldest gives way
            self._tail = (self._tail + 1) % RING
            self.dropped += 1
        self._head = nxt
        self.count += 1

    def after_next_scan(self, fn, spins=200000):
        """Call fn right after the next scan (a garbage collection, which holds the timer
        back, then fits between two scans). Gives up waiting after spins turns."""
        n = self.count
        while self.count == n and spins:
            spins -= 1
        fn()

    def take(self, out):
        """The oldest scan not yet taken copied into out, and its tick; None if none."""
        t = self._tail
        if t == self._head:
            return None
        out[:] = self._boards[t]
        tick = self._ticks[t]
        self._tail = (t + 1) % RING
        return tick
