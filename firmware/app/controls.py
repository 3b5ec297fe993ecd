# The clock's controls: the two levers and the four buttons, and the clock's menu behind
# them (firmware/clock/menu.py).
#   a lever going down  -> the recogniser (the press may complete a move), then the match:
#                          always a press, held or not (the Laws' meaning); the press of
#                          a move made on the other board of a pair, shown here to be
#                          carried out (expect), completes it (appendix D)
#   an ask key          -> a blind player's question (signals): never a press
#   a draw key          -> a draw offer (9.1.2), or the answer to the opponent's
#   his ask and draw keys together, no clock running -> the practice of the signals, his
#                          seat's (firmware/access/menu.py): found by touch, on his own half
#   a button            -> the promotion choice while a pawn waits on the last rank, else
#                          the menu, else the host (`button <name>`: a game played with
#                          an engine or online uses them for draw and resign)
from firmware.app import protocol as P
from firmware.app.faces import NO_DRAW, SIGN_TOUCHED
from firmware.app.signals import letter
from firmware.clock.clock import ClockError
from firmware.match import MatchError
from firmware.rules.squares import WHITE, BLACK, parse_square, square_name

# Buttons that do nothing on the board while its menu is closed: reported to the host.
TO_HOST = ("plus", "minus", "ok", "plus-long", "minus-long", "ok-long")
ASK_KEYS = {"ask-white": WHITE, "ask-black": BLACK}  # on the faces (firmware/hal/pinmap.py)
DRAW_KEYS = {"draw-white": WHITE, "draw-black": BLACK}
CHORD_MS = 600  # a player's ask key and draw key touched within this: together
_PARTNER = {"ask-white": "draw-white", "draw-white": "ask-white", "ask-black": "draw-black",
            "draw-black": "ask-black"}


class Controls:
    def __init__(self, recognizer, match, events, signals, faces, presets, record, new_game, to_port, restart,
                 access_menu):
        """new_game(control, now): a game with the menu's preset; record: the lines to
        the host; to_port(name): a button for a DGT program on the line (its clock's);
        restart(now): into the USB bootloader, the game kept (the menu's UPDATE);
        access_menu() -> the access menu (firmware/access/menu.py), built when first opened."""
        self.recognizer = recognizer
        self.match = match
        self.events = events
        self.signals = signals
        self.faces = faces
        self.presets = presets
        self.record = record
        self.write = record.write
        self.new_game = new_game
        self.menu = None  # a ClockMenu while it is open
        self.battery = "--"  # the battery's level as the menu shows it ("87%", "USB")
        self.to_port = to_port
        self.restart = restart  # restart(t): into the USB bootloader (the menu's UPDATE)
        self.access_menu = access_menu
        # Two boards for one game (appendix D, the host's `pair`): the side whose moves are
        # made on the other board and repeated here (0: not paired), and whether this
        # board's clock is the game's (here) or the other's is (there: the levers do nothing).
        self.elsewhere = 0
        self.clock_here = True
        self._keys_at = {}  # an ask or draw key -> the tick of its last touch (the practice's chord)

    def press(self, side, t):
        """A clock lever going down, at the tick its interrupt took (art. 6.2.1: the press
        completes the move): first the recogniser (which may recognise the move now), then
        the clock. Held or tapped, it is a press: with no move made on his own turn, an
        illegal one (7.5.3). A blind player asks with his ask key, never with the lever.
        On the board of a pair whose clock is the other's, the levers do nothing."""
        if self.elsewhere and not self.clock_here:
            return
        self.recognizer.press(side, t)
        self._press(side, t)

    def carried_out(self, side, t):
        """side's move, shown to be carried out (expect), stands on the board now: as if he
        had pressed - unless his moves are made on the other board of a pair, where his
        own press completes them (or did already)."""
        if side != self.elsewhere:
            self.press(side, t)

    def pair(self, words, kw, now):
        """pair w|b here|there: this board is one of two for one game (appendix D: the blind
        player's own board and the sighted player's); that side's moves are made on the other
        board and repeated here (shown by expect). here: this board's clock is the game's, and
        that side's press completes his move made there before it is repeated here; there:
        the other board's clock is the game's, and this board's levers do nothing. pair -: no
        longer. Not kept across a restart: the host says it again when it meets the board."""
        if words == ["-"]:
            self.paired(0, True)
            return ("pair", "-")
        if len(words) != 2 or words[1] not in ("here", "there"):
            raise ValueError("pair w|b here|there, or pair -")
        self.paired(P.side_of(words[0]), words[1] == "here")
        return ("pair", words[0], words[1])

    def paired(self, side, here):
        """side's moves are made on the other board of a pair (0: not paired); here: this
        board's clock is the game's."""
        self.elsewhere = side
        self.clock_here = here
        self.recognizer.no_press = bool(side) and not here
        self.record.paired("%s,%s" % (letter(side), "here" if here else "there") if side else None)

    def complete(self, side, now):
        """complete w|b: that side's move is completed now, as by his press (a game whose
        clock is kept elsewhere: the host sent the move to lichess)."""
        if not self.match.awaits_press(side):
            raise P.NotNow("no move of that side waits for its press")
        self.press(side, now)

    def touched(self, square, now):
        """touched <square>: on the other board of a pair, the opponent (the side whose moves
        are made there) touched the piece on square (4.3): felt by the player at this board
        (appendix D.2.10: what his assistant would tell him, if he wants it)."""
        if not self.elsewhere:
            raise P.NotNow("not one of a pair")
        sq = parse_square(square)
        self.events.tell(BLACK if self.elsewhere == WHITE else WHITE, self.signals.opponent_touched,
                         ("TOUCH " + square_name(sq).upper(), SIGN_TOUCHED))

    def _press(self, side, t):
        match = self.match
        if side == self.elsewhere and match.press_elsewhere(side, t):  # (not if his move stands here)
            # His move, made on his own board of the pair (appendix D) and not yet
            # repeated here: completed by his press, on this board's clock, the game's.
            self.events.pressed_elsewhere(side, t)
        elif match.press(side, t):
            self.events.completed_by_press(side, t)  # its clk line goes out with the step's commit
        self.events.clock_due()  # the clock line, the display and LEDs at the next clock step

    def button(self, name, down, t):
        """A button: an ask key's touch is a question (signals), then the promotion choice
        while a pawn waits on the last rank, else the clock's menu."""
        if not down:
            return
        if name in ASK_KEYS and self.menu is not None and self.menu.ask(ASK_KEYS[name], t):
            self.faces.dirty = True  # the access menu's: the menu speaks to his seat
            return
        if name in _PARTNER and self.menu is None and self._practice(name, t):
            return
        if name in ASK_KEYS:
            side = ASK_KEYS[name]
            what = self.signals.ask(side, t, self.match.clock)
            if what is not None:
                self.write("ask %s %s" % (letter(side), what))
            return
        if name in DRAW_KEYS:
            side = DRAW_KEYS[name]
            try:
                self.match.offer_draw(side, t)
            except MatchError as e:  # no game, or before a move each (5.2.3): said on his face
                self.events.tell(side, None, NO_DRAW)
                self.write("warning " + P.encode("%s's draw key: %s" % (letter(side), e)))
            self.faces.dirty = True
            return
        if self.recognizer.promotion_pending():
            self.recognizer.button(name, down, t)
            return
        if self.menu is None and name in TO_HOST:
            self.to_port(name)
            self.write("button " + name)
            return
        menu = self.menu
        if menu is None:
            menu = self._new_menu()
        try:
            todo = menu.button(name, self.match.clock, t)
        except ClockError as e:
            self.write("err not-now " + P.encode(str(e)))
            todo = None
        menu = menu if menu.open else None
        if menu is not self.menu:
            self.menu = menu
            self.faces.show_menu(menu)
        if todo is not None and todo[0] == "bootloader":
            self.faces.dirty = True
            self.restart(t)
            return
        if todo is not None:
            self.new_game(self.presets.get(todo[1]), t)
        self.faces.dirty = True

    def _new_menu(self):
        # Imported when a player first opens it, for memory: until then its code takes no
        # heap (docs/firmware.md, "Memory"; the voice and the access menu load so too).
        from firmware.clock.menu import ClockMenu

        menu = ClockMenu(self.presets, self.access_menu)
        menu.battery = self.battery
        return menu

    def _practice(self, name, t):
        """name (an ask or a draw key) touched with its partner on the same half a moment
        before, no clock running (before the start, after a game's end; never in a game,
        where each keeps its meaning): the practice opens for that player's seat."""
        keys = self._keys_at
        at = keys.get(_PARTNER[name])
        keys[name] = t
        clock = self.match.clock
        if at is None or self.signals.hal.diff(t, at) > CHORD_MS or (clock.started and not clock.stopped):
            return False
        keys.clear()
        menu = self._new_menu()
        if not menu.practice(clock, ASK_KEYS.get(name) or DRAW_KEYS[name], t):
            return False
        self.menu = menu
        self.faces.show_menu(menu)
        self.faces.dirty = True
        return True

    def show_battery(self, level):
        self.battery = level
        if self.menu is not None:
            self.menu.battery = level
