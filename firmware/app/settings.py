# The board's own settings (`config`), kept on flash (firmware/jsonfile.py): how long a
# position must be still to count (settle), automatic penalties for casual play, whether
# the clocks freeze at the first flag, and which way the board is turned. Every value is
# checked before any changes: a bad one changes nothing.
from firmware import jsonfile

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
