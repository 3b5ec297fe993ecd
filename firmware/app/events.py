# What happens in the game, on the board (the move recogniser) and on the clock (the
# match), turned into the game record's events and the host's lines, with the signals for
# blind and deaf players and the square LEDs that go with them. It is the recogniser's
# sink (a GameSink) and the match's and clock's (a MatchSink), and it keeps the clock
# line's cadence and the faces' refresh (clock_step). A completed illegal attempt needs
# nothing here: the match takes the press as one without a legal move (7.5.3).
#
# A move's line goes out with the commit at the end of the loop's step (record.py); what
# the move means for the game (its end, settle) is worked out after that commit, so that
# nothing stands between a move and its line.
from firmware.app import faces as F
from firmware.app.eventlog import (
    MOVE, CLK, TAKEBACK, START, FLAG, PERIOD, PENALTY, SET_TIME, SET_MOVES, SET_PERIOD,
    PAUSE, RESUME, QUICKPLAY, ILLEGAL, RESULT, TERMINATIONS,
)
from firmware.app.signals import letter
from firmware.board.sink import GameSink
from firmware.match import MatchSink
from firmware.rules.chess960 import number_of
from firmware.rules.position import is_en_passant, move_from, move_to
from firmware.rules.squares import WHITE, BLACK, PIECE_SYMBOLS, square_name
from firmware.rules.uci import uci

CLOCK_EVERY_MS = 1000  # the clock line at least this often while a clock runs


def _other(side):
    return BLACK if side == WHITE else WHITE


class GameEvents(GameSink, MatchSink):
    def __init__(self, game, record, signals, faces, hal, new_game, press):
        """new_game(fen, chess960 number, now): a new game with the same control and
        players; press(side, now): a clock press, as by the lever (a host's move carried
        out); hal: its now() and diff() (the tick for the callbacks' signals)."""
        GameSink.__init__(self, game)
        self.record = record
        self.signals = signals
        self.faces = faces
        self.new_game_set_up = new_game
        self.press = press
        self.hal = hal
        self.match = None  # the Match, the move recogniser and the SANs (attach)
        self.recognizer = None
        self.sans = None
        self.clock_dirty = True  # the clock line and faces are due at once
        self.clock_at = 0  # when the last clock line went out
        self._last_move = 0  # the last move made, for the square LEDs...
        self._moved = False  # ...made since the last settle
        self._done = None  # (side, tick): a press completed a move; its signals after settle

    def attach(self, recognizer, match, sans):
        """The parts made after this one, whose sink it is."""
        self.recognizer = recognizer
        self.match = match
        self.sans = sans

    # ----- the recogniser's sink (firmware/board/recognizer.py): what happens on the board

    def make_move(self, m, now):
        match = self.match
        if match.unsettled:  # a move before it in the same step: its end first
            self.settle(now)
        text = uci(self.game.position, m)
        if match.outcome is not None:
            self.record.write("attempt %s after the result" % text)
            return
        # Logged with its UCI and SAN and played; its line goes out with the step's
        # commit, and when the move was completed by a press, the press's clk with it.
        san = self.sans.san(m)
        self.record.event(MOVE, 0, self.game.ply + 1, m, san, text)
        # Said aloud by the board's own voice - unless it was the move shown to be carried
        # out (expect), which was said when it was shown.
        if self.signals.speaks() and m != self.recognizer.expected:
            self.signals.moved(self.game.turn, san, text, is_en_passant(m))
        match.play(m, now, True)
        self._last_move = m
        self._moved = True
        self.faces.dirty = True  # MOVE on the mover's face at once: the move was seen

    def settle(self, now):
        """After the step's commit: whether the move played ended the game, the last move
        on the square LEDs, and a press's signals once the game's end is known."""
        match = self.match
        if match.unsettled:
            match.settle()
        if self._moved:
            self._moved = False
            self.faces.last_move(move_from(self._last_move), move_to(self._last_move))
        done = self._done
        if done is not None:
            self._done = None
            if match.outcome is None:
                self.signals.move_done(done[0], done[1])
                self.signals.opponent_moved(_other(done[0]), done[1])

    def clock_line(self, now):
        """The clock's state out to the host (docs/protocol.md: `clock`)."""
        w, b, run, paused, pw, pb, mw, mb, fw, fb = self.match.clock.snapshot(now)
        self.record.write("clock %d %d %s %s moves=%d,%d period=%d,%d flags=%d,%d" % (
            w, b, "-" if run is None else letter(run), "paused" if paused else "running"
            if run is not None else "stopped", mw, mb, pw, pb, fw, fb))
        self.clock_at = now
        self.clock_dirty = False

    def clock_step(self, now):
        """The clock's part of the loop: flags, the signals' thresholds, the clock line
        when something changed or a second has passed while a clock runs, the faces."""
        match = self.match
        c = match.clock
        match.check(now)
        self.signals.step(now, c)
        dirty = self.clock_dirty
        if dirty or (c.running >= 0 and not c.paused and self.hal.diff(now, self.clock_at) >= CLOCK_EVERY_MS):
            self.clock_line(now)
        self.faces.refresh(now, c, self.game.turn, dirty)

    def idle(self):
        """The SANs of the position's moves, one at a time; whether there is more."""
        return self.sans.idle()

    def expected_made(self, now):
        # The host's move (expect) carried out on the board: completed at once, as if its
        # player had pressed his clock.
        self.press(_other(self.game.turn), now)

    def expect(self, m, t):
        """The host's move m (0: none): shown on the square LEDs and felt by the player
        at the board, who carries it out; only it is taken (the recogniser's expect)."""
        self.recognizer.expect(m)
        if m:
            # Its squares on the LEDs, and on its player's face instead of his time; said
            # aloud (appendix D.2.1: the move announced to the player who carries it out).
            self.faces.expected(move_from(m), move_to(m), self.game.turn)
            self.signals.opponent_moved(_other(self.game.turn), t)
            if self.signals.speaks():
                self.signals.moved(self.game.turn, self.sans.san(m), uci(self.game.position, m), is_en_passant(m))
        else:
            self.faces.expected(None, None)

    def take_back(self, ply, now):
        self.settle(now)
        while self.game.ply > ply:
            self.match.take_back(now)
            self.record.event(TAKEBACK, 0, self.game.ply)
        self.faces.last_move(None, None)

    def new_game(self, fen, chess960, now):
        # The start position set up on the board: a new game with the same control and
        # players, from the next start the host or the menu chose.
        self.settle(now)
        number = None
        if chess960 and fen:
            number = number_of(fen.split("/")[7].split()[0])
        self.new_game_set_up(None if number is not None else fen, number, now)

    def promotion(self, piece, square):
        self.record.write("promotion %s %s" % (PIECE_SYMBOLS[piece], square_name(square)))

    def touched(self, square):
        self.record.write("touched " + square_name(square))

    def attempt(self, frm, to):
        self.record.write("attempt %s%s" % (square_name(frm), square_name(to)))
        self.signals.illegal(self.game.turn, self.hal.now())

    def differs(self, missing, fixes):
        fix = ",".join((square_name(f) if f is not None else "-") + (square_name(t) if t is not None else "-")
                       for f, t in fixes)
        self.record.write("board differs missing=%s fix=%s" % (
            ",".join(square_name(s) for s in missing) or "-", fix or "-"))
        self.signals.board_differs(None, self.hal.now())
        self.faces.squares_to_fix([sq for sq in missing] + [sq for f, t in fixes for sq in (f, t) if sq is not None])

    def sync(self):
        self.record.write("board sync")
        self.faces.squares_to_fix(None)

    # ----- a press of a clock lever, once the match has taken it

    def completed_by_press(self, side, t):
        """side's press completed a move: its clock time into the record, out to the host
        with the step's commit (with the move, when the press completed it)."""
        g = self.game
        ply = g.ply - (1 if g.turn != side else 2)
        self.record.event(CLK, side, ply + 1, self.match.clock_after(ply))
        self._done = (side, t)

    def pressed_elsewhere(self, side, t):
        """side's move made on the other board of a pair, completed by his press here."""
        self.signals.move_done(side, t)

    def clock_due(self):
        """The clock line and the faces again at the next clock step (a press, a sync)."""
        self.clock_dirty = True
        self.faces.dirty = True

    # ----- what a deaf player is told, and the host's message

    def tell(self, side, signal, notice, held=False):
        """An event for side (None: both): its signal (a Signals method, or None) on his
        motor or light, and for a deaf player (access visual) its notice (text, sign) on
        his own face."""
        now = self.hal.now()
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            if signal is not None:
                signal(s, now)
            if self.signals.deaf(s):
                self.faces.notice(s, notice[0], notice[1], now, held)

    def message(self, words, kw, now):
        """The arbiter's message (at most a face's 8 characters; none: cleared) on the faces
        where no clock runs, until a move or the next message; for a deaf player, on his own
        face and light as well (a notice: beside his running time, its sign MS)."""
        if len(words) > 1 or kw:
            raise ValueError("message <text> (one word: spaces as %20)")
        text = words[0].upper() if words else ""
        if len(text) > 8 or not all(32 <= ord(c) <= 90 for c in text):
            raise ValueError("a message is at most 8 letters, digits and signs")
        self.faces.message(text or None)
        if text:
            self.tell(None, self.signals.message, (text, F.SIGN_MESSAGE))

    # ----- the clock's events (a ClockSink): into the record; the clock line and the
    # faces shown again at once

    def started(self, side, ms):
        self.record.event(START)
        self.clock_dirty = True

    def period(self, side, k):
        self.record.event(PERIOD, side, k)
        self.tell(side, self.signals.period, ("PERIOD %d" % (k + 1), "P%d" % (k + 1)))
        self.clock_dirty = True

    def flag(self, side, n):
        self.record.event(FLAG, side, n)
        self.signals.flag(side, self.hal.now())
        self.clock_dirty = True

    def frozen(self, side):
        self.clock_dirty = True

    def paused(self, side, ms):
        self.record.event(PAUSE)
        self.tell(None, self.signals.pause, F.PAUSED)
        self.clock_dirty = True

    def resumed(self, side, ms):
        self.record.event(RESUME)
        self.tell(None, self.signals.resume, F.RESUMED)
        self.clock_dirty = True

    def stopped(self):
        self.clock_dirty = True

    def synced(self):
        self.clock_dirty = True

    def time_set(self, side, ms):
        self.record.event(SET_TIME, side, ms)
        self.clock_dirty = True

    def moves_set(self, side, n):
        self.record.event(SET_MOVES, side, n)
        self.clock_dirty = True

    def period_set(self, side, k):
        self.record.event(SET_PERIOD, side, k)
        self.clock_dirty = True

    def quickplay(self, ms):
        self.record.event(QUICKPLAY)

    # ----- the match's events (a MatchSink)

    def completed(self, side, ply):
        # By ending the game (6.2.1.1), not by a press.
        self.record.event(CLK, 0, ply + 1, self.match.clock_after(ply))

    def illegal_press(self, side, n):
        self.record.write("illegal-press %s %d" % (letter(side), n))
        self.tell(side, self.signals.illegal, F.ILLEGAL)
        self.tell(_other(side), self.signals.opponent_illegal, F.OPPONENT_ILLEGAL)

    def illegal_move(self, side, n):
        self.record.event(ILLEGAL, side, n)

    def penalty(self, side, ms):
        self.record.event(PENALTY, side, ms)
        # Time given to side: "+2:00" on his face (his time jumps, and he is told why).
        self.tell(side, self.signals.time_added, ("+%d:%02d" % (ms // 60000, ms // 1000 % 60), "+%d" % (ms // 60000)))
        self.clock_dirty = True

    def draw_offered(self, side):
        self.record.write("draw-offer %s" % letter(side))
        self.tell(side, None, F.OFFERED)
        self.tell(_other(side), self.signals.draw_offer, F.DRAW_OFFERED, held=True)  # until he answers

    def draw_declined(self, side):
        self.record.write("draw-offer %s declined" % letter(side))
        self.faces.clear_notice(_other(side), F.DRAW_OFFERED)

    def claim(self, side, correct):
        self.record.write("claim %s %s" % (letter(side), "correct" if correct else "incorrect"))
        self.tell(None, self.signals.claim, F.CLAIMED)

    def outcome(self, o):
        if self.recognizer is not None:
            self.recognizer.game_over()  # a move shown after it is an attempt, told once
        self.record.event(RESULT, 0, 2 if o.winner is None else (0 if o.winner == WHITE else 1),
                          TERMINATIONS.index(o.termination))
        self.clock_dirty = True
        self.faces.clear_notice(WHITE, F.DRAW_OFFERED)
        self.faces.clear_notice(BLACK, F.DRAW_OFFERED)
        self.signals.game_over(None, self.hal.now())
