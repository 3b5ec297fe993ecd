# Time control presets: fixed ones (the FIDE standard control, common rapid and blitz, one
# of each timing method) and user slots kept on the device's flash.
#
# The user slots live in a small JSON file, written to a new file and renamed over the old
# one (littlefs renames atomically), so a power cut leaves the old or the new slots, never
# half of each. A missing or damaged file gives empty slots and a `problem` to report; it
# never stops the clock.
from firmware import jsonfile
from firmware.clock.timecontrol import parse

FIXED = (
    ("FIDE standard 90/40+30", "40/5400+30:1800+30"),
    ("Standard 90+30", "5400+30"),
    ("Classical 2h/40+30min", "40/7200:1800"),
    ("Rapid 25+10", "1500+10"),
    ("Rapid 15+10", "900+10"),
    ("Rapid 10+5", "600+5"),
    ("Blitz 5+3", "300+3"),
    ("Blitz 3+2", "180+2"),
    ("Blitz 5", "300"),
    ("Bullet 1+1", "60+1"),
    ("US delay 5+3", "300d3"),
    ("Bronstein 5+3", "300b3"),
    ("Hourglass 3", "*180"),
    ("Byo-yomi 60+5x30s", "3600y5x30"),
    ("Canadian 60+25/10", "3600c25/600"),
    ("Upcount", "up"),
)
USER_SLOTS = 5
_NAME_MAX = 24


class PresetError(ValueError):
    pass


class Presets:
    def __init__(self, path="presets.json"):
        self.path = path
        self.user = [None] * USER_SLOTS  # (name, control) or None
        self.problem = None
        self._load()

    def _load(self):
        try:
            data = jsonfile.load(self.path)
        except ValueError as e:
            self.problem = "presets file unreadable (%s); user slots empty" % e
            return
        if data is None:
            return  # no file yet: empty slots
        try:
            for i, slot in enumerate(data["user"][:USER_SLOTS]):
                if slot is not None:
                    name, control = slot
                    parse(control)
                    self.user[i] = (str(name)[:_NAME_MAX], control)
        except (KeyError, TypeError, ValueError) as e:
            self.user = [None] * USER_SLOTS
            self.problem = "presets file damaged (%r); user slots empty" % (e,)

    def all(self):
        """Every preset as (number, name, control): fixed ones 1..16, then user slots."""
        out = [(i + 1, n, c) for i, (n, c) in enumerate(FIXED)]
        for i, slot in enumerate(self.user):
            if slot:
                out.append((len(FIXED) + i + 1, slot[0], slot[1]))
        return out

    def get(self, number):
        """The control string of preset `number` (1-based, as the menu shows it)."""
        if not isinstance(number, int) or number < 1:
            raise PresetError("no preset %r" % (number,))
        if number <= len(FIXED):
            return FIXED[number - 1][1]
        slot = number - len(FIXED) - 1
        if slot < USER_SLOTS and self.user[slot]:
            return self.user[slot][1]
        raise PresetError("no preset %d" % number)

    def set_user(self, slot, name, control):
        """Store a control in user slot 1..5 (checked first: a bad one changes nothing)."""
        if not isinstance(slot, int) or not 1 <= slot <= USER_SLOTS:
            raise PresetError("user slots are 1..%d, got %r" % (USER_SLOTS, slot))
        parse(control)
        old = self.user[slot - 1]
        self.user[slot - 1] = (str(name)[:_NAME_MAX], control)
        try:
            self._save()
        except OSError:
            self.user[slot - 1] = old
            raise

    def clear_user(self, slot):
        if not isinstance(slot, int) or not 1 <= slot <= USER_SLOTS:
            raise PresetError("user slots are 1..%d, got %r" % (USER_SLOTS, slot))
        self.user[slot - 1] = None
        self._save()

    def _save(self):
        jsonfile.save(self.path, {"user": [list(s) if s else None for s in self.user]})
