# The board's own voice (the optional audio module: hardware/README.md): what it says, as
# sequences of recorded phrases. The phrases are tracks on the module's memory card, one
# folder per language (LANGUAGES: folder 01 English, 02 Italian, 03 the FIDE appendix D.2.1
# style in German); track n of a folder is phrase n: tracks 1..100 the numbers 0..99, then
# WORDS in order. host_tools/audiocard.py records them with espeak-ng from this same table,
# so the card and the firmware agree.
#
#   time      "White, 1 hour 29 minutes 43 seconds" ("Bianco, un'ora 29 minuti 43 secondi")
#   moves     "White, 2 moves, 38 moves to the time control" (appendix D: his moves, those
#             left; "Bianco, una mossa, 39 mosse al controllo del tempo")
#   a move    "White, Knight f 3", "Black, pawn e 5 takes d 6 en passant",
#             "White, pawn e 7 to e 8, Queen, check" ("pedone a 7 in a 8, Donna": the
#             Italian "a" would be a file), "Black, castles kingside"
#   a flag    "Black, flag fallen" ("Nero, bandierina caduta")
# A count of one is a phrase of its own ("one_hour": "un'ora", "una mossa", "eine Minute"):
# a number and a noun recorded apart do not agree ("uno ora").
from firmware.access.patterns import EVENTS

LANGUAGES = ("en", "it", "fide")
NUMBERS = 100
WORDS = ("100", "200", "300", "400", "500", "600", "700", "800", "900",
         "K", "Q", "R", "B", "N", "P", "a", "b", "c", "d", "e", "f", "g", "h",
         "takes", "to", "check", "mate", "short", "long", "ep",
         "white", "black", "hour", "hours", "minute", "minutes", "second", "seconds",
         "move", "moves", "to_control", "flag",
         "one_hour", "one_minute", "one_second", "one_move")
# Then the access menu's and the practice's words (firmware/access/menu.py: MENU_WORDS,
# then each event's name), which only the menu loads: MENU_TRACKS of them.
MENU_TRACKS = 27 + len(EVENTS)
TRACKS = NUMBERS + len(WORDS) + MENU_TRACKS


def track(word):
    """The track of a word of WORDS, or of a number 0..99."""
    if isinstance(word, int):
        return word + 1
    return NUMBERS + 1 + WORDS.index(word)


# A language's phrases come three times on the card: for both ears (folder 1, 2, 3: the
# speaker, and moves and a flag in the headphones), for White's ear alone (11, 12, 13: the
# left channel) and for Black's (21, 22, 23: the right).
EARS = (None, "w", "b")


def folder(lang, ear=None):
    return LANGUAGES.index(lang) + 1 + 10 * EARS.index(ear)


def number(n, out):
    """n (0..999) as tracks: one phrase under 100, else its hundreds and the rest."""
    if n >= 100:
        out.append(track(str(n // 100 * 100)))
        n %= 100
        if not n:
            return out
    out.append(track(n))
    return out


def side(s, out):
    out.append(track("white" if s == "w" else "black"))
    return out


def time(s, ms, out):
    """Side s's time, never rounded up: hours and minutes only when there are any."""
    side(s, out)
    return duration((ms if ms > 0 else 0) // 1000, out)


def duration(sec, out):
    """A number of seconds as hours, minutes and seconds (only those there are, the
    seconds always)."""
    h, m, sec = sec // 3600, sec // 60 % 60, sec % 60
    if h:
        _count(h, "hour", "hours", out)
    if h or m:
        _count(m, "minute", "minutes", out)
    return _count(sec, "second", "seconds", out)


def _count(n, one, many, out):
    """n things: "one_<one>" for one, else the number and the plural."""
    if n == 1:
        out.append(track("one_" + one))
    else:
        number(n, out).append(track(many))
    return out


def moves(s, made, left, out):
    """His number of moves, and (left not None) the moves left to the time control."""
    side(s, out)
    _count(made, "move", "moves", out)
    if left is not None:
        _count(left, "move", "moves", out).append(track("to_control"))
    return out


def move(s, san, uci, en_passant, out):
    """A move from its SAN (and UCI: a promotion or an en passant capture says where its
    pawn came from, so that no one doubts which pawn)."""
    side(s, out)
    core = san.rstrip("+#")
    if core == "O-O":
        out.append(track("short"))
    elif core == "O-O-O":
        out.append(track("long"))
    else:
        promo = core[-1] if "=" in core else None
        core = core.split("=")[0]
        piece = core[0] if core[0] in "KQRBN" else "P"
        out.append(track(piece))
        if piece == "P" and (promo or en_passant):
            _square(uci[0:2], out)
            out.append(track("takes" if "x" in core else "to"))
            _square(uci[2:4], out)
        else:
            for c in core[1:] if piece != "P" else core:
                if c == "x":
                    out.append(track("takes"))
                elif c in "abcdefgh":
                    out.append(track(c))
                else:
                    out.append(track(ord(c) - 48))
        if en_passant:
            out.append(track("ep"))
        if promo:
            out.append(track(promo))
    if san[-1] == "+":
        out.append(track("check"))
    elif san[-1] == "#":
        out.append(track("mate"))
    return out


def _square(name, out):
    out.append(track(name[0]))
    out.append(track(ord(name[1]) - 48))
