# The clock's controls: the two levers and the four buttons, and the clock's menu behind
# them (firmware/clock/menu.py).
#   a lever going down  -> the recogniser (the press may complete a move), then the match
#   a lever held        -> a blind player's question (signals), not a press
#   a button            -> the promotion choice while a pawn waits on the last rank, else
#                          the menu, else the host (`button <name>`: a game played with
#                          an engine or online uses them for draw and resign)
from firmware.app import protocol as P
from firmware.app.signals import letter
from firmware.clock.clock import ClockError
from firmware.clock.menu import ClockMenu
from firmware.rules.squares import WHITE, BLACK

# Buttons that do nothing on the board while its menu is closed: reported to the host.
TO_HOST = ("plus", "minus", "ok", "plus-long", "minus-long", "ok-long")


class Controls:
    def __init__(self, recognizer, match, events, signals, faces, presets, write, new_game, to_port):
        """new_game(control, now): a game with the menu's preset; write(line): a line to
        the host; to_port(name): a button for a DGT program on the line (its clock's)."""
        self.recognizer = recognizer
        self.match = match
        self.events = events
        self.signals = signals
        self.faces = faces
        self.presets = presets
        self.write = write
        self.new_game = new_game
        self.menu = None  # a ClockMenu while it is open
        self.battery = "--"  # the battery's level as the menu shows it ("87%", "USB")
        self.to_port = to_port
        self._lever_down = [None, None]  # a lever down on its own turn with no move: its tick

    def press(self, side, t):
        """A clock lever going down, at the tick its interrupt took (art. 6.2.1: the press
        completes the move): first the recogniser (which may recognise the move now), then
        the clock. On his own turn with no move made, the lever may be a hold - a blind
        player asking for his time (appendix D) - so it is judged only when it comes up
        before it is one (release): then it is a press without a move (7.5.3), at this
        tick. A hold after a move: its going down completed the move, and the hold asks."""
        self.recognizer.press(side, t)
        if self.match.press_is_without_move(side):
            self._lever_down[side >> 4] = t
            return
        self._press(side, t)

    def release(self, side, t):
        """A lever came up before it was held: a press without a move is judged now."""
        i = side >> 4
        down = self._lever_down[i]
        if down is None:
            return
        self._lever_down[i] = None
        if self.match.press_is_without_move(side):
            self._press(side, down)

    def _press(self, side, t):
        if self.match.press(side, t):
            self.events.completed_by_press(side, t)  # answered at once: the clk line goes out
        self.events.settle(t)
        self.events.clock_line(t)
        self.faces.dirty = True  # the display and LEDs follow at the next clock step

    def button(self, name, down, t):
        """A button: a held lever asks for a number (signals), then the promotion choice
        while a pawn waits on the last rank, else the clock's menu."""
        if not down:
            return
        if name in ("white-long", "black-long"):
            side = WHITE if name == "white-long" else BLACK
            self._lever_down[side >> 4] = None  # a hold: a question, not a press
            self.write("ask %s %s" % (letter(side), self.signals.ask(side, t, self.match.clock, self.match.game)))
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
            menu = ClockMenu(self.presets)
            menu.battery = self.battery
        try:
            todo = menu.button(name, self.match.clock, t)
        except ClockError as e:
            self.write("err not-now " + P.encode(str(e)))
            todo = None
        self.menu = menu if menu.open else None
        if todo is not None:
            self.new_game(self.presets.get(todo[1]), t)
        self.faces.dirty = True

    def show_battery(self, level):
        self.battery = level
        if self.menu is not None:
            self.menu.battery = level
