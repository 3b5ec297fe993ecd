# The clock's access menu and practice, for a blind player on his own: no computer, no
# sighted helper. Opened by holding the menu button while no clock runs (before the start,
# or after a game's end: firmware/clock/menu.py), closed by a press of it (the settings
# kept on the flash). It speaks to one seat at a time - the seat that last touched its ask
# key, at first the blind seat (the left when none or both are; while none is, its opening
# is felt on both motors) - on that seat's motor and into its earphone:
#   entering an item  the menu's rhythm (patterns.MENU), the item's number and its value,
#                     as numbers in the clock's own code, a group's pause between them;
#                     the voice, when fitted, says the item's name and its value
#   plus / minus      the value changes (held: ten steps), felt and said at once
#   ok                the next item (after the last, the first again)
#   his ask key       the menu is his seat's (in the quiz: his answer)
# Items, numbered from 1 (values as numbers: 0 off, 1 on; speech 0 off, 1 English, 2
# Italian, 3 German in the D.2.1 style; code 1 TactileClock, 2 Taptic):
#   1 blind  2 deaf  3 ears  4 volume (his seat's)  5 speech  6 code  7 normal and 8 strong
#   pulse (per cent)  9-12 the time signals (seconds left; 0 none)  13 the signals: plus
#   and minus step through the events, each played after its number and named  14 numbers:
#   any number, played  15 his own time, played at each plus or minus  16 the quiz: plus
#   plays a random event; plus and minus choose the number he thinks it is (each named),
#   his ask key answers: right or wrong, then its number and name.
# Every change is made at once (the signals and the voice follow it) and saved at closing.
# The practice opens by itself too, with no menu to find: a player's ask key and his draw
# key - both on his own half - touched together while no clock runs (firmware/app/
# controls.py) open it at item 13, for his seat.
from firmware.access import numbercode
from firmware.access import patterns as P
from firmware.access import phrases
from firmware.access.numbercode import GROUP_MS
from firmware.access.seats import LEFT, RIGHT, channel, seat_of, side_at
from firmware.access.settings import SPEECH

# The voice's words of the menu and the practice, tracks after phrases.WORDS (the card:
# host_tools/audiocard.py), then "event_" and each event's name.
MENU_WORDS = ("menu", "blind", "deaf", "ears", "volume", "speech", "code", "normal", "strong",
              "threshold", "patterns", "numbers", "your_time", "quiz", "on", "off", "lang_en", "lang_it",
              "lang_fide", "tactileclock", "taptic", "left", "right", "seat", "closed", "right_answer",
              "wrong_answer")
_FIRST = phrases.NUMBERS + len(phrases.WORDS) + 1


def track(word):
    """The track of a menu word, or of "event_" and an event's name."""
    if word[:6] == "event_":
        name = word[6:]
        for i in range(len(P.EVENTS)):
            if P.EVENTS[i][0] == name:
                return _FIRST + len(MENU_WORDS) + i
        raise ValueError(word)
    return _FIRST + MENU_WORDS.index(word)


def words():
    """Every word of the menu and the practice, in track order."""
    return MENU_WORDS + tuple("event_" + name for name, _ in P.EVENTS)


ITEMS = ("blind", "deaf", "ears", "volume", "speech", "code", "normal", "strong",
         "threshold", "threshold", "threshold", "threshold", "patterns", "numbers", "your_time", "quiz")
_LABELS = ("BLIND", "DEAF", "EARS", "VOLUME", "SPEECH", "CODE", "NORMAL", "STRONG",
           "TIME 1", "TIME 2", "TIME 3", "TIME 4", "SIGNALS", "NUMBERS", "MY TIME", "QUIZ")
_SEAT_KEY = {"blind": "blind", "deaf": "visual", "ears": "ears"}
_LANGS = ("",) + SPEECH
_CODES = ("tactileclock", "taptic")
_QUIZ = len(P.EVENTS) - 3  # the quiz asks the game's events (not the menu's nor its answers)
LONG = 10


def join(*parts):
    """Pulse lists played as one signal, a group's pause between them."""
    out = []
    for part in parts:
        if out:
            on, _, level = out[-1]
            out[-1] = (on, GROUP_MS, level)
        out.extend(part)
    return out


class AccessMenu:
    def __init__(self, access, signals, applied=None):
        """access: AccessSettings; signals: Signals (its motors, its voice); applied(): the
        settings changed (the device applies what changes the board)."""
        self.access = access
        self.signals = signals
        self.applied = applied
        self.item = 0
        self.seat = LEFT
        self.number = 0  # the numbers item's number
        self.event = 0  # the signals item's event (an index of EVENTS)
        self.quiz = None  # the event the quiz played (an index), while it waits for an answer
        self.guess = 0
        self._clock = None
        self._seed = 1
        self._closed_at = None  # a hold's "long" comes after the press that closed it: no reopening

    # ----- opening and closing

    def open(self, clock, now):
        """Opened (False: it was closed a moment ago by the press of this same hold)."""
        if self._closed_at is not None and self.signals.hal.diff(now, self._closed_at) < 1500:
            return False
        self._clock = clock
        self._seed = (now & 0xFFFF) | 1
        blind = self.access["blind"]
        self.seat = RIGHT if blind == RIGHT else LEFT
        self.item = 0
        self.quiz = None
        # With no blind seat yet, the opening is felt on both motors: whichever seat is his,
        # the player knows the menu is open, and touches his ask key to have it.
        self._show(now, both=not blind)
        return True

    def practice(self, clock, side, now):
        """Opened at the practice of the signals (item 13) for side's seat: his ask key and
        his draw key touched together, no clock running."""
        self._clock = clock
        self._seed = (now & 0xFFFF) | 1
        self.seat = seat_of(self.access, side)
        self.item = ITEMS.index("patterns")
        self.quiz = None
        self._show(now)
        return True

    def close(self, now):
        """Closed by its menu button: the rhythm felt, the settings written to the flash;
        the seat's motor is its settings' again once the rhythm has played."""
        if self.signals.menu_sides:
            self._play(P.MENU, now)
            self._say(["closed"])
        self.quiz = None
        self._closed_at = now
        self.access.save()
        self.signals.release_menu()

    # ----- the buttons

    def button(self, base, held, now):
        if base == "ok" and not held:
            self.item = (self.item + 1) % len(ITEMS)
            self.quiz = None
            self._show(now)
        elif base in ("plus", "minus"):
            self._change((LONG if held else 1) * (1 if base == "plus" else -1), now)

    def ask(self, side, now):
        """A touch of side's ask key: in the quiz his answer, else the menu is his seat's."""
        seat = LEFT if side_at(self.access, LEFT) == side else RIGHT
        if self.quiz is not None and seat == self.seat:
            right = self.guess == self.quiz + 1
            name = P.EVENTS[self.quiz][0]
            self._play(join(P.RIGHT if right else P.WRONG, self._number(self.quiz + 1)), now)
            self._say(["right_answer" if right else "wrong_answer", "event_" + name])
            self.quiz = None
            return
        self.seat = seat
        self._say(["seat"])
        self._show(now)

    # ----- what an item holds

    def value(self, i=None):
        """The item's value as a number."""
        i = self.item if i is None else i
        name, a = ITEMS[i], self.access
        if name in _SEAT_KEY:
            return 1 if self.seat in a[_SEAT_KEY[name]] else 0
        if name == "volume":
            return a["volume"][0 if self.seat == LEFT else 1]
        if name == "speech":
            return _LANGS.index(a["speech"])
        if name == "code":
            return _CODES.index(a["code"]) + 1
        if name in ("normal", "strong"):
            return a["intensity"][0 if name == "normal" else 1]
        if name == "threshold":
            k = i - ITEMS.index("threshold")
            th = a["thresholds"]
            return th[k] if k < len(th) else 0
        if name == "patterns":
            return self.event + 1
        if name == "numbers":
            return self.number
        return 0

    def _change(self, d, now):
        name, a = ITEMS[self.item], self.access
        v = self.value()
        new = {}
        if name in _SEAT_KEY:
            key = _SEAT_KEY[name]
            seats = a[key].replace(self.seat, "") if v else a[key] + self.seat
            new[key] = "lr" if len(seats) == 2 else seats or "-"
        elif name == "volume":
            vol = list(a["volume"])
            vol[0 if self.seat == LEFT else 1] = _clamp(v + d, 0, 30)
            new["volume"] = vol
        elif name == "speech":
            new["speech"] = _LANGS[(v + (1 if d > 0 else -1)) % len(_LANGS)] or "off"
        elif name == "code":
            new["code"] = _CODES[v % 2]
        elif name in ("normal", "strong"):
            inten = list(a["intensity"])
            inten[0 if name == "normal" else 1] = _clamp(v + 10 * d, 10, 100)
            new["intensity"] = inten
        elif name == "threshold":
            k = self.item - ITEMS.index("threshold")
            th = list(a["thresholds"])
            while len(th) <= k:
                th.append(0)
            th[k] = _clamp(v + 10 * d, 0, 36000)
            new["thresholds"] = [t for t in th if t]
        elif name == "patterns":
            self.event = (self.event + (1 if d > 0 else -1)) % len(P.EVENTS)
            ev_name, pattern = P.EVENTS[self.event]
            self._play(join(self._number(self.event + 1), pattern), now)
            self._say(["event_" + ev_name])
            return
        elif name == "numbers":
            self.number = _clamp(self.number + d, 0, 9999)
            self._play(self._number(self.number), now)
            self._say(phrases.number(self.number, []) if self.number < 1000 else [])
            return
        elif name == "your_time":
            side = side_at(self.access, self.seat)
            ms = self._clock.time_left(side, now) if self._clock is not None else 0
            self._play(numbercode.time_code(ms, self.access["code"]), now)
            self._say(phrases.duration(ms // 1000, []))
            return
        elif name == "quiz":
            if self.quiz is None:
                self._seed = (self._seed * 1103515245 + 12345) & 0x3FFFFFFF
                self.quiz = (self._seed >> 8) % _QUIZ
                self.guess = 0
                self._play(P.EVENTS[self.quiz][1], now)
            else:
                self.guess = (self.guess + (1 if d > 0 else -1) - 1) % _QUIZ + 1
                self._play(self._number(self.guess), now)
                self._say(["event_" + P.EVENTS[self.guess - 1][0]])
            return
        self.access.update(new, save=False)
        if self.applied is not None:
            self.applied()
        self._play(self._number(self.value()), now)
        self._say(self._value_words())

    # ----- felt and said

    def _show(self, now, both=False):
        """The item as it is entered: the menu's rhythm, its number, its value."""
        i = self.item
        parts = [P.MENU, self._number(i + 1)]
        if ITEMS[i] not in ("patterns", "your_time", "quiz"):
            parts.append(self._number(self.value()))
        self._play(join(*parts), now, both)
        words = [ITEMS[i]]
        if ITEMS[i] == "threshold":
            words += phrases.number(i - ITEMS.index("threshold") + 1, [])
        self._say(words + self._value_words())

    def _value_words(self):
        name, v = ITEMS[self.item], self.value()
        if name in _SEAT_KEY:
            return ["on" if v else "off"]
        if name == "speech":
            return ["lang_" + _LANGS[v]] if v else ["off"]
        if name == "code":
            return [_CODES[v - 1]]
        if name == "threshold":
            return phrases.duration(v, []) if v else ["off"]
        if name in ("volume", "normal", "strong"):
            return phrases.number(v, [])
        if name == "numbers":
            return phrases.number(v, []) if v < 1000 else []
        return []

    def _number(self, n):
        """A number's pulses in the clock's own code."""
        return numbercode.encode(numbercode.number_groups(n), self.access["code"])

    def _play(self, pulses, now, both=False):
        """Pulses on the menu's seat's motor (both: on both seats') after the pause: what
        played or waited there goes (the player stepped on); a motor the menu leaves is
        stopped first, never left on."""
        signals = self.signals
        sides = (side_at(self.access, LEFT), side_at(self.access, RIGHT)) if both else \
            (side_at(self.access, self.seat),)
        for s in signals.menu_sides:
            signals.players[s].clear(now)
        signals.menu_sides = sides
        signals._releasing = False
        for s in sides:
            p = signals.players[s]
            p.clear(now)
            p.event(pulses, now)

    def _say(self, words):
        """Said into the menu's seat's ear (the board's voice, when fitted and set)."""
        v = self.signals.voice()
        if not words or v is None:
            return
        v.silence()
        v.say([w if isinstance(w, int) else track(w) for w in words], channel(self.access, side_at(self.access, self.seat)))

    def text(self):
        """The two faces while it is open (for a sighted helper): the item and its value."""
        name = ITEMS[self.item]
        v = self.value()
        if name in _SEAT_KEY:
            shown = ("ON " if v else "OFF ") + ("L" if self.seat == LEFT else "R")
        elif name == "speech":
            shown = (_LANGS[v] or "off").upper()
        elif name == "code":
            shown = "TACTILE" if v == 1 else "TAPTIC"
        elif name == "quiz":
            shown = "?" if self.quiz is not None else "PLUS"
        else:
            shown = "%d" % v
        return _LABELS[self.item], shown


def _clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v
