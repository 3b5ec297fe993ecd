"""The host's side of the board's USB serial protocol (docs/protocol.md): bytes in,
messages out. No serial port in here: the caller reads its transport (pyserial, a pipe, a
socket) and feeds what it got, in pieces of any size.

    parser = DeviceParser()
    for msg in parser.feed(chunk):
        ...

Sequenced events (`@<game>:<seq> <kind> ...`) become `Event`s, everything else `Status`.
A line the host cannot read becomes a `Status` of kind "unreadable" rather than an
exception: one bad line from one board must never stop a relay.

The protocol's words and its value encoding are the firmware's own
(firmware/app/protocol.py, firmware/app/eventlog.py: MicroPython code that CPython imports),
so the two sides of the wire cannot drift apart. Decoding differs on purpose: the board
refuses a bad value whole (its `decode` raises), while the host reads whatever a board or
anything on its line sent, a bad byte shown as U+FFFD (`decode` here).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from firmware.app.eventlog import WORDS
from firmware.app.protocol import VERSION as PROTOCOL_VERSION  # (the host's name for it)
from firmware.app.protocol import encode  # (a host writes values as the board does)

__all__ = ["PROTOCOL_VERSION", "MAX_LINE", "GREETING", "TWO_WORD_KINDS", "EVENT_KINDS", "CLOCK_STATES", "Event",
           "Status", "decode", "encode", "parse_line", "DeviceParser"]

MAX_LINE = 4096
# What a host says to a board first, and again while it waits for an answer (the board
# never speaks first): an empty line, which ends whatever half line the board may hold
# (the board ignores an empty line), then hello (docs/protocol.md, "Who speaks first").
GREETING = ("", "hello")
TWO_WORD_KINDS = ("set",)  # "set time", "set moves", "set period"
# The sequenced events a board sends (docs/protocol.md), in the order of the firmware's
# event kinds: EVENT_KINDS[eventlog.MOVE] == "move".
EVENT_KINDS = tuple(WORDS)
CLOCK_STATES = ("running", "paused", "stopped")  # the clock line's fourth word


@dataclass
class Event:
    """A sequenced event: part of the game record, resendable."""

    game: int
    seq: int
    kind: str
    args: list[str]
    line: str = ""


@dataclass
class Status:
    """An unsequenced line: hello, clock, board state, replies, errors."""

    kind: str
    args: list[str]
    kwargs: dict[str, str] = field(default_factory=dict)
    line: str = ""


# Characters a decoded value never holds, whatever a board sent: C0 and C1 controls, DEL,
# and Unicode's line and paragraph separators (any of them could end or split a line, a
# PGN tag or a command further on).
_CONTROL = {c: "\ufffd" for c in [*range(32), *range(127, 160), 0x2028, 0x2029]}


def decode(value: str) -> str:
    """A value's text: %XX escapes of UTF-8 bytes decoded; a byte that is not UTF-8 and
    any control character become U+FFFD (the board refuses both on its side)."""
    return unquote(value, errors="replace").translate(_CONTROL)


def parse_line(line: str) -> Event | Status:
    words = line.split()
    if not words:
        return Status("unreadable", [], {}, line)
    if words[0].startswith("@"):
        head = words[0][1:]
        try:
            g, s = head.split(":", 1)
            game, seq = int(g), int(s)
        except ValueError:
            return Status("unreadable", [line], {}, line)
        if len(words) < 2:
            return Status("unreadable", [line], {}, line)
        kind = words[1]
        rest = words[2:]
        if kind in TWO_WORD_KINDS and rest:
            kind = kind + " " + rest[0]
            rest = rest[1:]
        return Event(game, seq, kind, rest, line)
    args, kwargs = [], {}
    for w in words[1:]:
        k, sep, v = w.partition("=")
        if sep and k:
            kwargs[k] = decode(v)
        else:
            args.append(decode(w))
    return Status(words[0], args, kwargs, line)


class DeviceParser:
    """Reassembles lines from bytes arriving in pieces of any size."""

    def __init__(self, max_line: int = MAX_LINE):
        self._buf = bytearray()
        self._max = max_line
        self._skipping = False

    def feed(self, data: bytes) -> list[Event | Status]:
        out = []
        self._buf += data
        while True:
            i = self._buf.find(b"\n")
            if i < 0:
                if len(self._buf) > self._max:
                    self._buf.clear()
                    self._skipping = True
                    out.append(Status("unreadable", ["line too long"], {}, ""))
                break
            raw = bytes(self._buf[:i]).rstrip(b"\r")
            del self._buf[: i + 1]
            if self._skipping:
                self._skipping = False
                continue
            try:
                text = raw.decode("ascii")
            except UnicodeDecodeError:
                out.append(Status("unreadable", ["not ascii"], {}, raw.decode("latin-1")))
                continue
            if text.strip():
                out.append(parse_line(text))
        return out
