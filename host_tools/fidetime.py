"""Time controls as FIDE writes them, read into the board's own control strings
(firmware/clock/timecontrol.py, all in seconds), with the reading in words to show before
anything is sent. One reader for the relay's arbiter (a new game from the desk) and for
`play --tc`.

FIDE writes a period's time in minutes and an increment in seconds:

  90+30            90 minutes, 30 s a move from move 1             -> 5400+30
  5+3, 3+2, 15+10  blitz and rapid                                  -> 300+3, 180+2, 900+10
  40/90+30:30+30   90 min for 40 moves, then 30 min, 30 s a move    -> 40/5400+30:1800+30
  (also written 40/90+30, 30+30 - periods after a comma or a colon)
  40/90+30         90 min for each 40 moves, 30 s a move            -> 40/5400+30
  90               90 minutes, sudden death                         -> 5400
  15d5, 10b5       US delay, Bronstein delay (5 s)                  -> 900d5, 600b5
  60y5x30          byo-yomi: 60 min, then 5 periods of 30 s         -> 3600y5x30
  60c25/10         Canadian byo-yomi: 60 min, then 25 moves in 10 min -> 3600c25/600
  *3               hourglass, 3 minutes each                        -> *180
  up, -            counts up, no flag

A period's time may be given in seconds instead, with an `s` (`30s+1`: 30 seconds, 1 s a
move) or as minutes and seconds (`1:30+0` is not: the colon separates periods; write
`1.5+0` for a minute and a half). Anything else is a FideTimeError (a ValueError) saying
what is wrong; a control the board cannot play is refused with the board's own reason."""
from __future__ import annotations

import re
from dataclasses import dataclass

from firmware.clock import timecontrol

_NUMBER = r"\d{1,4}(?:\.\d{1,2})?"
_PERIOD = re.compile(r"(?:(?P<moves>\d{1,3})/)?(?P<base>%s)(?P<unit>[ms]?)"
                     r"(?:(?P<how>[+db])(?P<extra>\d{1,3})|y(?P<count>\d{1,2})x(?P<over>\d{1,3})"
                     r"|c(?P<cmoves>\d{1,3})/(?P<cbase>%s))?" % (_NUMBER, _NUMBER))


class FideTimeError(ValueError):
    """A time control that cannot be read as FIDE writes one, or that the board cannot play."""


@dataclass(frozen=True)
class Reading:
    control: str  # the board's control string (seconds), as `new tc=` sends it
    words: str  # what it means, to show before it is sent

    def __str__(self) -> str:
        return f"{self.control} ({self.words})"


def _seconds(number: str, unit: str, what: str) -> int:
    value = float(number) * (1 if unit == "s" else 60)
    if value != int(value):
        raise FideTimeError(f"{what} is not a whole number of seconds: {number}{unit}")
    return int(value)


def _span(s: int) -> str:
    """A time in words: 90 min, 30 s, 1 min 30 s."""
    if s % 60 == 0:
        return f"{s // 60} min"
    return f"{s} s" if s < 60 else f"{s // 60} min {s % 60} s"


def read(text: str) -> Reading:
    """The board's control string for a time control as FIDE writes it, and its meaning."""
    if not isinstance(text, str) or not text.strip() or len(text) > 60:
        raise FideTimeError("a time control as FIDE writes it: 90+30 (minutes + seconds a move), "
                            "40/90+30:30+30, 5+3")
    t = re.sub(r"\s+", "", text).replace(",", ":")
    if t in ("up", "-"):
        return _checked(t, "counts up from zero, no flag")
    if t.startswith("*"):
        m = re.fullmatch(r"\*(%s)([ms]?)" % _NUMBER, t)
        if not m:
            raise FideTimeError(f"an hourglass is * and the minutes each: *3, not {text!r}")
        s = _seconds(m.group(1), m.group(2), "the hourglass's time")
        return _checked(f"*{s}", f"hourglass, {_span(s)} each: the time one uses goes to the other")
    controls, words = [], []
    parts = t.split(":")
    for i, part in enumerate(parts):
        m = _PERIOD.fullmatch(part)
        if not m:
            raise FideTimeError(f"cannot read {part!r} in {text!r}: FIDE writes 90+30 (minutes + seconds "
                                f"a move), 40/90+30:30+30 (40 moves in 90 min, then 30 min)")
        base = _seconds(m["base"], m["unit"], "a period's time")
        c = (m["moves"] + "/" if m["moves"] else "") + str(base)
        w = (f"{_span(base)} for {'each ' if i == len(parts) - 1 else ''}{int(m['moves'])} moves" if m["moves"]
             else f"{_span(base)}" + (" for the rest of the game" if i else ""))
        if m["how"] == "+" and int(m["extra"]):
            c += "+" + m["extra"]
            w += f", {int(m['extra'])} s a move"
        elif m["how"] in ("d", "b"):
            c += m["how"] + m["extra"]
            w += f", {'US' if m['how'] == 'd' else 'Bronstein'} delay of {int(m['extra'])} s"
        elif m["count"]:
            c += f"y{int(m['count'])}x{int(m['over'])}"
            w += f", then byo-yomi: {int(m['count'])} periods of {int(m['over'])} s"
        elif m["cmoves"]:
            over = _seconds(m["cbase"], "", "a Canadian period's time")
            c += f"c{int(m['cmoves'])}/{over}"
            w += f", then {int(m['cmoves'])} moves in {_span(over)}, again and again"
        controls.append(c)
        words.append(w)
    return _checked(":".join(controls), "; then ".join(words) if len(words) > 1 else words[0])


def _checked(control: str, words: str) -> Reading:
    try:
        tc = timecontrol.parse(control)
    except ValueError as e:
        raise FideTimeError(f"the board cannot play {control}: {e}") from None
    kind = {timecontrol.BLITZ: "blitz", timecontrol.RAPID: "rapid"}.get(tc.classification(), "standard")
    if control not in ("up", "-"):
        words += f": {kind}"
    return Reading(control, words)
