# The device: the board, the clock and the USB serial protocol as one. Device builds the
# parts once and routes what happens between them:
#   scans -> the move recogniser -> its sink, GameEvents (firmware/app/events.py)
#   levers, buttons -> Controls (firmware/app/controls.py): the match, questions, the menu
#   the match and its clock -> the same GameEvents: the record, signals, faces
#   the USB line -> SerialPort (serialport.py): lines to commands.py, or the DGT link
# Its other parts: Record (event log, journal), Faces, Signals (blind and deaf players),
# SelfTest, BoardSettings; the HAL is seen through the seats (firmware/access/seats.py: the
# clock's halves as colours); recovery.py brings a game back from the journal. step(now) runs
# every part once; on the chip asyncio runs them as tasks (firmware/app/main.py).
from firmware.app import commands, recovery
from firmware.app import protocol as P
from firmware.app.controls import Controls
from firmware.app.events import GameEvents
from firmware.app.faces import Faces
from firmware.app.record import Record
from firmware.app.sancache import SanCache
from firmware.app.serialport import SerialPort
from firmware.app.settings import BoardSettings
from firmware.app.signals import Signals, letter
from firmware.access.seats import SeatedHal
from firmware.access.settings import AccessSettings
from firmware.board.recognizer import MoveRecognizer
from firmware.clock.clock import ChessClock
from firmware.clock.presets import Presets
from firmware.clock.timecontrol import parse as parse_tc
from firmware.match import Match
from firmware.rules.chess960 import start_fen
from firmware.rules.game import Game
from firmware.rules.squares import WHITE, BLACK
from firmware.rules.uci import uci as _uci
from firmware.version import VERSION

CLOCK_EVERY_MS = 1000  # the clock line at least this often while a clock runs
POWER_EVERY_MS = 30000
DEFAULT_CONTROL = "300+2"


class Device:
    def __init__(self, hal, presets_path="presets.json", board_id="sim", access_path=None,
                 journal=None):
        """journal: where the current game is kept on flash (a Journal:
        firmware/app/journal.py); None keeps it in memory only."""
        self.hal = hal
        self.board_id = board_id
        now = self._now = hal.now()
        self.game = Game()
        self.record = Record(hal, journal, lambda m: _uci(self.game.position, m))
        self.presets = Presets(presets_path)
        self.access = AccessSettings(access_path or presets_path.replace("presets", "access"))
        # The firmware speaks of White and Black; the clock's halves are seats (firmware/access/seats.py).
        self.hal = hal = SeatedHal(hal, self.access)
        self.settings = BoardSettings(presets_path.replace("presets", "config"))
        self.faces = Faces(hal, now)
        self.signals = Signals(hal, self.access)
        self.events = GameEvents(self.game, self.record, self.signals, self.faces,
                                 lambda fen, n, t: self.start_game(self.control, fen, n, self.white, self.black, t),
                                 lambda: self._now, press=lambda side, t: self.controls.carried_out(side, t))
        self.recognizer = self.events.recognizer = MoveRecognizer(self.game, sink=self.events)
        self.apply_access()
        self.sans = self.events.sans = SanCache(self.game, self.recognizer)
        self.clock = ChessClock(DEFAULT_CONTROL, sink=self.events)
        self.match = self.events.match = Match(self.game, self.clock, sink=self.events)
        self.port = SerialPort(hal.write, self.record, self._line,
                               (self.recognizer, self.record.log, self.match, self.faces, hal.diff), board_id)
        self.controls = Controls(self.recognizer, self.match, self.events, self.signals, self.faces,
                                 self.presets, self.write,
                                 lambda control, t: self.start_game(control, None, None, self.white, self.black, t),
                                 self.port.button)
        hal.starting = lambda: not self.clock.started and not self.game.moves and not self.controls.elsewhere
        hal.changed = self.apply_access
        self.controls.access_menu = self._access_menu  # built when first opened: its code loads then
        self._menu = None
        self.selftest = None  # a SelfTest once a maker asks for one (commands.py)
        self.white, self.black, self.control = "White", "Black", DEFAULT_CONTROL
        self.freeze = None  # None: as the control says (C.02)
        self.progress = [0, 0, 0]  # scan, clock, protocol steps done (for the watchdog)
        self.quiet_moment = False  # a press was just answered, a game set up: a moment for the GC (main.py)
        self._occ = bytearray(8)
        self._take = getattr(hal, "take_scan", None)  # a HAL that scans on time
        self._power_at = now - POWER_EVERY_MS
        self.configure(self.settings.load())
        problems = [p for p in (self.presets.problem, self.access.problem, self.settings.problem) if p]
        found = recovery.recover(self.record, self._setup, hal.feed_watchdog, now, problems)
        self.hello(found is not None)
        for p in problems:
            self.write("warning " + P.encode(p))
        if found:
            self.recognizer.restart(now)
            recovery.resume(self.record, found, self.game, self.clock, now)
            if self.match.outcome is not None:
                self.recognizer.game_over()
            self.events.clock_dirty = True
        else:
            self.start_game(DEFAULT_CONTROL, None, None, self.white, self.black, now)
        self.record.commit(now, self.clock)

    # ----- what the host sees

    def write(self, line):
        self.record.write(line)

    def hello(self, with_game):
        line = "hello proto=%d fw=%s board=%s" % (P.VERSION, VERSION, self.board_id)
        if with_game:
            line += " game=%d seq=%d" % (self.record.log.game_id, self.record.log.count)
        c = self.controls
        if c.elsewhere:  # one of two boards for one game (`pair`): the host checks it is meant
            line += " pair=%s,%s" % (letter(c.elsewhere), "here" if c.clock_here else "there")
        self.write(line)

    def apply_access(self):
        """The access settings that change the board, not only its signals: a blind
        player's moves are taken by his press alone, his touches told to nobody (D.2.3)."""
        blind = self.signals.blind
        self.recognizer.press_only = (WHITE if blind(WHITE) else 0) | (BLACK if blind(BLACK) else 0)

    def _access_menu(self):
        """The access menu (firmware/access/menu.py), built once, when first opened."""
        if self._menu is None:
            from firmware.access.menu import AccessMenu

            self._menu = AccessMenu(self.access, self.signals, self.apply_access)
        return self._menu

    def configure(self, values):
        """Board settings as firmware/app/settings.py parses them, applied."""
        if "settle" in values:
            self.recognizer.settle_ms = values["settle"]
        if "autopenalty" in values:
            self.match.auto_penalties = values["autopenalty"]
        if "freeze" in values:
            self.freeze = self.clock.freeze_on_flag = values["freeze"]
        if "orientation" in values:
            self.recognizer.set_orientation(values["orientation"])
        if "serial" in values:
            self.port.set_mode(values["serial"])

    # ----- a game

    def _setup(self, control, fen, number, white, black, now):
        tc = parse_tc(control)  # a bad control raises before anything changes
        if number is not None:
            fen = start_fen(number)
        self.game.reset(fen, number is not None)  # a bad FEN raises and leaves the game as it was
        self.control, self.white, self.black = control, white, black
        self.clock.set_control(tc, self.freeze)
        self.match.reset()
        self.recognizer.restart(now)
        self.faces.clear_squares()
        return self.match

    def start_game(self, control, fen, number, white, black, now, source=""):
        """source: where the game is played besides the board (\"lichess.org/<id>\"), if
        anywhere: a key of the game line."""
        self._setup(control, fen, number, white, black, now)
        header = "tc=%s fen=%s chess960=%s white=%s black=%s" % (
            control, P.encode(self.game.fen()), "-" if number is None else number,
            P.encode(white), P.encode(black))
        if source:
            header += " source=" + P.encode(source)
            # Its own clock decides the time: a flag here ends nothing and freezes nothing.
            self.match.end_on_flag = False
            self.clock.freeze_on_flag = False
        self.record.new_game(header, number is not None)
        self.events.clock_line(now)
        # Setting up leaves garbage (the control's parser, a FEN read): collected now,
        # with no clock running, not by an allocation in the path of the first press.
        self.quiet_moment = True

    def receive(self, data):
        """Bytes from the host (the USB line)."""
        self.port.receive(data, self._now)

    def _line(self, text, bad):
        commands.handle(self, text, bad, self._now)

    # ----- the loop's parts

    def scan_step(self, now):
        self._now = now
        testing = self.selftest is not None and self.selftest.running
        inputs = () if testing else self.hal.inputs()
        k = 0
        pressed = False
        if self._take is None:  # the HAL scans when asked
            self._board(self.hal.scan(self._occ), now)
        else:
            # Scanned on time by the HAL (firmware/hal/scanner.py): each scan at its own
            # tick, and each press or button between the scans it came between.
            while True:
                t = self._take(self._occ)
                if t is None:
                    break
                while k < len(inputs) and self.hal.diff(inputs[k][3], t) < 0:
                    pressed = self._input(inputs[k]) or pressed
                    k += 1
                self._board(self._occ, t)
        while k < len(inputs):
            pressed = self._input(inputs[k]) or pressed
            k += 1
        if self.port.dgt is not None:
            self.port.dgt.board_step()
        if not testing:
            self.record.commit(now, self.clock)
            if pressed:
                self.record.prepare(self.clock, True)
        self.progress[0] += 1

    def _input(self, ev):
        """A press or a button from the HAL; whether it was a clock press."""
        kind, a, b, t = ev
        if kind == "press":
            self.controls.press(a, t)
            self.quiet_moment = True  # answered with this step: a moment for the GC
            return True
        self.controls.button(a, b, t)
        return False

    def _board(self, occ, t):
        if self.selftest is not None and self.selftest.running:
            self.selftest.scan(occ, t)
        else:
            self.recognizer.scan(occ, t)
            self.events.settle(t)  # a move made: its line out, then the game's end

    def clock_step(self, now):
        self._now = now
        c = self.clock
        self.match.check(now)
        self.signals.step(now, c)
        dirty = self.events.clock_dirty
        self.events.clock_dirty = False
        if dirty or (c.running >= 0 and not c.paused and self.hal.diff(now, self.events.clock_at) >= CLOCK_EVERY_MS):
            self.events.clock_line(now)
        if self.selftest is not None:
            self.selftest.step(now)
        if self.hal.diff(now, self._power_at) >= POWER_EVERY_MS:
            self._power(now)
        self.faces.refresh(now, c, self.controls.menu, self.game.turn, dirty)
        if self.port.dgt is not None:
            self.port.dgt.clock_step(now)
        self.record.commit(now, c)
        self.record.checkpoint(now, c)
        self.record.prepare(c, False)
        self.progress[1] += 1

    def _power(self, now):
        self._power_at = now
        mv, usb, low, level = self.hal.power()
        if mv is not None:
            self.write("power %d %s %s" % (mv, "usb" if usb else "battery", "low" if low else "ok"))
        self.controls.show_battery("USB" if usb else "--" if level is None else "%d%%" % level)
        self.faces.show_low_battery(low)

    def protocol_step(self, now):
        self._now = now
        data = self.hal.read()
        if data:
            self.port.receive(data, now)
        self.record.commit(now, self.clock)
        self.progress[2] += 1

    def idle_step(self):
        """Work for the next move while the player thinks: the table of the legal moves,
        then their SANs; whether there is more."""
        return self.recognizer.idle() or self.sans.idle()

    def step(self, now):
        self.scan_step(now)
        self.clock_step(now)
        self.protocol_step(now)
        self.idle_step()
