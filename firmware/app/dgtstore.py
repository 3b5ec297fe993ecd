# The DGT board's "EEPROM" (docs/dgt.md): the log a DGT board keeps of what happened on it,
# which a host reads with the EE-moves command and, in bus mode, piece by piece (the
# changes since its last look, everything since the start tag). Records, as DGT's
# description gives them:
#   a field change     0x40 | piece, field                    (2 bytes)
#   a halted clock     0x60 | 0x10 (the left, White's) | hours, minutes (BCD), seconds (BCD)
#   one-byte tags      EE_POWERUP, EE_BEGINPOS, EE_START_TAG, EE_DOWNLOADED, ...
# A ring of small chunks, made as it fills (a long game never needs one large free
# block); the oldest bytes go when it is full, as on a DGT board. Positions are counted
# from the first byte ever written, so a reader's place stays valid while the ring turns.
from firmware.chunks import CHUNK_BYTES, chunk
from firmware.const import const


EE_POWERUP = const(0x6A)
EE_EOF = const(0x6B)
EE_EMPTYBOARD = const(0x6D)
EE_DOWNLOADED = const(0x6E)
EE_BEGINPOS = const(0x6F)
EE_START_TAG = const(0x7B)
EE_NOP = const(0x7F)
_CHUNK = CHUNK_BYTES
CHUNKS = 8  # 4 KB: a 300-ply game's changes and times (a DGT board keeps 7.75 KB)


class EeStore:
    def __init__(self):
        self._chunks = []  # a ring of CHUNKS chunks once it has grown
        self.end = 0  # bytes ever written

    @property
    def start(self):
        """The oldest position still kept."""
        n = self.end - _CHUNK * CHUNKS
        return n if n > 0 else 0

    def add(self, b):
        chunk(self._chunks, self.end // _CHUNK % CHUNKS)[self.end % _CHUNK] = b
        self.end += 1

    def field(self, f, piece):
        self.add(0x40 | piece)
        self.add(f)

    def time(self, left, h, m, s):
        """The halted clock's time: left is White's side (DGT's left screen)."""
        self.add(0x60 | (0x10 if left else 0) | (h if h < 10 else 9))
        self.add((m // 10) << 4 | m % 10)
        self.add((s // 10) << 4 | s % 10)

    def pieces(self, shown):
        """A change record for every piece on the board (after a power-up or a start tag),
        shown: 64 DGT piece codes by field."""
        for f in range(64):
            if shown[f]:
                self.field(f, shown[f])

    def spans(self, frm, to):
        """The bytes [frm, to) (clamped to what is kept) as (chunk, a, b) pieces in order,
        with no copy."""
        if frm < self.start:
            frm = self.start
        while frm < to:
            a = frm % _CHUNK
            b = _CHUNK if to - frm >= _CHUNK - a else a + to - frm
            yield self._chunks[frm // _CHUNK % CHUNKS], a, b
            frm += b - a
