# Who gets which signals, kept on the device's flash (written to a new file and renamed):
#   blind     sides whose motor plays the signals ("w", "b")
#   visual    sides whose LED flashes them (deaf players)
#   buzzer    the buzzer sounds them too: off by default (C.02: an alarm must have an off switch)
#   code      the number code: "tactileclock" or "taptic"
#   intensity normal and strong pulses, in % of the motor's rated voltage (firmware/hal/motorduty.py:
#             never more; 80 % is 2.4 V, over the 2.3 V a coin motor needs to start)
#   thresholds seconds left at which the time-threshold signals come (up to four)
#   speech    the board's own voice (the optional audio module): "en", "it", "fide" (the
#             appendix D.2.1 style: Anna, Bella, ..., eins, zwei, ...), or "" (off):
#             the time and moves a player asks for, every move, a flag (firmware/access/voice.py)
#   volume    its loudness, 0..30, or one for each player: White's,Black's ("20,25")
#   ears      on: each player's answers go only into his own ear (a headphone socket per
#             player on the DFPlayer's stereo output: White's left, Black's right); moves
#             and a flag into both
from firmware import jsonfile
from firmware.access.numbercode import CODES

DEFAULTS = {"blind": "", "visual": "", "buzzer": False, "code": "tactileclock",
            "intensity": [80, 100], "thresholds": [600, 300, 60, 10], "speech": "", "volume": [20, 20], "ears": False}
SPEECH = ("en", "it", "fide")  # firmware/access/phrases.py: LANGUAGES


class AccessSettings:
    def __init__(self, path="access.json"):
        self.path = path
        self.values = dict(DEFAULTS)
        self.problem = None
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
        """Check every value, then change them all (a bad one changes nothing)."""
        v = dict(self.values)
        for k, x in new.items():
            if k in ("blind", "visual"):
                x = "" if x in ("-", "") else x
                if any(c not in "wb" for c in x):
                    raise ValueError("%s is a list of sides: w, b, wb or -" % k)
            elif k == "buzzer":
                if x not in (True, False, "on", "off"):
                    raise ValueError("buzzer is on or off")
                x = x in (True, "on")
            elif k == "code":
                if x not in CODES:
                    raise ValueError("code is tactileclock or taptic")
            elif k == "intensity":
                x = [int(i) for i in (x.split(",") if isinstance(x, str) else x)]
                if len(x) != 2 or not all(10 <= i <= 100 for i in x):
                    raise ValueError("intensity is two duties in %, 10..100: normal,strong")
            elif k == "thresholds":
                x = [int(i) for i in (x.split(",") if isinstance(x, str) else x) if str(i)]
                if len(x) > 4 or not all(1 <= i <= 36000 for i in x):
                    raise ValueError("thresholds are up to four times in seconds")
                x = sorted(x, reverse=True)
            elif k == "speech":
                x = "" if x in ("off", "") else x
                if x and x not in SPEECH:
                    raise ValueError("speech is en, it, fide or off")
            elif k == "volume":
                x = [x] if isinstance(x, int) else (x.split(",") if isinstance(x, str) else list(x))
                if not 1 <= len(x) <= 2 or not all((isinstance(i, int) or str(i).isdigit()) and 0 <= int(i) <= 30
                                                   for i in x):
                    raise ValueError("volume is 0..30, or White's,Black's")
                x = [int(x[0]), int(x[-1])]
            elif k == "ears":
                if x not in (True, False, "on", "off"):
                    raise ValueError("ears is on or off")
                x = x in (True, "on")
            else:
                raise ValueError("unknown access setting " + k)
            v[k] = x
        self.values = v
        if save:
            jsonfile.save(self.path, v)
