"""The relay's heap and Python's cyclic garbage collector. Most of what a relay holds lives
as long as its games: every board's python-chess position with a state per move, the
moves, the records, the PGNs and messages made. The collector scans all of it at each full
collection and, at every tenth young one, everything that survived since the last - at
2,000 boards pauses of 70-160 ms (full) and 10-50 ms (middle) on the event loop, the
broadcast's worst delays. So every FREEZE_EVERY_S what has lived through the young
collections is moved out of the collector's way (`gc.freeze`): the collections scan only
what is new. Garbage in cycles among what was frozen (a page's connection closed, say)
waits for the full collection that runs, unfrozen, every FULL_EVERY_S: one pause of that
kind in that time instead of several a minute."""
from __future__ import annotations

import gc

FREEZE_EVERY_S = 1.0
FULL_EVERY_S = 600.0


class Heap:
    def __init__(self, loop):
        self.loop = loop
        self._handle = None
        self._since_full = 0.0

    def start(self) -> None:
        gc.collect()  # (what starting made and dropped, once)
        gc.freeze()
        self._handle = self.loop.call_later(FREEZE_EVERY_S, self._tick)

    def _tick(self) -> None:
        self._since_full += FREEZE_EVERY_S
        if self._since_full >= FULL_EVERY_S:
            self._since_full = 0.0
            gc.unfreeze()
            gc.collect()
        else:
            gc.collect(1)  # the young: what is garbage now is not frozen with the rest
        gc.freeze()
        self._handle = self.loop.call_later(FREEZE_EVERY_S, self._tick)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        gc.unfreeze()
