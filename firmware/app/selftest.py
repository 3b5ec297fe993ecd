# The self-test for a maker who has just wired a board (`selftest start` on an empty
# board, move a piece over every square and press every button, `selftest report`,
# `selftest stop`): switches that are always closed, squares never seen, the buttons that
# worked, and - slid steadily along the ranks or files - how far across its square each
# switch reads (firmware/app/sensormap.py: `selftest map`, and the weak ones in the
# report). While it runs, the board's scans and buttons come here instead of the game.
from firmware.app.protocol import NotNow
from firmware.ticks import ticks_add
from firmware.rules.squares import WHITE, BLACK, square_name

PULSE_MS = 400  # the buzz of the motors and the buzzer at the start


def _squares(bits, also=None):
    return [sq for sq in range(64) if (bits[sq >> 3] >> (sq & 7)) & 1
            and (also is None or (also[sq >> 3] >> (sq & 7)) & 1)]


class SelfTest:
    def __init__(self, hal, recognizer, write):
        """recognizer: told to look at the board afresh when the test stops; write(line):
        a line to the host."""
        self.hal = hal
        self.recognizer = recognizer
        self.write = write
        self.running = False
        self._pulse_until = None

    def command(self, word, now):
        """For a maker: `selftest start` on an empty board, move a piece over every square
        (slid steadily along the ranks or files: the map) and press every button, `selftest
        report`, `selftest map`, `selftest stop`."""
        if word == "start":
            self.start(now)
        elif word == "report":
            self.write(self.report())
        elif word == "map":
            for line in self.map_lines():
                self.write(line)
        elif word == "stop":
            self.stop()
            self.recognizer.restart(now)
        else:
            raise ValueError("selftest start|report|map|stop")
        return ("selftest", word)

    def start(self, now):
        occ = self.hal.scan(bytearray(8))
        self._stuck = bytearray(occ)
        self._seen = bytearray(8)
        self._always = bytearray(b"\xff" * 8)
        self._buttons = []
        # Imported when a self-test starts, for memory: a maker's tool, no heap in a game.
        from firmware.app.sensormap import SensorMap

        self.map = SensorMap()
        self.running = True
        self.hal.motor(WHITE, 100)
        self.hal.motor(BLACK, 100)
        self.hal.buzzer(2000)
        self._pulse_until = ticks_add(now, PULSE_MS)

    def scan(self, occ, t):
        self._pulse_end(t)
        self.map.scan(occ, t)
        for r in range(8):
            self._seen[r] |= occ[r]
            self._always[r] &= occ[r]
        for kind, a, b, tick in self.hal.inputs():
            name = a if kind == "button" else ("white" if a == WHITE else "black")
            if name not in self._buttons:
                self._buttons.append(name)

    def report(self):
        """The report line: stuck switches, squares never seen, the buttons pressed, how
        many squares were measured sliding a piece across them and which read weakly."""
        if not self.running:
            raise NotNow("no self-test is running: selftest start")
        stuck = _squares(self._stuck, self._always)
        dead = [sq for sq in range(64) if not (self._seen[sq >> 3] >> (sq & 7)) & 1]
        return "selftest stuck=%s dead=%s buttons=%s measured=%d weak=%s" % (
            ",".join(square_name(q) for q in stuck) or "-",
            ",".join(square_name(q) for q in dead) or "-", ",".join(self._buttons) or "-",
            self.map.measured(), ",".join(square_name(q) for q in self.map.weak()) or "-")

    def map_lines(self):
        """A line per rank: how far across each square (%) its switch read, - unmeasured."""
        if not self.running:
            raise NotNow("no self-test is running: selftest start")
        for r in range(8):
            words = []
            for f in range(8):
                p = self.map.percent(r * 8 + f)
                words.append("%s=%s" % ("abcdefgh"[f], p if p >= 0 else "-"))
            yield "selftest map rank=%d %s" % (r + 1, " ".join(words))

    def stop(self):
        self.running = False
        self._pulse_end(None)

    def _pulse_end(self, now):
        """The start's buzz ends after PULSE_MS (now None: at once)."""
        if self._pulse_until is not None and (now is None or self.hal.diff(now, self._pulse_until) >= 0):
            self._pulse_until = None
            self.hal.motor(WHITE, 0)
            self.hal.motor(BLACK, 0)
            self.hal.buzzer(0)
