# The current game on flash, so that a power cut, a reset or a crash costs nothing: an
# append-only file of checksummed records, read back at start-up (firmware/app/device.py).
#
#   file    = MAGIC record*
#   record  = type (1 byte) length (2, little-endian) payload crc (2: CRC-16/CCITT of type,
#             length and payload)
#   G       game id (4) and the game line's text: the first record, once
#   E       one event of the game record, as EventLog keeps it (20 bytes)
#   C       the commit: the number of events it covers, then the clock's state (clock.state)
#   T       a checkpoint of a running turn: events, running side (0/1), its ms so far
#
# A group of events is written together with the C that ends it, in one write and one
# flush, before any of its lines go to the host. So after a power cut the events a C covers
# are exactly the ones the host may have seen; events after the last C were never published
# and are dropped. littlefs (the Pico's filesystem) makes a flushed append all-or-nothing;
# on a filesystem that does not, a record cut short at the end of the file is the write the
# power cut interrupted, and is dropped the same way; so are bytes after the last whole
# record that hold no whole record (zeros, erased flash, noise): the game is recovered as
# at its last commit. Anything else that does not read - a record that does not read with
# a whole record after it, a record out of place - is damage: the file is kept under
# another name for inspection and the device starts clean.
#
# A new game is written to a new file that is then renamed over the old one (a rename is
# atomic on littlefs), and so is the compacted journal after a recovery.
import os
import struct
from array import array

MAGIC = b"CBJ1"
GAME = 0x47  # "G"
EVENT = 0x45  # "E"
COMMIT = 0x43  # "C"
TICK = 0x54  # "T"
_MAX = 600  # the longest payload (a game line is at most a protocol line)
_EVENT_BYTES = 20

_TABLE = None


def _table():
    global _TABLE
    if _TABLE is None:
        t = array("H", bytes(512))
        for i in range(256):
            c = i << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) if c & 0x8000 else c << 1
            t[i] = c & 0xFFFF
        _TABLE = t
    return _TABLE


def crc16(data, crc=0xFFFF, start=0, end=None):
    """CRC-16/CCITT-FALSE of data[start:end] (binascii.crc_hqx(data, 0xFFFF) in CPython)."""
    t = _table()
    for i in range(start, len(data) if end is None else end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


class JournalError(ValueError):
    """The journal on flash is damaged: it cannot be read back."""


def frame(kind, payload):
    """One record's bytes."""
    n = len(payload)
    if n > _MAX:
        raise ValueError("a journal record holds at most %d bytes" % _MAX)
    out = bytearray(3 + n + 2)
    out[0] = kind
    out[1] = n & 0xFF
    out[2] = n >> 8
    out[3:3 + n] = payload
    c = crc16(out, 0xFFFF, 0, 3 + n)
    out[3 + n] = c & 0xFF
    out[4 + n] = c >> 8
    return out


def ints(values):
    return struct.pack("<%di" % len(values), *values)


def unints(payload):
    return struct.unpack("<%di" % (len(payload) // 4), payload)


def _size(f):
    return f.seek(0, 2)


def _record_after(f, start):
    """Whether a whole record (a known kind, a length that fits, a good checksum) starts
    anywhere in the file from byte start on. Read in a window of its own: the rest of the
    file may be large (erased flash), and the scan only runs on a journal that did not
    read to its end."""
    buf = bytearray(2 * (_MAX + 5))
    f.seek(start)
    n = f.readinto(buf)
    eof = n < len(buf)
    while True:
        i = 0
        while i + 5 <= n:
            k = buf[i]
            if k == EVENT or k == COMMIT or k == TICK or k == GAME:
                size = buf[i + 1] | buf[i + 2] << 8
                if size <= _MAX:
                    end = i + 3 + size
                    if end + 2 > n:
                        if not eof:
                            break  # not all of it in the window yet: slide on
                    elif crc16(buf, 0xFFFF, i, end) == buf[end] | buf[end + 1] << 8:
                        return True
            i += 1
        if eof:
            return False
        keep = n - i
        buf[:keep] = buf[i:n]
        got = f.readinto(memoryview(buf)[keep:])
        n = keep + got
        eof = n < len(buf)


class Recovered:
    """What load() found: the game's id and line, the number of its events (those the last
    commit covers: they are in the EventLog given to load), the clock state of that commit,
    and (running side, ms) of the turn at the last checkpoint after it, or None."""

    def __init__(self):
        self.game_id = 0
        self.header = ""
        self.count = 0
        self.state = None
        self.tick = None
        self.dropped = 0  # bytes at the end that held no whole record (an interrupted write, junk)


class Journal:
    def __init__(self, path):
        self.path = path
        self.bad_path = path + ".bad"
        self._f = None
        self.bytes_written = 0  # since start-up: the figure for wear (bench/nothing_lost.py)
        self._games_written = None

    # ----- reading back

    def load(self, log):
        """The game on flash as Recovered, its events put into log (an EventLog), None if
        there is none. JournalError if the file is damaged (it is then moved to bad_path)."""
        try:
            f = open(self.path, "rb")
        except OSError:
            return None
        try:
            try:
                return self._read(f, log)
            finally:
                f.close()
        except JournalError:
            self.keep_bad()
            raise
        except (OSError, ValueError, IndexError) as e:  # struct, decode: damage all the same
            self.keep_bad()
            raise JournalError("unreadable: %s" % e)

    def keep_bad(self):
        """Move the damaged journal aside, for inspection."""
        try:
            os.rename(self.path, self.bad_path)
        except OSError:
            pass

    def _read(self, f, log):
        if f.read(4) != MAGIC:
            raise JournalError("not a journal (bad magic)")
        r = Recovered()
        head = bytearray(3)
        body = bytearray(_MAX + 2)
        seen_game = False
        at = 4
        while True:
            n = f.readinto(head)
            if not n:
                break
            size = head[1] | head[2] << 8
            got = 0
            if n == 3 and size <= _MAX:
                got = f.readinto(memoryview(body)[:size + 2]) if size + 2 else 0
            if n < 3 or size > _MAX or got < size + 2 or \
                    crc16(body, crc16(head), 0, size) != body[size] | body[size + 1] << 8:
                # Not a whole record: a write the power cut interrupted, or junk after the
                # last record, unless a whole record follows somewhere (then it is damage).
                if _record_after(f, at + 1):
                    raise JournalError("an unreadable record at byte %d" % at)
                r.dropped = _size(f) - at
                break
            kind = head[0]
            payload = memoryview(body)[:size]
            if not seen_game:
                if kind != GAME or size < 4:
                    raise JournalError("the first record is not a game")
                r.game_id = unints(payload[:4])[0]
                r.header = bytes(payload[4:]).decode()
                seen_game = True
            elif kind == EVENT:
                if size != _EVENT_BYTES:
                    raise JournalError("an event of %d bytes at %d" % (size, at))
                log.append_raw(payload)
            elif kind == COMMIT:
                v = unints(payload)
                if not r.count <= v[0] <= log.count or v[0] < 1:
                    raise JournalError("a commit of %d events at %d" % (v[0], at))
                log.count = r.count = v[0]  # events after it were never published
                r.state = v[1:]
                r.tick = None
            elif kind == TICK:
                v = unints(payload)
                if r.state is not None and v[0] == r.count:
                    r.tick = (v[1], v[2])
            else:
                raise JournalError("a record of unknown kind %d at %d" % (kind, at))
            at += 3 + size + 2
        if not seen_game:  # a new game's file is written whole before it is renamed
            raise JournalError("no game in it")
        if r.state is None:
            raise JournalError("no commit")
        log.count = r.count
        return r

    # ----- the games counter: a board never gives two games the same number, or a host
    # that keeps games by number would take a new game for an old one. It lives in its own
    # small file, so that a damaged journal does not take it along.

    def games(self):
        """The highest game number this board has used (0: none, or unreadable)."""
        try:
            with open(self.path + ".games") as f:
                n = int(f.read().strip())
            return n if 0 <= n < 0x40000000 else 0
        except (OSError, ValueError):
            return 0

    def set_games(self, n):
        if n == self._games_written:
            return
        self._write_file(self.path + ".games", b"%d\n" % n)
        self._games_written = n

    # ----- writing

    def _write_file(self, path, data):
        tmp = path + ".new"
        f = open(tmp, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()
        os.rename(tmp, path)
        self.bytes_written += len(data)

    def begin(self, game_id, header, events, state):
        """A new journal: the game, its events so far (an iterable of 20-byte records) and
        their commit, in a new file renamed over the old one. Written record by record: a
        long game never needs one large buffer."""
        self.close()
        tmp = self.path + ".new"
        f = open(tmp, "wb")
        n = 0
        try:
            f.write(MAGIC)
            written = 4 + f.write(frame(GAME, ints((game_id,)) + header.encode()))
            for e in events:
                written += f.write(frame(EVENT, e))
                n += 1
            written += f.write(frame(COMMIT, ints([n] + list(state))))
            f.flush()
        finally:
            f.close()
        os.rename(tmp, self.path)
        self._f = open(self.path, "ab")
        self.bytes_written += written

    def commit(self, events, count, state):
        """Append events (20-byte records) and the commit covering the first count events
        of the game, in one write and one flush."""
        data = bytearray()
        for e in events:
            data += frame(EVENT, e)
        data += frame(COMMIT, ints([count] + list(state)))
        self._append(data)

    def checkpoint(self, count, running, ms):
        """The running turn's time so far: on a power cut it is reported, for the arbiter."""
        self._append(frame(TICK, ints((count, running, ms))))

    def _append(self, data):
        if self._f is None:
            self._f = open(self.path, "ab")
        self._f.write(data)
        self._f.flush()
        self.bytes_written += len(data)

    def close(self):
        if self._f is not None:
            try:
                self._f.close()
            except OSError:
                pass
            self._f = None
