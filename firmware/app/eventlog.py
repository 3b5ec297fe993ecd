# The record of the current game: every sequenced event of the protocol, kept compactly so
# that a host that reconnects, or missed lines, gets them all again by asking for a resend
# (docs/protocol.md). 16 bytes an event in 512-byte chunks, so a long game never needs a
# large free block; the game's header (time control, start, players) is kept once.
#
# A record: kind and side (1 byte: the kind in the low 5 bits, 0x80 for Black), a (4),
# b (4), text (7: a move's SAN, at most 7 characters, padded with zero bytes).
import struct

from firmware.chunks import chunk, new_chunk
from firmware.rules import outcome as _o
from firmware.rules.squares import WHITE
from firmware.rules.uci import move_uci

_REC = 16
_FORMAT = "<Bii7s"  # kind | side, a, b, text
_TEXT_AT = 9
_OLD_REC = 20  # the record of firmware before 2026-11: kind, side, a, b, text length, text
_CHUNK = 32  # records a chunk (firmware/chunks.py: 512 bytes)

# Event kinds and their protocol words.
GAME = 0
MOVE = 1  # a = ply (1-based, the game's length after it), b = move; text = SAN
CLK = 2  # a = ply, b = the mover's ms right after the press that completed it
TAKEBACK = 3  # a = the game's length after it
START = 4  # clocks started
FLAG = 5  # side, a = 1 first / 2 second
PERIOD = 6  # side, a = period index now in force
PENALTY = 7  # side, a = ms added to side's clock
SET_TIME = 8  # side, a = ms
SET_MOVES = 9  # side, a = moves
SET_PERIOD = 10  # side, a = period index
PAUSE = 11
RESUME = 12
QUICKPLAY = 13
ILLEGAL = 14  # side, a = the count of that side's completed illegal moves
RESULT = 15  # a = 0 white won, 1 black won, 2 draw; b = termination (TERMINATIONS)

WORDS = ("game", "move", "clk", "takeback", "start", "flag", "period", "penalty", "set time",
         "set moves", "set period", "pause", "resume", "quickplay", "illegal", "result")
RESULTS = ("1-0", "0-1", "1/2-1/2")
TERMINATIONS = (_o.CHECKMATE, _o.STALEMATE, _o.INSUFFICIENT_MATERIAL, _o.SEVENTYFIVE_MOVES,
                _o.FIVEFOLD_REPETITION, _o.FIFTY_MOVES, _o.THREEFOLD_REPETITION, _o.TIME_FORFEIT,
                _o.RESIGNATION, _o.AGREEMENT, _o.ILLEGAL_MOVES, _o.ARBITER)


class EventLog:
    def __init__(self):
        self._chunks = [new_chunk()]
        self.count = 0
        self.game_id = 0
        self.header = ""  # the text of the game line: "tc=... fen=... white=... black=..."
        self.chess960 = False

    def new_game(self, game_id, header, chess960):
        """Start the record of a new game (its first event is the game line, seq 1)."""
        self.game_id = game_id
        self.header = header
        self.chess960 = chess960
        self.count = 0
        del self._chunks[1:]
        return self.append(GAME)

    def append(self, kind, side=0, a=0, b=0, text=""):
        """Record an event; returns its sequence number (1-based within the game)."""
        i = self.count
        c = chunk(self._chunks, i // _CHUNK)
        o = (i % _CHUNK) * _REC
        t = text.encode() if isinstance(text, str) else text
        # One packing and one slice copy, no loops: this is in the path of a press's line.
        struct.pack_into(_FORMAT, c, o, kind | (0x80 if side and side != WHITE else 0), a, b, t)
        self.count = i + 1
        return i + 1

    def raw(self, seq):
        """The 16 bytes of event seq (the device's journal keeps them: journal.py)."""
        i = seq - 1
        o = (i % _CHUNK) * _REC
        return bytes(self._chunks[i // _CHUNK][o:o + _REC])

    def append_raw(self, record):
        """Put back an event read from the journal; returns its sequence number. A record
        of the older 20-byte layout is taken too (a game on flash across an update)."""
        if len(record) == _OLD_REC and record[0] < len(WORDS) and record[10] <= 9:
            record = struct.pack(_FORMAT, record[0] | (0x80 if record[1] else 0),
                                 *struct.unpack_from("<ii", record, 2), bytes(record[11:11 + record[10]]))
        if len(record) != _REC or record[0] & 0x7F >= len(WORDS):
            raise ValueError("not an event record")
        i = self.count
        o = (i % _CHUNK) * _REC
        chunk(self._chunks, i // _CHUNK)[o:o + _REC] = record
        self.count = i + 1
        return i + 1

    def get(self, seq):
        """(kind, side 'w'/'b', a, b, text) of event seq."""
        if not 1 <= seq <= self.count:
            raise IndexError("no event %d" % seq)
        i = seq - 1
        c = self._chunks[i // _CHUNK]
        o = (i % _CHUNK) * _REC
        a, b = struct.unpack_from("<ii", c, o + 1)
        t = bytes(c[o + _TEXT_AT:o + _REC])
        n = t.find(b"\0")
        return c[o] & 0x1F, "b" if c[o] & 0x80 else "w", a, b, (t if n < 0 else t[:n]).decode()

    def line(self, seq, uci=None):
        """The protocol line of event seq; uci: a move's UCI text when the caller has it
        (a move just made), else worked out from the move."""
        kind, side, a, b, text = self.get(seq)
        head = "@%d:%d %s" % (self.game_id, seq, WORDS[kind])
        if kind == GAME:
            return head + " " + self.header
        if kind == MOVE:
            return "%s %d %s %s" % (head, a, uci or move_uci(b, self.chess960), text)
        if kind in (CLK,):
            return "%s %d %d" % (head, a, b)
        if kind == TAKEBACK:
            return "%s %d" % (head, a)
        if kind in (FLAG, PERIOD, PENALTY, SET_TIME, SET_MOVES, SET_PERIOD, ILLEGAL):
            return "%s %s %d" % (head, side, a)
        if kind == RESULT:
            return "%s %s %s" % (head, RESULTS[a], TERMINATIONS[b])
        return head
