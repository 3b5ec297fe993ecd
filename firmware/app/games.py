# The game in play and its set-up: a new game (the host's `new`, the menu's preset, the
# start position set up on the board, the journal's game after a power cut) with its
# control and players, and what the host asks of the game in play: its state, a move to
# carry out (expect), a hint. A new game resets the parts the device made once (the game,
# the clock, the match, the recogniser) rather than making new ones.
from firmware.app import protocol as P
from firmware.app import recovery
from firmware.clock.timecontrol import parse as parse_tc
from firmware.rules.chess960 import back_rank, start_fen
from firmware.rules.position import move_from, move_to
from firmware.rules.squares import WHITE
from firmware.rules.uci import parse_uci, uci

DEFAULT_CONTROL = "300+2"
NEW_KEYS = ("tc", "fen", "chess960", "white", "black", "preset", "source")


class Games:
    def __init__(self, game, clock, match, recognizer, record, events, faces, presets, quiet):
        """quiet(): a game was set up, a moment for the garbage collector (main.py)."""
        self.game = game
        self.clock = clock
        self.match = match
        self.recognizer = recognizer
        self.record = record
        self.events = events
        self.faces = faces
        self.presets = presets
        self.quiet = quiet
        self.control, self.white, self.black = DEFAULT_CONTROL, "White", "Black"
        self.freeze = None  # the clocks at a flag (`config freeze`); None: as the control says (C.02)

    def boot(self, feed_watchdog, now, problems):
        """At start-up: the journal's game back as it was at its last commit, or a new
        game; the hello (for the host that asks first) and the start's problems."""
        record = self.record
        found = recovery.recover(record, self.setup, feed_watchdog, now, problems)
        record.hello(now, found is not None)
        for p in problems:
            record.write("warning " + P.encode(p))
        if found:
            self.recognizer.restart(now)
            recovery.resume(record, found, self.game, self.clock, now)
            if self.match.outcome is not None:
                self.recognizer.game_over()
        else:
            self.start(DEFAULT_CONTROL, None, None, self.white, self.black, now)

    def set_freeze(self, freeze):
        self.freeze = freeze
        self.clock.freeze_on_flag = freeze

    def setup(self, control, fen, number, white, black, now):
        """The parts set for a game (nothing recorded); the Match (recovery.py)."""
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

    def start(self, control, fen, number, white, black, now, source=""):
        """A new game, recorded; source: where the game is played besides the board
        ("lichess.org/<id>"), if anywhere: a key of the game line."""
        self.setup(control, fen, number, white, black, now)
        if source:
            # Its own clock decides the time: a flag here ends nothing and freezes nothing.
            self.match.end_on_flag = False
            self.clock.freeze_on_flag = False
        self.record.new_game(control, self.game.fen(), number, white, black, source)
        self.events.clock_line(now)
        # Setting up leaves garbage (the control's parser, a FEN read): collected now,
        # with no clock running, not by an allocation in the path of the first press.
        self.quiet()

    def again(self, fen, number, now):
        """A new game with the same control and players (the start set up on the board)."""
        self.start(self.control, fen, number, self.white, self.black, now)

    def preset(self, control, now):
        """A new game with the menu's control."""
        self.start(control, None, None, self.white, self.black, now)

    # ----- the host's commands (firmware/app/commands.py)

    def starting(self):
        """Whether a lever's press now starts the game: no clock started, no move made
        (the seats are learnt then: firmware/access/seats.py)."""
        return not self.clock.started and not self.game.moves

    def start_clock(self, now):
        self.clock.start(now, self.game.turn)

    def set(self, what, side, value, now):
        """The arbiter sets side's time (ms), completed moves or period (0-based)."""
        c = self.clock
        if what == "time":
            c.set_time(side, value)
        elif what == "moves":
            c.set_moves(side, value)
        elif what == "period":
            c.set_period(side, value)
        else:
            raise ValueError("set time|moves|period w|b VALUE")
        return ("set", what)

    def penalty(self, kind, side, now):
        """The arbiter's penalty for side's illegal move (7.5) or incorrect claim (9.5)."""
        if kind == "illegal":
            self.match.illegal_move(side, now)
        elif kind == "claim":
            self.match.incorrect_claim(side, now)
        else:
            raise ValueError("penalty illegal|claim w|b")
        return ("penalty", kind)

    def claim(self, side, now):
        """side claims a draw (9.2, 9.3): checked at once, the answer says how it went."""
        return ("claim", "correct" if self.match.claim_draw(side, now) else "incorrect")

    def new(self, kw, now):
        control = kw.get("tc", self.control)
        if "preset" in kw:
            control = self.presets.get(P.whole(kw["preset"], "preset"))
        if "fen" in kw and "chess960" in kw:
            raise ValueError("give fen or chess960, not both")
        number = P.whole(kw["chess960"], "chess960") if "chess960" in kw else None
        if number is not None:
            back_rank(number)  # checks 0..959 before anything changes
        self.start(control, kw.get("fen"), number, kw.get("white", self.white), kw.get("black", self.black),
                   now, kw.get("source", ""))
        if number is not None:
            self.recognizer.set_next_start(self.game.fen(), True)
        return ("new", str(self.record.log.game_id))

    def state(self, now):
        o = self.match.outcome
        log = self.record.log
        g = self.game
        self.record.write("state game=%d seq=%d ply=%d turn=%s result=%s fen=%s board=%s" % (
            log.game_id, log.count, g.ply, "w" if g.turn == WHITE else "b",
            o.result() if o else "*", P.encode(g.fen()), self.recognizer.status))
        self.events.clock_line(now)
        return ()

    def expect(self, word, now):
        """expect UCI: the move of the player who is not at the board (an engine, an
        opponent online), shown for the player at the board to carry out; only it is taken,
        and it is completed when it stands on the board. expect -: no longer."""
        if word == "-":
            if self.match.outcome is None:  # (after the result no move is taken anyway)
                self.events.expect(0, now)
            return ("expect", "-")
        if self.match.outcome is not None:
            raise P.NotNow("the game is over")
        m = parse_uci(self.game.position, word)  # an illegal or malformed move changes nothing
        self.events.expect(m, now)
        return ("expect", uci(self.game.position, m))

    def hint(self, word, now):
        """hint UCI: a move suggested for the player at the board (an engine's hint), lit on
        the square LEDs until the position changes; nothing else changes. hint -: no longer."""
        if word == "-":
            self.faces.hint(None, None)
            return ("hint", "-")
        if self.match.outcome is not None:
            raise P.NotNow("the game is over")
        m = parse_uci(self.game.position, word)  # an illegal or malformed move changes nothing
        self.faces.hint(move_from(m), move_to(m))
        return ("hint", uci(self.game.position, m))
