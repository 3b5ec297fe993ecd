# The board's own settings (`config`), kept on flash (firmware/jsonfile.py): how long a
# position must be still to count (settle), automatic penalties for casual play, whether
# the clocks freeze at the first flag, and which way the board is turned. Every value is
# checked before any changes: a bad one changes nothing. Config applies them, and the
# access settings and the presets, to the parts they change, and answers the host's
# `config`, `access` and `preset`.
from firmware import jsonfile
from firmware.app import protocol as P
from firmware.rules.squares import WHITE, BLACK

KEYS = ("settle", "autopenalty", "freeze", "orientation", "serial")
SERIAL = ("auto", "line", "dgt")  # the protocol on the USB line (docs/dgt.md)
_ONOFF = {"on": True, "off": False}
_ORIENTATION = {"auto": None, "normal": False, "turned": True}


def _settle(text):
    if not text.isdigit() or not 20 <= int(text) <= 150:
        raise ValueError("settle is 20..150 ms")
    return int(text)


def parse(kw):
    """The settings given as protocol words, as values: settle (ms), autopenalty and
    freeze (True/False), orientation (None: auto, False: normal, True: turned).
    ValueError, saying which, for a bad one."""
    out = {}
    for k, text in kw.items():
        if k == "settle":
            out[k] = _settle(text)
        elif k in ("autopenalty", "freeze"):
            if text not in _ONOFF:
                raise ValueError("%s is on or off" % k)
            out[k] = _ONOFF[text]
        elif k == "orientation":
            if text not in _ORIENTATION:
                raise ValueError("orientation is auto, normal or turned")
            out[k] = _ORIENTATION[text]
        elif k == "serial":
            if text not in SERIAL:
                raise ValueError("serial is auto, line or dgt")
            out[k] = text
        else:
            raise ValueError("unknown key " + k)
    return out


class BoardSettings:
    def __init__(self, path):
        self.path = path
        self.saved = {}  # as protocol words, as on flash
        self.problem = None

    def load(self):
        """The saved settings as values (parse), {} if none; a file that does not read
        gives the defaults and a problem to report."""
        try:
            saved = jsonfile.load(self.path)
            if saved is None:
                return {}
            if not isinstance(saved, dict) or any(not isinstance(v, str) for v in saved.values()):
                raise ValueError("unknown settings")
            values = parse(saved)
        except ValueError as e:
            self.problem = "settings unreadable (%s): defaults" % e
            return {}
        self.saved = saved
        return values

    def save(self, kw):
        """kw (protocol words, already checked by parse) on top of what was saved."""
        saved = dict(self.saved)
        saved.update(kw)
        jsonfile.save(self.path, saved)  # on flash: the settings survive a power cut
        self.saved = saved


class Config:
    def __init__(self, settings, access, presets, recognizer, match, games, port, signals, write):
        """settings: BoardSettings; access: AccessSettings (firmware/access/settings.py);
        presets: Presets (firmware/clock/presets.py); write(line): a line to the host."""
        self.settings = settings
        self.access_settings = access
        self.presets = presets
        self.recognizer = recognizer
        self.match = match
        self.games = games
        self.port = port
        self.signals = signals
        self.write = write
        self._access_menu = None  # built when first opened

    def load(self):
        """The saved settings applied; the problems of files that did not read."""
        self.apply_access()
        self.configure(self.settings.load())
        return [p for p in (self.presets.problem, self.access_settings.problem, self.settings.problem) if p]

    def configure(self, values):
        """Board settings as parse() gives them, applied."""
        if "settle" in values:
            self.recognizer.settle_ms = values["settle"]
        if "autopenalty" in values:
            self.match.auto_penalties = values["autopenalty"]
        if "freeze" in values:
            self.games.set_freeze(values["freeze"])
        if "orientation" in values:
            self.recognizer.set_orientation(values["orientation"])
        if "serial" in values:
            self.port.set_mode(values["serial"])

    def apply_access(self):
        """The access settings that change the board, not only its signals: a blind
        player's moves are taken by his press alone, his touches told to nobody (D.2.3).
        The settings belong to seats (firmware/access/seats.py): this game's colours."""
        blind = self.signals.blind
        self.recognizer.press_only = (WHITE if blind(WHITE) else 0) | (BLACK if blind(BLACK) else 0)

    def access_menu(self):
        """The access menu (firmware/access/menu.py), built when first opened: its code
        loads then, not at boot (memory)."""
        if self._access_menu is None:
            from firmware.access.menu import AccessMenu

            self._access_menu = AccessMenu(self.access_settings, self.signals, self.apply_access)
        return self._access_menu

    # ----- the host's commands (firmware/app/commands.py)

    def config(self, kw, now):
        self.configure(parse(kw))  # every value checked before any is used or saved
        self.settings.save(kw)

    def access(self, kw, now):
        """Signals for blind and deaf players, by seat (left, right, both; a colour names the
        seat it has now): access blind=left visual=right code=taptic buzzer=on
        intensity=80,100 thresholds=600,300,60,10 speech=en volume=20 ears=left white=right
        (kept on the device: firmware/access/settings.py)."""
        a = self.access_settings
        if kw:
            a.update(kw)
            self.apply_access()
        self.write("access " + a.describe())
        if a["speech"] and self.signals.voice() is None:
            self.write("warning " + P.encode("speech is set, but no audio module answers (hardware/README.md)"))

    def preset(self, words, kw, now):
        """preset list | preset set SLOT name=NAME tc=CONTROL."""
        if words[:1] == ["list"]:
            P.check(words, kw, 1)
            for n, name, control in self.presets.all():
                self.write("preset %d %s %s" % (n, P.encode(name), control))
            return ("preset", "list")
        if words[:1] == ["set"]:
            P.check(words, kw, 2, ("name", "tc"))
            self.presets.set_user(P.whole(words[1], "the slot"), kw.get("name", "User"), kw["tc"])
            return ("preset", "set")
        raise ValueError("preset list | preset set SLOT name=NAME tc=CONTROL")
