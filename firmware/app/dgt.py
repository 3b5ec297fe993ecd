# The DGT e-board protocol (docs/dgt.md) on the USB line, for a program that drives DGT
# boards (DGT LiveChess, picochess, Lucas Chess, Arena, ...): made when one is attached.
#
# The host sends commands: one byte each (0x40..0x55), but the clock message (0x2b) and
# the LED command (0x60), which give a length and that many bytes more. The board answers
# with messages: an id with its top bit set, the message's whole length in two 7-bit
# bytes, then data bytes below 0x80. In an update mode the board also sends, by itself,
# a field update for every square whose piece changed and the clock's times.
#
# The board senses only which squares are occupied. Which piece stands where comes from
# the game (firmware/board/pieces.py), so that the updates a DGT host sees are those of a
# DGT board under the same hands.
#
# Like a DGT board it keeps a log of what happened on it (firmware/app/dgtstore.py): the
# EE-moves command reads it, and in bus mode (DGT's protocol for many boards on one line,
# which a host may also use with one) the host polls the changes, asks for them again,
# sets a start tag and reads from it; every bus message carries the board's address and a
# checksum.
from firmware.app.dgtstore import EE_BEGINPOS, EE_DOWNLOADED, EE_EMPTYBOARD, EE_EOF, EE_NOP, \
    EE_POWERUP, EE_START_TAG, EeStore
from firmware.board.pieces import PieceTracker
from firmware.rules.squares import WHITE

from firmware.const import const


# Commands from the host.
RESET = const(0x40)
SEND_CLK = const(0x41)
SEND_BRD = const(0x42)
SEND_UPDATE = const(0x43)
SEND_UPDATE_BRD = const(0x44)
RETURN_SERIALNR = const(0x45)
RETURN_BUSADRES = const(0x46)
SEND_TRADEMARK = const(0x47)
SEND_EE_MOVES = const(0x49)
SEND_UPDATE_NICE = const(0x4B)
SEND_BATTERY_STATUS = const(0x4C)
SEND_VERSION = const(0x4D)
RETURN_LONG_SERIALNR = const(0x55)
CLOCK_MESSAGE = const(0x2B)
SET_LEDS = const(0x60)
TO_BUSMODE = const(0x4A)
# Every byte that begins a command is in firmware/app/protocol.py's DGT_FIRST. 0x4E boot
# loader and the draughts commands 0x50..0x54 are taken and ignored: this board has no
# boot loader to jump to and plays no draughts.

# Bus mode: commands of 4 bytes (command, address high, address low, checksum) ...
BUS_SEND_CLK = const(0x81)
BUS_SEND_BRD = const(0x82)
BUS_SEND_CHANGES = const(0x83)
BUS_REPEAT_CHANGES = const(0x84)
BUS_SET_START_GAME = const(0x85)
BUS_SEND_FROM_START = const(0x86)
BUS_PING = const(0x87)
BUS_END_BUSMODE = const(0x88)
BUS_RESET = const(0x89)
BUS_IGNORE_NEXT_PING = const(0x8A)
BUS_SEND_VERSION = const(0x8B)
BUS_SEND_ALL = const(0x8D)  # the changes, the clock, the board
# ... and their answers: id, length (2 x 7 bits), address (2 x 7 bits), data, checksum.
MSG_BUS_BRD_DUMP = const(0x83)
MSG_BUS_BWTIME = const(0x84)
MSG_BUS_UPDATE = const(0x85)
MSG_BUS_FROM_START = const(0x86)
MSG_BUS_PING = const(0x87)
MSG_BUS_START_GAME_WRITTEN = const(0x88)
MSG_BUS_VERSION = const(0x89)

# Messages to the host.
BOARD_DUMP = const(0x86)
BWTIME = const(0x8D)
FIELD_UPDATE = const(0x8E)
EE_MOVES = const(0x8F)
BUSADRES = const(0x90)
SERIALNR = const(0x91)
TRADEMARK = const(0x92)
VERSION = const(0x93)
BATTERY_STATUS = const(0xA0)
LONG_SERIALNR = const(0xA2)

# Clock commands inside a clock message: 0x2b, length, 0x03, command, data..., 0x00. The
# two the board acts on; the others (display, icons, end, button, beep, ASCII text) are
# only acknowledged.
CLOCK_END = const(0x03)
CLOCK_VERSION = const(0x09)
CLOCK_SETNRUN = const(0x0A)
CLOCK_ASCII = const(0x0C)  # eight characters for a DGT 3000's display: on the faces
BUTTON_CODES = {"minus": 0x34, "plus": 0x32, "ok": 0x35}  # a DGT 3000's -, + and OK

IDLE, UPDATE_BRD, UPDATE, UPDATE_NICE = 0, 1, 2, 3
VERSION_NUMBER = (1, 0)  # what SEND_VERSION answers (this protocol's version on this board)
CLOCK_VERSION_NUMBER = 0x10  # what the clock answers: 1.0
TRADEMARK_TEXT = b"Open chess board - speaks the DGT e-board protocol; not a DGT product"

# DGT piece codes by the rule checker's cells (colour bit | piece type).
_CODE = bytearray(23)
for _t, _w, _b in ((1, 1, 7), (2, 3, 9), (3, 4, 10), (4, 2, 8), (5, 6, 12), (6, 5, 11)):
    _CODE[8 | _t] = _w
    _CODE[16 | _t] = _b
del _t, _w, _b
START_CODES = bytes((8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2))


def serial_digits(board_id):
    """10 decimal digits made from the board's unique id, the same every time (small
    integers only)."""
    a = b = 7
    for c in board_id.encode():
        a = (a * 31 + c) % 100000
        b = (b * 37 + c) % 99991
    return "%05d%05d" % (b, a)


def field(sq):
    """The DGT field of square sq (a8 = 0 ... h1 = 63), and the square of a field: the
    same flip of the ranks both ways."""
    return (7 - (sq >> 3)) * 8 + (sq & 7)


def _bcd(n):
    return (n // 10) << 4 | n % 10


class DgtLink:
    def __init__(self, write, serial, recognizer, log, match, faces, diff):
        """write(bytes): the line; serial: the board's serial number as 10 decimal digits
        (text); recognizer: the move recogniser (what the board shows); log: the game record's
        log (its game_id); match: the game and its clock; faces: the clock's faces (a DGT
        3000's text, the LEDs of a move to make); diff: tick arithmetic."""
        self.write = write
        self.tracker = PieceTracker(match.game, recognizer)  # the pieces on the board
        self.log = log
        self.match = match
        self.faces = faces
        self.diff = diff
        self.serial = serial
        self.mode = IDLE
        self._cmd = bytearray(16)  # a clock or LED command being read
        self._need = 0  # its bytes still to come (-1: its length byte)
        self._got = 0
        self._shown = bytearray(64)  # the pieces by field as last worked out...
        self._sent = bytearray(64)  # ...and as the host last had them (updates)
        self._dirty = False  # _shown changed since the updates were last sent
        self._fu = bytearray(b"\x8e\x00\x05\x00\x00")
        self._time = bytearray(10)  # the last BWTIME sent by itself
        self._time[0] = BWTIME
        self._time[2] = 10
        self._times = bytearray(self._time)  # the clock now, worked out in place
        self._time_at = 0
        self.address = int(serial[-4:]) & 0x3FFF  # the bus address (DGT: from the serial number)
        self.bus = True  # a DGT board powers up in bus mode; a single-board command leaves it
        self._bus = bytearray(4)  # a bus command being read
        self._bus_got = 0
        self._ignore_ping = False
        self.ee = EeStore()
        self._logged = bytearray(64)  # the pieces as the store has them
        self._changes = 0  # where the next bus SEND_CHANGES begins in the store
        self._last = (0, 0)  # what the last one sent (REPEAT_CHANGES)
        self._start_tag = 0  # where SET_START_GAME put its tag
        self._run = None  # the side whose clock ran at the last look (halted-clock records)
        self._tagged = 0  # 1 the start position, 2 an empty board: tagged in the store
        self._power_up()

    def _power_up(self):
        """What a DGT board writes to its store at power-up: three NOPs, POWERUP, then a
        change record for every piece on the board."""
        for b in (EE_NOP, EE_NOP, EE_NOP, EE_POWERUP):
            self.ee.add(b)
        self.pieces()
        self.ee.pieces(self._shown)
        self._logged[:] = self._shown

    # ----- bytes from the host

    def feed(self, data, now, start=0):
        """Take DGT commands from data[start:]; returns where a text line begins (a
        lowercase letter where a command would: the line protocol's host is back), or
        len(data)."""
        i = start
        n = len(data)
        while i < n:
            b = data[i]
            if self._need:
                if self._need < 0:
                    self._need = b if 0 < b < len(self._cmd) else 0  # a bad length: dropped
                else:
                    self._cmd[self._got] = b
                    self._got += 1
                    self._need -= 1
                    if not self._need:
                        self._long(now)
            elif self._bus_got:
                self._bus[self._bus_got] = b
                self._bus_got += 1
                if self._bus_got == 4:
                    self._bus_got = 0
                    self._bus_command(now)
            elif 0x81 <= b <= 0x8D:
                self._bus[0] = b
                self._bus_got = 1
            elif 0x61 <= b <= 0x7A:
                return i
            elif b == CLOCK_MESSAGE or b == SET_LEDS:
                self.bus = False
                self._cmd[0] = b
                self._got = 1
                self._need = -1
            else:
                self.bus = b == TO_BUSMODE  # any other command leaves bus mode (and is done)
                if self.bus:
                    self.mode = IDLE
                self._command(b, now)
            i += 1
        return n

    def _command(self, b, now):
        if b == RESET:
            self.mode = IDLE
        elif b == SEND_BRD:
            self._dump()
        elif b == SEND_CLK:
            self._send_time(now)
        elif b in (SEND_UPDATE, SEND_UPDATE_BRD, SEND_UPDATE_NICE):
            self.mode = UPDATE if b == SEND_UPDATE else UPDATE_BRD if b == SEND_UPDATE_BRD else UPDATE_NICE
            self.pieces()
            self._sent[:] = self._shown  # updates from what the host has now (its dump)
            self._dirty = False
            self._time_at = now
        elif b == SEND_VERSION:
            self.write(bytes((VERSION, 0, 5, VERSION_NUMBER[0], VERSION_NUMBER[1])))
        elif b == RETURN_SERIALNR:
            self.write(bytes((SERIALNR, 0, 8)) + self.serial[-5:].encode())
        elif b == RETURN_LONG_SERIALNR:
            self.write(bytes((LONG_SERIALNR, 0, 13)) + self.serial.encode())
        elif b == RETURN_BUSADRES:
            a = int(self.serial[-4:]) & 0x3FFF
            self.write(bytes((BUSADRES, 0, 5, a >> 7, a & 0x7F)))
        elif b == SEND_TRADEMARK:
            n = 3 + len(TRADEMARK_TEXT)
            self.write(bytes((TRADEMARK, n >> 7, n & 0x7F)) + TRADEMARK_TEXT)
        elif b == SEND_EE_MOVES:
            # Everything the store keeps, oldest first, and the end mark; then the store
            # notes that it was read, as a DGT board's does.
            ee = self.ee
            n = 4 + ee.end - ee.start
            self.write(bytes((EE_MOVES, n >> 7, n & 0x7F)))
            for chunk, a, z in ee.spans(ee.start, ee.end):
                self.write(chunk[a:z])
            self.write(bytes((EE_EOF,)))
            ee.add(EE_DOWNLOADED)
        elif b == SEND_BATTERY_STATUS:
            percent = 10 if self.faces.low_battery else 100
            self.write(bytes((BATTERY_STATUS, 0, 12, percent, 0x7F, 0x7F, 0, 0, 0, 0, 0, 0)))

    def _long(self, now):
        """A clock message or an LED command, whole: _cmd[0] its command, _cmd[1:_got]
        what followed its length."""
        c = self._cmd
        if c[0] == SET_LEDS:
            # pattern, first field, last field, 0: the two squares lit as a move to make.
            if self._got >= 4:
                frm, to = c[2], c[3]
                if c[1] and frm < 64 and to < 64:
                    self.faces.expected(field(frm), field(to))
                else:
                    self.faces.expected(None, None)
            return
        if self._got < 3 or c[1] != 0x03:
            return
        kind = c[2]
        if kind == CLOCK_ASCII and self._got >= 11:
            # A DGT 3000's eight characters: on the faces (firmware/app/faces.py says
            # where: never over a running clock) until the clock's END, a move or new text.
            self.faces.message("".join(chr(x) if 32 <= x < 127 else " " for x in c[3:11]).strip())
        elif kind == CLOCK_END:
            self.faces.message(None)
        elif kind == CLOCK_SETNRUN and self._got >= 9:
            # left h m s, right h m s, flags: the times set as `sync` does (the board's own
            # levers still say which side runs).
            left = ((c[3] & 0x0F) * 3600 + c[4] * 60 + c[5]) * 1000
            right = ((c[6] & 0x0F) * 3600 + c[7] * 60 + c[8]) * 1000
            try:
                self.match.clock.sync(left, right, now)
            except ValueError:
                pass
        self._ack(kind, CLOCK_VERSION_NUMBER if kind == CLOCK_VERSION else 0, 0)

    # ----- bus mode

    def _bus_command(self, now):
        c = self._bus
        if c[1] > 0x7F or c[2] > 0x7F or c[3] != (c[0] + c[1] + c[2]) & 0x7F:
            return  # a bad checksum: no answer, the host asks again
        if not self.bus:
            # A bus command in single-board mode switches to bus mode and is not done.
            self.bus = True
            self.mode = IDLE
            return
        cmd = c[0]
        if (c[1] << 7 | c[2]) != self.address:
            if c[1] or c[2]:
                return  # another board's
            if cmd == BUS_PING and self._ignore_ping:
                self._ignore_ping = False
                return
            if cmd not in (BUS_PING, BUS_END_BUSMODE, BUS_RESET):
                return  # to every board: only these
        ee = self.ee
        if cmd == BUS_SEND_CLK:
            self._clock_bytes(self._times, now)
            self._bus_reply(MSG_BUS_BWTIME, self._times, 3, 10)
        elif cmd == BUS_SEND_BRD:
            self.pieces()
            self._bus_reply(MSG_BUS_BRD_DUMP, self._shown, 0, 64)
        elif cmd == BUS_SEND_CHANGES or cmd == BUS_SEND_ALL:
            self.board_step()  # the latest pieces into the store first
            frm = self._changes if self._changes > ee.start else ee.start
            self._last = (frm, ee.end)
            self._changes = ee.end
            self._bus_store(MSG_BUS_UPDATE, frm, ee.end)
            if cmd == BUS_SEND_ALL:
                self._clock_bytes(self._times, now)
                self._bus_reply(MSG_BUS_BWTIME, self._times, 3, 10)
                self._bus_reply(MSG_BUS_BRD_DUMP, self._shown, 0, 64)
        elif cmd == BUS_REPEAT_CHANGES:
            self._bus_store(MSG_BUS_UPDATE, self._last[0], self._last[1])
        elif cmd == BUS_SET_START_GAME:
            self.board_step()
            self._start_tag = ee.end
            ee.add(EE_START_TAG)
            ee.pieces(self._shown)  # after the tag, every piece where it stands
            self._bus_reply(MSG_BUS_START_GAME_WRITTEN)
        elif cmd == BUS_SEND_FROM_START:
            self.board_step()
            self._bus_store(MSG_BUS_FROM_START, self._start_tag, self._changes)
        elif cmd == BUS_PING:
            self._bus_reply(MSG_BUS_PING)
        elif cmd == BUS_IGNORE_NEXT_PING:
            self._ignore_ping = True
            self._bus_reply(MSG_BUS_PING)
        elif cmd == BUS_END_BUSMODE:
            self.bus = False
        elif cmd == BUS_RESET:
            self.mode = IDLE
            self._power_up()
        elif cmd == BUS_SEND_VERSION:
            self._bus_reply(MSG_BUS_VERSION, bytes(VERSION_NUMBER), 0, 2)

    def _bus_head(self, mid, n):
        """A bus message's first five bytes, for n data bytes; returns their sum."""
        n += 6
        head = bytes((mid, n >> 7, n & 0x7F, self.address >> 7, self.address & 0x7F))
        self.write(head)
        return sum(head)

    def _bus_reply(self, mid, data=b"", a=0, z=0):
        total = self._bus_head(mid, z - a)
        if z > a:
            part = data[a:z]
            total += sum(part)
            self.write(part)
        self.write(bytes((total & 0x7F,)))

    def _bus_store(self, mid, frm, to):
        """The store's bytes [frm, to) in a bus message (as kept: the oldest may be gone)."""
        ee = self.ee
        if frm < ee.start:
            frm = ee.start
        total = self._bus_head(mid, to - frm if to > frm else 0)
        for chunk, a, z in ee.spans(frm, to):
            part = chunk[a:z]
            total += sum(part)
            self.write(part)
        self.write(bytes((total & 0x7F,)))

    def _log_changes(self):
        """What changed on the board since the store last looked: a record for every
        field (the emptied first), and the start position and an empty board tagged (once,
        until more than two pieces have left it, as a DGT board does)."""
        shown = self._shown
        self._catch_up(self._logged, self.ee.field)
        off_start = off_empty = 0
        for f in range(64):
            if shown[f] != START_CODES[f]:
                off_start += 1
            if shown[f]:
                off_empty += 1
        if self._tagged != 1 and not off_start:
            self._tagged = 1
            self.ee.add(EE_BEGINPOS)
        elif self._tagged != 2 and not off_empty:
            self._tagged = 2
            self.ee.add(EE_EMPTYBOARD)
        elif (self._tagged == 1 and off_start > 2) or (self._tagged == 2 and off_empty > 2):
            self._tagged = 0

    # ----- what the board sends

    def _ack(self, ack1, ack2, ack3):
        """A clock's answer, as a BWTIME message whose time bytes carry the 4 ack bytes
        (docs/dgt.md); sent only in an update mode, as a DGT board does."""
        if self.mode not in (UPDATE, UPDATE_NICE):
            return
        ack0 = 0x10
        self.write(bytes((BWTIME, 0, 10,
                          0x0A | (ack2 & 0x80) >> 3 | (ack3 & 0x80) >> 2,
                          ack0 & 0x7F, ack1 & 0x7F,
                          0x0A | (ack0 & 0x80) >> 3 | (ack1 & 0x80) >> 2,
                          ack2 & 0x7F, ack3 & 0x7F, 0)))

    def button(self, name):
        """A clock button the board does not use now, to the host as a DGT 3000's."""
        code = BUTTON_CODES.get(name)
        if code is not None:
            self._ack(0x88, 0, code)

    def _dump(self):
        self.pieces()
        self.write(bytes((BOARD_DUMP, 0, 67)) + self._shown)

    def _send_time(self, now):
        self._clock_bytes(self._times, now)
        self.write(self._times)

    def _clock_bytes(self, out, now):
        """The clock as BWTIME data in out[3:10]: the right player (Black) first, then the
        left (White); hours, minutes and seconds (BCD), the flag; the status."""
        clock = self.match.clock
        run = clock.running_side()
        for at, side, i in ((3, 16, 1), (6, WHITE, 0)):
            ms = clock.time_left(side, now)
            s = ms // 1000 if ms > 0 else 0
            if s > 35999:
                s = 35999
            h = s // 3600
            out[at] = h | (0x50 if clock.flags[i] else 0)
            out[at + 1] = _bcd((s // 60) % 60)
            out[at + 2] = _bcd(s % 60)
        st = 0
        if run is not None and not clock.paused:
            st |= 1
        if run == 16:
            st |= 0x02 | 0x08  # Black's turn: his lever up, on the right
        elif run == WHITE:
            st |= 0x10
        if self.faces.low_battery:
            st |= 0x04
        out[9] = st

    def pieces(self):
        """The pieces by DGT field (_shown), worked out again only when the occupancy or
        the game changed (then _dirty)."""
        if not self.tracker.update(self.log.game_id):
            return
        self._dirty = True
        on = self.tracker.shown
        shown = self._shown
        for sq in range(64):
            shown[field(sq)] = _CODE[on[sq]]

    def board_step(self):
        """In an update mode: a field update for every square whose piece changed (the
        emptied ones first, as hands lift before they put down). The pieces are followed
        in every mode (cheap when nothing moved), so that a piece slid over squares keeps
        its identity for a dump asked later."""
        self.pieces()
        if not self._dirty:
            return
        self._dirty = False
        self._log_changes()
        if self.mode != IDLE:
            self._catch_up(self._sent, self._field_update)

    def _field_update(self, f, piece):
        fu = self._fu
        fu[3] = f
        fu[4] = piece
        self.write(fu)

    def _catch_up(self, had, tell):
        """Bring `had` (the pieces as the store or the host has them) up to the pieces
        shown, telling each changed field: the emptied ones first, as hands lift before
        they put down."""
        shown = self._shown
        for empty in (True, False):
            for f in range(64):
                if shown[f] != had[f] and (shown[f] == 0) == empty:
                    had[f] = shown[f]
                    tell(f, shown[f])

    def clock_step(self, now):
        """In the update modes with the clock: its times, when they change (update nice)
        or at least every second (update). In every mode, the store gets the time of a clock
        that a press halted."""
        run = self.match.clock.running_side()
        if run != self._run:
            if self._run is not None:
                ms = self.match.clock.time_left(self._run, now)
                s = ms // 1000 if ms > 0 else 0
                self.ee.time(self._run == WHITE, s // 3600, s // 60 % 60, s % 60)
            self._run = run
        if self.mode != UPDATE and self.mode != UPDATE_NICE:
            return
        t = self._times
        self._clock_bytes(t, now)
        last = self._time
        same = True
        for i in range(3, 10):
            if t[i] != last[i]:
                same = False
                last[i] = t[i]
        if same and (self.mode == UPDATE_NICE or self.diff(now, self._time_at) < 1000):
            return
        self._time_at = now
        self.write(last)


