"""Two boards, one game (FIDE Laws, appendix D): the sighted player's board and the blind
player's (hardware/tactile.py), paired in the round file - board n's `blind_serial` is the
blind player's board, `blind` his colour. The blind player's board is board n + PAIRED on
the relay: the arbiter sees both; spectators, the round PGN and lichess see board n's game
only.

One clock: the blind player's board's (his clock, D.2.6: his ask keys, motors and voice).
Both players press it. The relay tells each board of the pair what it is (`pair`): on the
blind player's board the sighted player's press completes the move he made on his own board
before it is repeated there (D.2.5); on the sighted player's board the levers do nothing.
The game as the public sees it - board n - takes its clock, its %clk and a result decided
on the clock (a flag, a draw agreed with its keys) from the blind player's board.

A move made on one board must be repeated on the other (D.2.3): the relay asks the board
that lags to show it (`expect <uci>`: its squares light, its face shows it, its voice says
it, the player there feels that the opponent moved), and takes nothing else there. When the
two boards' games part beyond that - a second move before the first was repeated, another
move made in its place, another move tried where one was to be repeated, or the blind
player's press before the sighted player's move was repeated on his board - the arbiter is
alerted at once (D.2.9), with the move where they part, what each board has and the squares
that differ, and both boards are told (`message DIFFER`); once they are one game again, that
is said too, and written into the game's PGN as a comment (the arbiter's correction).
With `touches` in the round file the blind player feels it when the sighted player lifts a
piece and puts it back on his board (D.2.10: what an assistant would tell him).

The blind player keeps his half of his clock from round to round (`blind_seat`, the left
unless told; docs/access.md): his board is told where White sits this round (`access
white=left|right`, from his seat and his colour), so that his motor, ask key, voice and
lever stay his whatever colour he has. His own signals' seat is his board's setting (`access
blind=`, kept on its flash, set by him or by `play pair`); the relay asks his board for it
(`access`) when it comes and when the round changes, and alerts the arbiter (and logs it)
when it is not the round's `blind_seat` - his motor, ask key and voice would be on his
opponent's half - and again, not urgent, once it is."""
from __future__ import annotations

import chess

PAIRED = 1000  # the blind player's board of pairing n is board n + PAIRED


def moves(s) -> list[str]:
    rec = s.record if s is not None else None
    return [p.uci for p in rec.plies] if rec is not None else []


def sans(s) -> list[str]:
    rec = s.record if s is not None else None
    return [p.san for p in rec.plies] if rec is not None else []


class TwoBoards:
    def __init__(self, sessions: dict, round_info, alert, send, note=None, clock_changed=None,
                 board_changed=None):
        """round_info(): the round; alert(session, kind, text, urgent); send(session, line):
        a command line to a board (its answer is not waited for); note(session, text): a
        comment in the game's PGN at its last move; clock_changed(session) and
        board_changed(session): the publisher's, for board n when it takes the clock's."""
        self.sessions = sessions
        self.round_info = round_info
        self.alert = alert
        self.send = send
        self.note = note or (lambda s, text: None)
        self.clock_changed = clock_changed or (lambda s: None)
        self.board_changed = board_changed or (lambda s: None)
        self._asked: dict[int, str] = {}  # board -> the move it was asked to repeat
        self._parted: dict[int, tuple] = {}  # pairing -> where the games parted, last told
        self._first: dict[int, str] = {}  # pairing -> how they first parted (for the PGN's comment)
        self._known: dict[int, str] = {}  # board -> the pair line it has (its hello's, or the last sent)
        self._seated: dict[int, str] = {}  # board -> the seats' line last sent to it
        self._blind_said: dict[int, str | None] = {}  # blind player's board -> the mismatch last alerted (None: it matched)

    # ----- which board is whose

    def entry(self, number: int) -> tuple[int, dict] | None:
        """(pairing n, its round entry) if board number is one of a pair, else None."""
        main = number - PAIRED if number > PAIRED else number
        b = self.round_info().boards.get(main, {})
        return (main, b) if b.get("blind_serial") else None

    def pair_line(self, number: int) -> str:
        """What board number is told it is (`pair`): the side whose moves are made on the
        other board, and whose clock is the game's; `pair -` when it is not one of a pair."""
        e = self.entry(number)
        if e is None:
            return "pair -"
        main, b = e
        blind = "w" if b["blind"] == "white" else "b"
        sighted = "b" if blind == "w" else "w"
        return f"pair {sighted} here" if number > PAIRED else f"pair {blind} there"

    def seats_line(self, number: int) -> str | None:
        """What the blind player's board is told of its seats (`access white=left|right`:
        where White sits, from his seat and his colour this round); None for another board."""
        e = self.entry(number)
        if e is None or number <= PAIRED:
            return None
        seat = e[1].get("blind_seat", "left")
        other = "right" if seat == "left" else "left"
        return "access white=" + (seat if e[1]["blind"] == "white" else other)

    def attached(self, s, said: str | None) -> None:
        """Board s said hello on a new line; said: its hello's pair= ("w,here"; None: not
        paired). A board is told only what it does not have already."""
        self._known[s.number] = "pair " + said.replace(",", " ") if said else "pair -"
        self._seated.pop(s.number, None)  # told again: its seats may have been set since
        self._tell(s)
        self._ask_blind_seat(s)
        self._asked.pop(s.number, None)  # a board that restarted has forgotten what it was asked
        self.changed(s)

    def round_changed(self) -> None:
        """The round changed (the arbiter's form): the boards whose part changed are told."""
        for s in list(self.sessions.values()):
            if s.send is not None:
                self._tell(s)
                self._ask_blind_seat(s)

    def _tell(self, s) -> None:
        line = self.pair_line(s.number)
        if self._known.get(s.number, "pair -") != line:
            self.send(s, line)
            self._known[s.number] = line
        self._seat(s)

    def _seat(self, s) -> None:
        """The blind player's board told where White sits, unless it has been already; a
        game under way there keeps its seats (a round changed early) and is told once its
        game is over, or with its record, which its hello's resend brings."""
        line = self.seats_line(s.number)
        if line is None or self._seated.get(s.number) == line:
            return
        rec = s.record
        if rec is None or (rec.plies and rec.result == "*"):
            return
        self.send(s, line)
        self._seated[s.number] = line

    def _ask_blind_seat(self, s) -> None:
        """The blind player's board asked for its access settings (`access`: its answer
        says `blind=`, checked in heard)."""
        if s.number > PAIRED and self.entry(s.number) is not None:
            self.send(s, "access")

    def _blind_seat(self, s, said: str | None) -> None:
        """The blind player's board said its blind signals' seat (`access blind=`): the
        arbiter alerted when the round file's blind_seat is not among it, and told once it
        is again."""
        e = self.entry(s.number)
        if e is None or s.number <= PAIRED or said is None:
            return
        main, entry = e
        seat = entry.get("blind_seat", "left")
        last = self._blind_said.get(s.number)
        if said in (seat, "both"):
            self._blind_said[s.number] = None
            if last:
                self.alert(s, "blind-seat", f"the blind player's board (board {s.number}) now gives his signals "
                                            f"at the {seat}, his seat in the round file", False)
            return
        where = {"left": "at the left", "right": "at the right", "-": "to nobody"}.get(said, repr(said))
        mismatch = f"{said}/{seat}"
        if last == mismatch:
            return  # (told already: the same answer again)
        self._blind_said[s.number] = mismatch
        self.alert(s, "blind-seat",
                   f"the blind player's board (board {s.number}, pairing {main}) gives his signals {where} "
                   f"(its setting blind={said}), but the round file seats him at the {seat} (blind_seat): his motor, "
                   f"ask key and voice are not at his seat - set `access blind={seat}` on his board, or correct "
                   f"blind_seat", True)

    # ----- what the boards did

    def heard(self, s, m) -> None:
        """A line from board s (relay/boards.py): an attempt where a move was to be repeated
        is a missing repetition (D.2.9); a touch on the sighted player's board is felt by
        the blind player if he wants it (D.2.10)."""
        kind = getattr(m, "kind", None)
        if kind == "access":  # (the answer to `access`, asked or the relay's `access white=`)
            self._blind_seat(s, getattr(m, "kwargs", {}).get("blind"))
            return
        e = self.entry(s.number)
        if e is None or kind not in ("attempt", "touched", "illegal-press") or not getattr(m, "args", None):
            return
        main, entry = e
        if kind == "illegal-press" and s.number in self._asked and s.number > PAIRED:
            # The blind player pressed with the sighted player's move not yet repeated on
            # his board: he made his own move on a position the game does not have.
            san = self._san(s, self._asked[s.number])
            self.alert(self.sessions.get(main, s), "pair-differs",
                       f"D.2.9: the blind player pressed on his board (board {s.number}) before {san} was "
                       f"repeated there: his move was made without it", True)
        elif kind == "attempt" and s.number in self._asked:
            asked = self._asked[s.number]
            whose = "the blind player's board (board %d)" % s.number if s.number > PAIRED \
                else "the sighted player's board"
            san = self._san(s, asked)
            self.alert(self.sessions.get(main, s), "pair-differs",
                       f"D.2.9: on {whose} {m.args[0]} was tried where {san} was to be repeated", True)
        elif kind == "touched" and s.number == main and entry.get("touches"):
            other = self.sessions.get(main + PAIRED)
            if other is not None:
                self.send(other, "touched " + m.args[0])

    def changed(self, s) -> None:
        """A board's game or clock changed: the pair held against each other."""
        e = self.entry(s.number)
        if e is None:
            s.clock_from = None  # (a pair no longer)
            return
        if s.send is not None:
            self._seat(s)
        main, _ = e
        a, b = self.sessions.get(main), self.sessions.get(main + PAIRED)
        if a is None or b is None or a.record is None or b.record is None:
            return
        self._one_clock(a, b)
        ma, mb = moves(a), moves(b)
        short, have, lag = (a, ma, mb) if len(ma) < len(mb) else (b, mb, ma)
        if len(have) == len(lag) and have == lag:
            self._asked.pop(short.number, None)
            self._rejoined(main)
            return
        if len(lag) == len(have) + 1 and lag[:len(have)] == have:
            uci = lag[-1]
            if self._asked.get(short.number) != uci:  # asked once a move
                self._asked[short.number] = uci
                self.send(short, "expect " + uci)
            self._rejoined(main)
            return
        k = next((i for i, (x, y) in enumerate(zip(ma, mb)) if x != y), min(len(ma), len(mb)))
        what = (k, tuple(ma[k:k + 2]), tuple(mb[k:k + 2]))
        if self._parted.get(main) == what:
            return
        self._parted[main] = what
        move = k // 2 + 1
        side = "White" if k % 2 == 0 else "Black"
        text = (f"D.2.9: the two boards differ from move {move} ({side}): the sighted player's board has "
                f"{_list(sans(a)[k:])}, the blind player's board (board {b.number}) {_list(sans(b)[k:])}"
                f"; squares that differ: {_squares(a.record.board(), b.record.board())}")
        self.alert(a, "pair-differs", text, True)
        self._first.setdefault(main, text[len("D.2.9: "):])
        for x in (a, b):
            self.send(x, "message DIFFER")

    def _one_clock(self, a, b) -> None:
        """Board n (the public's) takes the game's clock from the blind player's board: its
        clock, each move's %clk where both boards have that move, and a result decided there
        (a flag, a draw agreed with the draw keys, the arbiter's)."""
        a.clock_from = b
        moved = False
        if a.clock is not b.clock and b.clock_line:
            a.clock, a.clock_line = b.clock, b.clock_line
            a.record.clocks = (b.clock.white_ms, b.clock.black_ms)
            self.clock_changed(a)
        for pa, pb in zip(a.record.plies, b.record.plies):
            if pa.uci != pb.uci:
                break
            if pa.clk_ms != pb.clk_ms:
                pa.clk_ms = pb.clk_ms
                moved = True
        if a.record.result == "*" and b.record.result != "*" and moves(a) == moves(b):
            # ended on the game's clock or its keys (a flag, a draw agreed, the arbiter's)
            a.record.result, a.record.termination = b.record.result, b.record.termination
            moved = True
        if moved:
            self.board_changed(a)

    def _rejoined(self, main: int) -> None:
        if self._parted.pop(main, None) is not None:
            a = self.sessions[main]
            text = self._first.pop(main, "the two boards differed")
            self.alert(a, "pair-differs", "the two boards are one game again", False)
            self.note(a, f"D.2.9, put right by the arbiter from both records: {text}")
            for x in (a, self.sessions.get(main + PAIRED)):
                if x is not None:
                    self.send(x, "message")

    def _san(self, s, uci: str) -> str:
        try:
            board = s.record.board()
            return board.san(chess.Move.from_uci(uci))
        except (ValueError, AttributeError):
            return uci


def _list(moves_) -> str:
    return ", ".join(moves_) if moves_ else "nothing"


def _squares(x: chess.Board, y: chess.Board) -> str:
    """The squares where the two boards' positions differ, as "e4 (a white pawn / empty)"."""
    out = []
    for sq in chess.SQUARES:
        p, q = x.piece_at(sq), y.piece_at(sq)
        if p != q:
            out.append(f"{chess.square_name(sq)} ({_piece(p)} / {_piece(q)})")
    return ", ".join(out) if out else "none"


def _piece(p) -> str:
    if p is None:
        return "empty"
    return ("white " if p.color else "black ") + chess.piece_name(p.piece_type)
