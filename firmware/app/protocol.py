# The USB serial protocol's grammar on the device side (the contract is docs/protocol.md):
# bytes in, whole lines out; a line of printable ASCII split into a command word,
# positional words and key=value pairs, values percent-encoded (%20 a space, %25 a %).
# Anything else - an overlong line, control or non-ASCII bytes - is refused whole, with a
# reason, and changes nothing.
VERSION = 1
MAX_LINE = 240

GARBAGE = "garbage"
TOO_LONG = "line-too-long"


class LineReader:
    """feed(bytes, on_line) calls on_line(text) for every complete line, or
    on_line(None, reason) for one that must be refused."""

    def __init__(self, max_line=MAX_LINE):
        self._buf = bytearray(max_line)
        self._n = 0
        self._bad = None

    def feed(self, data, on_line):
        buf = self._buf
        for byte in data:
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


def decode(value):
    """Percent-decoding; ValueError for a bad escape."""
    if "%" not in value:
        return value
    out = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "%":
            h = value[i + 1:i + 3]
            if len(h) != 2:
                raise ValueError("bad %-escape in " + value)
            out.append(chr(int(h, 16)))
            i += 3
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def encode(value):
    """Percent-encoding of spaces, % and = (so a value is one word)."""
    return value.replace("%", "%25").replace(" ", "%20").replace("=", "%3D")


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
