# A game as it is played: the rule checker's Game, the ChessClock, and the decisions the
# Laws give the clock and the arbiter. The device knows the position, so it can do what a
# plain clock cannot:
#   - a move that ends the game (mate, stalemate, dead position, fivefold, 75 moves) stops
#     the clock at once, with no press (art. 6.2.1.1);
#   - a flag is a loss, but a draw if the opponent cannot mate by any legal sequence (6.9);
#   - a press without a move is an illegal move (7.5.3) and does not switch the clock;
#   - completed illegal moves: the first gives the opponent 2 minutes (1 in rapid and blitz,
#     A.3), the second loses, or draws if the opponent cannot mate (7.5.5);
#   - an incorrect draw claim gives the opponent 2 minutes (1 in rapid/blitz) (9.5.3);
#   - a resignation is a draw if the opponent cannot mate (5.1.2);
#   - quickplay finish: 5 s a move for both, and 2 minutes to the opponent (III.4).
# Penalties are arbiter actions: one call each, recorded and reported. With
# auto_penalties=True (casual play) the device applies them by itself.
#
# What happens goes to a MatchSink, one method per event: the clock's (give the clock
# the same sink, so that both come out of one outlet) and the match's own.
from array import array

from firmware.clock.clock import ClockSink
from firmware.clock.timecontrol import FISCHER, STANDARD
from firmware.rules import outcome as o
from firmware.rules.squares import WHITE, BLACK

PENALTY_STANDARD_MS = 120000
PENALTY_RAPID_BLITZ_MS = 60000
QUICKPLAY_BELOW_MS = 120000  # III.4: asked with less than two minutes left


def _other(side):
    return BLACK if side == WHITE else WHITE


class MatchSink(ClockSink):
    """Where the match's events go (and the clock's: a ClockSink). This one lets them go;
    the device's (firmware/app/events.py) records and signals them."""

    def played(self, ply, m):
        """Move m was played as ply (0-based)."""

    def completed(self, side, ply):
        """side's move at ply (0-based) was completed by ending the game, not a press."""

    def illegal_press(self, side, n):
        """side pressed without a move (7.5.3): his n-th completed illegal move."""

    def illegal_move(self, side, n):
        """The arbiter gave side's n-th completed illegal move (7.5.5)."""

    def penalty(self, side, ms):
        """ms were given to side: the opponent's illegal move or incorrect claim."""

    def claim(self, side, correct):
        """side claimed a draw (9.2, 9.3); correct or not."""

    def draw_offered(self, side):
        """side offered a draw from the clock (9.1.2): it stands until the opponent answers."""

    def draw_declined(self, side):
        """side's offer lapsed: the opponent completed a move (9.1.2.3)."""

    def outcome(self, o):
        """The game ended: o an Outcome (firmware/rules/outcome.py)."""


_QUIET = MatchSink()


class MatchError(ValueError):
    """A game command that is not possible now."""


class Match:
    def __init__(self, game, clock, sink=None, auto_penalties=False, end_on_flag=True):
        """sink: a MatchSink (give the clock the same one: one outlet for both)."""
        self.game = game
        self.clock = clock
        self.sink = sink or _QUIET
        self.auto_penalties = auto_penalties
        self.reset(end_on_flag)

    def reset(self, end_on_flag=True):
        """A new game (the game and the clock set up anew by their owner): no outcome,
        no penalty, no move awaited. end_on_flag: a flag ends the game (False: a clock
        kept elsewhere, lichess's, decides)."""
        self.end_on_flag = end_on_flag
        self.outcome = None
        self.unsettled = False  # a move was played and settle() has not yet looked at it
        self._played_at = 0
        self.illegal = [0, 0]  # completed illegal moves of each side (7.5.5)
        self.offer = None  # the side whose draw offer stands (9.1.2), or None
        self._awaiting = [0, 0]  # moves each side made and has not yet completed by a press
        # A side's press made for a move he made on another board, before it is carried out
        # here (press_elsewhere): his time right after that press, or -1.
        self._ahead = [-1, -1]
        # The mover's clock right after the press that completed each ply (PGN %clk), in
        # 256-byte chunks like the position's move stack.
        self._clocks = [array("I", bytes(256))]

    # ----- events

    def _finish(self, outcome, now):
        if self.outcome is not None:
            return
        self.outcome = outcome
        self.offer = None
        self.clock.stop(now)
        self.sink.outcome(outcome)

    def _cannot_mate(self, side):
        return self.game.has_insufficient_material(side)

    def _loss_unless_no_mate(self, loser, termination, now):
        winner = _other(loser)
        if self._cannot_mate(winner):
            self._finish(o.Outcome(termination), now)  # a draw: the winner cannot mate
        else:
            self._finish(o.Outcome(termination, winner), now)

    def penalty_ms(self):
        """2 minutes in standard play, 1 in rapid and blitz (A.3)."""
        if self.clock.control.classification() == STANDARD:
            return PENALTY_STANDARD_MS
        return PENALTY_RAPID_BLITZ_MS

    # ----- clock times of the moves

    def clock_after(self, ply):
        """The mover's time right after the press that completed ply (0-based): the %clk
        of the PGN. 0 if that move was not completed by a press."""
        if not 0 <= ply < self.game.ply:
            raise IndexError("no ply %d" % ply)
        return self._clocks[ply >> 6][ply & 63]

    def _set_clock_after(self, ply, ms):
        while ply >> 6 >= len(self._clocks):
            self._clocks.append(array("I", bytes(256)))
        self._clocks[ply >> 6][ply & 63] = ms

    # ----- what happens on the board and the clock

    def make_move(self, m, now, checked=False):
        """A legal move of the side to move was made on the board. It is recorded at once;
        it is completed by the mover's press, or now if it ends the game (6.2.1.1).
        checked: m comes from this position's legal moves (the recogniser's table), so it
        is not generated again."""
        self.play(m, now, checked)
        self.settle()

    def play(self, m, now, checked=False):
        """make_move without deciding yet whether the move ended the game: settle() does
        that. In between, the mover's press may be answered (the device sends its clock
        time first: a move completed by its press keeps the press's time, increment
        included, even when settle() then finds that it ended the game)."""
        if self.outcome is not None:
            raise MatchError("the game is over (%s)" % self.outcome.result())
        side, ply = self._record(m, checked)
        self.sink.played(ply, m)
        i = side >> 4
        if self._ahead[i] >= 0:  # completed already, by his press for it (press_elsewhere)
            self._awaiting[i] -= 1
            self._set_clock_after(ply, self._ahead[i])
            self._ahead[i] = -1
            self.sink.completed(side, ply)
        self.unsettled = True
        self._played_at = now

    def settle(self):
        """Whether the last move played ended the game (mate, stalemate, dead position,
        fivefold, 75 moves): if so, the game ends at the tick it was made. A move not yet
        completed by a press is completed by its ending (6.2.1.1), with the mover's time
        then ("completed", side, ply) before the "outcome"."""
        if not self.unsettled:
            return
        self.unsettled = False
        end = self.game.outcome()
        if end is None:
            return
        now = self._played_at
        side = _other(self.game.turn)
        if self._awaiting[side >> 4]:
            self._awaiting[side >> 4] = 0
            ply = self.game.ply - 1
            self._set_clock_after(ply, self.clock.time_left(side, now))
            self.sink.completed(side, ply)
        self._finish(end, now)

    def _record(self, m, checked=False):
        """Play m and note it waits for its mover's press; (mover, 0-based ply)."""
        side = self.game.turn
        if checked:
            self.game.push_legal(m)
        else:
            self.game.push(m)
        ply = self.game.ply - 1
        self._set_clock_after(ply, 0)
        self._awaiting[side >> 4] += 1
        return side, ply

    # ----- the game read back from the device's journal (its events say what followed)

    def replay_move(self, m):
        """A move made on the board, as make_move records it, without events."""
        self._record(m)

    def replay_completed(self, ply, ms, side):
        """ply (1-based) completed with the mover's ms on his clock; side's moves no longer
        wait for a press."""
        self._set_clock_after(ply - 1, ms)
        self._awaiting[side >> 4] = 0

    def replay_illegal(self, side, count):
        """side had count completed illegal moves (7.5.5), as the journal says."""
        self.illegal[side >> 4] = count

    def replay_result(self, outcome):
        """The game had ended so, as the journal says (the clock's state says the rest)."""
        self.outcome = outcome

    def take_back(self, now):
        """The last move is taken back (a correction on the board or by the arbiter)."""
        self.settle()
        if not self.game.ply:
            raise MatchError("no move to take back")
        m = self.game.pop()
        side = self.game.turn
        if self._awaiting[side >> 4]:
            self._awaiting[side >> 4] -= 1
        return m

    def awaits_press(self, side):
        """Whether side has a move made and not yet completed by his press."""
        return self.outcome is None and self._awaiting[side >> 4] > 0

    def press(self, side, now):
        """side pressed his clock. Returns True if a move was completed. A move just
        play()ed is completed by it before settle() looks at it (see play)."""
        if self.outcome is not None:
            return False
        clock = self.clock
        i = side >> 4
        if not clock.started:
            if side != self.game.turn and not self._awaiting[i]:
                clock.start(now, self.game.turn)  # the opponent's button starts it (6.6)
                return False
            if not self._awaiting[i]:
                return False
            clock.start(now, side)  # he moved before the clock was started
        if clock.running != i or clock.paused:
            return False
        if not self._awaiting[i]:
            # 7.5.3: pressing the clock without having moved is an illegal move. The
            # clock does not switch: the position before the irregularity stands.
            self.sink.illegal_press(side, self.illegal[i] + 1)
            if self.auto_penalties:
                self.illegal_move(side, now)
            return False
        if not self._switch(side, now):
            return False
        after = clock.left[i]
        # Every move of this side since his last press is completed now (6.2.1.2: the
        # opponent may have moved meanwhile, so his last ply may not be the game's last).
        ply = self.game.ply - (1 if self.game.turn != side else 2)
        for _ in range(self._awaiting[i]):
            self._set_clock_after(ply, after)
            ply -= 2
        self._awaiting[i] = 0
        return True

    def _switch(self, side, now):
        """side's press switches the clock (False: his flag fell first, and is told); an
        opponent's draw offer standing is declined by it (9.1.2.3)."""
        if not self.clock.press(side, now):
            self.check(now)
            return False
        offer = self.offer
        if offer is not None and offer != side:
            self.offer = None
            self.sink.draw_declined(offer)
        return True

    def press_elsewhere(self, side, now):
        """side pressed his clock for a move he made on another board, which the player
        at this board has still to carry out here (appendix D: two boards for one game, this
        board's clock the game's; the sighted player's move, repeated on the blind player's
        board). His move was made (D.2.5: the ordinary rules for him), so his press completes
        it: the clock switches now, and the move, once carried out here, is completed with
        this press's time. Returns True if the clock switched."""
        i = side >> 4
        clock = self.clock
        if self.outcome is not None or side != self.game.turn or self._awaiting[i] or self._ahead[i] >= 0:
            return False
        if not clock.started:
            clock.start(now, side)
        if clock.running != i or clock.paused:
            return False
        if not self._switch(side, now):
            return False
        self._ahead[i] = clock.left[i]
        return True

    def offer_draw(self, side, now):
        """side's draw key (9.1.2): his offer stands until the opponent answers; the
        opponent's key while it stands agrees the draw (5.2.3), his next completed move
        declines it. Returns "offered", "agreed" or "standing" (offered already)."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        if self.offer is not None and self.offer != side:
            self.agree_draw(now)
            return "agreed"
        if self.offer == side:
            return "standing"
        self.offer = side
        self.sink.draw_offered(side)
        return "offered"

    def check(self, now):
        """Poll the clock; a flag in the last control ends the game (6.9)."""
        self.settle()
        if self.outcome is not None:
            return
        if self.clock.check(now) or any(self.clock.dead):
            if not self.end_on_flag:
                return
            first = self.clock.first_flag()
            for side in ((first,) if first else ()) + (WHITE, BLACK):
                if self.clock.dead[side >> 4]:
                    self._loss_unless_no_mate(side, o.TIME_FORFEIT, now)
                    return

    # ----- arbiter actions

    def illegal_move(self, side, now):
        """A completed illegal move of side (7.5.1-7.5.4), once the position before it is
        back on the board: the first gives the opponent 2 (1) minutes, the second loses."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        i = side >> 4
        self.illegal[i] += 1
        self.sink.illegal_move(side, self.illegal[i])
        if self.illegal[i] >= 2:
            self._loss_unless_no_mate(side, o.ILLEGAL_MOVES, now)
        else:
            ms = self.penalty_ms()
            self.clock.add_time(_other(side), ms, now)
            self.sink.penalty(_other(side), ms)

    def claim_draw(self, side, now):
        """side claims a draw (9.2 threefold, 9.3 fifty moves), checked at once. A correct
        claim draws; an incorrect one gives the opponent 2 (1) minutes (9.5.3), by the
        device itself with auto_penalties, else by the arbiter's incorrect_claim."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        g = self.game
        if g.can_claim_threefold_repetition():
            self.sink.claim(side, True)
            self._finish(o.Outcome(o.THREEFOLD_REPETITION), now)
            return True
        if g.can_claim_fifty_moves():
            self.sink.claim(side, True)
            self._finish(o.Outcome(o.FIFTY_MOVES), now)
            return True
        self.sink.claim(side, False)
        if self.auto_penalties:
            self.incorrect_claim(side, now)
        return False

    def incorrect_claim(self, side, now):
        ms = self.penalty_ms()
        self.clock.add_time(_other(side), ms, now)
        self.sink.penalty(_other(side), ms)

    def quickplay_finish(self, side, now):
        """III.4: side (to move, under 2 minutes) asked for 5 s increments, which is a draw
        offer; it was refused and the arbiter agrees: 5 s a move for both from now on and
        2 minutes more for the opponent."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        # Guidelines III.2/III.4: only in the final period of a game without increment or
        # delay, asked by the player to move, with less than two minutes left.
        c = self.clock
        i = side >> 4
        periods = c.control.periods
        p = periods[c.period[i]]
        if c.period[i] != len(periods) - 1 or p.moves or p.extra_ms or p.method != FISCHER \
                or c.control.method != FISCHER:
            raise MatchError("quickplay finish is only for the final period without increment or delay")
        if self.game.turn != side:
            raise MatchError("only the player to move may ask for it")
        if c.time_left(side, now) >= QUICKPLAY_BELOW_MS:
            raise MatchError("only with less than two minutes left")
        self.clock.quickplay_finish()
        self.clock.add_time(_other(side), PENALTY_STANDARD_MS, now)
        self.sink.penalty(_other(side), PENALTY_STANDARD_MS)

    def resign(self, side, now):
        """5.1.2: side resigns: a loss, or a draw if the opponent cannot mate."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        self._loss_unless_no_mate(side, o.RESIGNATION, now)

    def agree_draw(self, now):
        """5.2.3: a draw by agreement, once both players have made a move."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        if self.game.ply < 2:
            raise MatchError("a draw by agreement needs a move by each player (5.2.3)")
        self._finish(o.Outcome(o.AGREEMENT), now)

    def arbiter_result(self, winner, now):
        """The arbiter declares the result (winner WHITE, BLACK, or None for a draw)."""
        self.settle()
        if self.outcome is not None:
            raise MatchError("the game is over")
        self._finish(o.Outcome(o.ARBITER, winner), now)
