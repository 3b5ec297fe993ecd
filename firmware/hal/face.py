# A clock face as the board builds it (hardware/circuit.py): eight 0.8-inch (20 mm)
# 14-segment characters with a decimal point each, and eight indicator lights, all driven
# by one HT16K33 (firmware/hal/ht16k33.py). Character i is on COM i; its segments A..N on
# ROW0..ROW13 and its point on ROW14; ROW15 on COM i is indicator i.
#
#   [F][1][ ][1]:[2][9]:[4][3]     h:mm:ss, right-aligned; the colons are indicators 0, 1
#   [ ][ ][ ][ ][ ][4]:[3][7]      m:ss
#   [ ][ ][ ][ ][ ][1][9.][7]      seconds and tenths
#   [W][ ][M][O][V][E][S][ ]       menu labels and values, moves to carry out (E2-E4)
#
# The signs of side_text (firmware/clock/display.py) become the two characters left of the
# time (the most important first: F1/F2 the flag that fell first or second, D the delay's
# seconds, B the byo-yomi periods left, ~ a deaf player's notice (~+2: "+2"), P the
# period) and the indicator lights beside
# them (FLAG, DELAY, BYO-YOMI, LOW BATTERY, MOVE made awaiting the press); the SIGNAL
# light is a deaf player's own (firmware/app/signals.py), set apart from the text.
from firmware.const import const


CHARS = const(8)
# The indicator lights: ROW15 on COM i. Their labels are printed beside them on the face.
COLON_HM = const(0)
COLON_MS = const(1)
FLAG = const(2)
DELAY = const(3)
BYOYOMI = const(4)
LOW_BATTERY = const(5)
MOVE = const(6)
SIGNAL = const(7)
INDICATORS = ("colon h:mm", "colon m:ss", "FLAG", "DELAY", "BYO-YOMI", "LOW BAT", "MOVE", "SIGNAL")

# The segments, as bits of ROW0..ROW13; the point is ROW14.
#      --A--
#     |\ | /|        H, J, K: the upper diagonals and vertical
#     F H J K B
#      -G1 G2-
#     E N M L C      N, M, L: the lower ones
#     |/ | \|
#      --D--  .DP
_A = const(1)
_B = const(2)
_C = const(4)
_D = const(8)
_E = const(16)
_F = const(32)
_G1 = const(64)
_G2 = const(128)
_H = const(256)
_J = const(512)
_K = const(1024)
_L = const(2048)
_M = const(4096)
_N = const(8192)
DP = const(16384)

# Glyphs from " " (32) to "Z" (90); lower case is shown as upper case.
_FIRST = const(32)
_GLYPHS = (
    0,  # space
    _B | _C | DP,  # !
    _F | _J,  # "
    _B | _C | _D | _G1 | _G2 | _J | _M,  # #
    _A | _C | _D | _F | _G1 | _G2 | _J | _M,  # $
    _C | _F | _K | _N,  # %
    _A | _D | _E | _G1 | _H | _L | _J,  # &
    _J,  # '
    _K | _L,  # (
    _H | _N,  # )
    _G1 | _G2 | _H | _J | _K | _L | _M | _N,  # *
    _G1 | _G2 | _J | _M,  # +
    _N,  # ,
    _G1 | _G2,  # -
    DP,  # .
    _K | _N,  # /
    _A | _B | _C | _D | _E | _F | _K | _N,  # 0
    _B | _C | _K,  # 1
    _A | _B | _D | _E | _G1 | _G2,  # 2
    _A | _B | _C | _D | _G2,  # 3
    _B | _C | _F | _G1 | _G2,  # 4
    _A | _D | _F | _G1 | _L,  # 5 (its diagonal tells it from S)
    _A | _C | _D | _E | _F | _G1 | _G2,  # 6
    _A | _B | _C,  # 7
    _A | _B | _C | _D | _E | _F | _G1 | _G2,  # 8
    _A | _B | _C | _D | _F | _G1 | _G2,  # 9
    _J | _M,  # :  (only in text; a time's colons are the indicators)
    _J | _N,  # ;
    _K | _L | _G1,  # <
    _D | _G1 | _G2,  # =
    _H | _N | _G2,  # >
    _A | _B | _G2 | _M,  # ?
    _A | _B | _D | _E | _F | _G2 | _J,  # @
    _A | _B | _C | _E | _F | _G1 | _G2,  # A
    _A | _B | _C | _D | _G2 | _J | _M,  # B
    _A | _D | _E | _F,  # C
    _A | _B | _C | _D | _J | _M,  # D
    _A | _D | _E | _F | _G1,  # E
    _A | _E | _F | _G1,  # F
    _A | _C | _D | _E | _F | _G2,  # G
    _B | _C | _E | _F | _G1 | _G2,  # H
    _A | _D | _J | _M,  # I
    _B | _C | _D | _E,  # J
    _E | _F | _G1 | _K | _L,  # K
    _D | _E | _F,  # L
    _B | _C | _E | _F | _H | _K,  # M
    _B | _C | _E | _F | _H | _L,  # N
    _A | _B | _C | _D | _E | _F,  # O
    _A | _B | _E | _F | _G1 | _G2,  # P
    _A | _B | _C | _D | _E | _F | _L,  # Q
    _A | _B | _E | _F | _G1 | _G2 | _L,  # R
    _A | _C | _D | _F | _G1 | _G2,  # S
    _A | _J | _M,  # T
    _B | _C | _D | _E | _F,  # U
    _E | _F | _K | _N,  # V
    _B | _C | _E | _F | _L | _N,  # W
    _H | _K | _L | _N,  # X
    _H | _K | _M,  # Y
    _A | _D | _K | _N,  # Z
)
_UNKNOWN = _A | _B | _G2 | _M  # "?" for a character the face has no glyph for
# The order in which signs take the characters, and the lights of the first ones (P has none).
_SIGN_ORDER = "FDB~P"  # ~: a deaf player's notice, beside his running time (firmware/app/faces.py)
_SIGN_LIGHTS = (FLAG, DELAY, BYOYOMI)


def glyph(ch):
    """The segments of one character (upper case for lower; "?" for what has none)."""
    c = ord(ch)
    if 97 <= c <= 122:
        c -= 32
    if _FIRST <= c < _FIRST + len(_GLYPHS):
        return _GLYPHS[c - _FIRST]
    return _UNKNOWN


def _is_time(s):
    if not s or s[-1] in ":.":
        return False
    mark = False
    for ch in s:
        if ch in ":.":
            mark = True
        elif not "0" <= ch <= "9":
            return False
    return mark


def render(text, cells):
    """text (a side's display text, a menu field, a move) into cells: CHARS words, one
    per character, its segments, its point (DP) and its indicator light (bit 15). The
    SIGNAL light is left as 0 (the driver keeps it). Returns False if the text did not
    fit (what fitted is shown)."""
    for i in range(CHARS):
        cells[i] = 0
    end = text.find(" ")
    if end < 0:
        end = len(text)
    main = text[:end]
    timed = _is_time(main)
    if not timed:
        # Text (a menu field, a move) is shown whole, but for the lights at its end.
        end = len(text)
        while end >= 2 and text[end - 2] == " " and text[end - 1] in "LM<":
            end -= 2
        main = text[:end]
    lights = 0
    fits = True
    if timed:
        # Right-aligned: the last digit on the last character, so that h:mm:ss and m:ss
        # put their colons where the face has them.
        pos = CHARS
        point = 0
        for k in range(len(main) - 1, -1, -1):
            ch = main[k]
            if ch == ".":
                point = DP
            elif ch == ":":
                lights |= 1 << (COLON_MS if pos == 6 else COLON_HM)
                if pos not in (4, 6):
                    fits = False
            else:
                pos -= 1
                if pos < 0:
                    return False
                cells[pos] = glyph(ch) | point
                point = 0
        free = pos - 1  # characters left of the time, a blank between
    else:
        pos = 0
        for ch in main:
            if ch == "." and pos:
                cells[pos - 1] |= DP
            elif pos < CHARS:
                cells[pos] = glyph(ch)
                pos += 1
            else:
                fits = False
        free = 0
    # The tokens after it, in one pass: L and M are lights; a sign lights its own and is
    # noted where it starts, to take the characters left free in _SIGN_ORDER.
    signs = [0] * len(_SIGN_ORDER)
    n = len(text)
    i = end
    while i < n:
        j = text.find(" ", i + 1)
        if j < 0:
            j = n
        if j - i == 2:
            if text[i + 1] == "L":
                lights |= 1 << LOW_BATTERY
            elif text[i + 1] == "M":
                lights |= 1 << MOVE
        elif j - i >= 3:
            k = _SIGN_ORDER.find(text[i + 1])
            if k >= 0 and not signs[k]:
                signs[k] = i + 1
                if k < len(_SIGN_LIGHTS):
                    lights |= 1 << _SIGN_LIGHTS[k]
        i = j
    at = 0
    for k in range(len(signs)):
        i = signs[k]
        if i:
            j = text.find(" ", i)
            sign = text[i:j if j >= 0 else n]
            if (k < len(_SIGN_LIGHTS) and len(sign) > 2) or sign[0] == "~":
                sign = sign[1:]  # D12: its light says delay, the characters 12; ~+2: +2
            if at + len(sign) <= free:
                for ch in sign:
                    cells[at] = glyph(ch)
                    at += 1
                at += 1
    for i in range(CHARS):
        if lights & (1 << i):
            cells[i] |= 0x8000
    return fits
