"""Play against a UCI engine on the real pieces (`python -m host_tools play engine`).

The player moves his pieces and presses his clock as in any game on this board. The
engine's move is sent to the board with `expect` (docs/protocol.md): the board shows it on
its square LEDs and signals it to the player (vibration for a blind player; with --speak
it is also spoken), takes only that move, and completes it as soon as it stands on the
board. The board's clock times both sides; the engine is given its own time from it.

Take-backs are made on the board (the pieces put back); a new game is the start position
set up on the board or the clock's menu. At the keyboard: `hint`, `draw` (the engine
accepts when it sees nothing better), `resign`, `new`, `quit`.

The engine runs through python-chess's chess.engine (Stockfish by default, Debian's
package `stockfish`); levels 1 to 8 go from a beginner to a master (LEVELS).
"""
from __future__ import annotations

import os
import queue
import re
import threading
import time
from dataclasses import dataclass

import chess
import chess.engine

from host_tools import engines
from host_tools.board.link import BoardError, BoardLink, LinkSink, castling_step
from host_tools.protocol import encode
from host_tools.play.keyboard import typed

# level: (Stockfish's Skill Level, search depth, most seconds a move, Elo shown)
LEVELS = {
    1: (0, 1, 0.05, 800), 2: (2, 2, 0.1, 1000), 3: (4, 3, 0.2, 1200), 4: (6, 5, 0.3, 1400),
    5: (9, 7, 0.5, 1600), 6: (12, 10, 1.0, 1800), 7: (16, 14, 2.0, 2100), 8: (20, None, None, 2800),
}
AFTER_TAKEBACK_S = 3.0  # the engine waits this long after a take-back: the player may take back more
REMIND_S = 5.0  # a move left without its press this long: the player is reminded
DRAW_MARGIN_CP = 30  # the engine accepts a draw offer when it sees no more than this for itself


class PlayError(RuntimeError):
    """What stops a game from being played: no engine, no board; said plainly."""


def find_engine(path: str | None = None) -> str:
    """The engine to run (host_tools/engines.py), or a PlayError saying what to install."""
    try:
        return engines.find_engine(path)
    except engines.EngineMissing as e:
        raise PlayError(str(e)) from None


def increment_s(control: str) -> float:
    """The Fischer increment of a time control's first period, in seconds (0 if none)."""
    m = re.match(r"^(?:\d+/)?\d+\+(\d+)", control or "")
    return float(m.group(1)) if m else 0.0


@dataclass
class Think:
    """An engine search under way: for the position with this FEN, in this game."""
    fen: str
    game: int


class EngineGame:
    def __init__(self, link: BoardLink, engine_path: str, level: int = 3, color: chess.Color = chess.BLACK,
                 control: str = "300+2", fen: str | None = None, say=print, speak=None, hands=None):
        """link: the board; color: the engine's side; say(text): what the player reads;
        speak(text): what he hears (None: nothing); hands: a Hands that carries out the
        engine's moves on a simulated board (None: the player does)."""
        if level not in LEVELS:
            raise PlayError(f"the level is 1 to {max(LEVELS)}, not {level}")
        self.link = link
        self.level = level
        self.color = color
        self.control = control
        self.fen = fen
        self.say = say
        self.speak = speak
        self.hands = hands
        self.name = f"Stockfish level {level}" if "stockfish" in os.path.basename(engine_path).lower() \
            else f"{os.path.basename(engine_path)} level {level}"
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(engine_path, timeout=20)
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as e:
            raise PlayError(f"the engine {engine_path} did not start: {e}") from None
        self._configure()
        self._results: queue.Queue = queue.Queue()
        self._thinking: Think | None = None
        self._expected: tuple[str, str, str] | None = None  # (fen, uci, san) sent with expect
        self._reminded = None  # the player's move we reminded him to complete
        self._takeback_at = 0.0
        self._moved_at = 0.0  # when the last move line came
        self._announced_result = None
        # The player's draw offer made while the engine is to move (thinking, or its move
        # shown and not yet on the board): answered once the engine's move stands, as an
        # offer stands until the opponent answers it (9.1.2.3). The board refuses a draw
        # before each side has moved (5.2.3), and the engine must not be asked to judge a
        # position while it searches (python-chess would cancel the search).
        self._draw_offered = False
        self.finished = threading.Event()  # a result reached (for tests and --games)

    def _configure(self) -> None:
        skill = LEVELS[self.level][0]
        opts = self.engine.options
        try:
            if "Skill Level" in opts:
                self.engine.configure({"Skill Level": skill})
            elif "UCI_LimitStrength" in opts and "UCI_Elo" in opts:
                elo = LEVELS[self.level][3]
                lo, hi = opts["UCI_Elo"].min or elo, opts["UCI_Elo"].max or elo
                self.engine.configure({"UCI_LimitStrength": True, "UCI_Elo": max(lo, min(hi, elo))})
        except chess.engine.EngineError as e:
            raise PlayError(f"the engine refused its level: {e}") from None

    # ----- the game on the board

    def record(self):
        return self.link.session.record

    def board(self) -> chess.Board | None:
        r = self.record()
        return r.board() if r is not None else None

    def players_turn(self) -> bool:
        """Whether the player at the board is to move there now (the game going on)."""
        r = self.record()
        return r is not None and r.result == "*" and self._engine_side() == self.color \
            and r.board().turn != self.color  # a game against this engine (not the board's own first)

    def new_game(self) -> None:
        white, black = ("You", self.name) if self.color == chess.BLACK else (self.name, "You")
        cmd = f"new tc={self.control} white={encode(white)} black={encode(black)}"
        if self.fen:
            cmd += " fen=" + encode(self.fen)
        if self.hands is not None:  # the simulated board: the person sets the pieces up first
            self.hands.set_up(chess.Board(self.fen) if self.fen else chess.Board())
        self.link.command(cmd)
        self._expected = None
        self._announced_result = None
        side = "White" if self.color == chess.BLACK else "Black"
        self.say(f"New game, {self.control}: you play {side} against {self.name}.")

    def start(self) -> None:
        """Go on with the game on the board when it is an unfinished game against this
        engine (play engine started again: after the engine stopped, the laptop slept, the
        program was closed), else a new game. --fen always starts a new one."""
        r = None
        try:
            self.link.command("resend 1")  # the board's whole game, then its ok: the record is complete
            r = self.record()
        except BoardError:
            pass
        if self.fen is None and r is not None and r.result == "*" and not r.source \
                and self.name in (r.white, r.black) and r.white != r.black:
            self.color = chess.WHITE if r.white == self.name else chess.BLACK
            you = "Black" if self.color == chess.WHITE else "White"
            self.say(f"Going on with the game on the board ({len(r.plies)} plies): you play {you} against "
                     f"{self.name}. Type new for a new game.")
            return
        self.new_game()

    def _engine_side(self) -> chess.Color | None:
        """The engine's colour in the board's current game (the names say it)."""
        r = self.record()
        if r is None:
            return None
        if r.white == self.name:
            return chess.WHITE
        if r.black == self.name:
            return chess.BLACK
        return None

    # ----- the loop

    def run(self, until=None, commands: queue.Queue | None = None) -> None:
        """Play until until() is true (None: until quit)."""
        heard = _Heard(self)
        while until is None or not until():
            self.link.tell(heard, timeout_s=0.05)
            if typed(commands, self.keyboard):
                return
            self._collect()
            self._maybe_think()
            self._maybe_answer_draw()

    def _event(self, ev) -> None:
        """A new event of the board's game."""
        if ev.kind == "takeback":
            self._takeback_at = time.monotonic()
            self._expected = None
            self.say("Move taken back.")
        elif ev.kind == "game":
            self._expected = None
            self._announced_result = None
            self._draw_offered = False
        elif ev.kind == "move":
            self._moved_at = time.monotonic()
            self._expected_is_done(ev)
        elif ev.kind == "result":
            self._result(ev)

    def _line(self, m) -> None:
        """A line of the board's: a button, an attempt, ..."""
        if m.kind == "button" and m.args:
            self._button(m.args[0])
        elif m.kind == "attempt" and self._expected and not castling_step(
                chess.Board(self._expected[0]), self._expected[1], m.args[0] if m.args else ""):
            self.say(f"That is not the move: play {self._expected[2]} "
                     f"({self._expected[1][:2]} to {self._expected[1][2:4]}).")

    def _expected_is_done(self, ev) -> bool:
        if self._expected and ev.args[1:2] == [self._expected[1]]:
            self._expected = None
            return True
        return False

    def _result(self, ev) -> None:
        r = self.record()
        key = (ev.game, r.result if r else None)
        if self._announced_result == key:
            return
        self._announced_result = key
        text = f"Game over: {ev.args[0]} ({' '.join(ev.args[1:]).replace('_', ' ')})."
        self.say(text + (" Type new for a new game." if self.hands is not None
                         else " Set up the pieces for a new game, or type new."))
        if self.speak:
            self.speak(text)
        self.finished.set()

    def _maybe_think(self) -> None:
        r = self.record()
        if r is None or r.result != "*" or self._thinking is not None or not self.link.connected.is_set():
            return
        side = self._engine_side()
        board = r.board()
        if side is None or board.turn != side or board.is_game_over():
            return
        if self._expected and self._expected[0] == board.fen():
            return  # shown; the player carries it out
        if time.monotonic() - self._takeback_at < AFTER_TAKEBACK_S:
            return
        if not self._opponent_completed(r, board):
            if self._reminded != len(r.plies) and time.monotonic() - self._moved_at > REMIND_S:
                self._reminded = len(r.plies)
                self.say("Press your clock to complete your move.")
            return
        think = Think(board.fen(), r.game)
        self._thinking = think
        limit = self._limit(board)
        threading.Thread(target=self._search, args=(board, limit, think), daemon=True).start()

    def _opponent_completed(self, r, board) -> bool:
        """The player's last move is completed (his press: its clk), or there is none."""
        if not r.plies:
            return True
        last = r.plies[-1]
        return last.clk_ms is not None

    def _limit(self, board: chess.Board) -> chess.engine.Limit:
        _, depth, most, _ = LEVELS[self.level]
        c = self.link.session.clock
        inc = increment_s(self.control)
        kw = {}
        if c.white_ms or c.black_ms:
            kw = dict(white_clock=c.white_ms / 1000, black_clock=c.black_ms / 1000,
                      white_inc=inc, black_inc=inc)
        return chess.engine.Limit(depth=depth, time=most, **kw)

    def _search(self, board: chess.Board, limit, think: Think) -> None:
        try:
            result = self.engine.play(board, limit)
            self._results.put((think, result.move, None))
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            self._results.put((think, None, e))
        self.link.wake()  # the loop wakes to show the move now

    def _collect(self) -> None:
        try:
            think, move, error = self._results.get_nowait()
        except queue.Empty:
            return
        self._thinking = None
        if error is not None:
            raise _stopped(error)
        r = self.record()
        board = r.board() if r is not None else None
        if board is None or r.game != think.game or board.fen() != think.fen or r.result != "*":
            return  # the game moved on while it thought (a take-back, a new game): think again
        if move is None:
            return
        uci = move.uci() if not board.chess960 else board.uci(move, chess960=True)
        san = board.san(move)
        try:
            self.link.command(f"expect {uci}")
        except BoardError as e:
            self.say(f"The board did not take the engine's move {san}: {e}")
            return
        self._expected = (think.fen, uci, san)
        n = board.fullmove_number
        dots = "." if board.turn == chess.WHITE else "..."
        self.say(f"{self.name} plays {n}{dots}{san}" + (": your hands make it on the board." if self.hands is not None
                                                         else f": make it on the board ({uci[:2]} to {uci[2:4]})."))
        if self.speak:
            self.speak(san)
        if self.hands is not None:
            threading.Thread(target=self.hands.carry_out, args=(board, move), daemon=True).start()

    # ----- the clock's buttons (the board reports them in a game: docs/protocol.md)

    BUTTONS = {"plus": "draw", "minus": "hint", "ok-long": "resign"}

    def _button(self, name: str) -> None:
        """plus: offer a draw; minus: a hint; ok held: resign; ok after the result: a new
        game."""
        r = self.record()
        if name == "ok" and r is not None and r.result != "*":
            self.keyboard("new")
        elif name in self.BUTTONS:
            self.keyboard(self.BUTTONS[name])

    # ----- the keyboard

    def keyboard(self, text: str) -> str | None:
        word = text.strip().lower()
        r = self.record()
        board = r.board() if r is not None else None
        try:
            if word in ("quit", "exit", "q"):
                return "quit"
            if word == "new":
                self.new_game()
            elif word == "resign":
                side = "w" if self._engine_side() == chess.BLACK else "b"
                self.link.command(f"resign {side}")
            elif word == "draw":
                self._draw_offer(board)
            elif word == "hint":
                self._hint(board)
            elif word and self.hands is not None:
                self.say(f"{text.strip()[:40]!r} is not a move or a command: type a move (e2e4 or Nf3), "
                         "or hint, draw, resign, new, quit.")
            elif word:
                self.say(f"{text.strip()[:40]!r} is not a command: hint, draw, resign, new, quit "
                         "(moves are made on the board).")
        except BoardError as e:
            self.say(f"The board said: {e}")
        return None

    def _analyse(self, board: chess.Board, limit: chess.engine.Limit) -> dict:
        try:
            return self.engine.analyse(board, limit)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            raise _stopped(e) from None

    def _hint(self, board: chess.Board | None) -> None:
        if board is None or board.is_game_over() or board.turn == self._engine_side():
            self.say("A hint is for your own move.")
            return
        info = self._analyse(board, chess.engine.Limit(time=1.0, depth=18))
        pv = info.get("pv")
        if not pv:
            self.say("No hint: the engine found nothing.")
            return
        san = board.san(pv[0])
        self.say(f"Hint: {san}.")
        if self.speak:
            self.speak(san)
        self.link.command(f"hint {pv[0].uci()}")  # lit on the board until he moves

    def _draw_offer(self, board: chess.Board | None) -> None:
        if board is None or board.is_game_over():  # answered, never silence: the player waits for a word
            self.say("No game is going on to offer a draw in (new starts one).")
            return
        if board.turn == self._engine_side():
            if not self._draw_offered:
                self._draw_offered = True
                self.say(f"Your draw offer stands: {self.name} answers it once its move is on the board.")
            return
        self._draw_offered = False
        info = self._analyse(board, chess.engine.Limit(time=0.5, depth=14))
        score = info["score"].pov(self._engine_side()).score(mate_score=100000)
        if score is not None and score <= DRAW_MARGIN_CP:
            self.link.command("draw")
            self.say(f"{self.name} accepts the draw.")
        else:
            self.say(f"{self.name} declines the draw.")

    def _maybe_answer_draw(self) -> None:
        """The draw offer made while the engine was to move, answered once its move is on
        the board (dropped if the game ended meanwhile)."""
        if not self._draw_offered:
            return
        r = self.record()
        if r is None or r.result != "*":
            self._draw_offered = False
            return
        board = r.board()
        if board.turn == self._engine_side() or self._thinking is not None:
            return
        try:
            self._draw_offer(board)
        except BoardError as e:
            self.say(f"The board said: {e}")

    def close(self) -> None:
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            pass


def _stopped(error) -> PlayError:
    return PlayError(f"the engine stopped working ({error or type(error).__name__}); the game on the board "
                     f"is kept: start play engine again (same level) to go on with it")


class _Heard(LinkSink):
    """What the board's link tells the game, in the game's loop."""

    def __init__(self, game: EngineGame):
        self.game = game

    def event(self, ev) -> None:
        self.game._event(ev)

    def line(self, m) -> None:
        self.game._line(m)

    def problem(self, text: str) -> None:
        self.game.say(f"Board: {text}")

    def connected(self) -> None:
        self.game._expected = None  # asked again once the board is heard (its state may have moved on)

    def disconnected(self) -> None:
        self.game.say("The board's line is gone: waiting for it to come back...")
