# Reed switches bounce: a scan counts only once it has stood unchanged for debounce_ms.
from firmware.ticks import ticks_diff

from firmware.const import const


BOUNCING = const(0)  # the scan changed, or has not stood long enough
NEW = const(1)  # the scan has just become the stable board
SAME = const(2)  # the stable board, unchanged


class Debouncer:
    def __init__(self, debounce_ms, diff=ticks_diff):
        self.debounce_ms = debounce_ms
        self._diff = diff
        self.raw = bytearray(8)  # the last scan as the switches gave it
        self._since = 0
        self._done = True  # the last scan has been taken in as the stable board

    def scan(self, occ, now):
        """One scan (8 bytes): BOUNCING, NEW (raw is the new stable board) or SAME."""
        raw = self.raw
        if occ != raw:
            raw[:] = occ
            self._since = now
            self._done = False
            return BOUNCING
        if self._done:
            return SAME
        if self._diff(now, self._since) < self.debounce_ms:
            return BOUNCING
        self._done = True
        return NEW

    def flush(self):
        """The hand has left the board (a press): the last scan is the board, bounce or
        not. Whether it was not taken in yet (then it is NEW)."""
        if self._done:
            return False
        self._done = True
        return True
