# What happens in the game, on the board (the move recogniser) and on the clock (the
# match), turned into the game record's events and the host's lines, with the signals for
# blind and deaf players and the square LEDs that go with them. It is the recogniser's
# sink (a GameSink) and the match's and clock's (a MatchSink); the device gives it its
# parts and start_game (for a new game set up on the board). A completed illegal attempt
# needs nothing here: the match takes the press as one without a legal move (7.5.3).
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

def _other(side):
    return BLACK if side == WHITE else WHITE


class GameEvents(GameSink, MatchSink):
    def __init__(self, game, record, signals, faces, start_game, now, press, match=None):
        """start_game(fen, chess960 number, now): a new game with the same control and
        players; now(): the tick of the step under way (for the callbacks' signals);
        press(side, now): a clock press, as by the lever (a host's move carried out)."""
        GameSink.__init__(self, game)
        self.record = record
        self.signals = signals
        self.faces = faces
        self.start_game = start_game
        self.press = press
        self.now = now
        self.match = match  # the Match (the device's, made once: its sink is this)
        self.recognizer = None  # the move recogniser (set by the device): told when the game ends
        self.sans = None  # the SANs of the position's moves (a SanCache, set with rec)
        self.clock_dirty = True  # the clock line and faces are due at once
        self.clock_at = 0  # when the last clock line went out
        self._last_move = 0  # the last move made, for the square LEDs

    # ----- the recogniser's sink (firmware/board/recognizer.py): what happens on the board

    def make_move(self, m, now):
        match = self.match
        if match.outcome is not None:
            self.record.write("attempt %s after the result" % self.record.uci(m))
            return
        # Only logged and played here: its line goes out, committed, before anything is
        # worked out about the new position (settle), and when the move was completed by
        # a press, the press's clk goes out with it first (pressed).
        san = self.sans.san(m)
        self.record.event(MOVE, 0, self.game.ply + 1, m, san)
        # Said aloud by the board's own voice - unless it was the move shown to be carried
        # out (expect), which was said when it was shown.
        if self.signals.speaks() and m != self.recognizer.expected:
            self.signals.moved(self.game.turn, san, self.record.uci(m), is_en_passant(m))
        match.play(m, now, True)
        self._last_move = m
        self.faces.dirty = True  # MOVE on the mover's face at once: the move was seen

    def clock_line(self, now):
        """The clock's state out to the host (docs/protocol.md: `clock`)."""
        w, b, run, paused, pw, pb, mw, mb, fw, fb = self.match.clock.snapshot(now)
        self.record.write("clock %d %d %s %s moves=%d,%d period=%d,%d flags=%d,%d" % (
            w, b, "-" if run is None else letter(run), "paused" if paused else "running"
            if run is not None else "stopped", mw, mb, pw, pb, fw, fb))
        self.clock_at = now
        self.clock_dirty = False

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
                self.signals.moved(self.game.turn, self.sans.san(m), self.record.uci(m), is_en_passant(m))
        else:
            self.faces.expected(None, None)

    def settle(self, now):
        """After the step that made a move: its line (and a press's clk) out, then whether
        it ended the game, and the last move on the square LEDs."""
        match = self.match
        if not match.unsettled:
            return
        self.record.commit(now, match.clock)
        match.settle()
        self.faces.last_move(move_from(self._last_move), move_to(self._last_move))

    def take_back(self, ply, now):
        while self.game.ply > ply:
            self.match.take_back(now)
            self.record.event(TAKEBACK, 0, self.game.ply)
        self.faces.last_move(None, None)

    def new_game(self, fen, chess960, now):
        # The start position set up on the board: a new game with the same control and
        # players, from the next start the host or the menu chose.
        number = None
        if chess960 and fen:
            number = number_of(fen.split("/")[7].split()[0])
        self.start_game(None if number is not None else fen, number, now)

    def promotion(self, piece, square):
        self.record.write("promotion %s %s" % (PIECE_SYMBOLS[piece], square_name(square)))

    def touched(self, square):
        self.record.write("touched " + square_name(square))

    def attempt(self, frm, to):
        self.record.write("attempt %s%s" % (square_name(frm), square_name(to)))
        self.signals.illegal(self.game.turn, self.now())

    def differs(self, missing, fixes):
        fix = ",".join((square_name(f) if f is not None else "-") + (square_name(t) if t is not None else "-")
                       for f, t in fixes)
        self.record.write("board differs missing=%s fix=%s" % (
            ",".join(square_name(s) for s in missing) or "-", fix or "-"))
        self.signals.board_differs(None, self.now())
        self.faces.squares_to_fix([sq for sq in missing] + [sq for f, t in fixes for sq in (f, t) if sq is not None])

    def sync(self):
        self.record.write("board sync")
        self.faces.squares_to_fix(None)

    # ----- a press of a clock lever, once the match has taken it

    def completed_by_press(self, side, t):
        """side's press completed a move: its clock time into the record and out to the
        host at once (with the move, when the press completed it), then the rest."""
        match = self.match
        g = self.game
        ply = g.ply - (1 if g.turn != side else 2)
        self.record.event(CLK, side, ply + 1, match.clock_after(ply))
        self.record.commit(t, match.clock)
        self.settle(t)
        if match.outcome is None:
            self.signals.move_done(side, t)
            self.signals.opponent_moved(_other(side), t)

    # ----- the clock's events (a ClockSink): into the record; the clock line and the
    # faces shown again at once

    def started(self, side, ms):
        self.record.event(START)
        self.clock_dirty = True

    def tell(self, side, signal, text, sign, held=False):
        """An event for side (None: both): its signal (a Signals method, or None) on his
        motor or light, and for a deaf player (access visual) its text on his own face
        (Faces.notice)."""
        now = self.now()
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            if signal is not None:
                signal(s, now)
            if self.signals.deaf(s):
                self.faces.notice(s, text, sign, now, held)

    def period(self, side, k):
        self.record.event(PERIOD, side, k)
        self.tell(side, self.signals.period, "PERIOD %d" % (k + 1), "P%d" % (k + 1))
        self.clock_dirty = True

    def flag(self, side, n):
        self.record.event(FLAG, side, n)
        self.signals.flag(side, self.now())
        self.clock_dirty = True

    def frozen(self, side):
        self.clock_dirty = True

    def paused(self, side, ms):
        self.record.event(PAUSE)
        self.tell(None, self.signals.pause, "PAUSE", "PA")
        self.clock_dirty = True

    def resumed(self, side, ms):
        self.record.event(RESUME)
        self.tell(None, self.signals.resume, "RESUME", "GO")
        self.clock_dirty = True

    def stopped(self):
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
        self.tell(side, self.signals.illegal, "ILLEGAL", "IL")
        self.tell(_other(side), self.signals.opponent_illegal, "OPP ILL", "OI")

    def illegal_move(self, side, n):
        self.record.event(ILLEGAL, side, n)

    def penalty(self, side, ms):
        self.record.event(PENALTY, side, ms)
        # Time given to side: "+2:00" on his face (his time jumps, and he is told why).
        self.tell(side, self.signals.time_added, "+%d:%02d" % (ms // 60000, ms // 1000 % 60), "+%d" % (ms // 60000))
        self.clock_dirty = True

    def draw_offered(self, side):
        self.record.write("draw-offer %s" % letter(side))
        self.tell(side, None, "OFFERED", "OF")
        self.tell(_other(side), self.signals.draw_offer, "DRAW?", "DR", held=True)  # until he answers

    def draw_declined(self, side):
        self.record.write("draw-offer %s declined" % letter(side))
        self.faces.clear_notice(_other(side), "DRAW?")

    def claim(self, side, correct):
        self.record.write("claim %s %s" % (letter(side), "correct" if correct else "incorrect"))
        self.tell(None, self.signals.claim, "CLAIM", "CL")

    def outcome(self, o):
        if self.recognizer is not None:
            self.recognizer.game_over()  # a move shown after it is an attempt, told once
        self.record.event(RESULT, 0, 2 if o.winner is None else (0 if o.winner == WHITE else 1),
                          TERMINATIONS.index(o.termination))
        self.clock_dirty = True
        self.faces.clear_notice(WHITE, "DRAW?")
        self.faces.clear_notice(BLACK, "DRAW?")
        self.signals.game_over(None, self.now())
