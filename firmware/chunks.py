# A long run of records - a game's moves, positions, events - kept in a list of chunks of
# 512 bytes made as they are needed: a long game never asks a fragmented heap for a large
# block, and a new game gives back what a long one grew (del chunks[1:]). The users index
# the chunks themselves (record i in chunk i // per-chunk), so that a hot loop pays no call.
from array import array

from firmware.const import const

CHUNK_BYTES = const(512)


def new_chunk(typecode=None, nbytes=CHUNK_BYTES):
    """One chunk of nbytes: a bytearray, or an array of typecode."""
    return bytearray(nbytes) if typecode is None else array(typecode, bytes(nbytes))


def chunk(chunks, k, typecode=None, nbytes=CHUNK_BYTES):
    """Chunk k of the list chunks, made (with those before it) if it is new."""
    while k >= len(chunks):
        chunks.append(new_chunk(typecode, nbytes))
    return chunks[k]
