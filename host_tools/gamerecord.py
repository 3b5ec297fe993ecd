"""A game as the host knows it from a board's sequenced events, and its PGN.

`GameRecord.apply(event)` takes events in sequence order and says what it made of each:
"ok", "duplicate" (seen before: ignored), or "gap" (an event is missing: ask the board to
resend from `next_seq`). Moves are checked by python-chess as they come; SAN, the PGN and
its `[%clk h:mm:ss]` comments come from python-chess too.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import chess
import chess.pgn

from host_tools.protocol import Event, decode

# PGN's Termination tag values for the device's termination reasons.
PGN_TERMINATION = {
    "checkmate": "normal", "stalemate": "normal", "insufficient_material": "normal",
    "seventyfive_moves": "normal", "fivefold_repetition": "normal", "fifty_moves": "normal",
    "threefold_repetition": "normal", "resignation": "normal", "agreement": "normal",
    "time_forfeit": "time forfeit", "illegal_moves": "rules infraction", "arbiter": "adjudication",
}


_CONTROL = {c: None for c in [*range(32), *range(127, 160), 0x2028, 0x2029]}


def pgn_string(value: str) -> str:
    """A tag value as a PGN string's inside (PGN standard, 8.1.1 and 7): a backslash and
    a quote escaped, no control character (a name can never end its tag or add one)."""
    return value.translate(_CONTROL).replace("\\", "\\\\").replace('"', '\\"')


class _Exporter(chess.pgn.StringExporter):
    """python-chess's exporter, with tag values escaped as the PGN standard asks."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, pgn_string(tagvalue))


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
    plies: list[Ply] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None
    notes: list[tuple[int, str]] = field(default_factory=list)  # (ply, text): corrections
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
        return self._position().copy()

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
            self._cache = None
            kw = dict(w.split("=", 1) for w in a if "=" in w)
            self.tc = kw.get("tc", "-")
            self.fen = decode(kw.get("fen", chess.STARTING_FEN))
            n = kw.get("chess960", "-")
            self.chess960 = None if n == "-" else int(n)
            self.white = decode(kw.get("white", "?"))
            self.black = decode(kw.get("black", "?"))
        elif k == "move":
            ply, uci = int(a[0]), a[1]
            board = self._position()
            while len(self.plies) > ply - 1:
                self.plies.pop()
                board.pop()
            move = board.parse_uci(uci)  # raises on a move the position does not allow
            self.plies.append(Ply(uci, board.san(move)))
            board.push(move)
        elif k == "clk":
            ply, ms = int(a[0]), int(a[1])
            if 1 <= ply <= len(self.plies):
                self.plies[ply - 1].clk_ms = ms
        elif k == "takeback":
            board = self._position()
            while len(self.plies) > int(a[0]):
                self.plies.pop()
                board.pop()
            self.result, self.termination = "*", None
        elif k == "result":
            self.result, self.termination = a[0], a[1]
        elif k in NOTED:
            self.notes.append((len(self.plies), " ".join([k] + a)))

    def pgn(self, event: str = "?", site: str = "?", date: str = "????.??.??",
            round_: str = "?", game_id: str | None = None, white: str | None = None,
            black: str | None = None) -> str:
        """The game as PGN; white and black, when given, name the players instead of the
        names the board sent (the round's pairing)."""
        board = chess.Board(self.fen, chess960=self.chess960 is not None)
        g = chess.pgn.Game()
        g.setup(board)
        if self.chess960 is None and self.fen == chess.STARTING_FEN:
            for tag in ("FEN", "SetUp"):
                g.headers.pop(tag, None)
        g.headers["Event"] = event
        g.headers["Site"] = site
        g.headers["Date"] = date
        g.headers["Round"] = round_
        g.headers["White"] = self.white if white is None else white
        g.headers["Black"] = self.black if black is None else black
        g.headers["Result"] = self.result
        if game_id:
            g.headers["GameId"] = game_id
        g.headers["TimeControl"] = self.tc
        if self.termination:
            g.headers["Termination"] = PGN_TERMINATION.get(self.termination, "normal")
        node = g
        last = {chess.WHITE: None, chess.BLACK: None}
        for p in self.plies:
            mover = node.board().turn
            node = node.add_variation(node.board().parse_uci(p.uci))
            if p.clk_ms is not None:
                node.set_clock(p.clk_ms // 1000)
                last[mover] = p.clk_ms
        if self.clocks:
            last = {chess.WHITE: self.clocks[0], chess.BLACK: self.clocks[1]}
        for color, tag in ((chess.WHITE, "WhiteClock"), (chess.BLACK, "BlackClock")):
            if last[color] is not None:
                s = last[color] // 1000
                g.headers[tag] = f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
        if self.termination:
            node.comment = (node.comment + " " if node.comment else "") + self.termination.replace("_", " ")
        return g.accept(_Exporter(columns=None)) + "\n\n"
