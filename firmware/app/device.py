# The device: the board, the clock and the USB serial protocol as one. Device builds the
# parts once, hands each its collaborators, and runs the loop's steps:
#   scans and inputs (the HAL merges them) -> the move recogniser and Controls -> GameEvents
#   the match and its clock -> the same GameEvents: the record, signals, faces
#   the USB line -> SerialPort: lines to the commands (commands.py), or the DGT link
# Each step ends with the record's one commit: the lines of the step's events go out.
# On the chip asyncio runs the steps as tasks (firmware/app/main.py).
from firmware.app import commands
from firmware.app.controls import Controls
from firmware.app.events import GameEvents
from firmware.app.faces import Faces
from firmware.app.games import DEFAULT_CONTROL, Games
from firmware.app.power import Power
from firmware.app.record import Record
from firmware.app.sancache import SanCache
from firmware.app.selftest import SelfTest
from firmware.app.serialport import SerialPort
from firmware.app.settings import BoardSettings, Config
from firmware.app.signals import Signals
from firmware.access.seats import SeatedHal
from firmware.access.settings import AccessSettings
from firmware.board.recognizer import MoveRecognizer
from firmware.clock.clock import ChessClock
from firmware.clock.presets import Presets
from firmware.match import Match
from firmware.rules.game import Game

SCAN, CLOCK, PROTOCOL, QUIET = 0, 1, 2, 3  # the loop's counts (progress)


class Device:
    def __init__(self, hal, presets_path="presets.json", board_id="sim", access_path=None,
                 journal=None):
        """journal: where the current game is kept on flash (a Journal:
        firmware/app/journal.py); None keeps it in memory only."""
        now = hal.now()
        # Steps done (scan, clock, protocol: the watchdog's), quiet moments (the GC's): main.py's.
        self.progress = [0, 0, 0, 0]
        game = self.game = Game()
        record = self.record = Record(hal, journal, board_id)
        presets = Presets(presets_path)
        access = AccessSettings(access_path or presets_path.replace("presets", "access"))
        # The clock's halves are seats, turned into colours (firmware/access/seats.py).
        hal = self.hal = SeatedHal(hal, access, lambda: not controls.elsewhere and games.starting(),
                                   lambda: config.apply_access())
        faces = Faces(hal, now)
        signals = Signals(hal, access)
        events = self.events = GameEvents(game, record, signals, faces, hal,
                                          lambda fen, n, t: games.again(fen, n, t),
                                          lambda side, t: controls.carried_out(side, t))
        recognizer = self.recognizer = MoveRecognizer(game, sink=events)
        clock = self.clock = ChessClock(DEFAULT_CONTROL, sink=events)
        match = self.match = Match(game, clock, sink=events)
        events.attach(recognizer, match, SanCache(game, recognizer))
        games = self.games = Games(game, clock, match, recognizer, record, events, faces, presets, self._quiet)
        port = self.port = SerialPort(hal.write, record, lambda text, bad, t: commands.handle(parts, text, bad, t),
                                      (recognizer, record.log, match, faces, hal.diff), board_id)
        controls = self.controls = Controls(recognizer, match, events, signals, faces, presets, record, games.preset,
                                            port.button, lambda t: power.update(t), lambda: config.access_menu())
        config = self.config = Config(BoardSettings(presets_path.replace("presets", "config")), access, presets,
                                      recognizer, match, games, port, signals, record.write)
        selftest = self.selftest = SelfTest(hal.hardware, recognizer, record.write)  # halves as wired
        power = self.power = Power(hal, record, clock, controls, faces, now)
        parts = {"record": record, "games": games, "clock": clock, "match": match, "events": events,
                 "controls": controls, "config": config, "selftest": selftest, "power": power}
        hal.connect(recognizer.scan, controls.press, controls.button)
        games.boot(hal.feed_watchdog, now, config.load())
        self._end(now, None)

    def _quiet(self):
        self.progress[QUIET] += 1

    def _end(self, now, step, prepare=None):
        """The step's end: its events on flash and their lines out (the one commit; prepare:
        Record.prepare's), then what a move made means for the game (settle)."""
        self.record.commit(now, self.clock, prepare)
        self.events.settle(now)
        if step is not None:
            self.progress[step] += 1

    # ----- the loop's steps

    def scan_step(self, now):
        test = self.selftest
        if test.running:  # the self-test reads the board and the buttons itself
            self.hal.feed(now, test.scan)
            pressed = False
        else:
            pressed = self.hal.feed(now)
            if pressed:
                self._quiet()  # answered with this step: a moment for the GC
        self.port.board_step()
        self._end(now, SCAN, True if pressed else None)

    def clock_step(self, now):
        self.events.clock_step(now)
        self.power.step(now)
        self.port.clock_step(now)
        self._end(now, CLOCK, False)

    def protocol_step(self, now):
        data = self.hal.read()
        if data:
            self.port.receive(data, now)
        self._end(now, PROTOCOL)

    def receive(self, data):
        """Bytes from the host (the USB line)."""
        self.port.receive(data, self.hal.now())

    def idle_step(self):
        """Work for the next move while the player thinks: the table of the legal moves,
        then their SANs; whether there is more."""
        return self.recognizer.idle() or self.events.idle()

    def step(self, now):
        self.scan_step(now)
        self.clock_step(now)
        self.protocol_step(now)
        self.idle_step()
