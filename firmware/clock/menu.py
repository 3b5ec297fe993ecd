# The clock's menu on its four buttons (menu, ok, plus, minus), for the arbiter and the
# players, without a host.
#
#   menu           while a clock runs: pause and open the arbiter's corrections
#                  before the start: open the presets
#                  in the menu: close it, changing nothing
#   menu, held     in pause: resume (its press, which comes first, opened the menu:
#                  the hold closes it)
#   plus / minus   change the field shown (held: ten steps more)
#   ok             the next field; after the last one: apply everything and close
#   menu, held     with no clock running (before the start, after a game's end): the
#                  access menu, for a blind or deaf player on his own
#                  (firmware/access/menu.py: its items felt and said; menu closes it)
#
# Arbiter fields, in order: White's minutes, White's seconds, Black's minutes, Black's
# seconds, White's moves, Black's moves, White's period, Black's period, then the battery
# (shown only: C.02 asks for its level), then UPDATE (NO; plus or minus: YES, and the last
# ok restarts the clock into its USB bootloader for a new UF2: `update`, docs/maker.md). White's face names the field ("W MIN"), Black's
# shows its value (a time as h:mm:ss). Every text fits the faces' eight characters
# (firmware/hal/face.py); a preset shows as "P4 RAPID" and "25+10". Setting 1:23:45 and
# 0:59:10, 35 and 34 moves takes about 40 presses: well under the minute C.02 allows.
# Every change is applied as the clock's own corrections (set_time, set_moves,
# set_period), so it is logged and streamed to the host like a host's correction.
from firmware.clock.presets import FIXED
from firmware.rules.squares import WHITE, BLACK

_FIELDS = ("wm", "ws", "bm", "bs", "wmov", "bmov", "wper", "bper", "bat", "upd")
_LABEL = {"wm": "W MIN", "ws": "W SEC", "bm": "B MIN", "bs": "B SEC", "wmov": "W MOVES",
          "bmov": "B MOVES", "wper": "W PERIOD", "bper": "B PERIOD", "bat": "BATTERY",
          "upd": "UPDATE"}
FACE_CHARS = 8
LONG = 10  # a held button moves ten steps


class ClockMenu:
    def __init__(self, presets=None, access=None):
        """access() -> the access menu (firmware/access/menu.py), if the board has one."""
        self.presets = presets
        self.access = access
        self.mode = None  # None (closed), "arbiter", "presets", "access"
        self.field = 0
        self.values = {}
        self.preset = 1
        self._opened_in_pause = False  # the arbiter's menu was opened on a paused clock
        self.battery = "--"  # the battery's level as the faces show it ("87%", "USB")

    @property
    def open(self):
        return self.mode is not None

    def button(self, name, clock, now):
        """Handle a button (name, or name + "-long" for a held one). Returns what the
        device must do: None, ("preset", n) to start a new game with preset n,
        ("bootloader",) to restart into the USB bootloader (the game kept on flash)."""
        held = name.endswith("-long")
        base = name[:-5] if held else name
        if self.mode is None:
            if base == "menu" and not held:
                if clock.started and not clock.stopped:
                    self._opened_in_pause = clock.paused
                    if not clock.paused:
                        clock.pause(now)
                    self._open_arbiter(clock, now)
                elif not clock.started:
                    self.mode = "presets"
            elif base == "menu" and held and clock.paused and not clock.frozen:
                clock.resume(now)
            elif base == "menu" and held and (not clock.started or clock.stopped):
                self._open_access(clock, now)
            return None
        if base == "menu" and held and self.mode == "presets":
            self._open_access(clock, now)  # its press opened the presets: the hold means access
            return None
        if self.mode == "access":
            if base == "menu" and not held:
                self.mode = None
                self.access.close(now)
            else:
                self.access.button(base, held, now)
            return None
        if base == "menu" and not held:
            self.mode = None  # closed, nothing changed
            return None
        if base == "menu" and held and self.mode == "arbiter" and self._opened_in_pause:
            # A hold always comes after its press, which opened the menu on the paused
            # clock: the hold means resume. (From a running clock it stays a pause.)
            self.mode = None
            if not clock.frozen:
                clock.resume(now)
            return None
        step = LONG if held else 1
        if base in ("plus", "minus"):
            d = step if base == "plus" else -step
            if self.mode == "presets":
                n = len(self.presets.all()) if self.presets else len(FIXED)
                self.preset = (self.preset - 1 + d) % n + 1
            else:
                self._change(clock, d)
            return None
        if base == "ok" and not held:
            if self.mode == "presets":
                self.mode = None
                return ("preset", self._preset_number())
            self.field += 1
            if self.field >= len(_FIELDS):
                self._apply(clock)
                self.mode = None
                if self.values["upd"]:
                    return ("bootloader",)
        return None

    def _open_access(self, clock, now):
        if self.access is not None and not callable(getattr(self.access, "open", None)):
            self.access = self.access()  # built at its first opening
        if self.access is not None and self.access.open(clock, now):
            self.mode = "access"

    def practice(self, clock, side, now):
        """The access menu opened at its practice for side's seat (his ask and draw keys
        together, no clock running: firmware/app/controls.py); whether it opened."""
        if clock.started and not clock.stopped:
            return False
        if self.access is not None and not callable(getattr(self.access, "open", None)):
            self.access = self.access()
        if self.access is not None and self.access.practice(clock, side, now):
            self.mode = "access"
        return self.open

    def ask(self, side, now):
        """An ask key's touch while the menu is open: the access menu's (True), else not the
        menu's (False: a question, as ever)."""
        if self.mode != "access":
            return False
        self.access.ask(side, now)
        return True

    def _preset_number(self):
        if self.presets:
            return self.presets.all()[self.preset - 1][0]
        return self.preset

    def _open_arbiter(self, clock, now):
        self.mode = "arbiter"
        self.field = 0
        w = clock.time_left(WHITE, now) // 1000
        b = clock.time_left(BLACK, now) // 1000
        self.values = {"wm": w // 60, "ws": w % 60, "bm": b // 60, "bs": b % 60,
                       "wmov": clock.moves[0], "bmov": clock.moves[1],
                       "wper": clock.period[0], "bper": clock.period[1], "upd": 0}
        self._start = dict(self.values)

    def _change(self, clock, d):
        f = _FIELDS[self.field]
        if f == "bat":
            return  # shown, not set
        if f == "upd":
            self.values[f] = 0 if self.values[f] else 1  # plus or minus: NO <-> YES
            return
        v = self.values[f] + d
        top = {"wm": 5999, "bm": 5999, "ws": 59, "bs": 59, "wmov": 999, "bmov": 999,
               "wper": len(clock.control.periods) - 1, "bper": len(clock.control.periods) - 1}[f]
        self.values[f] = 0 if v < 0 else top if v > top else v

    def _apply(self, clock):
        v, s = self.values, self._start
        if (v["wm"], v["ws"]) != (s["wm"], s["ws"]):
            clock.set_time(WHITE, (v["wm"] * 60 + v["ws"]) * 1000)
        if (v["bm"], v["bs"]) != (s["bm"], s["bs"]):
            clock.set_time(BLACK, (v["bm"] * 60 + v["bs"]) * 1000)
        if v["wmov"] != s["wmov"]:
            clock.set_moves(WHITE, v["wmov"])
        if v["bmov"] != s["bmov"]:
            clock.set_moves(BLACK, v["bmov"])
        if v["wper"] != s["wper"]:
            clock.set_period(WHITE, v["wper"])
        if v["bper"] != s["bper"]:
            clock.set_period(BLACK, v["bper"])

    def text(self):
        """What the two faces show while the menu is open."""
        if self.mode == "access":
            return self.access.text()
        if self.mode == "presets":
            if self.presets:
                n, name, control = self.presets.all()[self.preset - 1]
            else:
                n, (name, control) = self.preset, FIXED[self.preset - 1]
            head = "P%d " % n
            word = name.split(" ")[0].upper() if name else ""
            return head + word[:FACE_CHARS - len(head)], control_label(control)
        f = _FIELDS[self.field]
        if f == "bat":
            return _LABEL[f], self.battery
        if f == "upd":
            return _LABEL[f], "YES" if self.values[f] else "NO"
        if f[1:] in ("m", "s"):
            m, sec = self.values[f[0] + "m"], self.values[f[0] + "s"]
            shown = "%d:%02d:%02d" % (m // 60, m % 60, sec) if m >= 60 else "%d:%02d" % (m, sec)
        else:
            shown = "%d" % self.values[f]
        return _LABEL[f], shown


def _minutes(secs):
    """Seconds as the faces show a control's times: whole minutes, else seconds ("90S")."""
    return "%d" % (secs // 60) if secs % 60 == 0 else "%dS" % secs


def control_label(control):
    """A time control (firmware/clock/timecontrol.py) in the faces' eight characters, its
    first period: "40/90+30" (moves/minutes+increment), "25+10", "5 D3" (US delay), "5 B3"
    (Bronstein), "60 5X30" (byo-yomi), "60 25/10" (Canadian), "GLASS 3", "UP"."""
    c = control.split(":")[0]
    if c in ("up", "-"):
        return "UP"
    if c[:1] == "*":
        return "GLASS " + _minutes(int(c[1:]))
    moves = ""
    if "/" in c.split("c")[0]:
        moves, c = c.split("/", 1)
        moves += "/"
    for mark, sep in (("+", "+"), ("d", " D"), ("b", " B"), ("y", " "), ("c", " ")):
        if mark in c:
            base, extra = c.split(mark, 1)
            if mark == "c":
                n, secs = extra.split("/")
                extra = "%s/%s" % (n, _minutes(int(secs)))
            elif mark == "y":
                n, secs = extra.split("x")
                extra = "%sX%s" % (n, secs)
            return moves + _minutes(int(base)) + sep + extra
    return moves + _minutes(int(c))
