# The device: the board, the clock and the USB serial protocol as one, driven by step(now).
#
# step() is pure logic over the HAL it is given (firmware/hal/): scan the matrix into the
# move recogniser, hand clock presses (stamped in the pin interrupt) to the recogniser and
# the match, poll the clock for flags, read and answer the host, refresh the display, and
# spend what time is left on work for the next move. On the chip an asyncio loop calls the
# parts (firmware/app/main.py); the simulator can also call step() in virtual time.
import json
import os

from firmware.app import protocol as P
from firmware.app.eventlog import (
    EventLog, MOVE, CLK, TAKEBACK, START, FLAG, PERIOD, PENALTY, SET_TIME, SET_MOVES,
    SET_PERIOD, PAUSE, RESUME, QUICKPLAY, ILLEGAL, RESULT, TERMINATIONS,
)
from firmware.app.journal import Journal, JournalError
from firmware.access import numbercode
from firmware.access.patterns import PATTERNS, THRESHOLDS

THRESHOLD_PATTERNS = [name for _, name in THRESHOLDS]
from firmware.access.player import SignalPlayer
from firmware.access.settings import AccessSettings
from firmware.board.recognizer import MoveRecognizer
from firmware.clock import display
from firmware.clock.clock import ChessClock, ClockError
from firmware.clock.menu import ClockMenu
from firmware.clock.presets import Presets
from firmware.clock.timecontrol import parse as parse_tc
from firmware.match import Match, MatchError
from firmware.rules import chess960 as _960
from firmware.rules.game import Game
from firmware.rules.outcome import Outcome
from firmware.rules.squares import WHITE, BLACK, PIECE_SYMBOLS, parse_square, square_name
from firmware.rules.uci import uci as _uci

FIRMWARE = "0.1.0"
CLOCK_EVERY_MS = 1000  # the clock line at least this often while a clock runs
DISPLAY_EVERY_MS = 100
POWER_EVERY_MS = 30000
CHECKPOINT_EVERY_MS = 30000  # a running turn's time to the journal (for a power cut)
PULSE_MS = 400  # the self-test's buzz of the motors and the buzzer
SIDES = {"w": WHITE, "b": BLACK, "white": WHITE, "black": BLACK}
DEFAULT_CONTROL = "300+2"
CONFIG_KEYS = ("settle", "autopenalty", "freeze", "orientation")


class NotNow(ValueError):
    """A command that is well formed but cannot be done at this moment."""


def _side(word):
    s = SIDES.get(word)
    if s is None:
        raise ValueError("a side is w or b, not %r" % (word,))
    return s


def _int(word, what):
    if not word or not (word.isdigit() or (word[0] == "-" and word[1:].isdigit())):
        raise ValueError("%s must be a whole number, not %r" % (what, word))
    return int(word)


def _letter(side):
    return "w" if side == WHITE else "b"


class Device:
    def __init__(self, hal, presets_path="presets.json", board_id="sim", access_path=None,
                 journal_path=None):
        """journal_path: where the current game is kept on flash (firmware/app/journal.py);
        None keeps it in memory only."""
        self.hal = hal
        self.board_id = board_id
        self.log = EventLog()
        self.game = Game()
        self.presets = Presets(presets_path)
        self.auto_penalties = False
        self.freeze = None  # None: as the control says (C.02)
        self.rec = MoveRecognizer(self.game, sink=self, emit=self._on_board)
        self.menu = ClockMenu(self.presets)
        self.access = AccessSettings(access_path or presets_path.replace("presets", "access"))
        self.config_path = presets_path.replace("presets", "config")
        self.players = {WHITE: SignalPlayer(lambda lv: self._signal(WHITE, lv), hal.diff),
                        BLACK: SignalPlayer(lambda lv: self._signal(BLACK, lv), hal.diff)}
        self._leds = {WHITE: None, BLACK: None}
        self._left = {WHITE: None, BLACK: None}
        self._asks = {WHITE: (0, None), BLACK: (0, None)}  # on-demand gesture count, tick
        self.reader = P.LineReader()
        self.white = "White"
        self.black = "Black"
        self.control = DEFAULT_CONTROL
        self._occ = bytearray(8)
        self._san = ""
        self._now = hal.now()
        self._clock_at = self._now
        self._display_at = self._now
        self._shown = None
        self._moving = False
        self._selftest = None
        self._pulse_until = None
        self.low_battery = False
        self._power_at = self._now - POWER_EVERY_MS
        self._clock_dirty = True
        self._display_dirty = True
        self.progress = [0, 0, 0]  # scan, clock, protocol steps done (for the watchdog)
        # The square LEDs (an optional chain, firmware/hal/squareleds.py): the last move, or
        # while the board differs, the squares to put right.
        self._lit = bytearray(64)
        self._last = None
        self._hint = None
        # The journal: events are on flash before their lines go out (write-ahead), so
        # lines wait in _held from the first event not yet written until the commit that
        # ends the step.
        self.journal = Journal(journal_path) if journal_path else None
        self._held = None
        self._committed = 0
        self._fresh = False
        self._checkpoint_at = self._now
        self._games = self.journal.games() if self.journal else 0
        problems = [p for p in (self.presets.problem, self.access.problem) if p]
        self._load_config(problems)
        found = self._recover(self._now, problems) if self.journal else None
        hello = "hello proto=%d fw=%s board=%s" % (P.VERSION, FIRMWARE, board_id)
        if found:
            hello += " game=%d seq=%d" % (self.log.game_id, self.log.count)
        self.write(hello)
        for p in problems:
            self.write("warning " + P.encode(p))
        if found:
            self._resume_recovered(found, self._now)
        else:
            self._new_game(DEFAULT_CONTROL, None, None, self._now)
        self._commit(self._now)

    # ----- the journal: the game on flash (firmware/app/journal.py)

    def _recover(self, now, problems):
        """The game of the journal, put back as it was at its last commit; its Recovered,
        or None (no journal, or a damaged one: then problems says so)."""
        j = self.journal
        try:
            r = j.load(self.log)
            if r is None:
                return None
            self._replay(r, now)
        except (JournalError, ValueError, IndexError, KeyError) as e:
            if not isinstance(e, JournalError):
                j.keep_bad()
            problems.append("journal damaged (%s), kept as %s; a new game" % (e, j.bad_path))
            self.log.count = 0
            self.log.game_id = 0
            self.game.reset(None, False)
            return None
        if r.dropped:
            problems.append("journal: %d bytes of an interrupted write or junk dropped" % r.dropped)
        self._games = max(self._games, r.game_id)
        self._committed = self.log.count
        # Written again whole at the first commit: a new file renamed over the old one, so
        # that nothing is ever appended after an interrupted write, and the checkpoints go.
        self._fresh = True
        return r

    def _replay(self, r, now):
        cmd, pos, kw = P.split("game " + r.header)
        n = kw["chess960"]
        number = None if n == "-" else _int(n, "chess960")
        self.white, self.black = kw["white"], kw["black"]
        log = self.log
        count = log.count
        if count < 1 or log.get(1)[0] != 0:
            raise ValueError("the journal's first event is not the game")
        self._setup(kw["tc"], None if number is not None else kw["fen"], number, now)
        log.count = count
        log.game_id = r.game_id
        log.header = r.header
        log.chess960 = number is not None
        g = self.game
        m = self.match
        for seq in range(2, count + 1):
            if not seq & 31:
                self.hal.feed_watchdog()  # a long game takes a while to play again on the chip
            kind, side, a, b, text = log.get(seq)
            if kind == MOVE:
                if a != g.ply + 1:
                    raise ValueError("event %d: move %d after ply %d" % (seq, a, g.ply))
                m.replay_move(b)  # IllegalMoveError (a ValueError) if it is not legal here
            elif kind == CLK:
                if not 1 <= a <= g.ply:
                    raise ValueError("event %d: clk of ply %d" % (seq, a))
                m.replay_completed(a, b, SIDES[side])
            elif kind == TAKEBACK:
                if not 0 <= a <= g.ply:
                    raise ValueError("event %d: takeback to %d" % (seq, a))
                while g.ply > a:
                    m.take_back(now)
            elif kind == ILLEGAL:
                m.illegal[SIDES[side] >> 4] = a
            elif kind == RESULT:
                m.outcome = Outcome(TERMINATIONS[b], None if a == 2 else (WHITE, BLACK)[a])
        # The clock as at the last completed move: the interrupted turn starts again from
        # its beginning, paused; how long it had run is reported for the arbiter.
        self.clock.restore(r.state, now, turn_ms=0)
        self.rec.restart(now)

    def _resume_recovered(self, r, now):
        c = self.clock
        ran = r.state[15]
        if r.tick is not None and r.tick[0] == c.running:
            ran = max(ran, r.tick[1])
        running = c.running >= 0 and not c.stopped
        self.write("recovered game=%d seq=%d ply=%d interrupted=%s" % (
            self.log.game_id, self.log.count, self.game.ply,
            ("%s:%d" % (_letter(c.running_side()), ran)) if running else "-"))
        if running and not c.paused:
            c.pause(now)  # logged: the clock waits for the arbiter (or the players) to resume
        self._clock_dirty = True

    def _commit(self, now):
        """Write the events not yet on flash and the clock's state, then let their lines
        (and those held behind them) go to the host."""
        j = self.journal
        log = self.log
        if j is not None and (self._fresh or log.count != self._committed):
            try:
                state = self.clock.state(now)
                if self._fresh:
                    self._games = max(self._games, log.game_id)
                    j.set_games(self._games)
                    j.begin(log.game_id, log.header,
                            (log.raw(s) for s in range(1, log.count + 1)), state)
                else:
                    j.commit([log.raw(s) for s in range(self._committed + 1, log.count + 1)],
                             log.count, state)
            except (OSError, MemoryError) as e:
                # A full or failing flash (or no memory for the write) must not stop the
                # game: it goes on in memory, and the host has every line.
                j.close()
                self.journal = None
                if self._held is None:
                    self._held = []
                self._held.append("warning " + P.encode("journal off: cannot write (%s)" % e))
            self._committed = log.count
            self._fresh = False
            self._checkpoint_at = now
        held = self._held
        self._held = None
        if held:
            for line in held:
                self.hal.write((line + "\n").encode())

    def _checkpoint(self, now):
        c = self.clock
        if c.running < 0 or c.paused or self.hal.diff(now, self._checkpoint_at) < CHECKPOINT_EVERY_MS:
            return
        self._checkpoint_at = now
        try:
            self.journal.checkpoint(self.log.count, c.running, c.state(now)[15])
        except OSError as e:
            self.journal.close()
            self.journal = None
            self.write("warning " + P.encode("journal off: cannot write (%s)" % e))

    # ----- output

    def write(self, line):
        if self._held is not None:
            self._held.append(line)
        else:
            self.hal.write((line + "\n").encode())

    def _log(self, kind, side=0, a=0, b=0, text=""):
        seq = self.log.append(kind, side, a, b, text)
        if self.journal is not None and self._held is None:
            self._held = []  # from here on, lines wait for the commit
        self.write(self.log.line(seq, self._uci))

    def _uci(self, m):
        return _uci(self.game.position, m)

    def clock_line(self, now):
        c = self.clock
        w, b, run, paused, pw, pb, mw, mb, fw, fb = c.snapshot(now)
        self.write("clock %d %d %s %s moves=%d,%d period=%d,%d flags=%d,%d" % (
            w, b, "-" if run is None else _letter(run), "paused" if paused else "running"
            if run is not None else "stopped", mw, mb, pw, pb, fw, fb))
        self._clock_at = now
        self._clock_dirty = False

    # ----- a game

    def _setup(self, control, fen, number, now):
        tc = parse_tc(control)  # a bad control raises before anything changes
        c960 = number is not None
        if c960:
            fen = _960.start_fen(number)
        self.game.reset(fen, c960)  # a bad FEN raises and leaves the game as it was
        self.control = control
        self.clock = ChessClock(tc, freeze_on_flag=self.freeze)
        self.match = Match(self.game, self.clock, emit=self._on_match,
                           auto_penalties=self.auto_penalties)
        self.rec.restart(now)
        self._last = None
        self._hint = None
        self._show_squares()

    def _show_squares(self):
        lit = self._lit
        for i in range(64):
            lit[i] = 0
        if self._hint:
            for sq in self._hint:
                lit[sq] = 3
        elif self._last is not None:
            lit[self._last[0]] = 1
            lit[self._last[1]] = 2
        self.hal.squares(lit)

    def _new_game(self, control, fen, number, now):
        self._setup(control, fen, number, now)
        header = "tc=%s fen=%s chess960=%s white=%s black=%s" % (
            control, P.encode(self.game.fen()), "-" if number is None else number,
            P.encode(self.white), P.encode(self.black))
        self._games = max(self._games, self.log.game_id) + 1
        self.log.new_game(self._games, header, number is not None)
        if self.journal is not None:
            self._fresh = True
            if self._held is None:
                self._held = []
        self.write(self.log.line(1, self._uci))
        self.clock_line(now)

    # ----- the recogniser's sink: what happens on the board

    def make_move(self, m, now):
        if self.match.outcome is not None:
            self.write("attempt %s after the result" % self._uci(m))
            return
        ply = self.game.ply + 1
        u = self._uci(m)
        self._last = (parse_square(u[:2]), parse_square(u[2:4]))
        # The line goes out first: the game-end state of the new position comes after.
        self._log(MOVE, 0, ply, m, self._san)
        self._show_squares()
        self._moving = True  # an outcome decided by this move is logged after it
        try:
            self.match.make_move(m, now)
        finally:
            self._moving = False
        if self.match.outcome is not None:
            # The move ended the game: completed without a press (6.2.1.1).
            self._log(CLK, 0, ply, self.match.clock_after(ply - 1))
            self._log_outcome(self.match.outcome)

    def take_back(self, now):
        self.match.take_back(now)
        self._log(TAKEBACK, 0, self.game.ply)
        self._last = None
        self._show_squares()

    def new_game(self, fen, chess960, now):
        # The start position set up on the board: a new game with the same control and
        # players, from the next start the host or the menu chose.
        number = None
        if chess960 and fen:
            number = _960.number_of(fen.split("/")[7].split()[0])
        self._new_game(self.control, None if number is not None else fen, number, now)

    # ----- events of the recogniser and the match

    def _on_board(self, kind, a, b):
        if kind == "move":
            self._san = b
        elif kind == "promotion":
            self.write("promotion %s %s" % (PIECE_SYMBOLS[a], square_name(b)))
        elif kind == "touched":
            self.write("touched " + square_name(a))
        elif kind == "illegal":
            self.write("attempt %s%s" % (square_name(a), square_name(b)))
            self.signal(self.game.turn, "illegal", self._now)
        elif kind == "differs":
            fix = ",".join((square_name(f) if f is not None else "-") + (square_name(t) if t is not None else "-")
                           for f, t in b)
            self.write("board differs missing=%s fix=%s" % (",".join(square_name(s) for s in a) or "-", fix or "-"))
            self.signal(None, "board_differs", self._now)
            self._hint = [sq for sq in a] + [sq for f, t in b for sq in (f, t) if sq is not None]
            self._show_squares()
        elif kind == "sync":
            self.write("board sync")
            self._hint = None
            self._show_squares()

    def _on_match(self, kind, a, b):
        if kind == "start":
            self._log(START)
        elif kind == "period":
            self._log(PERIOD, a, b)
            self.signal(a, "period", self._now)
        elif kind == "flag":
            self._log(FLAG, a, b)
            self.signal(a, "your_flag", self._now)
            self.signal(BLACK if a == WHITE else WHITE, "opponent_flag", self._now)
        elif kind == "pause":
            self._log(PAUSE)
            self.signal(None, "arbiter", self._now)
        elif kind == "resume":
            self._log(RESUME)
        elif kind == "set_time":
            self._log(SET_TIME, a, b)
        elif kind == "set_moves":
            self._log(SET_MOVES, a, b)
        elif kind == "set_period":
            self._log(SET_PERIOD, a, b)
        elif kind == "quickplay":
            self._log(QUICKPLAY)
        elif kind == "penalty":
            self._log(PENALTY, a, b)
        elif kind == "illegal_move":
            self._log(ILLEGAL, a, b)
        elif kind == "illegal_press":
            self.write("illegal-press %s %d" % (_letter(a), b))
            self.signal(a, "illegal", self._now)
        elif kind == "claim":
            self.write("claim %s %s" % (_letter(a), "correct" if b else "incorrect"))
            self.signal(None, "draw", self._now)
        elif kind == "outcome" and not self._moving:
            self._log_outcome(a)
        if kind in ("start", "period", "flag", "freeze", "pause", "resume", "set_time",
                    "set_moves", "set_period", "penalty", "stop"):
            self._clock_dirty = True

    def _log_outcome(self, o):
        res = 2 if o.winner is None else (0 if o.winner == WHITE else 1)
        self._log(RESULT, 0, res, TERMINATIONS.index(o.termination))
        self._clock_dirty = True
        self.signal(None, "game_over", self._now)

    # ----- signals for blind and deaf players (firmware/access/)

    def _signal(self, side, level):
        letter = _letter(side)
        if letter in self.access["blind"]:
            self.hal.motor(side, self.access["intensity"][level - 1] if level else 0)
        if letter in self.access["visual"]:
            self._led(side, level > 0)
        if self.access["buzzer"]:
            self.hal.buzzer(2000 if level else 0)

    def _led(self, side, on):
        if self._leds[side] != on:
            self._leds[side] = on
            self.hal.led("white" if side == WHITE else "black", on)

    def signal(self, side, name, now):
        """An event signal for one side (None: both)."""
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            letter = _letter(s)
            if letter in self.access["blind"] or letter in self.access["visual"] or self.access["buzzer"]:
                self.players[s].event(PATTERNS[name], now)

    def _thresholds(self, now):
        c = self.clock
        run = c.running_side()
        if run is None or c.paused:
            return
        left = c.time_left(run, now)
        prev = self._left[run]
        self._left[run] = left
        if prev is None or left >= prev:
            return
        # The first threshold (the longest time) has the first pattern, and so on.
        for i, secs in enumerate(self.access["thresholds"]):
            if prev > secs * 1000 >= left:
                self.signal(run, THRESHOLD_PATTERNS[i], now)
        if left <= 5000 and prev // 1000 != left // 1000:
            self.signal(run, "tick", now)

    def _ask(self, side, t):
        """A held clock button: 1 the player's time, 2 (within 3 s) the opponent's, 3 the
        move number, played as a number code when no event signal is due."""
        n, at = self._asks[side]
        n = n + 1 if at is not None and self.hal.diff(t, at) < 3000 else 1
        self._asks[side] = (n, t)
        self.write("ask %s %s" % (_letter(side), ("time", "opponent", "move")[min(n, 3) - 1]))
        if n == 1:
            groups = numbercode.time_groups(self.clock.time_left(side, t))
        elif n == 2:
            other = BLACK if side == WHITE else WHITE
            groups = numbercode.time_groups(self.clock.time_left(other, t))
        else:
            groups = numbercode.number_groups(self.game.position.fullmove_number)
        self.players[side].number(numbercode.encode(groups, self.access["code"]), t)

    # ----- inputs

    def press(self, side, t):
        """A clock button, at the tick its interrupt took (art. 6.2.1: the press completes
        the move): first the recogniser (which may recognise the move now), then the clock."""
        self.rec.press(side, t)
        if self.match.press(side, t):
            g = self.game
            ply = g.ply - (1 if g.turn != side else 2)
            self._log(CLK, side, ply + 1, self.match.clock_after(ply))
            if self.match.outcome is None:
                self.signal(side, "move_done", t)
                self.signal(BLACK if side == WHITE else WHITE, "opponent_moved", t)
        self.clock_line(t)
        self._display_dirty = True  # the display and LEDs follow at the next clock step

    def button(self, name, down, t):
        """A menu button: the promotion choice while a pawn waits on the last rank, else
        the clock's menu (firmware/clock/menu.py)."""
        if not down:
            return
        if name in ("white-long", "black-long"):
            self._ask(WHITE if name == "white-long" else BLACK, t)
            return
        if self.rec.promotion_pending():
            self.rec.button(name, down, t)
            return
        try:
            todo = self.menu.button(name, self.clock, t)
        except ClockError as e:
            self.write("err not-now " + P.encode(str(e)))
            return
        if todo is not None:
            self._new_game(self.presets.get(todo[1]), None, None, t)
        self._display_dirty = True

    # ----- the loop's parts

    def scan_step(self, now):
        self._now = now
        occ = self.hal.scan(self._occ)
        if self._selftest is not None:
            self._selftest_scan(occ)
            self.progress[0] += 1
            return
        self.rec.scan(occ, now)
        for kind, a, b, t in self.hal.inputs():
            if kind == "press":
                self.press(a, t)
            else:
                self.button(a, b, t)
        self._commit(now)
        self.progress[0] += 1

    def clock_step(self, now):
        self._now = now
        self.match.check(now)
        self._thresholds(now)
        for side in (WHITE, BLACK):
            p = self.players[side]
            p.step(now)
            if not p.busy and _letter(side) in self.access["visual"]:
                self._led(side, self.clock.running_side() == side)
        c = self.clock
        dirty = self._clock_dirty
        self._clock_dirty = False
        if dirty or (c.running >= 0 and not c.paused and
                     self.hal.diff(now, self._clock_at) >= CLOCK_EVERY_MS):
            self.clock_line(now)
        if self._pulse_until is not None and self.hal.diff(now, self._pulse_until) >= 0:
            self._pulse_until = None
            self.hal.motor(WHITE, 0)
            self.hal.motor(BLACK, 0)
            self.hal.buzzer(0)
        if self.hal.diff(now, self._power_at) >= POWER_EVERY_MS:
            self._power_at = now
            mv, usb, low = self.hal.power()
            if mv is not None:
                self.write("power %d %s %s" % (mv, "usb" if usb else "battery", "low" if low else "ok"))
            if low != self.low_battery:
                self.low_battery = low
                self._display_dirty = True
        # The running side shows at once after a change; the times ten times a second.
        if dirty or self._display_dirty or self.hal.diff(now, self._display_at) >= DISPLAY_EVERY_MS:
            self._display_dirty = False
            self._display_at = now
            if self.menu.open:
                shown = self.menu.text()
            else:
                shown = (display.side_text(c, WHITE, now), display.side_text(c, BLACK, now))
            if self.low_battery:  # C.02: the low-battery sign
                shown = (shown[0] + " L", shown[1] + " L")
            if shown != self._shown:
                self._shown = shown
                self.hal.display(shown[0], shown[1])
                run = c.running_side()
                for side in (WHITE, BLACK):
                    # A deaf player's LED belongs to his signal while one plays.
                    if not (self.players[side].busy and _letter(side) in self.access["visual"]):
                        self._led(side, run == side)
        self._commit(now)
        if self.journal is not None:
            self._checkpoint(now)
        self.progress[1] += 1

    def protocol_step(self, now):
        self._now = now
        data = self.hal.read()
        if data:
            self.reader.feed(data, self._on_line)
        self._commit(now)
        self.progress[2] += 1

    def idle_step(self):
        return self.rec.idle()

    def step(self, now):
        self.scan_step(now)
        self.clock_step(now)
        self.protocol_step(now)
        self.idle_step()

    # ----- commands from the host

    def _on_line(self, text, bad):
        if bad:
            self.write("err %s" % bad)
            return
        try:
            cmd, pos, kw = P.split(text)
        except ValueError as e:
            self.write("err bad-argument " + P.encode(str(e)))
            return
        handler = getattr(self, "cmd_" + cmd, None) if cmd.isalpha() else None
        if handler is None:
            self.write("err unknown-command " + P.encode(cmd))
            return
        try:
            handler(pos, kw, self._now)
        except (NotNow, ClockError, MatchError) as e:
            self.write("err not-now " + P.encode(str(e)))
        except (ValueError, IndexError, KeyError) as e:
            self.write("err bad-argument " + P.encode(str(e)))

    def _ok(self, *words):
        self.write(" ".join(("ok",) + words))

    def _no_extra(self, pos, kw, npos, keys=()):
        if len(pos) != npos:
            raise ValueError("expected %d word(s), got %d" % (npos, len(pos)))
        for k in kw:
            if k not in keys:
                raise ValueError("unknown key " + k)

    def cmd_hello(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        self.write("hello proto=%d fw=%s board=%s game=%d seq=%d" % (
            P.VERSION, FIRMWARE, self.board_id, self.log.game_id, self.log.count))

    def cmd_new(self, pos, kw, now):
        self._no_extra(pos, kw, 0, ("tc", "fen", "chess960", "white", "black", "preset"))
        control = kw.get("tc", self.control)
        if "preset" in kw:
            control = self.presets.get(_int(kw["preset"], "preset"))
        if "fen" in kw and "chess960" in kw:
            raise ValueError("give fen or chess960, not both")
        number = _int(kw["chess960"], "chess960") if "chess960" in kw else None
        if number is not None:
            _960.back_rank(number)  # checks 0..959 before anything changes
        parse_tc(control)
        white = kw.get("white", self.white)
        black = kw.get("black", self.black)
        old = (self.white, self.black)
        self.white, self.black = white, black
        try:
            self._new_game(control, kw.get("fen"), number, now)
        except ValueError:
            self.white, self.black = old
            raise
        if number is not None:
            self.rec.set_next_start(self.game.fen(), True)
        self._ok("new", str(self.log.game_id))

    def cmd_start(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        self.clock.start(now, self.game.turn)
        self._ok("start")

    def cmd_pause(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        self.clock.pause(now)
        self._ok("pause")

    def cmd_resume(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        self.clock.resume(now)
        self._ok("resume")

    def cmd_set(self, pos, kw, now):
        self._no_extra(pos, kw, 3)
        what, side, value = pos[0], _side(pos[1]), _int(pos[2], "the value")
        if what == "time":
            self.clock.set_time(side, value)
        elif what == "moves":
            self.clock.set_moves(side, value)
        elif what == "period":
            self.clock.set_period(side, value)
        else:
            raise ValueError("set time|moves|period w|b VALUE")
        self._ok("set", what)

    def cmd_penalty(self, pos, kw, now):
        self._no_extra(pos, kw, 2)
        side = _side(pos[1])
        if pos[0] == "illegal":
            self.match.illegal_move(side, now)
        elif pos[0] == "claim":
            self.match.incorrect_claim(side, now)
        else:
            raise ValueError("penalty illegal|claim w|b")
        self._ok("penalty", pos[0])

    def cmd_quickplay(self, pos, kw, now):
        self._no_extra(pos, kw, 1)
        self.match.quickplay_finish(_side(pos[0]), now)
        self._ok("quickplay")

    def cmd_resign(self, pos, kw, now):
        self._no_extra(pos, kw, 1)
        self.match.resign(_side(pos[0]), now)
        self._ok("resign")

    def cmd_draw(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        self.match.agree_draw(now)
        self._ok("draw")

    def cmd_claim(self, pos, kw, now):
        self._no_extra(pos, kw, 1)
        ok = self.match.claim_draw(_side(pos[0]), now)
        self._ok("claim", "correct" if ok else "incorrect")

    def cmd_result(self, pos, kw, now):
        self._no_extra(pos, kw, 1)
        winner = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": None}
        if pos[0] not in winner:
            raise ValueError("result 1-0|0-1|1/2-1/2")
        self.match.arbiter_result(winner[pos[0]], now)
        self._ok("result")

    def cmd_state(self, pos, kw, now):
        self._no_extra(pos, kw, 0)
        o = self.match.outcome
        self.write("state game=%d seq=%d ply=%d turn=%s result=%s fen=%s board=%s" % (
            self.log.game_id, self.log.count, self.game.ply, _letter(self.game.turn),
            o.result() if o else "*", P.encode(self.game.fen()), self.rec.status))
        self.clock_line(now)

    def cmd_resend(self, pos, kw, now):
        self._no_extra(pos, kw, 1)
        word = pos[0]
        game = self.log.game_id
        if ":" in word:
            g, word = word.split(":", 1)
            game = _int(g, "the game")
        first = _int(word, "the sequence number")
        if game != self.log.game_id:
            raise NotNow("game %d is not the current game (%d)" % (game, self.log.game_id))
        if not 1 <= first <= self.log.count + 1:
            raise ValueError("sequence numbers of game %d are 1..%d" % (game, self.log.count))
        for seq in range(first, self.log.count + 1):
            self.write(self.log.line(seq, self._uci))
        self._ok("resend", "%d:%d" % (game, self.log.count))

    def cmd_preset(self, pos, kw, now):
        if pos[:1] == ["list"]:
            self._no_extra(pos, kw, 1)
            for n, name, control in self.presets.all():
                self.write("preset %d %s %s" % (n, P.encode(name), control))
            self._ok("preset", "list")
        elif pos[:1] == ["set"]:
            self._no_extra(pos, kw, 2, ("name", "tc"))
            self.presets.set_user(_int(pos[1], "the slot"), kw.get("name", "User"), kw["tc"])
            self._ok("preset", "set")
        else:
            raise ValueError("preset list | preset set SLOT name=NAME tc=CONTROL")

    def _selftest_scan(self, occ):
        t = self._selftest
        for r in range(8):
            t["seen"][r] |= occ[r]
            t["always"][r] &= occ[r]
        for kind, a, b, tick in self.hal.inputs():
            name = a if kind == "button" else ("white" if a == WHITE else "black")
            if name not in t["buttons"]:
                t["buttons"].append(name)

    def cmd_selftest(self, pos, kw, now):
        """For a maker: `selftest start` on an empty board, move a piece over every square
        and press every button, `selftest report`, `selftest stop`."""
        self._no_extra(pos, kw, 1)
        if pos[0] == "start":
            occ = self.hal.scan(bytearray(8))
            self._selftest = {"stuck": bytearray(occ), "seen": bytearray(8),
                              "always": bytearray(b"\xff" * 8), "buttons": []}
            self.hal.motor(WHITE, 100)
            self.hal.motor(BLACK, 100)
            self.hal.buzzer(2000)
            self._pulse_until = now + PULSE_MS
            self._ok("selftest", "start")
        elif pos[0] == "report":
            t = self._selftest
            if t is None:
                raise NotNow("no self-test is running: selftest start")
            stuck = [sq for sq in range(64) if (t["stuck"][sq >> 3] >> (sq & 7)) & 1
                     and (t["always"][sq >> 3] >> (sq & 7)) & 1]
            dead = [sq for sq in range(64) if not (t["seen"][sq >> 3] >> (sq & 7)) & 1]
            self.write("selftest stuck=%s dead=%s buttons=%s" % (
                ",".join(square_name(q) for q in stuck) or "-",
                ",".join(square_name(q) for q in dead) or "-", ",".join(t["buttons"]) or "-"))
            self._ok("selftest", "report")
        elif pos[0] == "stop":
            self._selftest = None
            self.rec.restart(now)
            self._ok("selftest", "stop")
        else:
            raise ValueError("selftest start|report|stop")

    def cmd_access(self, pos, kw, now):
        """Signals for blind and deaf players: access blind=w visual=b code=taptic
        buzzer=on intensity=60,100 thresholds=600,300,60,10 (kept on the device)."""
        self._no_extra(pos, kw, 0, ("blind", "visual", "buzzer", "code", "intensity", "thresholds"))
        if kw:
            self.access.update(kw)
        a = self.access
        self.write("access blind=%s visual=%s buzzer=%s code=%s intensity=%s thresholds=%s" % (
            a["blind"] or "-", a["visual"] or "-", "on" if a["buzzer"] else "off", a["code"],
            ",".join(str(i) for i in a["intensity"]), ",".join(str(i) for i in a["thresholds"])))
        self._ok("access")

    def cmd_config(self, pos, kw, now):
        self._no_extra(pos, kw, 0, CONFIG_KEYS)
        self._config(kw)
        saved = dict(self._config_saved)
        saved.update(kw)
        tmp = self.config_path + ".new"
        with open(tmp, "w") as f:
            f.write(json.dumps(saved))
        os.rename(tmp, self.config_path)  # on flash: the settings survive a power cut
        self._config_saved = saved
        self._ok("config")

    def _config(self, kw):
        onoff = {"on": True, "off": False}
        # Check every value first, then change: a bad one changes nothing.
        settle = _int(kw["settle"], "settle") if "settle" in kw else None
        if settle is not None and not 20 <= settle <= 150:
            raise ValueError("settle is 20..150 ms")
        for k in ("autopenalty", "freeze"):
            if k in kw and kw[k] not in onoff:
                raise ValueError("%s is on or off" % k)
        orient = {"auto": None, "normal": False, "turned": True}
        if "orientation" in kw and kw["orientation"] not in orient:
            raise ValueError("orientation is auto, normal or turned")
        match = getattr(self, "match", None)
        if settle is not None:
            self.rec.settle_ms = settle
        if "autopenalty" in kw:
            self.auto_penalties = onoff[kw["autopenalty"]]
            if match is not None:
                match.auto_penalties = self.auto_penalties
        if "freeze" in kw:
            self.freeze = onoff[kw["freeze"]]
            if match is not None:
                self.clock.freeze_on_flag = self.freeze
        if "orientation" in kw:
            self.rec.orientation = self.rec._fixed_orientation = orient[kw["orientation"]]

    def _load_config(self, problems):
        self._config_saved = {}
        try:
            with open(self.config_path) as f:
                saved = json.loads(f.read())
            if not isinstance(saved, dict) or any(k not in CONFIG_KEYS or not isinstance(v, str)
                                                  for k, v in saved.items()):
                raise ValueError("unknown settings")
            self._config(saved)
            self._config_saved = saved
        except OSError:
            pass  # none saved yet
        except ValueError as e:
            problems.append("settings unreadable (%s): defaults" % e)
