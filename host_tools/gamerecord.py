"""A game as the host knows it from a board's sequenced events, and its PGN.

`GameRecord.apply(event)` takes events in sequence order and says what it made of each:
"ok", "duplicate" (seen before: ignored), or "gap" (an event is missing: ask the board to
resend from `next_seq`). Moves are checked by python-chess as they come; SAN, the PGN and
its `[%clk h:mm:ss]` comments come from python-chess too.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import chess

from host_tools.protocol import Event, decode

# PGN's Termination tag values for the device's termination reasons.
PGN_TERMINATION = {
    "checkmate": "normal", "stalemate": "normal", "insufficient_material": "normal",
    "seventyfive_moves": "normal", "fivefold_repetition": "normal", "fifty_moves": "normal",
    "threefold_repetition": "normal", "resignation": "normal", "agreement": "normal",
    "time_forfeit": "time forfeit", "illegal_moves": "rules infraction", "arbiter": "adjudication",
    "forfeit": "rules infraction",  # the arbiter's forfeit (the relay's desk), its reason a comment
}


_CONTROL = {c: None for c in [*range(32), *range(127, 160), 0x2028, 0x2029]}


def pgn_string(value: str) -> str:
    """A tag value as a PGN string's inside (PGN standard, 8.1.1 and 7): a backslash and
    a quote escaped, no control character (a name can never end its tag or add one)."""
    return value.translate(_CONTROL).replace("\\", "\\\\").replace('"', '\\"')


# Events that are noted at the ply where they came (corrections, penalties, the clock's
# doings); "start" needs nothing: the first clk says the clock ran.
NOTED = ("penalty", "set time", "set moves", "set period", "illegal", "quickplay", "pause",
         "resume", "flag", "period")
APPLIED = ("game", "move", "clk", "takeback", "result")


@dataclass
class Ply:
    uci: str
    san: str
    clk_ms: int | None = None


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

    def apply(self, ev: Event) -> str:
        if ev.game != self.game:
            raise ValueError(f"event of game {ev.game} given to game {self.game}")
        if ev.seq <= self.last_seq:
            return "duplicate"
        if ev.seq > self.last_seq + 1:
            return "gap"
        self._apply(ev)
        self.last_seq = ev.seq
        return "ok"

    def _apply(self, ev: Event) -> None:
        k, a = ev.kind, ev.args
        if k == "game":
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
        elif k == "move":
            ply, uci = _args(a, 2, "move <ply> <uci>")
            ply = _whole(ply, 1, len(self.plies) + 1, "a move's ply")
            board = self._position()
            while len(self.plies) > ply - 1:
                self.plies.pop()
                board.pop()
            move = board.parse_uci(uci)  # raises on a move the position does not allow
            self.plies.append(Ply(uci, board.san(move)))
            board.push(move)
        elif k == "clk":
            ply, ms = _args(a, 2, "clk <ply> <ms>")
            ply, ms = _whole(ply, 0, 10 ** 9, "a clk's ply"), _whole(ms, 0, 10 ** 10, "a clk's time")
            if 1 <= ply <= len(self.plies):
                self.plies[ply - 1].clk_ms = ms
        elif k == "takeback":
            back_to = _whole(_args(a, 1, "takeback <ply>")[0], 0, len(self.plies), "a takeback's ply")
            board = self._position()
            while len(self.plies) > back_to:
                self.plies.pop()
                board.pop()
            self.result, self.termination = "*", None
        elif k == "result":
            result, termination = _args(a, 2, "result <result> <termination>")
            if result not in RESULTS:
                raise ValueError(f"a result is one of {', '.join(RESULTS)}, not {result[:20]!r}")
            self.result, self.termination = result, termination
        elif k in NOTED:
            self.notes.append((len(self.plies), " ".join([k] + a)))

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

    def pgn(self, event: str = "?", site: str = "?", date: str = "????.??.??",
            round_: str = "?", game_id: str | None = None, white: str | None = None,
            black: str | None = None, extra_tags: list | tuple = ()) -> str:
        """The game as PGN, as python-chess's exporter writes it (tests/test_host_protocol.py
        holds the two together), made from the SANs already known: a relay with a
        thousand boards makes one at every move. white and black, when given, name the
        players instead of the names the board sent (the round's pairing)."""
        fen, white_first, number = self._start()
        tags = [("Event", event), ("Site", site), ("Date", date), ("Round", round_),
                ("White", self.white if white is None else white),
                ("Black", self.black if black is None else black), ("Result", self.result)]
        tags += list(extra_tags)  # the players' FIDE IDs, titles, ratings (the round's)
        if fen is not None:
            tags += [("FEN", fen), ("SetUp", "1")]
        if self.chess960 is not None:
            tags.append(("Variant", "Chess960"))
        if game_id:
            tags.append(("GameId", game_id))
        tags.append(("TimeControl", self.tc))
        if self.termination:
            tags.append(("Termination", PGN_TERMINATION.get(self.termination, "normal")))
        last = [None, None]  # White's, Black's latest clock
        for i, p in enumerate(self.plies):
            if p.clk_ms is not None:
                last[(i % 2) ^ (not white_first)] = p.clk_ms
        if self.clocks:
            last = list(self.clocks)
        for ms, tag in zip(last, ("WhiteClock", "BlackClock")):
            if ms is not None:
                t = ms // 1000
                tags.append((tag, f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}"))
        out = [f'[{k} "{pgn_string(v)}"]' for k, v in tags]
        out.append("")
        out.append(" ".join(self._movetext(white_first, number)))
        return "\n".join(out) + "\n\n"

    def _movetext(self, white_first: bool, number: int) -> list[str]:
        words = []
        end = self.termination.replace("_", " ") if self.termination else None
        noted: dict[int, list[str]] = {}  # ply -> the notes at it, in words
        for ply, note in self.notes:  # a note after a take-back stays, at the last move
            noted.setdefault(min(ply, len(self.plies)), []).append(note_text(note))
        first = noted.get(0, []) + ([end] if end and not self.plies else [])
        if first:
            words.append("{ " + " ".join(first) + " }")
        numbered = False  # a Black move after a comment (or first) is numbered "N..."
        white = white_first
        last = len(self.plies) - 1
        for i, p in enumerate(self.plies):
            if white:
                words.append(f"{number}.")
            elif not numbered:
                words.append(f"{number}...")
            words.append(p.san)
            comment = []
            if p.clk_ms is not None:
                comment.append(_clk(p.clk_ms))
            comment += noted.get(i + 1, ())
            if end and i == last:
                comment.append(end)
            numbered = not comment
            if comment:
                words.append("{ " + " ".join(comment) + " }")
            if not white:
                number += 1
            white = not white
        words.append(self.result)
        return words


SIDE_NAMES = {"w": "White", "b": "Black"}


def _hms(ms: int) -> str:
    t = max(0, ms) // 1000
    return f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}" if t >= 3600 else f"{t // 60}:{t % 60:02d}"


def note_text(note: str) -> str:
    """A note of the record (an event the arbiter or the clock made at a move, or a note
    of the relay's: "note <text>") in words, for a PGN comment: never a brace."""
    w = note.split()
    n = 2 if w[:1] == ["set"] else 1  # "set time w 60000": a kind of two words
    kind, args = " ".join(w[:n]), w[n:]
    try:
        side = SIDE_NAMES.get(args[0], "?") if args else "?"
        if kind == "note":
            text = note[5:]
        elif kind == "penalty":
            text = f"penalty: {_hms(int(args[1]))} added to {side}"
        elif kind == "set time":
            text = f"arbiter: {side}'s clock set to {_hms(int(args[1]))}"
        elif kind == "set moves":
            text = f"arbiter: {side}'s move count set to {int(args[1])}"
        elif kind == "set period":
            text = f"arbiter: {side}'s period set to {int(args[1]) + 1}"
        elif kind == "illegal":
            text = f"illegal move by {side} ({'first' if args[1] == '1' else 'second'}; 7.5)"
        elif kind == "quickplay":
            text = "quickplay finish: 5 s a move for both from here (III.4)"
        elif kind == "pause":
            text = "clock paused by the arbiter"
        elif kind == "resume":
            text = "clock resumed"
        elif kind == "flag":
            text = f"{side}'s flag fell ({'first' if args[1] == '1' else 'second'})"
        elif kind == "period":
            text = f"{side}'s period {int(args[1]) + 1} begins"
        else:
            text = note
    except (IndexError, ValueError):
        text = note
    return text.replace("{", "(").replace("}", ")")


def _clk(ms: int) -> str:
    """A %clk comment, whole seconds (as python-chess's set_clock writes them)."""
    t = max(0, ms) // 1000
    return f"[%clk {t // 3600:d}:{t // 60 % 60:02d}:{t % 60:02d}]"


RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


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
