# Who gets which signals, kept on the device's flash (written to a new file and renamed).
# The settings of a player belong to his SEAT - the left or the right half of the clock,
# with its motor, light, ask key and earphone socket (firmware/access/seats.py) - and follow
# him whatever colour he has; a colour (w, b) names the seat where that colour sits now.
#   blind     seats whose motor plays the signals: "l", "r", "lr" or ""
#   visual    seats whose light flashes them (deaf players)
#   ears      seats whose answers go only into their own earphone (the DFPlayer's stereo
#             output: the left seat's the left channel); moves and a flag into both
#   volume    the voice's loudness, 0..30, the left seat's and the right's
#   white     where White sits this game: "left" or "right" (firmware/access/seats.py says
#             how the clock learns it)
#   buzzer    the buzzer sounds the signals too: off by default (C.02: an alarm must have an off switch)
#   code      the number code: "tactileclock" or "taptic"
#   intensity normal and strong pulses, in % of the motor's rated voltage (firmware/hal/motorduty.py:
#             never more; 80 % is 2.4 V, over the 2.3 V a coin motor needs to start)
#   thresholds seconds left at which the time-threshold signals come (up to four)
#   speech    the board's own voice (the optional audio module): "en", "it", "fide" (the
#             appendix D.2.1 style: Anna, Bella, ..., eins, zwei, ...), or "" (off):
#             the time and moves a player asks for, every move, a flag (firmware/access/voice.py)
from firmware import jsonfile
from firmware.access.numbercode import CODES

DEFAULTS = {"blind": "", "visual": "", "buzzer": False, "code": "tactileclock",
            "intensity": [80, 100], "thresholds": [600, 300, 60, 10], "speech": "", "volume": [20, 20],
            "ears": "", "white": "left"}
SPEECH = ("en", "it", "fide")  # firmware/access/phrases.py: LANGUAGES
SEATS = ("blind", "visual", "ears")
# A seat list as words (the `access` answer, the host's helper) and the words it takes.
SEAT_WORDS = {"": "-", "l": "left", "r": "right", "lr": "both"}
_SEAT = {"-": "", "": "", "off": "", "none": "", "l": "l", "left": "l", "r": "r", "right": "r",
         "lr": "lr", "rl": "lr", "both": "lr"}
_COLOUR = {"w": "w", "white": "w", "b": "b", "black": "b", "wb": "wb", "bw": "wb"}


class AccessSettings:
    def __init__(self, path="access.json"):
        self.path = path
        self.values = dict(DEFAULTS)
        self.problem = None
        self.unsaved = False  # a change to be written when no clock runs (seats.py)
        try:
            saved = jsonfile.load(path)
            if saved is not None:
                self.update(saved, save=False)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            self.values = dict(DEFAULTS)
            self.problem = "access settings unreadable (%s): defaults" % e

    def __getitem__(self, k):
        return self.values[k]

    def update(self, new, save=True):
        """Check every value, then change them all (a bad one changes nothing); saved if
        anything changed."""
        v = dict(self.values)
        if "white" in new:  # first: a colour given with it names a seat by it
            x = new["white"]
            if x not in ("left", "right"):
                raise ValueError("white is left or right: the half of the clock where White sits")
            v["white"] = x
        for k, x in new.items():
            if k == "white":
                continue
            if k in SEATS:
                if isinstance(x, bool):  # ears=on/off, as saved before seats
                    x = "lr" if x else ""
                x = str(x).lower()
                if k == "ears" and x == "on":
                    x = "lr"
                if x in _COLOUR:
                    x = _seats(v["white"], _COLOUR[x])
                elif x in _SEAT:
                    x = _SEAT[x]
                else:
                    raise ValueError("%s is left, right, both or - (or a colour: w, b, wb)" % k)
            elif k == "buzzer":
                if x not in (True, False, "on", "off"):
                    raise ValueError("buzzer is on or off")
                x = x in (True, "on")
            elif k == "code":
                if x not in CODES:
                    raise ValueError("code is tactileclock or taptic")
            elif k == "intensity":
                x = _numbers(x, "intensity is two duties in per cent, 10 to 100: normal,strong")
                if len(x) != 2 or not all(10 <= i <= 100 for i in x):
                    raise ValueError("intensity is two duties in per cent, 10 to 100: normal,strong")
            elif k == "thresholds":
                x = _numbers(x, "thresholds are up to four times in seconds, 1 to 36000")
                if len(x) > 4 or not all(1 <= i <= 36000 for i in x):
                    raise ValueError("thresholds are up to four times in seconds, 1 to 36000")
                x = sorted(x, reverse=True)
            elif k == "speech":
                x = "" if x in ("off", "") else x
                if x and x not in SPEECH:
                    raise ValueError("speech is en, it, fide or off")
            elif k == "volume":
                x = [x] if isinstance(x, int) else x
                x = _numbers(x, "volume is 0 to 30, or the left seat's,the right seat's")
                if not 1 <= len(x) <= 2 or not all(0 <= i <= 30 for i in x):
                    raise ValueError("volume is 0 to 30, or the left seat's,the right seat's")
                x = [x[0], x[-1]]
            else:
                raise ValueError("there is no access setting called " + k)
            v[k] = x
        changed = v != self.values
        self.values = v
        if save and changed:  # the same again (the relay at each hello) writes no flash
            self.save()

    def describe(self):
        """The settings as the `access` answer gives them (docs/protocol.md)."""
        v = self.values
        w, b = v["volume"]
        return "blind=%s visual=%s buzzer=%s code=%s intensity=%s thresholds=%s speech=%s volume=%s ears=%s white=%s" % (
            SEAT_WORDS[v["blind"]], SEAT_WORDS[v["visual"]], "on" if v["buzzer"] else "off", v["code"],
            ",".join(str(i) for i in v["intensity"]), ",".join(str(i) for i in v["thresholds"]),
            v["speech"] or "off", w if w == b else "%d,%d" % (w, b), SEAT_WORDS[v["ears"]], v["white"])

    def save(self):
        jsonfile.save(self.path, self.values)
        self.unsaved = False

    def seat_white(self, where):
        """White sits at "left" or "right" this game (the clock learnt it at the start): kept
        in memory now, written when no clock runs (unsaved)."""
        if self.values["white"] != where:
            self.values["white"] = where
            self.unsaved = True


def _seats(white, colours):
    """The seats where colours ("w", "b", "wb") sit when White sits at white ("left", "right")."""
    w = "l" if white == "left" else "r"
    b = "r" if w == "l" else "l"
    out = (w if "w" in colours else "") + (b if "b" in colours else "")
    return "lr" if len(out) == 2 else out


def _numbers(x, why):
    """Whole numbers from "80,100" or a list; ValueError(why) for anything else."""
    items = x.split(",") if isinstance(x, str) else x
    out = []
    for i in items:
        if isinstance(i, bool):
            raise ValueError(why)
        if isinstance(i, int):
            out.append(i)
        elif isinstance(i, str) and i.isdigit():
            out.append(int(i))
        elif i != "":
            raise ValueError(why)
    return out
