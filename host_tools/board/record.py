"""A game's record as the host knows it from a board's sequenced events, and its PGN.

`GameRecord.apply(event)` takes events in sequence order and says what it made of each
(`Applied`): OK, DUPLICATE (seen before: ignored), or GAP (an event is missing: ask the
board to resend from `next_seq`). Moves are checked by python-chess as they come; the PGN
is written by python-chess's exporter (`chess.pgn.StringExporter`) - at each move only the new
moves, the headers and the last comment, appended to the movetext kept -, its `[%clk h:mm:ss]`
comments and its tags made here. The event kinds are the firmware's own
(firmware/app/eventlog.py), and so are the termination names (firmware/rules/outcome.py).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

import chess
import chess.pgn

from firmware.app import eventlog as kinds
from firmware.rules import outcome as fw_outcome
from host_tools.protocol import Event, decode

# PGN's Termination tag values for the device's termination reasons.
PGN_TERMINATION = {
    fw_outcome.CHECKMATE: "normal", fw_outcome.STALEMATE: "normal", fw_outcome.INSUFFICIENT_MATERIAL: "normal",
    fw_outcome.SEVENTYFIVE_MOVES: "normal", fw_outcome.FIVEFOLD_REPETITION: "normal",
    fw_outcome.FIFTY_MOVES: "normal", fw_outcome.THREEFOLD_REPETITION: "normal",
    fw_outcome.RESIGNATION: "normal", fw_outcome.AGREEMENT: "normal",
    fw_outcome.TIME_FORFEIT: "time forfeit", fw_outcome.ILLEGAL_MOVES: "rules infraction",
    fw_outcome.ARBITER: "adjudication",
}
# The relay's own: the arbiter's forfeit at its desk (host_tools/relay/app.py), never a
# board's; its reason a comment.
DESK_TERMINATION = {"forfeit": "rules infraction"}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SIDE_NAMES = {"w": "White", "b": "Black"}


def clock_text(ms: int, hours: bool = True) -> str:
    """A clock's time in whole seconds: "h:mm:ss" (PGN's %clk and clock tags), or with
    hours=False "m:ss" below an hour (a note, a player's screen). The host's one time
    formatter."""
    t = max(0, ms) // 1000
    if hours or t >= 3600:
        return f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}"
    return f"{t // 60}:{t % 60:02d}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as data (firmware/rules/outcome.py's Outcome on the host): a
    termination - the firmware's names, "checkmate", "time_forfeit", "agreement", ... - and
    the winner, chess.WHITE, chess.BLACK or None for a draw."""

    termination: str | None
    winner: chess.Color | None = None

    def result(self) -> str:
        return "1-0" if self.winner is chess.WHITE else "0-1" if self.winner is chess.BLACK else "1/2-1/2"


class Applied(str, enum.Enum):
    """What GameRecord.apply made of an event (equal to its name in lower case)."""

    OK = "ok"
    DUPLICATE = "duplicate"  # seen before: nothing changed
    GAP = "gap"  # an event is missing before it: resend from next_seq


# Events that are noted at the ply where they came (corrections, penalties, the clock's
# doings); "start" needs nothing: the first clk says the clock ran.
NOTED = tuple(kinds.WORDS[k] for k in (
    kinds.PENALTY, kinds.SET_TIME, kinds.SET_MOVES, kinds.SET_PERIOD, kinds.ILLEGAL, kinds.QUICKPLAY,
    kinds.PAUSE, kinds.RESUME, kinds.FLAG, kinds.PERIOD))
APPLIED = tuple(kinds.WORDS[k] for k in (kinds.GAME, kinds.MOVE, kinds.CLK, kinds.TAKEBACK, kinds.RESULT))
_KIND = {word: k for k, word in enumerate(kinds.WORDS)}  # an event's word -> the firmware's kind

_CONTROL = {c: None for c in [*range(32), *range(127, 160), 0x2028, 0x2029]}


def pgn_string(value: str) -> str:
    """A tag value as a PGN string's inside (PGN standard, 8.1.1 and 7): a backslash and
    a quote escaped, no control character (a name can never end its tag or add one)."""
    return value.translate(_CONTROL).replace("\\", "\\\\").replace('"', '\\"')


CLOCK_TAGS = ("WhiteClock", "BlackClock")


class PgnExporter(chess.pgn.StringExporter):
    """python-chess's exporter, the movetext on one line, each tag value a PGN string
    (python-chess writes a value as it is)."""

    def __init__(self):
        super().__init__(columns=None)

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, pgn_string(tagvalue))


class _Played:
    """The position before a move as an exporter reads it in visit_move: whose turn, the
    move number, and the move's SAN, worked out once when the move came (python-chess's
    exporter would replay the game to find it again: at every move of every board of a
    hall, that is what the relay cannot afford)."""

    __slots__ = ("turn", "fullmove_number", "_san")

    def __init__(self, turn: chess.Color, number: int):
        self.turn, self.fullmove_number, self._san = turn, number, ""

    def san(self, move: chess.Move) -> str:
        return self._san


@dataclass
class Ply:
    uci: str
    san: str
    clk_ms: int | None = None
    move: chess.Move = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        self.move = chess.Move.from_uci(self.uci)


@dataclass
class GameRecord:
    game: int
    tc: str = "-"
    fen: str = chess.STARTING_FEN
    chess960: int | None = None
    white: str = "?"
    black: str = "?"
    source: str = ""  # where the game is played when not only at the board (lichess.org/<id>)
    plies: list[Ply] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None
    notes: list[tuple[int, str]] = field(default_factory=list)  # (ply, note): see note_text
    last_seq: int = 0
    clocks: tuple[int, int] | None = None  # the latest clock line: white, black ms

    @property
    def next_seq(self) -> int:
        return self.last_seq + 1

    def outcome(self) -> Outcome | None:
        """How the game ended; None while it goes on (as python-chess's Board.outcome())."""
        if self.result == "*":
            return None
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(self.result)
        return Outcome(self.termination, winner)

    def _position(self) -> chess.Board:
        """The position after the plies, kept up to date move by move (not replayed)."""
        b = getattr(self, "_cache", None)
        if b is None or len(b.move_stack) != len(self.plies):
            b = chess.Board(self.fen, chess960=self.chess960 is not None)
            for p in self.plies:
                b.push(b.parse_uci(p.uci))
            self._cache = b
        return b

    def board(self) -> chess.Board:
        """The position after the plies: a copy, the caller's to change."""
        return self._position().copy()

    def position(self) -> chess.Board:
        """The same, not a copy: to be read, never changed."""
        return self._position()

    def apply(self, ev: Event) -> Applied:
        """Take the next event; ValueError (the record unchanged) for one the game cannot
        have: another game's, a move the position does not allow, a malformed event."""
        if ev.game != self.game:
            raise ValueError(f"event of game {ev.game} given to game {self.game}")
        if ev.seq <= self.last_seq:
            return Applied.DUPLICATE
        if ev.seq > self.last_seq + 1:
            return Applied.GAP
        self._apply(ev)
        self.last_seq = ev.seq
        return Applied.OK

    def _apply(self, ev: Event) -> None:
        k, a = _KIND.get(ev.kind), ev.args
        if k == kinds.GAME:
            kw = dict(w.split("=", 1) for w in a if "=" in w)
            fen = decode(kw.get("fen", chess.STARTING_FEN))
            n = kw.get("chess960", "-")
            chess960 = None if n == "-" else int(n)
            try:  # refused whole, before anything changes: every PGN of it is made from it
                chess.Board(fen, chess960=chess960 is not None)
            except ValueError:
                raise ValueError(f"a start position no chess program reads: {fen[:100]!r}") from None
            self._cache = None
            self.tc = kw.get("tc", "-")
            self.fen, self.chess960 = fen, chess960
            self.white = decode(kw.get("white", "?"))
            self.black = decode(kw.get("black", "?"))
            self.source = decode(kw.get("source", ""))
        elif k == kinds.MOVE:
            ply, uci = _args(a, 2, "move <ply> <uci>")
            ply = _whole(ply, 1, len(self.plies) + 1, "a move's ply")
            board = self._position()
            while len(self.plies) > ply - 1:
                self.plies.pop()
                board.pop()
            move = board.parse_uci(uci)  # raises on a move the position does not allow
            self.plies.append(Ply(uci, board.san(move)))
            board.push(move)
        elif k == kinds.CLK:
            ply, ms = _args(a, 2, "clk <ply> <ms>")
            ply, ms = _whole(ply, 0, 10 ** 9, "a clk's ply"), _whole(ms, 0, 10 ** 10, "a clk's time")
            if 1 <= ply <= len(self.plies):
                self.plies[ply - 1].clk_ms = ms
        elif k == kinds.TAKEBACK:
            back_to = _whole(_args(a, 1, "takeback <ply>")[0], 0, len(self.plies), "a takeback's ply")
            board = self._position()
            while len(self.plies) > back_to:
                self.plies.pop()
                board.pop()
            self.result, self.termination = "*", None
        elif k == kinds.RESULT:
            result, termination = _args(a, 2, "result <result> <termination>")
            if result not in RESULTS:
                raise ValueError(f"a result is one of {', '.join(RESULTS)}, not {result[:20]!r}")
            self.result, self.termination = result, termination
        elif ev.kind in NOTED:
            self.notes.append((len(self.plies), " ".join([ev.kind] + a)))

    def _start(self) -> tuple[str | None, bool, int]:
        """The start as PGN needs it: the FEN tag (None for the standard start), White to
        move, the first move number. Made once a game line."""
        key = (self.fen, self.chess960)
        if getattr(self, "_start_key", None) != key:
            b = chess.Board(self.fen, chess960=self.chess960 is not None)
            fen = b.fen()
            self._start_info = (None if fen == chess.STARTING_FEN else fen, b.turn == chess.WHITE,
                                b.fullmove_number)
            self._start_key = key
        return self._start_info

    def headers(self, event: str = "?", site: str = "?", date: str = "????.??.??", round_: str = "?",
                game_id: str | None = None, white: str | None = None, black: str | None = None,
                extra_tags: list | tuple = ()) -> chess.pgn.Headers:
        """The game's PGN tags (python-chess's Headers: the seven-tag roster first). white
        and black, when given, name the players instead of the names the board sent (the
        round's pairing); extra_tags: the players' FIDE IDs, titles, ratings (the round's)."""
        tags, clocks = self._tags(event, site, date, round_, game_id, white, black, extra_tags)
        headers = chess.pgn.Headers()
        for k, v in tags + clocks:
            headers[k] = v.translate(_CONTROL)  # (no line break: python-chess refuses one in a tag)
        return headers

    def _tags(self, event: str = "?", site: str = "?", date: str = "????.??.??", round_: str = "?",
              game_id: str | None = None, white: str | None = None, black: str | None = None,
              extra_tags: list | tuple = ()) -> tuple[list, list]:
        """headers' tags in the order given: (all but the clocks', the clocks')."""
        fen, white_first, _ = self._start()
        tags = [("Event", event), ("Site", site), ("Date", date), ("Round", round_),
                ("White", self.white if white is None else white),
                ("Black", self.black if black is None else black), ("Result", self.result)]
        tags += list(extra_tags)
        if fen is not None:
            tags += [("FEN", fen), ("SetUp", "1")]
        if self.chess960 is not None:
            tags.append(("Variant", "Chess960"))
        if game_id:
            tags.append(("GameId", game_id))
        tags.append(("TimeControl", self.tc))
        if self.termination:
            tags.append(("Termination", PGN_TERMINATION.get(self.termination) or DESK_TERMINATION.get(self.termination, "normal")))
        if self.clocks:
            last = list(self.clocks)
        else:
            last = [None, None]  # White's, Black's latest clock: from the last move back
            for i in range(len(self.plies) - 1, -1, -1):
                side = (i % 2) ^ (not white_first)
                if last[side] is None and self.plies[i].clk_ms is not None:
                    last[side] = self.plies[i].clk_ms
                    if last[1 - side] is not None:
                        break
        clocks = [(tag, clock_text(ms)) for ms, tag in zip(last, CLOCK_TAGS) if ms is not None]
        return tags, clocks

    def accept(self, visitor, **tags):
        """The record to a python-chess visitor (chess.pgn.BaseVisitor) in PGN order, as
        chess.pgn.Game.accept does it - the tags (`headers(**tags)`), a comment before the
        first move, each move and its comment, the result - and the visitor's result. The
        `board` a visitor's visit_move gets tells whose turn it is, the move number and the
        move's SAN (what an exporter reads), not a board replayed: the record has them."""
        if visitor.begin_game() is not chess.pgn.SKIP:
            visitor.begin_headers()
            for k, v in self.headers(**tags).items():
                visitor.visit_header(k, v)
            if visitor.end_headers() is not chess.pgn.SKIP:
                _, white_first, number = self._start()
                comments = self._comments()
                if comments[0]:
                    visitor.visit_comment(comments[0])
                played = _Played(chess.WHITE if white_first else chess.BLACK, number)
                for i, p in enumerate(self.plies):
                    played._san = p.san
                    visitor.visit_move(played, p.move)
                    if comments[i + 1]:
                        visitor.visit_comment(comments[i + 1])
                    if played.turn == chess.BLACK:
                        played.fullmove_number += 1
                    played.turn = not played.turn
                visitor.visit_result(self.result)
        visitor.end_game()
        return visitor.result()

    def _comments(self) -> list[str]:
        """The comment before the first move and after each: the move's %clk, the notes
        at it, and after the last the game's end in words."""
        words: list[list[str]] = [[] for _ in range(len(self.plies) + 1)]
        for i, p in enumerate(self.plies):
            if p.clk_ms is not None:
                words[i + 1].append(f"[%clk {clock_text(p.clk_ms)}]")  # as python-chess's set_clock writes it
        for ply, note in self.notes:  # a note after a take-back stays, at the last move
            words[min(ply, len(self.plies))].append(note_text(note))
        if self.termination:
            words[-1].append(self.termination.replace("_", " "))
        return [" ".join(w) for w in words]

    def pgn(self, **tags) -> str:
        """The game as PGN, written by python-chess's exporter (PgnExporter) from the SANs
        already known: a relay with a thousand boards makes one at every move. tags: as
        headers() takes them. The same text as accept(PgnExporter()) gives, but the
        movetext of the moves before the last is kept from the PGN made before: only the
        headers, the newest moves, the last comment and the result are exported again."""
        exporter = PgnExporter()
        exporter.begin_game()
        exporter.begin_headers()
        self._visit_headers(exporter, tags)
        exporter.end_headers()
        _, white_first, number = self._start()
        n = len(self.plies)
        kept = self._kept_movetext()
        if kept is None:  # from the first move
            done, exporter.current_line, exporter.force_movenumber = 0, "", True
            turn, move_number, plies, clks = chess.WHITE if white_first else chess.BLACK, number, [], []
        else:
            done, exporter.current_line, exporter.force_movenumber, turn, move_number, plies, clks = kept
            plies, clks = list(plies), list(clks)
        notes: dict[int, list[str]] = {}
        for ply, note in self.notes:
            notes.setdefault(min(ply, n), []).append(note_text(note))
        if done == 0:
            self._visit_comment(exporter, 0, n, notes)
        played = _Played(turn, move_number)
        for i in range(done, n):
            p = self.plies[i]
            played._san = p.san
            exporter.visit_move(played, p.move)
            self._visit_comment(exporter, i + 1, n, notes)
            if played.turn == chess.BLACK:
                played.fullmove_number += 1
            played.turn = not played.turn
            if i + 1 == n - 1:  # every move but the last, and its comment: settled, kept
                plies.extend(self.plies[done:n - 1])
                clks.extend(q.clk_ms for q in self.plies[done:n - 1])
                self._movetext = (n - 1, exporter.current_line, exporter.force_movenumber, played.turn,
                                  played.fullmove_number, tuple(plies), tuple(clks), len(self.notes),
                                  (self.fen, self.chess960))
        exporter.visit_result(self.result)
        exporter.end_game()
        return exporter.result() + "\n\n"

    def _visit_headers(self, exporter, tags: dict) -> None:
        """The tags to the exporter, as visiting headers(**tags) does; the lines of every
        tag but the clocks' (which change at every move, and come last) kept from the PGN
        made before while those tags are the same: a hall's PGNs are made at every move."""
        base, clocks = self._tags(**tags)
        key = tuple(base)
        kept = getattr(self, "_head", None)
        if kept is None or kept[0] != key:
            if any(k in CLOCK_TAGS for k, _ in base):  # (a clock tag among the others: not kept)
                for k, v in self.headers(**tags).items():
                    exporter.visit_header(k, v)
                return
            made = PgnExporter()
            made.begin_headers()
            headers = chess.pgn.Headers()
            for k, v in base:
                headers[k] = v.translate(_CONTROL)
            for k, v in headers.items():
                made.visit_header(k, v)
            kept = self._head = (key, tuple(made.lines))
        if kept[1]:
            exporter.lines.extend(kept[1])
            exporter.found_headers = True
        for k, v in clocks:
            exporter.visit_header(k, v.translate(_CONTROL))

    def _visit_comment(self, exporter, i: int, n: int, notes: dict) -> None:
        """The comment after ply i (0: before the first move) of n, as _comments makes it."""
        words = []
        if i and self.plies[i - 1].clk_ms is not None:
            words.append(f"[%clk {clock_text(self.plies[i - 1].clk_ms)}]")
        words += notes.get(i, ())
        if i == n and self.termination:
            words.append(self.termination.replace("_", " "))
        if words:
            exporter.visit_comment(" ".join(words))

    def _kept_movetext(self):
        """The movetext kept from the PGN made before, if it still holds: the same start, the
        same plies (none taken back or replaced), the same %clk at each, no note since that
        falls among them. Checked here, not by whoever changes the record (a paired board's
        clocks are copied onto its plies from outside)."""
        kept = getattr(self, "_movetext", None)
        if kept is None:
            return None
        done, plies, clks, noted, start = kept[0], kept[5], kept[6], kept[7], kept[8]
        ok = start == (self.fen, self.chess960) and done < len(self.plies) and noted <= len(self.notes)
        if ok and noted < len(self.notes):
            n = len(self.plies)
            ok = all(min(ply, n) > done for ply, _ in self.notes[noted:])
        if ok:
            ok = all(p is q and p.clk_ms == c for p, q, c in zip(self.plies, plies, clks))
        if not ok:
            self._movetext = None
            return None
        return kept[:7]

    def pgn_game(self, **tags) -> chess.pgn.Game:
        """The record as python-chess's game (its GameBuilder)."""
        return self.accept(chess.pgn.GameBuilder(), **tags)


def note_text(note: str) -> str:
    """A note of the record (an event the arbiter or the clock made at a move, or a note
    of the relay's: "note <text>") in words, for a PGN comment: never a brace."""
    w = note.split()
    n = 2 if w[:1] == ["set"] else 1  # "set time w 60000": a kind of two words
    kind, args = " ".join(w[:n]), w[n:]
    k = _KIND.get(kind)
    try:
        side = SIDE_NAMES.get(args[0], "?") if args else "?"
        if kind == "note":
            text = note[5:]
        elif k == kinds.PENALTY:
            text = f"penalty: {clock_text(int(args[1]), hours=False)} added to {side}"
        elif k == kinds.SET_TIME:
            text = f"arbiter: {side}'s clock set to {clock_text(int(args[1]), hours=False)}"
        elif k == kinds.SET_MOVES:
            text = f"arbiter: {side}'s move count set to {int(args[1])}"
        elif k == kinds.SET_PERIOD:
            text = f"arbiter: {side}'s period set to {int(args[1]) + 1}"
        elif k == kinds.ILLEGAL:
            text = f"illegal move by {side} ({'first' if args[1] == '1' else 'second'}; 7.5)"
        elif k == kinds.QUICKPLAY:
            text = "quickplay finish: 5 s a move for both from here (III.4)"
        elif k == kinds.PAUSE:
            text = "clock paused by the arbiter"
        elif k == kinds.RESUME:
            text = "clock resumed"
        elif k == kinds.FLAG:
            text = f"{side}'s flag fell ({'first' if args[1] == '1' else 'second'})"
        elif k == kinds.PERIOD:
            text = f"{side}'s period {int(args[1]) + 1} begins"
        else:
            text = note
    except (IndexError, ValueError):
        text = note
    return text.replace("{", "(").replace("}", ")")


def _args(args: list[str], n: int, shape: str) -> list[str]:
    """An event's first n words; ValueError if it has fewer."""
    if len(args) < n:
        raise ValueError(f"not an event of the form {shape}")
    return args[:n]


def _whole(word: str, low: int, high: int, what: str) -> int:
    """A whole number low..high as a board writes it (ASCII digits)."""
    if not (word.isascii() and word.isdigit() and len(word) <= 11) or not low <= int(word) <= high:
        raise ValueError(f"{what} is a whole number {low}..{high}, not {word[:20]!r}")
    return int(word)
