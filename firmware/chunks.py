# A long run of records - a game's moves, positions, events - kept in chunks of 512 bytes
# made as they are needed: a long game never asks a fragmented heap for a large block,
# and a new game gives back what a long one grew. The users index the chunks themselves
# (chunks.list[k]: record i in chunk i // per-chunk), so that a hot loop pays no call.
from array import array

from firmware.const import const

CHUNK_BYTES = const(512)


class Chunks:
    def __init__(self, typecode=None, nbytes=CHUNK_BYTES):
        """Chunks of nbytes: bytearrays, or arrays of typecode."""
        self.typecode = typecode
        self.nbytes = nbytes
        self.list = []
        self.grow()

    def grow(self):
        """One chunk more."""
        t = self.typecode
        self.list.append(bytearray(self.nbytes) if t is None else array(t, bytes(self.nbytes)))

    def chunk(self, k):
        """Chunk k, made (with those before it) if it is new."""
        chunks = self.list
        while k >= len(chunks):
            self.grow()
        return chunks[k]

    def clear(self):
        """Back to one chunk (its contents stay: the users overwrite them)."""
        del self.list[1:]
