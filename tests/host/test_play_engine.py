"""`play engine` (host_tools/play/engine.py) against the real Stockfish, on the simulated
board running the real firmware, with a person at the board (host_tools/hands.py) who
makes his moves with his hands and presses his clock, carries out the engine's moves the
board's LEDs show, takes moves back, loses the USB line for a while and lets his time run
out. Skipped only where no Stockfish is installed (CI installs Debian's)."""
from __future__ import annotations

import os
import random
import re
import threading
import time

import chess
import pytest

from host_tools.board.link import BoardLink
from host_tools.play.engine import EngineGame, PlayError, find_engine
from tests.playing import lit_move, wait_until

try:
    STOCKFISH = find_engine()
except PlayError:
    STOCKFISH = None

needs_engine = pytest.mark.skipif(STOCKFISH is None, reason="no Stockfish (Debian package stockfish)")


class Session:
    """A simulated board, the play tool on its line, and what the tool said."""

    def __init__(self, tmp_path, engine_color=chess.BLACK, control="600+5", fen=None, level=1):
        from host_tools.sim import SimulatedBoard

        self.outputs = str(tmp_path / "outputs.txt")
        self.link_path = str(tmp_path / "board")
        self.sim = SimulatedBoard(hands=True, outputs=self.outputs, link=self.link_path)
        self.link = BoardLink(self.link_path, retry_s=0.2)
        assert self.link.connected.wait(10)
        self.said: list[str] = []
        self.game = EngineGame(self.link, STOCKFISH, level=level, color=engine_color, control=control,
                               fen=fen, say=self.said.append)
        self._stop = threading.Event()
        self.error: Exception | None = None  # what ended the tool's loop
        self.game.new_game()
        self._thread = None
        self.run(self.game)

    def run(self, game):
        """The tool's loop in a thread, as the CLI runs it (what ends it is kept)."""
        self.game = game

        def loop():
            try:
                game.run(until=self._stop.is_set)
            except Exception as e:  # noqa: BLE001 - the test looks at it
                self.error = e
        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def board(self) -> chess.Board:
        return self.game.board()

    def wait(self, what, timeout=30.0):
        return wait_until(what, self.said, timeout)

    def engine_move_shown(self):
        """The engine's move as the LEDs show it, once the tool has sent it."""
        def shown():
            b = self.board()
            exp = self.game._expected
            if b is None or exp is None or exp[0] != b.fen():
                return None
            frm, to = lit_move(self.outputs)
            return (frm, to, chess.Move.from_uci(exp[1])) if frm and to else None
        return self.wait(shown)

    def carry_out_engine_move(self):
        frm, to, move = self.engine_move_shown()
        assert frm == {chess.square_name(move.from_square)} and to == {chess.square_name(move.to_square)}
        b = self.board()
        n = len(b.move_stack)
        self.sim.hands.carry_out(b, move)
        self.wait(lambda: len(self.game.record().plies) == n + 1 and self.game.record().plies[-1].clk_ms)
        return move

    def my_move(self, move: chess.Move):
        b = self.board()
        n = len(b.move_stack)
        self.sim.hands.move(b, move)
        self.wait(lambda: len(self.game.record().plies) == n + 1 and self.game.record().plies[-1].clk_ms)

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.game.close()
        self.link.close()
        self.sim.stop()


@pytest.fixture
def session_factory(tmp_path):
    made = []

    def make(**kw):
        s = Session(tmp_path, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


@needs_engine
def test_a_whole_game_with_a_takeback_a_lost_line_and_a_flag(session_factory):
    # The person plays White at 30 s a game; the engine, level 1, Black.
    s = session_factory(engine_color=chess.BLACK, control="30+0")
    rng = random.Random(7)
    played = []
    for _ in range(2):
        s.my_move(rng.choice(list(s.board().legal_moves)))
        played.append(s.carry_out_engine_move())
    # A take-back: the engine's last move and his own go back, on the board.
    before = s.board()
    after_engine = s.sim.hands.take_back(before)
    s.sim.hands.take_back(after_engine)
    s.wait(lambda: len(s.game.record().plies) == 2)
    assert "Move taken back." in s.said
    assert s.board().turn == chess.WHITE and s.game._thinking is None and s.game._expected is None
    # Another move, and the engine answers it.
    s.my_move(rng.choice(list(s.board().legal_moves)))
    s.carry_out_engine_move()
    # The USB line goes for 2 s; meanwhile he moves and presses: nothing is lost.
    s.sim.unplug()
    b = s.board()
    mine = rng.choice(list(b.legal_moves))
    s.sim.hands.move(b, mine)
    time.sleep(2)
    s.sim.plug()
    s.wait(lambda: len(s.game.record().plies) == 5 and s.game.record().plies[-1].clk_ms)
    assert s.game.record().plies[4].uci == mine.uci()
    s.carry_out_engine_move()
    # Then he lets his time run out.
    s.wait(lambda: s.game.finished.is_set(), timeout=40)
    r = s.game.record()
    assert (r.result, r.termination) == ("0-1", "time_forfeit")
    assert any(t.startswith("Game over: 0-1") for t in s.said)
    # The record is a legal game that python-chess replays, every move timed.
    replay = chess.Board()
    for p in r.plies:
        replay.push_uci(p.uci)
        assert p.clk_ms is not None
    assert len(r.plies) == 6 and r.black.startswith("Stockfish level 1")


@needs_engine
def test_the_engine_as_white_moves_first_and_promotes(session_factory, tmp_path):
    # White's only legal moves are the pawn's promotions: the engine picks one, the LEDs
    # show it, the person carries it out, and the board takes the engine's piece.
    fen = "8/kP6/8/8/8/8/5q2/7K w - - 0 1"
    s = session_factory(engine_color=chess.WHITE, fen=fen)
    # The person's pieces must stand as the FEN says: he sets them up.
    setup = s.sim.hands
    b = chess.Board(fen)
    lines = [f"0 occ {sum(1 << sq for sq in b.piece_map()):016x}"]
    setup._play(lines)
    setup.occ = set(b.piece_map())
    move = s.carry_out_engine_move()
    assert move.promotion is not None
    r = s.game.record()
    assert r.plies[0].uci == move.uci() and r.plies[0].san.startswith("b8=")
    assert s.game.link.session.clock.running == "b"  # the engine's move completed by itself


@needs_engine
def test_an_engine_that_dies_mid_game_says_so_and_play_engine_again_goes_on_with_the_game(session_factory):
    import signal

    s = session_factory(engine_color=chess.BLACK)
    s.my_move(chess.Move.from_uci("e2e4"))
    s.carry_out_engine_move()
    # The engine process dies while the person thinks.
    os.kill(s.game.engine.protocol.transport.get_pid(), signal.SIGKILL)
    time.sleep(0.5)
    with pytest.raises(PlayError, match="the engine stopped working"):
        s.game.keyboard("hint")  # a clear message, not a traceback
    s.my_move(chess.Move.from_uci("d2d4"))  # the board takes his move all the same
    wait_until(lambda: s.error is not None, s.said, 20)
    assert isinstance(s.error, PlayError) and "start play engine again" in str(s.error)
    assert [p.uci for p in s.game.record().plies][::2] == ["e2e4", "d2d4"]
    # play engine started again: the game on the board goes on, nothing lost.
    old = s.game
    again = EngineGame(s.link, STOCKFISH, level=1, color=chess.WHITE, control="600+5", say=s.said.append)
    old.close()
    s._thread.join(5)
    again.start()
    assert again.color == chess.BLACK and any(t.startswith("Going on with the game on the board (3 plies)")
                                               for t in s.said)
    s.run(again)
    s.carry_out_engine_move()
    r = s.game.record()
    assert len(r.plies) == 4 and r.result == "*" and [p.uci for p in r.plies][:3:2] == ["e2e4", "d2d4"]


def test_a_missing_engine_says_so():
    with pytest.raises(PlayError, match="not an executable"):
        find_engine("/no/such/engine")


def test_an_engine_that_is_not_one_is_refused_plainly(tmp_path):
    fake = tmp_path / "engine"
    fake.write_text("#!/bin/sh\necho hello\nexit 3\n")
    fake.chmod(0o755)

    class NoLink:
        pass

    with pytest.raises(PlayError, match="did not start"):
        EngineGame(NoLink(), str(fake))


def test_a_bad_level_is_refused():
    class NoLink:
        pass

    with pytest.raises(PlayError, match="level is 1 to 8"):
        EngineGame(NoLink(), "/bin/true", level=9)


@needs_engine
def test_the_minus_button_asks_a_hint_that_the_board_lights_until_he_moves(session_factory):
    s = session_factory(engine_color=chess.BLACK)
    s.sim.hands.button("minus")  # as the clock's button reports it: down, a moment, up
    said = s.wait(lambda: next((t for t in s.said if t.startswith("Hint: ")), None))
    hint = s.board().parse_san(said[len("Hint: "):].rstrip("."))
    lit = s.wait(lambda: (lambda f, t: (f, t) if f and t else None)(*lit_move(s.outputs, (6, 7))))
    assert lit == ({chess.square_name(hint.from_square)}, {chess.square_name(hint.to_square)})
    # He plays something else: the board takes it, and the hint is gone from the LEDs.
    other = next(m for m in s.board().legal_moves if m != hint)
    s.my_move(other)
    assert s.game.record().plies[0].uci == other.uci()
    s.wait(lambda: lit_move(s.outputs, (6, 7)) == (set(), set()))


def _typing(processes, *args):
    """play engine --sim as a subprocess: (process, what it printed so far)."""
    import subprocess
    import sys

    p = processes.start([sys.executable, "-m", "host_tools", "play", "engine", "--sim", "--level", "1",
                          "--color", "white", "--engine", STOCKFISH, *args],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         bufsize=1)
    out: list[str] = []
    threading.Thread(target=lambda: [out.append(line) for line in p.stdout], daemon=True).start()
    return p, out


def _type(p, text):
    p.stdin.write(text + "\n")
    p.stdin.flush()


@needs_engine
def test_moves_typed_with_sim_wait_for_the_board_and_a_bad_one_says_why(processes):
    # `play engine --sim` as a person types at it: a move typed before the board is ready
    # (the game still being set up) waits and is made then; the next typed while the
    # engine's reply is being carried out waits for it and is read against the position
    # then; an illegal one and a nonsense one are refused with the reason; the board
    # says when it is ready for his move.
    p, out = _typing(processes)
    try:
        p.stdin.write("e4\n")  # at once: before the board is even ready
        p.stdin.flush()
        wait_until(lambda: any(" plays 1..." in line for line in out), out, 90)
        p.stdin.write("Nf3\n")  # while the engine's reply is carried out on the board
        p.stdin.write("e2e5\n")  # not legal then (the pawn is on e4)
        p.stdin.write("hello\n")  # not a move: a command the tool does not know
        p.stdin.flush()
        wait_until(lambda: any(" plays 2..." in line for line in out), out, 90)
        wait_until(lambda: any("e2e5 is not a legal move" in line for line in out), out, 30)
        wait_until(lambda: any("'hello' is not a move or a command: type a move" in line for line in out), out, 30)
        assert sum("Your move." in line for line in out) >= 1
        # The engine's move is made by the simulated hands: nothing to do but watch; the
        # board and the clocks are shown when it is his move.
        assert not any("make it on the board (" in line for line in out)
        assert any(re.fullmatch(r"1( [KQRBNPkqrbnp.]){8}\n", line) for line in out)
        assert any(line.startswith("White 5:0") and "Black 5:0" in line for line in out)
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()


@needs_engine
def test_new_after_a_resignation_and_after_a_draw_sets_up_a_game_that_plays(processes):
    # Typed as a person would: a move, resign, new, a move (the engine answers it), draw
    # (the engine accepts or declines), new again, a move. Each new game is set up on the
    # simulated board (the pieces back at the start) and its first move answered.
    p, out = _typing(processes)
    try:
        wait_until(lambda: any("Your move." in line for line in out), out, 90)
        _type(p, "e4")
        wait_until(lambda: any(" plays 1..." in line for line in out), out, 90)
        _type(p, "resign")
        wait_until(lambda: any("Game over: 0-1 (resignation). Type new for a new game." in line for line in out), out, 30)
        _type(p, "new")
        wait_until(lambda: sum("New game, 300+2" in line for line in out) == 2, out, 30)
        _type(p, "d4")
        wait_until(lambda: sum(" plays 1..." in line for line in out) == 2, out, 90)
        _type(p, "draw")
        wait_until(lambda: any("the draw." in line for line in out), out, 60)
        _type(p, "new")
        wait_until(lambda: sum("New game, 300+2" in line for line in out) == 3, out, 30)
        _type(p, "c4")
        wait_until(lambda: sum(" plays 1..." in line for line in out) == 3, out, 90)
        assert not any("not-now" in line or "Traceback" in line for line in out), out
        _type(p, "quit")
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()


@needs_engine
def test_a_time_control_the_board_cannot_read_is_refused_before_the_board_starts(processes):
    p, out = _typing(processes, "--tc", "5min")
    assert p.wait(30) != 0
    text = "".join(out)
    assert "play: error: --tc: cannot read '5min' in '5min': FIDE writes 90+30" in text
    assert "simulated board on" not in text and "bad-argument" not in text
