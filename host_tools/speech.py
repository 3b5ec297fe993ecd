"""Spoken announcements for blind players (FIDE appendix D.2.1, D.2.6.1): every move as it is
made, and the times and move number on request, spoken by espeak-ng (Debian package).

Languages:
  "en"    English: "Knight f3", "pawn takes d5", "e8 queen, check", "castles kingside"
  "it"    Italian: "Cavallo f3", "pedone prende d5", "e8 Donna, scacco", "arrocco corto"
  "fide"  the style of appendix D.2.1, in German: files Anna, Bella, Cesar, David, Eva,
          Felix, Gustav, Hector; ranks eins ... acht; König, Dame, Turm, Läufer, Springer,
          Bauer; "Kurze Rochade", "Lange Rochade"; the promotion piece named
Two audio outputs: each side its own voice (`voices`); one output: one voice that names
the side first ("White: ...").
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

PIECES = {
    "en": {"K": "King", "Q": "Queen", "R": "Rook", "B": "Bishop", "N": "Knight", "P": "pawn"},
    "it": {"K": "Re", "Q": "Donna", "R": "Torre", "B": "Alfiere", "N": "Cavallo", "P": "pedone"},
    "fide": {"K": "König", "Q": "Dame", "R": "Turm", "B": "Läufer", "N": "Springer", "P": "Bauer"},
}
FILES = {
    "en": dict(zip("abcdefgh", "abcdefgh")),
    "it": dict(zip("abcdefgh", ("a", "bi", "ci", "di", "e", "effe", "gi", "acca"))),
    "fide": dict(zip("abcdefgh", ("Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"))),
}
RANKS = {
    "en": dict(zip("12345678", "12345678")),
    "it": dict(zip("12345678", "12345678")),
    "fide": dict(zip("12345678", ("eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"))),
}
WORDS = {
    "en": {"takes": "takes", "check": "check", "mate": "checkmate", "short": "castles kingside",
           "long": "castles queenside", "promotes": "", "white": "White", "black": "Black",
           "minutes": "minutes", "minute": "minute", "seconds": "seconds", "second": "second",
           "hours": "hours", "hour": "hour", "move": "Move", "ep": "en passant", "to": "to"},
    "it": {"takes": "prende", "check": "scacco", "mate": "scacco matto", "short": "arrocco corto",
           "long": "arrocco lungo", "promotes": "promuove a", "white": "Bianco", "black": "Nero",
           "minutes": "minuti", "minute": "minuto", "seconds": "secondi", "second": "secondo",
           "hours": "ore", "hour": "ora", "move": "Mossa", "ep": "en passant", "to": "in"},
    "fide": {"takes": "schlägt", "check": "Schach", "mate": "Schachmatt", "short": "Kurze Rochade",
             "long": "Lange Rochade", "promotes": "wird", "white": "Weiß", "black": "Schwarz",
             "minutes": "Minuten", "minute": "Minute", "seconds": "Sekunden", "second": "Sekunde",
             "hours": "Stunden", "hour": "Stunde", "move": "Zug", "ep": "en passant", "to": "nach"},
}
VOICES = {"en": "en", "it": "it", "fide": "de"}
_SAN = re.compile(r"^([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=([QRBN]))?([+#])?$")


def _square(sq: str, lang: str) -> str:
    return f"{FILES[lang][sq[0]]} {RANKS[lang][sq[1]]}"


def move_text(san: str, lang: str = "en", en_passant: bool = False, uci: str | None = None) -> str:
    """The words for a move in SAN. With its UCI, a promotion and an en passant capture
    say where the pawn came from (appendix D: no doubt about which pawn): "pawn e 7 to
    e 8, Queen", "pawn e 5 takes d 6 en passant"."""
    if lang not in PIECES:
        raise ValueError(f"languages: {', '.join(PIECES)}")
    w = WORDS[lang]
    core = san.rstrip("+#")
    suffix = san[len(core):]
    if core in ("O-O", "0-0"):
        words = [w["short"]]
    elif core in ("O-O-O", "0-0-0"):
        words = [w["long"]]
    else:
        m = _SAN.match(san)
        if not m:
            raise ValueError(f"not SAN: {san!r}")
        piece, ffrom, rfrom, takes, to, promo, _ = m.groups()
        words = [PIECES[lang][piece or "P"]]
        if uci and not piece and (promo or en_passant) and len(uci) >= 4:
            words.append(_square(uci[:2], lang))
            words.append(w["takes"] if takes else w["to"])
            words.append(_square(to, lang))
            if en_passant:
                words.append(w["ep"])
            if promo:
                words[-1] += ","
                words.append(PIECES[lang][promo])
            ffrom = rfrom = takes = None
            to = promo = None
            en_passant = False
        if ffrom:
            words.append(FILES[lang][ffrom])
        if rfrom:
            words.append(RANKS[lang][rfrom])
        if takes:
            words.append(w["takes"])
        if to:
            words.append(_square(to, lang))
        if en_passant:
            words.append(w["ep"])
        if promo:
            if w["promotes"]:
                words.append(w["promotes"])
            words.append(PIECES[lang][promo])
    if suffix == "+":
        words.append(w["check"])
    elif suffix == "#":
        words.append(w["mate"])
    return " ".join(words)


def time_text(ms: int, lang: str = "en", side: str | None = None) -> str:
    """'White 4 minutes 37 seconds' (never rounded up)."""
    w = WORDS[lang]
    s = max(0, ms) // 1000
    h, m, sec = s // 3600, s // 60 % 60, s % 60
    parts = [w["white"] if side == "w" else w["black"]] if side else []
    if h:
        parts.append(_count(h, "hour", "hours", lang))
    if h or m:
        parts.append(_count(m, "minute", "minutes", lang))
    parts.append(_count(sec, "second", "seconds", lang))
    return " ".join(parts)


# A count of one agrees with its noun: "un'ora", "una mossa" ("1 ora" is read "uno ora").
ONE = {"en": {"hour": "one hour", "minute": "one minute", "second": "one second", "move": "one move"},
       "it": {"hour": "un'ora", "minute": "un minuto", "second": "un secondo", "move": "una mossa"},
       "fide": {"hour": "eine Stunde", "minute": "eine Minute", "second": "eine Sekunde", "move": "ein Zug"}}


def _count(n: int, one: str, many: str, lang: str) -> str:
    return ONE[lang][one] if n == 1 else f"{n} {WORDS[lang][many]}"


def move_number_text(n: int, lang: str = "en", to_control: int | None = None) -> str:
    """'Move 23', and with to_control 'Move 23, 18 moves to the time control' (D.2.6.1:
    on request, his number of moves and the moves left to the control)."""
    text = f"{WORDS[lang]['move']} {n}"
    if to_control is not None:
        one = to_control == 1
        many = {"en": f"{to_control} moves", "it": f"{to_control} mosse", "fide": f"{to_control} Züge"}[lang]
        text += ", " + (ONE[lang]["move"] if one else many) + {
            "en": " to the time control", "it": " al controllo del tempo", "fide": " bis zur Zeitkontrolle"}[lang]
    return text


def moves_to_control(control: str, moves_done: int) -> int | None:
    """How many moves a player who has completed moves_done must still make to reach the
    next time control of control (docs: "40/5400+30:1800+30"); None when no period with a
    move count lies ahead (sudden death)."""
    periods = [p for p in (control or "").split(":") if p]
    counts = []
    for p in periods:
        m = re.match(r"^(\d+)/", p)
        counts.append(int(m.group(1)) if m else None)
    done = moves_done
    for i, c in enumerate(counts):
        if c is None:
            return None
        last = i == len(counts) - 1
        if done < c:
            return c - done
        done -= c
        if last:  # a last period with a count repeats
            return c - done % c
    return None


class Announcer:
    """Speaks through espeak-ng: to the sound card, or into WAV files (say(..., wav=path)).
    voices: per side ("w"/"b") when each player has his own output; else one voice that
    names the side first."""

    def __init__(self, lang: str = "en", voices: dict | None = None, espeak: str | None = None):
        if lang not in PIECES:
            raise ValueError(f"languages: {', '.join(PIECES)}")
        self.lang = lang
        self.voices = voices
        self.espeak = espeak or shutil.which("espeak-ng")
        if self.espeak is None:
            raise RuntimeError("espeak-ng is missing (Debian package espeak-ng)")

    def text_for_move(self, san: str, side: str, uci: str | None = None, en_passant: bool = False) -> str:
        text = move_text(san, self.lang, en_passant, uci)
        if not self.voices:  # one voice for both: it names the side
            text = f"{WORDS[self.lang]['white' if side == 'w' else 'black']}: {text}"
        return text

    def say(self, text: str, side: str | None = None, wav: str | Path | None = None):
        voice = (self.voices or {}).get(side, VOICES[self.lang])
        args = [self.espeak, "-v", voice, "-s", "150"]
        if wav:
            args += ["-w", str(wav)]
        subprocess.run(args + [text], check=True, capture_output=True, timeout=30)

    def move(self, san: str, side: str, wav=None):
        self.say(self.text_for_move(san, side), side, wav)
