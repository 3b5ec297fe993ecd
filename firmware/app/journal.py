# The current game on flash, so that a power cut, a reset or a crash costs nothing: a log
# of checksummed records written into flash sectors that were erased beforehand, read back
# at start-up (firmware/app/device.py).
#
#   stream  = MAGIC record*
#   record  = type (1 byte) length (2, little-endian) payload crc (2: CRC-16/CCITT of type,
#             length and payload)
#   G       game id (4) and the game line's text: the first record, once
#   E       one event of the game record, as EventLog keeps it (16 bytes; 20 before 2026-11, read too)
#   C       the commit: the number of events it covers, then the clock's state (clock.state)
#   T       a checkpoint of a running turn: events, running side (0/1), its ms so far
#
# A group of events is written together with the C that ends it, before any of its lines
# go to the host. So after a power cut the events a C covers are exactly the ones the host
# may have seen; events after the last C were never published and are dropped.
#
# Where it is written. A flash sector must be erased (4 KB, ~45 ms and up to 400 ms, with
# the chip's interrupts off) before it can be programmed again, and a filesystem erases a
# sector for nearly every small append: that would stop the scan and delay a lever's
# interrupt in the middle of a game. So the journal has sectors of its own (`sectors`: the
# Pico's flash through firmware/hal/flashsectors.py, a file in the simulator), used as a
# ring, and erases them only while no clock runs (before the game, in a pause, after it:
# prepare()) or, should a very long game use up what was prepared, one right after a
# press. A commit is then a page program (256 bytes, ~0.5 ms) or two.
#
#   sector  = header (16 bytes: b"CBJ2", generation (4), index (2), 0xFFFF, CRC-16 of the
#             first 12 bytes (2), 0xFFFF) data (the stream, continued from the sector
#             before)
#
# A generation is one journal: a new game starts a new one in the next prepared sectors,
# written whole (G, the events so far, C) before the old one is left behind. At start-up
# the newest generation that reads is the game; one whose beginning was cut by the power
# is passed over for the one before. The stream ends at the first byte of erased flash
# where a record should begin. A record cut short there is the write the power cut
# interrupted, and is dropped; so are bytes after the last whole record that hold no
# whole record (noise): the game is recovered as at its last commit, and written again
# whole in a new generation (nothing is ever programmed over an interrupted write).
# Anything else that does not read - a record that does not read with a whole record
# after it, a record out of place - is damage: the device starts clean and says so (the
# damaged generation stays on flash until its sectors come round again).
import os
import struct

from firmware.const import const


MAGIC = b"CBJ1"
GAME = 0x47  # "G"
EVENT = 0x45  # "E"
COMMIT = 0x43  # "C"
TICK = 0x54  # "T"
_MAX = 600  # the longest payload (a game line is at most a protocol line)
WINDOW = 2 * (_MAX + 5)  # the window _record_after reads in
_EVENT_BYTES = (16, 20)  # the event record, and the older one a journal may still hold
SECTOR = const(4096)
PAGE = const(256)
HEAD = const(16)  # a sector's header
DATA = const(4080)  # the stream's bytes in one sector
SECTOR_MAGIC = b"CBJ2"
AHEAD = 24  # sectors kept erased ahead: ~480 plies, a long game (a ply costs ~200 bytes)
LOW = 2  # fewer than this left while a clock runs: one more is erased after a press

# CRC-16/CCITT a nibble at a time: a table of 16 constants, which the UF2 keeps in its
# flash (a 256-entry table would be 528 bytes of heap for the board's whole life).
_NIBBLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
           0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, crc=0xFFFF, start=0, end=None):
    """CRC-16/CCITT-FALSE of data[start:end] (binascii.crc_hqx(data, 0xFFFF) in CPython)."""
    t = _NIBBLE
    for i in range(start, len(data) if end is None else end):
        b = data[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
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


def _record_after(f, start, buf):
    """Whether a whole record (a known kind, a length that fits, a good checksum) starts
    anywhere in the file from byte start on. Read in a window of its own: the rest of the
    file may be large (erased flash), and the scan only runs on a journal that did not
    read to its end. buf: WINDOW bytes, made before the game was read (by then the heap
    may be too fragmented to give them, and a MemoryError here would lose the game)."""
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


class _Stream:
    """A generation's stream, read back: the data of its sectors one after another, with
    the file methods the reader uses (readinto, seek)."""

    def __init__(self, sectors, order):
        self.sectors = sectors
        self.order = order  # physical sectors, in the stream's order
        self.size = len(order) * DATA
        self.pos = 0

    def seek(self, pos, whence=0):
        self.pos = min(self.size, pos if whence == 0 else self.size + pos)
        return self.pos

    def readinto(self, buf):
        mv = memoryview(buf)
        got = 0
        while got < len(mv) and self.pos < self.size:
            k, off = divmod(self.pos, DATA)
            n = min(len(mv) - got, DATA - off)
            self.sectors.read(self.order[k], HEAD + off, mv[got:got + n])
            got += n
            self.pos += n
        return got

    def read(self, n):
        b = bytearray(n)
        return bytes(b[:self.readinto(b)])

    def erased_from(self, at):
        """Whether every byte from at to the end is erased flash (0xFF)."""
        page = bytearray(PAGE)
        self.seek(at)
        while True:
            n = self.readinto(page)
            if not n:
                return True
            if page != _FF and not _all_ff(page, n):
                return False


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
        self.dropped = 0  # bytes at the end that held no whole record (an interrupted write, noise)


def sector_header(gen, index):
    h = bytearray(b"\xff" * HEAD)
    h[0:4] = SECTOR_MAGIC
    struct.pack_into("<IH", h, 4, gen, index)
    c = crc16(h, 0xFFFF, 0, 12)
    h[12] = c & 0xFF
    h[13] = c >> 8
    return h


def read_header(b):
    """(generation, index) of a sector's header bytes, or None if it is not one."""
    if bytes(b[0:4]) != SECTOR_MAGIC or crc16(b, 0xFFFF, 0, 12) != b[12] | b[13] << 8:
        return None
    gen, index = struct.unpack_from("<IH", b, 4)
    return gen, index


class Journal:
    def __init__(self, sectors, games_path, ahead=AHEAD):
        """sectors: count, read(sector, offset, buf), program(sector, offset, page of 256
        bytes), erase(sector) (firmware/hal/flashsectors.py); games_path: the small file of
        the games counter."""
        self.sectors = sectors
        self.n = sectors.count
        self.ahead = min(ahead, self.n // 3)
        self.games_path = games_path
        self.bad_path = "left on flash until its sectors are reused"
        self.bytes_written = 0  # since start-up: the figure for wear (bench/nothing_lost.py)
        self.erases = 0  # sectors erased since start-up...
        self.unprepared = 0  # ...of them, when the stream needed one none was ready for
        self._games_written = None
        self.gen = 0  # the newest generation on flash
        self._first = 0  # ring position of the sector where it starts
        self._used = 0  # its sectors so far
        self._pos = -1  # bytes of its stream written; -1: none being written
        self._ready = 0  # erased sectors after it, ready
        self._page = bytearray(PAGE)
        self._page_at = -1  # the stream position of the page in _page
        self._scanned = False

    # ----- the ring

    def _sector(self, k):
        """The physical sector of the current generation's k-th sector."""
        return (self._first + k) % self.n

    def _scan(self):
        """Every sector's header: {generation: {index: sector}}."""
        found = {}
        h = bytearray(HEAD)
        for s in range(self.n):
            self.sectors.read(s, 0, h)
            g = read_header(h)
            if g is not None:
                found.setdefault(g[0], {})[g[1]] = s
        self._scanned = True
        return found

    def _is_erased(self, s):
        page = self._page
        for off in range(0, SECTOR, PAGE):
            self.sectors.read(s, off, page)
            if page != _FF:
                return False
        return True

    def _count_ready(self):
        """How many sectors after the current generation are erased already."""
        ready = 0
        while ready < self.ahead and self._used + ready < self.n and \
                self._is_erased(self._sector(self._used + ready)):
            ready += 1
        self._ready = ready

    def ready(self):
        """Sectors erased and waiting for the stream."""
        return self._ready

    def prepare(self, target=None):
        """Erase one more sector ahead of the stream if fewer than target (`ahead`) are
        ready; whether it did. Call it while no clock runs (each erase stops the chip
        ~45 ms with its interrupts off)."""
        if self._ready >= (self.ahead if target is None else target) or \
                self._used + self._ready >= self.n - 1:
            return False
        self.sectors.erase(self._sector(self._used + self._ready))
        self._ready += 1
        self.erases += 1
        return True

    # ----- reading back

    def load(self, log):
        """The game on flash as Recovered, its events put into log (an EventLog), None if
        there is none. JournalError if it is damaged."""
        found = self._scan()
        if not found:
            self._count_ready()
            return None
        gens = sorted(found, reverse=True)
        self._after_newest(found)  # the next generation starts after it, whatever reads
        error = None
        for i, g in enumerate(gens[:2]):
            parts = found[g]
            order = []
            for k in range(len(parts)):
                s = parts.get(k)
                if s is None:
                    break
                order.append(s)
            try:
                if len(order) != len(parts) or any(
                        (order[0] + k) % self.n != order[k] for k in range(len(order))):
                    raise JournalError("generation %d: its sectors are out of order" % g)
                log.count = 0
                r = self._read(_Stream(self.sectors, order), log)
                break
            except JournalError as e:
                # A generation cut short while it was begun (no commit yet) leaves the one
                # before it as the game.
                if i == 0 and ("no commit" in str(e) or "no game" in str(e)):
                    error = e
                    continue
                error = e
                r = None
                break
            except (OSError, ValueError, IndexError) as e:  # struct, decode: damage all the same
                error = JournalError("unreadable: %s" % e)
                r = None
                break
        else:
            r = None
        self._count_ready()
        if r is None:
            log.count = 0
            raise error
        return r

    def _read(self, f, log):
        if f.read(4) != MAGIC:
            raise JournalError("not a journal (bad magic)")
        r = Recovered()
        head = bytearray(3)
        body = bytearray(_MAX + 2)
        window = bytearray(WINDOW)  # for _record_after, while the heap is still whole
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
                if head[0] == 0xFF and f.erased_from(at):
                    break  # the end: erased flash
                # Not a whole record: a write the power cut interrupted, or noise after the
                # last record, unless a whole record follows somewhere (then it is damage).
                if _record_after(f, at + 1, window):
                    raise JournalError("an unreadable record at byte %d" % at)
                r.dropped = _dropped(f, at)
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
                if size not in _EVENT_BYTES:
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
        if not seen_game:  # a new game's generation is written whole before it counts
            raise JournalError("no game in it")
        if r.state is None:
            raise JournalError("no commit")
        log.count = r.count
        return r

    # ----- the games counter: a board never gives two games the same number, or a host
    # that keeps games by number would take a new game for an old one. It lives in its own
    # small file (written at a new game, when no clock runs), so that a damaged journal
    # does not take it along.

    def games(self):
        """The highest game number this board has used (0: none, or unreadable)."""
        try:
            with open(self.games_path) as f:
                n = int(f.read().strip())
            return n if 0 <= n < 0x40000000 else 0
        except (OSError, ValueError):
            return 0

    def set_games(self, n):
        if n == self._games_written:
            return
        tmp = self.games_path + ".new"
        f = open(tmp, "wb")
        try:
            f.write(b"%d\n" % n)
            f.flush()
        finally:
            f.close()
        os.rename(tmp, self.games_path)
        self._games_written = n

    # ----- writing

    def begin(self, game_id, header, events, state):
        """A new generation: the game, its events so far (an iterable of event records)
        and their commit, written whole in the sectors after the current one. Written
        record by record: a long game never needs one large buffer."""
        if not self._scanned:
            self.load_headers()
        self.gen += 1
        self._first = (self._first + self._used) % self.n
        self._used = 0
        self._pos = 0
        self._page_at = -1
        self._append(MAGIC, False)
        self._append(frame(GAME, ints((game_id,)) + header.encode()), False)
        n = 0
        for e in events:
            self._append(frame(EVENT, e), False)
            n += 1
        self._append(frame(COMMIT, ints([n] + list(state))), True)

    def load_headers(self):
        """Where the ring stands, for a journal begun without load()."""
        found = self._scan()
        if found:
            self._after_newest(found)
        self._count_ready()

    def _after_newest(self, found):
        g = max(found)
        self.gen = g
        self._first = found[g].get(0, min(found[g].values()))
        self._used = len(found[g])

    def commit(self, events, count, state):
        """Append events (event records) and the commit covering the first count events
        of the game."""
        for e in events:
            self._append(frame(EVENT, e), False)
        self._append(frame(COMMIT, ints([count] + list(state))), True)

    def checkpoint(self, count, running, ms):
        """The running turn's time so far: on a power cut it is reported, for the arbiter."""
        self._append(frame(TICK, ints((count, running, ms))), True)

    def _append(self, data, last):
        """Put data at the end of the stream; program the pages it filled, and with last
        the page it ends in (the write is then on flash)."""
        if self._pos < 0:
            raise OSError("no journal begun")
        page = self._page
        i = 0
        n = len(data)
        while i < n:
            k, off = divmod(self._pos, DATA)
            if k >= self._used:
                self._enter(k)
            at = HEAD + off
            start = at - at % PAGE
            if self._page_at != self._pos - (at - start):
                self._page_at = self._pos - (at - start)
                page[:] = _FF  # a copy, not a loop: this is in the press's path
                if start == 0:
                    page[0:HEAD] = sector_header(self.gen, k)
            take = min(n - i, PAGE - (at - start))
            page[at - start:at - start + take] = data[i:i + take]
            i += take
            self._pos += take
            if at - start + take == PAGE or (last and i == n):
                self.sectors.program(self._sector(k), start, page)
        self.bytes_written += n

    def _enter(self, k):
        """The stream reaches its k-th sector: one prepared, or erased now."""
        if self._used + 1 > self.n - 1:
            raise OSError("the journal's %d sectors are full" % self.n)
        if self._ready == 0:
            self.sectors.erase(self._sector(k))
            self.erases += 1
            self.unprepared += 1
        else:
            self._ready -= 1
        self._used = k + 1

    def close(self):
        self._pos = -1


_FF = b"\xff" * PAGE


def _all_ff(b, n):
    for i in range(n):
        if b[i] != 0xFF:
            return False
    return True


def _dropped(f, at):
    """How many bytes from at on were written (not erased flash): dropped."""
    size = f.seek(0, 2)
    page = bytearray(PAGE)
    last = at
    pos = at
    f.seek(at)
    while pos < size:
        n = f.readinto(page)
        if page != _FF:
            for i in range(n):
                if page[i] != 0xFF:
                    last = pos + i + 1
        pos += n
    return last - at
