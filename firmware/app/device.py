# The device: the board, the clock and the USB serial protocol as one. Device builds the
# parts and routes what happens between them:
#   scans      -> the move recogniser -> make_move / take_back / new_game (its sink) and
#                 what it sees (touched, attempts, differs): firmware/app/events.py
#   levers     -> the recogniser (a press may complete a move) and the match (the clock)
#   buttons    -> a held lever's question (signals), the promotion choice, the clock's menu
#   the match  -> the game record's events, signals, the faces: firmware/app/events.py
#   host lines -> firmware/app/commands.py
# Its parts: Record (event log, journal, write-ahead), Faces (displays and LEDs), Signals
# (blind and deaf players), SelfTest, BoardSettings; recovery.py brings a game back from
# the journal. step(now) runs every part once; on the chip an asyncio loop runs them as
# tasks (firmware/app/main.py); the simulator can call step() in virtual time.
from firmware.app import lazy

lazy.intern_names()  # first, while the heap is whole (firmware/app/lazy.py)

from firmware.app import commands
from firmware.app import protocol as P
from firmware.app.events import GameEvents
from firmware.app.faces import Faces
from firmware.app.record import Record
from firmware.app.settings import BoardSettings
from firmware.app.signals import Signals, letter
from firmware.access.settings import AccessSettings
from firmware.board.recognizer import MoveRecognizer
from firmware.clock.clock import ChessClock, ClockError
from firmware.clock.timecontrol import parse as parse_tc
from firmware.match import Match
from firmware.rules.game import Game
from firmware.rules.squares import WHITE, BLACK
from firmware.rules.position import move_from, move_to
from firmware.rules.uci import uci as _uci

FIRMWARE = "0.1.0"
CLOCK_EVERY_MS = 1000  # the clock line at least this often while a clock runs
POWER_EVERY_MS = 30000
DEFAULT_CONTROL = "300+2"
# Buttons that do nothing on the board while its menu is closed: reported to the host
# (`button <name>`), for a game played with one (an engine's, lichess's: draw, resign).
TO_HOST = ("plus", "minus", "ok", "plus-long", "minus-long", "ok-long")


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
        self.presets_path = presets_path
        self.access = AccessSettings(access_path or presets_path.replace("presets", "access"))
        self.settings = BoardSettings(presets_path.replace("presets", "config"))
        self.faces = Faces(hal, now)
        self.signals = Signals(hal, self.access)
        self.events = GameEvents(self.game, self.record, self.signals, self.faces,
                                 lambda fen, n, t: self.start_game(self.control, fen, n, self.white, self.black, t),
                                 lambda: self._now)
        self.rec = self.events.rec = MoveRecognizer(self.game, sink=self.events)
        self.menu = None  # a ClockMenu while it is open (firmware/clock/menu.py)
        self.battery = "--"  # the battery's level as the menu shows it ("87%", "USB")
        self.selftest = None  # a SelfTest once a maker asks for one (commands.py)
        self.reader = P.LineReader()
        self.serial_mode = "auto"  # the protocol on the line: auto, line or dgt (docs/dgt.md)
        self.dgt = None  # a DgtLink while a DGT program is on the line (firmware/app/dgt.py)
        self.white, self.black, self.control = "White", "Black", DEFAULT_CONTROL
        self.auto_penalties = False
        self.freeze = None  # None: as the control says (C.02)
        self.progress = [0, 0, 0]  # scan, clock, protocol steps done (for the watchdog)
        self.quiet_moment = False  # a press was just answered, a game set up: a moment for the GC (main.py)
        self._lever_down = [None, None]  # a lever down on its own turn with no move: its tick
        self._occ = bytearray(8)
        self._take = getattr(hal, "take_scan", None)  # a HAL that scans on time
        self._clock_at = now
        self._power_at = now - POWER_EVERY_MS
        self.configure(self.settings.load())
        # The presets' file is read once now, so that a damaged one is reported at start.
        problems = [p for p in (self.presets().problem, self.access.problem, self.settings.problem) if p]
        self.presets_done()
        # Start-up only: recovery.py is forgotten once it has run, its code given back to
        # the heap for the game (a long game on the chip needs every kilobyte).
        from firmware.app import recovery

        found = recovery.recover(self.record, self._setup, hal.feed_watchdog, now, problems)
        self.hello(found is not None)
        for p in problems:
            self.write("warning " + P.encode(p))
        if found:
            self.rec.restart(now)
            recovery.resume(self.record, found, self.game, self.clock, now)
            if self.match.outcome is not None:
                self.rec.game_over()
            self.events.clock_dirty = True
        else:
            self.start_game(DEFAULT_CONTROL, None, None, self.white, self.black, now)
        lazy.forget("firmware.app", "recovery")
        self.record.commit(now, self.clock)

    # ----- the clock's menu and its presets: code that a game does not use, loaded when
    # wanted and forgotten after (firmware/app/lazy.py): ~7 KB of the chip's heap

    def presets(self):
        """The time-control presets (firmware/clock/presets.py), read from flash."""
        return lazy.load("firmware.clock", "presets").Presets(self.presets_path)

    def presets_done(self):
        """The presets' and the menu's code is let go, unless the menu is open."""
        if self.menu is None:
            lazy.forget("firmware.clock", "menu")
            lazy.forget("firmware.clock", "presets")

    # ----- what the host sees

    @property
    def log(self):
        return self.record.log

    @property
    def journal(self):
        return self.record.journal

    def write(self, line):
        self.record.write(line)

    def hello(self, with_game):
        line = "hello proto=%d fw=%s board=%s" % (P.VERSION, FIRMWARE, self.board_id)
        if with_game:
            line += " game=%d seq=%d" % (self.log.game_id, self.log.count)
        self.write(line)

    def clock_line(self, now):
        w, b, run, paused, pw, pb, mw, mb, fw, fb = self.clock.snapshot(now)
        self.write("clock %d %d %s %s moves=%d,%d period=%d,%d flags=%d,%d" % (
            w, b, "-" if run is None else letter(run), "paused" if paused else "running"
            if run is not None else "stopped", mw, mb, pw, pb, fw, fb))
        self._clock_at = now
        self.events.clock_dirty = False

    def configure(self, values):
        """Board settings as firmware/app/settings.py parses them, applied."""
        if "settle" in values:
            self.rec.settle_ms = values["settle"]
        if "autopenalty" in values:
            self.auto_penalties = values["autopenalty"]
        if "freeze" in values:
            self.freeze = values["freeze"]
        if "orientation" in values:
            self.rec.set_orientation(values["orientation"])
        if "serial" in values:
            self.serial_mode = values["serial"]
            if self.serial_mode == "dgt":
                self._to_dgt()
            elif self.serial_mode == "line" and self.dgt is not None:
                self._to_line()
        if getattr(self, "match", None) is not None:
            self.match.auto_penalties = self.auto_penalties
            self.clock.freeze_on_flag = self.freeze

    # ----- a game

    def _setup(self, control, fen, number, white, black, now):
        tc = parse_tc(control)  # a bad control raises before anything changes
        if number is not None:
            from firmware.rules.chess960 import start_fen  # loaded by the first Chess960 game

            fen = start_fen(number)
        self.game.reset(fen, number is not None)  # a bad FEN raises and leaves the game as it was
        self.control, self.white, self.black = control, white, black
        self.clock = ChessClock(tc, emit=self.events.on_match, freeze_on_flag=self.freeze)
        self.match = self.events.match = Match(self.game, self.clock, emit=self.events.on_match,
                                               auto_penalties=self.auto_penalties)
        self.rec.restart(now)
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
        self.clock_line(now)
        # Setting up leaves garbage (the control's parser, a FEN read): collected now,
        # with no clock running, not by an allocation in the path of the first press.
        self.quiet_moment = True

    # ----- inputs

    def press(self, side, t):
        """A clock lever going down, at the tick its interrupt took (art. 6.2.1: the press
        completes the move): first the recogniser (which may recognise the move now), then
        the clock. On his own turn with no move made, the lever may be a hold - a blind
        player asking for his time (appendix D) - so it is judged only when it comes up
        before it is one (release): then it is a press without a move (7.5.3), at this
        tick. A hold after a move: its going down completed the move, and the hold asks."""
        self.rec.press(side, t)
        self.rec.expected_made = False  # (the press completes it)
        if self.match.press_is_without_move(side):
            self._lever_down[side >> 4] = t
            return
        self._press(side, t)

    def release(self, side, t):
        """A lever came up before it was held: a press without a move is judged now."""
        i = side >> 4
        down = self._lever_down[i]
        if down is None:
            return
        self._lever_down[i] = None
        if self.match.press_is_without_move(side):
            self._press(side, down)

    def _press(self, side, t):
        if self.match.press(side, t):
            self.events.pressed(side, t)  # answered at once: the clk line goes out
        self.events.settle(t)
        self.clock_line(t)
        self.faces.dirty = True  # the display and LEDs follow at the next clock step

    def expect(self, m, t):
        """The host's move m (0: none): shown on the square LEDs and felt by the player
        at the board, who carries it out; only it is taken (the recogniser's expect)."""
        self.rec.expect(m)
        if m:
            # Its squares on the LEDs, and on its player's face instead of his time.
            self.faces.expected(move_from(m), move_to(m), self.game.turn)
            player = WHITE if self.game.turn == BLACK else BLACK
            self.signals.event(player, "opponent_moved", t)
        else:
            self.faces.expected(None, None)

    def button(self, name, down, t):
        """A button: a held lever asks for a number (signals), then the promotion choice
        while a pawn waits on the last rank, else the clock's menu (firmware/clock/menu.py)."""
        if not down:
            return
        if name in ("white-long", "black-long"):
            side = WHITE if name == "white-long" else BLACK
            self._lever_down[side >> 4] = None  # a hold: a question, not a press
            self.write("ask %s %s" % (letter(side), self.signals.ask(side, t, self.clock, self.game)))
            return
        if self.rec.promotion_pending():
            self.rec.button(name, down, t)
            return
        if self.menu is None and name in TO_HOST:
            if self.dgt is not None:
                self.dgt.button(name)
            self.write("button " + name)
            return
        menu = self.menu
        if menu is None:
            menu = lazy.load("firmware.clock", "menu").ClockMenu(self.presets())
            menu.battery = self.battery
        try:
            todo = menu.button(name, self.clock, t)
        except ClockError as e:
            self.write("err not-now " + P.encode(str(e)))
            todo = None
        self.menu = menu if menu.open else None
        if todo is not None:
            self.start_game(menu.presets.get(todo[1]), None, None, self.white, self.black, t)
        if self.menu is None:
            self.presets_done()
        self.faces.dirty = True

    def receive(self, data):
        """Bytes from the host: every whole line is handled (firmware/app/commands.py);
        a DGT program's commands go to the DGT link, and the line switches between the
        two protocols where the bytes say so (docs/dgt.md)."""
        i = 0
        n = len(data)
        while i < n:
            if self.dgt is not None:
                i = self.dgt.feed(data, self._now, i)
                if i < n:
                    self._to_line()
            else:
                i = self.reader.feed(data, self._line, i, self.serial_mode != "line")
                if i < n:
                    self._to_dgt()

    def _to_dgt(self):
        """A DGT program is on the line: it gets DGT messages only; lines are recorded as
        ever but not sent (a host that comes back gets them with resend)."""
        if self.dgt is None:
            from firmware.app.dgt import DgtLink, serial_digits

            self.dgt = DgtLink(self, self.hal.write, serial_digits(self.board_id))
        self.record.mute = True
        self.reader.reset()

    def _to_line(self):
        self.dgt = None
        self.record.mute = False

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
        if self.dgt is not None:
            self.dgt.board_step()
        if not testing:
            self.record.commit(now, self.clock)
            if pressed:
                self.record.prepare(self.clock, True)
        self.progress[0] += 1

    def _input(self, ev):
        """A press or a button from the HAL; whether it was a clock press."""
        kind, a, b, t = ev
        if kind == "press":
            self.press(a, t)
            self.quiet_moment = True  # answered with this step: a moment for the GC
            return True
        if kind == "release":
            self.release(a, t)
            return False
        self.button(a, b, t)
        return False

    def _board(self, occ, t):
        if self.selftest is not None and self.selftest.running:
            self.selftest.scan(occ)
        else:
            self.rec.scan(occ, t)
            if self.rec.expected_made:
                # The host's move (expect) carried out on the board: completed at once,
                # as if its player had pressed his clock.
                self.rec.expected_made = False
                self.press(WHITE if self.game.turn == BLACK else BLACK, t)
            else:
                self.events.settle(t)  # a move made: its line out, then the game's end

    def clock_step(self, now):
        self._now = now
        c = self.clock
        self.match.check(now)
        self.signals.step(now, c)
        dirty = self.events.clock_dirty
        self.events.clock_dirty = False
        if dirty or (c.running >= 0 and not c.paused and self.hal.diff(now, self._clock_at) >= CLOCK_EVERY_MS):
            self.clock_line(now)
        if self.selftest is not None:
            self.selftest.step(now)
        if self.hal.diff(now, self._power_at) >= POWER_EVERY_MS:
            self._power_at = now
            mv, usb, low, level = self.hal.power()
            if mv is not None:
                self.write("power %d %s %s" % (mv, "usb" if usb else "battery", "low" if low else "ok"))
            self.battery = "USB" if usb else "--" if level is None else "%d%%" % level
            if self.menu is not None:
                self.menu.battery = self.battery
            if low != self.faces.low_battery:
                self.faces.low_battery = low
                self.faces.dirty = True
        self.faces.refresh(now, c, self.menu, self.game.turn, dirty)
        if self.dgt is not None:
            self.dgt.clock_step(now)
        self.record.commit(now, c)
        self.record.checkpoint(now, c)
        self.record.prepare(c, False)
        self.progress[1] += 1

    def protocol_step(self, now):
        self._now = now
        data = self.hal.read()
        if data:
            self.receive(data)
        self.record.commit(now, self.clock)
        self.progress[2] += 1

    def idle_step(self):
        return self.rec.idle()

    def step(self, now):
        self.scan_step(now)
        self.clock_step(now)
        self.protocol_step(now)
        self.idle_step()
