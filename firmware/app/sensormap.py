# How far across each square its switches read a piece slid over it: the self-test's map
# (`selftest start`, then slide one piece steadily along every rank or file, then
# `selftest map` and `selftest report`). Each square's latest closed span is timed; the
# squares beside it that closed just before and just after it (the slide's previous and
# next squares) give the time the piece took to cross one square; the span over that time
# is the share of the square read (the nearer of the two in time: the other may belong to
# another slide). A square has three switches in parallel (hardware/magnets.py), and each
# of three slides finds one of them weak, where it alone reads: along the files through the
# squares' centres (the centre switch), along the ranks with the piece's base against the
# squares' White edge (the switch on White's side), then their Black edge (Black's). The
# model reads such a slide at least 71 % of the way across a 52-62 mm square with all three
# switches working (at the highest pull-in bought), at most 52 % with the one the slide tests
# dead (at the lowest): under WEAK_PERCENT the
# square is weak (a switch, its joint, its magnet or its place is not what the model says).
from array import array

from firmware.ticks import ticks_add, ticks_diff

from firmware.const import const


WEAK_PERCENT = const(61)  # between the model's 71 % and 52 %, a slide's unevenness either side
_NONE = const(-1)


class SensorMap:
    def __init__(self):
        self._closed = array("i", [_NONE] * 64)  # when each switch closed (ticks), while closed
        self._width = array("i", [_NONE] * 64)  # its latest closed span (ms)
        self._centre = array("i", [0] * 64)  # that span's middle (ticks)
        self._prev = bytearray(8)

    def scan(self, occ, t):
        """A scan of the matrix (8 bytes, rank 1 first) at tick t."""
        prev = self._prev
        for r in range(8):
            changed = occ[r] ^ prev[r]
            if not changed:
                continue
            for f in range(8):
                if (changed >> f) & 1:
                    sq = r * 8 + f
                    if (occ[r] >> f) & 1:
                        self._closed[sq] = t
                    elif self._closed[sq] != _NONE:
                        w = ticks_diff(t, self._closed[sq])
                        self._width[sq] = w
                        self._centre[sq] = ticks_add(self._closed[sq], w // 2)
                        self._closed[sq] = _NONE
            prev[r] = occ[r]

    def percent(self, sq):
        """The share of square sq (0..100) its switch read as the piece crossed it, or -1
        if it was not crossed with a neighbour read just before or after it."""
        w = self._width[sq]
        if w == _NONE:
            return -1
        c = self._centre[sq]
        before = after = None
        r, f = sq >> 3, sq & 7
        for n in ((sq - 8) if r else -1, (sq + 8) if r < 7 else -1, (sq - 1) if f else -1, (sq + 1) if f < 7 else -1):
            if n < 0 or self._width[n] == _NONE:
                continue
            d = ticks_diff(self._centre[n], c)
            if d < 0 and (before is None or d > before):
                before = d
            elif d > 0 and (after is None or d < after):
                after = d
        if before is None and after is None:
            return -1
        # The nearer of the two: the other may be another slide's (a rank's end, the next
        # rank's start), far off in time.
        period = min(after if after is not None else 1 << 29, -before if before is not None else 1 << 29)
        if period <= 0:
            return -1
        return min(100, w * 100 // period)

    def weak(self):
        """The squares measured and read less than WEAK_PERCENT of the way across."""
        out = []
        for sq in range(64):
            p = self.percent(sq)
            if 0 <= p < WEAK_PERCENT:
                out.append(sq)
        return out

    def measured(self):
        return sum(1 for sq in range(64) if self.percent(sq) >= 0)
