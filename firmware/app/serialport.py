# The board's USB serial line and the two protocols on it: our line protocol
# (docs/protocol.md) and a DGT e-board's (docs/dgt.md, firmware/app/dgt.py). Which one
# is on the line is the setting `serial` (auto, line or dgt) and, in auto, what the host
# sends: a DGT command where a line would begin switches to DGT, a lowercase letter where
# a DGT command would begin switches back. While a DGT program is on the line, the lines
# are recorded as ever but not sent (a host that comes back gets them with resend).
from firmware.app.dgt import DgtLink, serial_digits
from firmware.app.protocol import LineReader

AUTO, LINE, DGT = "auto", "line", "dgt"


class SerialPort:
    def __init__(self, write, record, on_line, dgt_parts, board_id):
        """write(bytes): the line out; record: the game record (muted while a DGT program
        is on the line); on_line(text, bad, now): a whole line from the host; dgt_parts: what a
        DgtLink is made with, but for write and serial (firmware/app/dgt.py)."""
        self.write = write
        self.record = record
        self.on_line = on_line
        self.dgt_parts = dgt_parts
        self.serial = serial_digits(board_id)
        self.reader = LineReader()
        self._line = self._on_line  # made once: the reader calls it for every line
        self.mode = AUTO
        self._now = 0  # the tick of the bytes being read
        self.dgt = None  # a DgtLink while a DGT program is on the line
        # The board never speaks first (a DGT board sends nothing unasked, and a DGT
        # program that has the port open reads strictly): nothing goes out until the host
        # has sent something. What happened meanwhile is recorded as ever (resend); the
        # start's warnings and recovery follow the first line a host of ours sends.
        self.heard = False
        record.mute = True
        record.notices = []

    def set_mode(self, mode):
        self.mode = mode
        if mode == DGT:
            self.to_dgt()
        elif mode == LINE and self.dgt is not None:
            self.to_line()

    def receive(self, data, now):
        """Bytes from the host: every whole line is handled, a DGT program's commands go
        to the DGT link, and the line switches between the two where the bytes say so."""
        i = 0
        n = len(data)
        self._now = now
        if not self.heard and n:
            self.heard = True
            if self.dgt is None:
                self.record.mute = False
        while i < n:
            if self.dgt is not None:
                i = self.dgt.feed(data, now, i)
                if i < n:
                    self.to_line()
            else:
                i = self.reader.feed(data, self._line, i, self.mode != LINE)
                if i < n:
                    self.to_dgt()

    def _on_line(self, text, bad):
        self.on_line(text, bad, self._now)
        notices = self.record.notices
        if notices is not None:  # after the answer to the host's first line
            self.record.notices = None
            for line in notices:
                self.record.write(line)

    def board_step(self):
        """After the scans: a DGT program on the line hears what changed on the board."""
        if self.dgt is not None:
            self.dgt.board_step()

    def clock_step(self, now):
        """A DGT program on the line hears the clock."""
        if self.dgt is not None:
            self.dgt.clock_step(now)

    def button(self, name):
        """A clock button the host is told of: a DGT program hears it as its clock's."""
        if self.dgt is not None:
            self.dgt.button(name)

    def to_dgt(self):
        if self.dgt is None:
            self.dgt = DgtLink(self.write, self.serial, *self.dgt_parts)
        self.record.mute = True
        self.reader.reset()

    def to_line(self):
        self.dgt = None
        self.record.mute = not self.heard
