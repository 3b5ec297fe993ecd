# What happens in the game, on the board (the move recogniser) and on the clock (the
# match), turned into the game record's events and the host's lines, with the signals for
# blind and deaf players and the square LEDs that go with them. It is the recogniser's
# sink (its one outlet) and the match's emit; the device gives it its parts and
# start_game (for a new game set up on the board). A completed illegal attempt needs
# nothing here: the match takes the press as one without a legal move (7.5.3).
from firmware.app.eventlog import (
    MOVE, CLK, TAKEBACK, START, FLAG, PERIOD, PENALTY, SET_TIME, SET_MOVES, SET_PERIOD,
    PAUSE, RESUME, QUICKPLAY, ILLEGAL, RESULT, TERMINATIONS,
)
from firmware.app.signals import letter
from firmware.board.recognizer import GameSink
from firmware.rules.position import is_en_passant, move_from, move_to
from firmware.rules.squares import WHITE, BLACK, PIECE_SYMBOLS, square_name

# The match's events that are events of the game record: (kind, logged with side and value).
_LOGGED = {"start": (START, False), "period": (PERIOD, True), "flag": (FLAG, True),
           "pause": (PAUSE, False), "resume": (RESUME, False), "set_time": (SET_TIME, True),
           "set_moves": (SET_MOVES, True), "set_period": (SET_PERIOD, True),
           "quickplay": (QUICKPLAY, False), "penalty": (PENALTY, True), "illegal_move": (ILLEGAL, True)}
# The match's events after which the clock line and faces are shown again at once.
_CLOCK_CHANGES = ("start", "period", "flag", "freeze", "pause", "resume", "set_time",
                  "set_moves", "set_period", "penalty", "stop")


def _other(side):
    return BLACK if side == WHITE else WHITE


class GameEvents(GameSink):
    def __init__(self, game, record, signals, faces, start_game, now):
        """start_game(fen, chess960 number, now): a new game with the same control and
        players; now(): the tick of the step under way (for the callbacks' signals)."""
        GameSink.__init__(self, game)
        self.record = record
        self.signals = signals
        self.faces = faces
        self.start_game = start_game
        self.now = now
        self.match = None  # the current game's Match (set by the device with each game)
        self.rec = None  # the move recogniser (set by the device): told when the game ends
        self.clock_dirty = True  # the clock line and faces are due at once
        self._last_move = 0  # the last move made, for the square LEDs

    # ----- the recogniser's sink (firmware/board/recognizer.py): what happens on the board

    def make_move(self, m, now, san):
        match = self.match
        if match.outcome is not None:
            self.record.write("attempt %s after the result" % self.record.uci(m))
            return
        # Only logged and played here: its line goes out, committed, before anything is
        # worked out about the new position (settle), and when the move was completed by
        # a press, the press's clk goes out with it first (pressed).
        self.record.event(MOVE, 0, self.game.ply + 1, m, san)
        if self.signals.speaks():  # said aloud by the board's own voice
            self.signals.moved(self.game.turn, san, self.record.uci(m), is_en_passant(m))
        match.play(m, now, True)
        self._last_move = m
        self.faces.dirty = True  # MOVE on the mover's face at once: the move was seen

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
            from firmware.rules.chess960 import number_of  # a Chess960 game has loaded it

            number = number_of(fen.split("/")[7].split()[0])
        self.start_game(None if number is not None else fen, number, now)

    def promotion(self, piece, square):
        self.record.write("promotion %s %s" % (PIECE_SYMBOLS[piece], square_name(square)))

    def touched(self, square):
        self.record.write("touched " + square_name(square))

    def attempt(self, frm, to):
        self.record.write("attempt %s%s" % (square_name(frm), square_name(to)))
        self.signals.event(self.game.turn, "illegal", self.now())

    def differs(self, missing, fixes):
        fix = ",".join((square_name(f) if f is not None else "-") + (square_name(t) if t is not None else "-")
                       for f, t in fixes)
        self.record.write("board differs missing=%s fix=%s" % (
            ",".join(square_name(s) for s in missing) or "-", fix or "-"))
        self.signals.event(None, "board_differs", self.now())
        self.faces.squares_to_fix([sq for sq in missing] + [sq for f, t in fixes for sq in (f, t) if sq is not None])

    def sync(self):
        self.record.write("board sync")
        self.faces.squares_to_fix(None)

    # ----- a press of a clock lever, once the match has taken it

    def pressed(self, side, t):
        """side's press completed a move: its clock time into the record and out to the
        host at once (with the move, when the press completed it), then the rest."""
        match = self.match
        g = self.game
        ply = g.ply - (1 if g.turn != side else 2)
        self.record.event(CLK, side, ply + 1, match.clock_after(ply))
        self.record.commit(t, match.clock)
        self.settle(t)
        if match.outcome is None:
            self.signals.event(side, "move_done", t)
            self.signals.event(_other(side), "opponent_moved", t)

    # ----- what the match tells

    def on_match(self, kind, a, b):
        now = self.now()
        logged = _LOGGED.get(kind)
        if logged is not None:
            if logged[1]:
                self.record.event(logged[0], a, b)
            else:
                self.record.event(logged[0])
        if kind == "period":
            self.signals.event(a, "period", now)
        elif kind == "flag":
            self.signals.flag(a, now)
        elif kind == "pause":
            self.signals.event(None, "arbiter", now)
        elif kind == "illegal_press":
            self.record.write("illegal-press %s %d" % (letter(a), b))
            self.signals.event(a, "illegal", now)
        elif kind == "claim":
            self.record.write("claim %s %s" % (letter(a), "correct" if b else "incorrect"))
            self.signals.event(None, "draw", now)
        elif kind == "completed":  # by ending the game (6.2.1.1), not by a press
            self.record.event(CLK, 0, b + 1, self.match.clock_after(b))
        elif kind == "outcome":
            self._result(a)
        if kind in _CLOCK_CHANGES:
            self.clock_dirty = True

    def _result(self, o):
        if self.rec is not None:
            self.rec.game_over()  # a move shown after it is an attempt, told once
        self.record.event(RESULT, 0, 2 if o.winner is None else (0 if o.winner == WHITE else 1),
                          TERMINATIONS.index(o.termination))
        self.clock_dirty = True
        self.signals.event(None, "game_over", self.now())
