# What the board shows: the two clock faces (times and their signs, the menu, the low-
# battery sign, a move made that awaits its press: firmware/hal/face.py), the side LEDs
# (the running side, seen from 10 m) and the optional chain of square LEDs (the last move, or while the board differs from
# the game, the squares to put right; the move of a player who is not at the board - an
# engine, an opponent online - for the player at the board to carry out; a hint for his
# own move). A host's text (a DGT program's clock text) shows where no running clock is.
from firmware.clock import display
from firmware.rules.squares import WHITE, BLACK, square_name

DISPLAY_EVERY_MS = 100
NOTICE_MS = 4000  # how long a deaf player's notice shows
# What a square LED shows (firmware/hal/squareleds.py).
LAST_FROM, LAST_TO, FIX, EXPECT_FROM, EXPECT_TO, HINT_FROM, HINT_TO = 1, 2, 3, 4, 5, 6, 7
# A deaf player's notices (notice()): the text on his whole face while his clock stands,
# the sign beside his running time. Those that say more (a period, a penalty's time, the
# square touched, the arbiter's text) are made where they happen, with their signs here.
PAUSED = ("PAUSE", "PA")
RESUMED = ("RESUME", "GO")
ILLEGAL = ("ILLEGAL", "IL")
OPPONENT_ILLEGAL = ("OPP ILL", "OI")
OFFERED = ("OFFERED", "OF")
DRAW_OFFERED = ("DRAW?", "DR")  # held until he answers
CLAIMED = ("CLAIM", "CL")
NO_DRAW = ("NO DRAW", "ND")
SIGN_MESSAGE = "MS"
SIGN_TOUCHED = "TC"


class Faces:
    def __init__(self, hal, now):
        self.hal = hal
        self.low_battery = False
        self.dirty = True  # shown again at the next refresh, whatever the time
        self._at = now
        self._shown = None
        self._leds = {WHITE: None, BLACK: None}
        self._lit = bytearray(64)
        self._last = None
        self._fix = None
        self._hint = None  # a move suggested to the player at the board (from, to)
        self._expect = None
        self._expect_side = None  # whose face shows the move to carry out...
        self._expect_text = None  # ...as "e2-e4" (made once, not at every refresh)
        self._message = None  # a host's text for the faces (message())
        self._menu = None  # the clock's menu while it is open (show_menu())
        # A deaf player's notice per side (notice()): [text, sign, until tick or None: held]
        self._notices = {WHITE: None, BLACK: None}

    def show_low_battery(self, low):
        """C.02's low-battery sign on the faces, from the next refresh."""
        if low != self.low_battery:
            self.low_battery = low
            self.dirty = True

    def led(self, side, on):
        if self._leds[side] != on:
            self._leds[side] = on
            self.hal.led("white" if side == WHITE else "black", on)

    def show_menu(self, menu):
        """The clock's menu (a ClockMenu; None: closed) on the faces from the next refresh."""
        self._menu = menu
        self.dirty = True

    def refresh(self, now, clock, turn, force=False):
        """The faces, at once after a change (force or dirty), else ten times a second,
        and the running side's LED with them. turn: the side to move in the game - while
        the other side's clock still runs, that side's move is made and awaits its press
        (MOVE on his face: the move was recognised)."""
        if not (force or self.dirty or self.hal.diff(now, self._at) >= DISPLAY_EVERY_MS):
            return
        self.dirty = False
        self._at = now
        run = clock.running_side()
        menu = self._menu
        if menu is not None:
            shown = menu.text()
        else:
            shown = (display.side_text(clock, WHITE, now), display.side_text(clock, BLACK, now))
            if run is not None and run != turn and not clock.paused:
                shown = (shown[0] + " M", shown[1]) if run == WHITE else (shown[0], shown[1] + " M")
            move = self._expect_text
            if move is not None:
                shown = (move, shown[1]) if self._expect_side == WHITE else (shown[0], move)
            text = self._message
            if text is not None:
                # Never over a running clock (6.3, C.02): on both faces while none runs,
                # else on the face whose clock stands.
                if run is None or clock.paused:
                    shown = (text, text)
                else:
                    shown = (text, shown[1]) if run == BLACK else (shown[0], text)
            if self._notices[WHITE] is not None or self._notices[BLACK] is not None:
                running = not clock.paused
                shown = (self._noticed(WHITE, shown[0], running and run == WHITE, now),
                         self._noticed(BLACK, shown[1], running and run == BLACK, now))
        if self.low_battery:  # C.02: the low-battery sign
            shown = (shown[0] + " L", shown[1] + " L")
        if shown != self._shown:
            self._shown = shown
            self.hal.display(shown[0], shown[1])
            for side in (WHITE, BLACK):
                self.led(side, run == side)

    # ----- the square LEDs

    def last_move(self, frm, to):
        """The last move's squares (None, None: none, after a take-back)."""
        self._last = (frm, to) if frm is not None else None
        if self._expect is not None:
            self.dirty = True  # its player's face shows his time again
        self._expect = self._expect_text = None  # a move made or taken back: nothing is expected
        self._hint = None  # nor suggested
        self._message = None  # nor a host's text kept
        self._squares()

    def expected(self, frm, to, side=None):
        """The move to carry out on the board (None, None: none); side: whose face shows
        it (\"e2-e4\") instead of his time until it is made."""
        self._expect = (frm, to) if frm is not None else None
        self._expect_side = side
        self._expect_text = square_name(frm) + "-" + square_name(to) if frm is not None and side is not None else None
        self.dirty = True
        self._squares()

    def notice(self, side, text, sign, now, held=False):
        """What happened, for a deaf player, on his own face for NOTICE_MS (held: until
        cleared): the text on the whole face while his clock stands; beside his running
        time, never over it (6.3, C.02), its sign (two characters: "+2", "DR")."""
        self._notices[side] = [text, sign, None if held else now + NOTICE_MS]
        self.dirty = True

    def clear_notice(self, side, notice=None):
        """side's notice gone (only if it is notice (text, sign), when one is given)."""
        n = self._notices[side]
        if n is not None and (notice is None or n[0] == notice[0]):
            self._notices[side] = None
            self.dirty = True

    def _noticed(self, side, shown, runs, now):
        n = self._notices[side]
        if n is None:
            return shown
        if n[2] is not None and self.hal.diff(now, n[2]) >= 0:
            self._notices[side] = None
            return shown
        return shown + " ~" + n[1] if runs else n[0]

    def message(self, text):
        """A host's text on the faces (None or "": none), until a move or the next text."""
        self._message = text or None
        self.dirty = True

    def hint(self, frm, to):
        """A move suggested for the player at the board (None, None: none), until the
        position changes."""
        self._hint = (frm, to) if frm is not None else None
        self._squares()

    def squares_to_fix(self, squares):
        """The squares to put right (None: the board is in sync again)."""
        self._fix = squares
        self._squares()

    def clear_squares(self):
        self._last = None
        self._fix = None
        self._hint = None
        self._expect = self._expect_text = None
        self._squares()

    def _squares(self):
        lit = self._lit
        for i in range(64):
            lit[i] = 0
        if self._fix:
            for sq in self._fix:
                lit[sq] = FIX
        elif self._expect is not None:
            lit[self._expect[0]] = EXPECT_FROM
            lit[self._expect[1]] = EXPECT_TO
        elif self._hint is not None:
            lit[self._hint[0]] = HINT_FROM
            lit[self._hint[1]] = HINT_TO
        elif self._last is not None:
            lit[self._last[0]] = LAST_FROM
            lit[self._last[1]] = LAST_TO
        self.hal.squares(lit)
