"""Playing online on the board (issue 15): the figures, with the simulated board (the real
firmware in `micropython`, real time), the real `play lichess` code and a local server
that follows lichess's Board API (tests/host/lichess_server.py). A person at the board plays a
game of N plies against the server's opponent, both sides' moves on the real pieces.

- the opponent's move: its game state reaching the host -> its squares lit on the board
  (the board's `ok expect`, written after the LEDs are set) - must be <= 300 ms;
- the player's move: its `move` line reaching the host -> the move received by lichess
  (the server) - must be <= 200 ms.

Then the same person plays `play engine` (Stockfish, level 3, through python-chess): the
player's press reaching the host (his move's `clk` line) -> the engine's move lit on the
board, and that less the engine's own search, the part this code adds (the same <= 300 ms
as an online opponent's move).

    python bench/play.py [--plies N] [--level L]
"""
import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import chess  # noqa: E402

from host_tools.engines import find_engine  # noqa: E402
from host_tools.board.link import BoardLink  # noqa: E402
from host_tools.play.engine import EngineGame  # noqa: E402
from host_tools.play.lichess_api import BoardApi  # noqa: E402
from host_tools.play.online import OnlineGame  # noqa: E402
from host_tools.sim import SimulatedBoard  # noqa: E402
from tests.host.lichess_server import TOKEN, FakeLichess  # noqa: E402


class TimedGame(OnlineGame):
    """The real OnlineGame, with the instants the figures need noted."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.state_at = {}  # plies -> when the game state with that many moves reached the host
        self.lit_at = {}  # ply -> when the board answered its expect
        self.line_at = {}  # ply -> when the board's move line reached the host

    def _lichess(self, what, obj):
        if what == "game" and obj.get("type") in ("gameState", "gameFull"):
            st = obj.get("state", obj)
            n = len((st.get("moves") or "").split())
            self.state_at.setdefault(n, time.monotonic())
        super()._lichess(what, obj)

    def _expect(self, ply, uci):
        was = self._expected
        super()._expect(ply, uci)
        if self._expected != was:
            self.lit_at.setdefault(ply, time.monotonic())


class TimedEngineGame(EngineGame):
    """The real EngineGame, with the instants the figures need noted."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.press_at = {}  # ply -> when the player's clk line for that ply reached the host
        self.search_s = {}  # ply the engine plays -> its search's own time
        self.lit_at = {}  # ply the engine plays -> when the board answered its expect

    def _event(self, ev):
        if ev.kind == "clk":
            self.press_at.setdefault(int(ev.args[0]), time.monotonic())
        super()._event(ev)

    def _search(self, board, limit, think):
        t = time.monotonic()
        super()._search(board, limit, think)
        self.search_s.setdefault(len(board.move_stack) + 1, time.monotonic() - t)

    def _collect(self):
        was = self._expected
        super()._collect()
        if self._expected is not None and self._expected != was:
            self.lit_at.setdefault(len(self.record().plies) + 1, time.monotonic())


def wait(cond, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    raise SystemExit(f"stuck: {cond}")


def engine_figures(plies, level):
    """The person plays White at the simulated board against `play engine` as Black."""
    tmp = tempfile.mkdtemp(prefix="chessboard-bench-engine-")
    sim = SimulatedBoard(hands=True, link=tmp + "/board")
    link = BoardLink(tmp + "/board", retry_s=0.2)
    link.connected.wait(10)
    game = TimedEngineGame(link, find_engine(), level=level, color=chess.BLACK, control="3600+0",
                           say=lambda t: None, hands=sim.hands)
    game.new_game()
    stop = threading.Event()
    t = threading.Thread(target=game.run, kwargs={"until": stop.is_set}, daemon=True)
    t.start()
    rng = random.Random(5)
    wait(lambda: game.record() is not None and not game.record().plies)
    for ply in range(1, plies + 1, 2):
        b = game.board()
        if b.is_game_over():
            break
        sim.hands.move(b, rng.choice(list(b.legal_moves)))
        wait(lambda: len(game.record().plies) >= ply and game.record().plies[ply - 1].clk_ms is not None)
        if game.board().is_game_over():
            break
        wait(lambda: len(game.record().plies) >= ply + 1 and game.record().plies[ply].clk_ms is not None)
    stop.set()
    t.join(5)
    timed = [p for p in game.lit_at if p - 1 in game.press_at]
    total = [(game.lit_at[p] - game.press_at[p - 1]) * 1000 for p in timed]
    ours = [d - game.search_s.get(p, 0) * 1000 for d, p in zip(total, timed)]
    print(f"a game of {len(game.record().plies)} plies against Stockfish level {level}; the simulated board in real time")
    print(f"{'player press -> engine move lit on the board':48}{statistics.median(total):8.0f}{max(total):8.0f}"
          f"   (with the engine's search)  ({len(total)} moves)")
    print(f"{'  the same, less the engine search':48}{statistics.median(ours):8.0f}{max(ours):8.0f}   <= 300 ms")
    game.close()
    link.close()
    sim.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--level", type=int, default=3)
    a = ap.parse_args(argv)
    lichess_figures(a.plies)
    engine_figures(a.plies, a.level)


def lichess_figures(n_plies):
    server = FakeLichess()
    received_at = {}
    orig = server._play

    def play(g, uci):
        received_at.setdefault(len(g.moves) + 1, time.monotonic())
        orig(g, uci)
    server._play = play
    tmp = tempfile.mkdtemp(prefix="chessboard-bench-play-")
    sim = SimulatedBoard(hands=True, link=tmp + "/board")
    link = BoardLink(tmp + "/board", retry_s=0.2)
    link.connected.wait(10)
    api = BoardApi(TOKEN, server.url)
    game = TimedGame(link, api, say=lambda t: None)
    # The host's instant of each move line, as the loop sees it.
    orig_event = game._event

    def event(ev):
        if ev.kind == "move":
            game.line_at.setdefault(int(ev.args[0]), time.monotonic())
        orig_event(ev)
    game._event = event
    stop = threading.Event()
    gid = server.new_game(me_white=True, minutes=60, inc=0)
    game.wait()
    t = threading.Thread(target=game.run, kwargs={"until": stop.is_set}, daemon=True)
    t.start()

    def plies():
        r = link.session.record
        return [p.uci for p in r.plies] if r and r.source == f"lichess.org/{gid}" else None

    wait(lambda: plies() == [])
    rng = random.Random(4)
    board_ = chess.Board()
    for ply in range(1, n_plies + 1):
        legal = list(board_.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        if ply % 2 == 1:  # the player, at the board
            sim.hands.move(board_, move, press=False)
        else:
            time.sleep(rng.uniform(0.3, 1.0))
            server.opponent_move(gid, move.uci())
            wait(lambda: game._expected is not None and game._expected[0] == ply)
            sim.hands.carry_out(board_, move)
        board_.push(move)
        wait(lambda: plies() is not None and len(plies()) == ply)
        wait(lambda: ply % 2 == 0 or len(server.games[gid].moves) == ply)
    stop.set()
    t.join(5)
    lit = [(game.lit_at[p] - game.state_at[p]) * 1000 for p in game.lit_at if p in game.state_at]
    sent = [(received_at[p] - game.line_at[p]) * 1000 for p in received_at if p in game.line_at and p % 2 == 1]
    print(f"a game of {len(board_.move_stack)} plies against the local lichess; the simulated board in real time")
    print(f"{'':48}{'median':>8}{'worst':>8}   must be")
    print(f"{'opponent move: game state -> lit on the board':48}{statistics.median(lit):8.0f}{max(lit):8.0f}"
          f"   <= 300 ms  ({len(lit)} moves)")
    print(f"{'player move: move line -> received by lichess':48}{statistics.median(sent):8.0f}{max(sent):8.0f}"
          f"   <= 200 ms  ({len(sent)} moves)")
    link.close()
    api.close()
    sim.stop()
    server.close()


if __name__ == "__main__":
    main()
