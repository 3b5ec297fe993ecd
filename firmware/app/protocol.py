# The USB serial protocol's grammar on the device side (the contract is docs/protocol.md):
# bytes in, whole lines out; a line of printable ASCII split into a command word,
# positional words and key=value pairs, values percent-encoded (%20 a space, %25 a %).
# Anything else - an overlong line, control or non-ASCII bytes - is refused whole, with a
# reason, and changes nothing.
from firmware.rules.squares import WHITE, BLACK

VERSION = 1
MAX_LINE = 240

# The bytes that begin a command of the DGT e-board protocol (firmware/app/dgt.py): none
# begins a line of ours (every command word is lowercase), so one where a line would begin
# says a DGT program is on the line.
DGT_FIRST = bytes(range(0x40, 0x4F)) + bytes(range(0x50, 0x56)) + b"\x2b\x60" + bytes(range(0x81, 0x8E))


def dgt_commands(data, i):
    """Whether data[i:] is DGT commands and nothing else (a clock message or LED command
    whole or cut at the end): a byte of noise that looks like one is not a DGT host."""
    n = len(data)
    while i < n:
        b = data[i]
        if b == 0x2B or b == 0x60:
            if i + 1 < n and not 0 < data[i + 1] < 16:
                return False
            i += 2 + (data[i + 1] if i + 1 < n else 0)
        elif 0x81 <= b <= 0x8D:  # a bus command: three bytes below 0x80 follow (address, checksum)
            for k in range(i + 1, min(i + 4, n)):
                if data[k] >= 0x80:
                    return False
            i += 4
        elif b in DGT_FIRST:
            i += 1
        else:
            return False
    return True


GARBAGE = "garbage"
TOO_LONG = "line-too-long"


class NotNow(ValueError):
    """A command that is well formed but cannot be done at this moment (`err not-now`)."""


SIDES = {"w": WHITE, "b": BLACK, "white": WHITE, "black": BLACK}


def side_of(word):
    """A side's word (w, b, white, black) as the side."""
    s = SIDES.get(word)
    if s is None:
        raise ValueError("a side is w or b, not %r" % (word,))
    return s


def check(words, kw, n, keys=()):
    """A command's words: n positional ones, keys only of those given."""
    if len(words) != n:
        raise ValueError("expected %d word(s), got %d" % (n, len(words)))
    for k in kw:
        if k not in keys:
            raise ValueError("unknown key " + k)


def whole(word, what):
    """A whole number's word as the number; what: its name in the error."""
    if not word or not (word.isdigit() or (word[0] == "-" and word[1:].isdigit())):
        raise ValueError("%s must be a whole number, not %r" % (what, word))
    return int(word)


class LineReader:
    """feed(bytes, on_line) calls on_line(text) for every complete line, or
    on_line(None, reason) for one that must be refused."""

    def __init__(self, max_line=MAX_LINE):
        self._buf = bytearray(max_line)
        self.reset()

    def reset(self):
        self._n = 0
        self._bad = None

    def feed(self, data, on_line, start=0, dgt=False):
        """Lines from data[start:]; returns len(data), or, with dgt, the index where DGT
        commands begin in place of a line (the rest is not read)."""
        buf = self._buf
        for i in range(start, len(data)):
            byte = data[i]
            if dgt and not self._n and not self._bad and byte in DGT_FIRST and dgt_commands(data, i):
                return i
            if byte == 10:  # \n ends a line
                if self._bad:
                    on_line(None, self._bad)
                elif self._n:
                    on_line(bytes(buf[:self._n]).decode(), None)
                self._n = 0
                self._bad = None
            elif byte == 13:  # \r is ignored
                continue
            elif self._bad:
                continue
            elif byte < 32 or byte > 126:
                self._bad = GARBAGE
            elif self._n >= len(buf):
                self._bad = TOO_LONG
            else:
                buf[self._n] = byte
                self._n += 1
        return len(data)


MAX_VALUE = 120  # characters in one decoded value (a FEN is at most ~90)
_HEX_UPPER = b"0123456789ABCDEF"


def _nibble(b):
    # The value of hex digit byte b (either case), or -1.
    if 48 <= b <= 57:
        return b - 48
    b |= 32
    return b - 87 if 97 <= b <= 102 else -1


def decode(value):
    """Percent-decoding of one value: the bytes are UTF-8 text with no control character
    (C0, DEL, C1, or a Unicode line or paragraph separator), at most MAX_VALUE
    characters; ValueError, saying why, for anything else.

    The work is on bytes, never on one-character strings: MicroPython makes each such
    string a qstr, interned for good, and a new qstr can need a new qstr pool, a block of
    kilobytes that a heap fragmented by a long game may not have."""
    if len(value) > 3 * MAX_VALUE:  # longer than any value's encoding: no work, no buffer
        raise ValueError("a value longer than %d characters" % MAX_VALUE)
    if "%" in value:
        data = value.encode()  # printable ASCII: the line reader let nothing else through
        raw = bytearray()
        i = 0
        n = len(data)
        while i < n:
            b = data[i]
            if b == 37:  # %
                hi = _nibble(data[i + 1]) if i + 1 < n else -1
                lo = _nibble(data[i + 2]) if i + 2 < n else -1
                if hi < 0 or lo < 0:
                    raise ValueError("a bad %-escape in a value")
                b = hi << 4 | lo
                i += 3
            else:
                i += 1
            if b < 32 or b == 127:
                raise ValueError("a control character in a value")
            raw.append(b)
        try:
            value = bytes(raw).decode()
        except ValueError:  # UnicodeError: a value is UTF-8 text
            raise ValueError("a value that is not UTF-8")
        # Valid UTF-8, so a lead byte is only ever a lead byte: C1 controls are C2 80-9F,
        # the line and paragraph separators E2 80 A8 and E2 80 A9.
        for i in range(len(raw) - 1):
            b = raw[i]
            if (b == 0xC2 and raw[i + 1] < 0xA0) or (
                    b == 0xE2 and raw[i + 1] == 0x80 and raw[i + 2] in (0xA8, 0xA9)):
                raise ValueError("a control character in a value")
    if len(value) > MAX_VALUE:
        raise ValueError("a value longer than %d characters" % MAX_VALUE)
    return value


def _plain(b):
    # A byte that stands for itself in a value: printable ASCII but for space, % and =.
    return 32 < b < 127 and b != 37 and b != 61


def encode(value):
    """Percent-encoding (UTF-8 bytes, %XX) of everything but printable ASCII, and of
    spaces, % and =: a value is one word, and no byte of it can end or split a line."""
    data = value.encode()
    for b in data:
        if not _plain(b):
            break
    else:
        return value
    out = bytearray()  # a byte a character: no list of small strings on a small heap
    for b in data:
        if _plain(b):
            out.append(b)
        else:
            out.append(37)
            out.append(_HEX_UPPER[b >> 4])
            out.append(_HEX_UPPER[b & 15])
    return out.decode()


def split(line):
    """'new tc=300+2 white=A%20B' -> ('new', [], {'tc': '300+2', 'white': 'A B'})."""
    words = line.split()
    if not words:
        raise ValueError("empty line")
    pos = []
    kw = {}
    for w in words[1:]:
        i = w.find("=")
        if i >= 0:
            k = w[:i]
            v = w[i + 1:]
            if not k or k in kw:
                raise ValueError("bad or repeated key in " + w)
            kw[k] = decode(v)
        else:
            pos.append(decode(w))
    return words[0], pos, kw
