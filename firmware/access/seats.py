# The two seats at the clock: its LEFT half - the one the hardware names White's
# (firmware/hal/pinmap.py: MOTOR_WHITE, LED_WHITE, the face at 0x70 with "ask-white" and
# "draw-white", CLOCK_WHITE; the speaker's half, the module's left channel) - and its RIGHT
# half, with the four menu buttons on its back wall. A player keeps his seat from game to
# game, as a blind player keeps his side of a talking clock; his colour changes. Which
# colour sits where this game is the access setting `white` (left or right):
#   - the host sets it (`access white=right`: the relay from the round file's seat), or
#     the menu does;
#   - or the clock learns it at the start, as a talking clock does: before the first move
#     the player who presses his lever to start the clock is Black (6.5: White's clock is
#     started), so the seat he pressed at is Black's. It learns this only while some seat
#     has a setting of its own (blind, visual, ears), and never on one of two boards
#     paired for a game (its colours come from the host).
# SeatedHal (firmware/hal/seated.py) turns the hardware's halves into colours for the rest
# of the firmware, which speaks of White and Black only: a lever, an ask key and a draw key of a half are the
# colour's that sits there, and the faces, the running-side lights, the signal lights and
# the motors of a colour are those of its seat.
from firmware.rules.squares import WHITE, BLACK

LEFT = "l"
RIGHT = "r"


def seat_of(access, side):
    """The seat ("l" or "r") where side sits this game."""
    return LEFT if (side == WHITE) == (access["white"] == "left") else RIGHT


def side_at(access, seat):
    """The colour that sits at seat this game."""
    return WHITE if (seat == LEFT) == (access["white"] == "left") else BLACK


def channel(access, side):
    """The earphone channel of side's seat, as the voice names them ("w" the left: the
    hardware's first, "b" the right)."""
    return "w" if seat_of(access, side) == LEFT else "b"


_KEYS = {"ask-white": "ask-black", "ask-black": "ask-white", "draw-white": "draw-black",
         "draw-black": "draw-white"}


class SeatedHal:
    """The HAL as the firmware sees it: sides by colour, whichever seat each colour has.
    Everything not about a side passes through unchanged: the HAL still merges the scans
    and inputs (its feed), and hands each lever and key through this, turned to its colour.
    A self-test reads the inputs as the hardware names them."""

    def __init__(self, hal, access, starting, changed):
        """access: the access settings (their "white", seat_white()); starting() -> whether
        a press now starts the game; changed(): the seats changed (the board applies them)."""
        self._hal = hal
        self.hardware = hal  # the halves as wired: the maker's self-test names them so
        self.access = access
        self.starting = starting
        self.changed = changed
        self._to = None
        for name in ("now", "diff", "read", "write", "buzzer", "squares", "power", "feed_watchdog", "feed"):
            f = getattr(hal, name, None)
            if f is not None:
                setattr(self, name, f)

    def __getattr__(self, name):
        return getattr(self._hal, name)

    def connect(self, board, press, button):
        """As the HAL's (firmware/hal/base.py), each lever and key turned to its colour."""
        self._to = (press, button)
        self._hal.connect(board, self._press, self._button)

    @property
    def swapped(self):
        return self.access["white"] != "left"

    def _side(self, side):
        return (BLACK if side == WHITE else WHITE) if self.swapped else side

    def _press(self, half, t):
        self._learn(half)
        self._to[0](self._side(half), t)

    def _button(self, name, down, t):
        if self.swapped and name in _KEYS:
            name = _KEYS[name]
        self._to[1](name, down, t)

    def _learn(self, half):
        """A lever pressed at half (the hardware's side): before the first move, with no
        clock running, its seat is Black's (he starts White's clock)."""
        a = self.access
        if not (a["blind"] or a["visual"] or a["ears"]) or not self.starting():
            return
        white = "right" if half == WHITE else "left"  # the pressing seat is Black's
        if a["white"] != white:
            a.seat_white(white)
            self.changed()

    def display(self, white, black):
        if self.swapped:
            self._hal.display(black, white)
        else:
            self._hal.display(white, black)

    def led(self, name, on):
        if self.swapped and name in ("white", "black"):
            name = "black" if name == "white" else "white"
        self._hal.led(name, on)

    def signal(self, side, on):
        self._hal.signal(self._side(side), on)

    def motor(self, side, duty_percent):
        self._hal.motor(self._side(side), duty_percent)
