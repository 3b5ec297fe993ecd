# Occupancy as the reed-switch scanner gives it: 8 bytes, rank 1 first, bit f of byte r
# is square r * 8 + f (a1 = bit 0 of byte 0). No integer above 8 bits is ever built.

# Bit-reversed bytes: turning the board 180 degrees reverses the ranks and the files.
REVERSED = bytes(sum(((b >> i) & 1) << (7 - i) for i in range(8)) for b in range(256))

START = b"\xff\xff\x00\x00\x00\x00\xff\xff"  # every Chess960 start too


def occupied(occ, sq):
    return (occ[sq >> 3] >> (sq & 7)) & 1


def from_hex(text, out=None):
    """16 hex digits (bit i = square i, the trace format) -> 8 bytes, rank 1 first."""
    if len(text) != 16:
        raise ValueError("occupancy needs 16 hex digits, got %r" % (text,))
    out = out if out is not None else bytearray(8)
    for r in range(8):
        out[r] = int(text[14 - 2 * r:16 - 2 * r], 16)
    return out


def to_hex(occ):
    return "".join("%02x" % occ[r] for r in range(7, -1, -1))
