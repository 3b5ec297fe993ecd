# The occupancy of every position of the game (8 bytes a ply, in 512-byte chunks, with a
# checksum per ply that rules most out at once): the board back at an earlier position
# is a take-back.
from firmware.chunks import chunk, new_chunk


class PositionHistory:
    def __init__(self):
        self._chunks = [new_chunk()]  # 64 plies a chunk...
        self._sums = [new_chunk("H", 128)]  # ...and their checksums

    def record(self, ply, occ):
        """occ (8 bytes) is the occupancy of the position after ply plies."""
        c = chunk(self._chunks, ply >> 6)
        chunk(self._sums, ply >> 6, "H", 128)
        o = (ply & 63) << 3
        s = 0
        for r in range(8):
            c[o + r] = occ[r]
            s += occ[r] * (r + 1)
        self._sums[ply >> 6][ply & 63] = s

    def latest(self, board, before):
        """The latest ply below before whose position's occupancy is board, or -1."""
        s = 0
        for r in range(8):
            s += board[r] * (r + 1)
        for p in range(before - 1, -1, -1):
            if self._sums[p >> 6][p & 63] != s:
                continue
            chunk = self._chunks[p >> 6]
            o = (p & 63) << 3
            same = True
            for r in range(8):
                if chunk[o + r] != board[r]:
                    same = False
                    break
            if same:
                return p
        return -1
