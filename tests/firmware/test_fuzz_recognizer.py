# Occupancy noise into the move recogniser (issue 7): chatter shorter than the debounce
# window, and random boards held for a while. No crash, no phantom move, no heap growth;
# once the real board is back, it is in order again. Runs in both interpreters.
import gc

from firmware.board.recognizer import MoveRecognizer, SYNC
from firmware.board.sink import GameSink
from firmware.rules.game import Game
from firmware.rules.position import Position
from tests.firmware.support import Rand


def test_noise_never_makes_a_move():
    game = Game()
    moves = []

    class Moves(GameSink):
        def make_move(self, m, now):
            moves.append(m)
            self.game.push(m)

    rec = MoveRecognizer(game, sink=Moves(game))
    real = Position().occupancy(bytearray(8))
    occ = bytearray(real)
    r = Rand(7)
    now = 0
    for _ in range(20):  # settle on the real board
        rec.scan(real, now)
        now += 10
    while rec.idle():
        pass
    gc.collect()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    # 1. Reed chatter: a few squares flicker for less than the debounce window.
    for _ in range(20000):
        occ[:] = real
        if r.next(2):
            for _ in range(1 + r.next(3)):
                sq = r.next(64)
                occ[sq >> 3] ^= 1 << (sq & 7)
        rec.scan(occ, now)
        now += 10
        if r.next(3) == 0:  # back within the window: never stable
            rec.scan(real, now)
            now += 10
    # 2. Random boards, each held long enough to count, then the real board again.
    for _ in range(1000):
        for i in range(8):
            occ[i] = r.next(256)
        for _ in range(r.next(40)):
            rec.scan(occ, now)
            now += 10
    for _ in range(300):
        rec.scan(real, now)
        now += 10
    assert moves == [] and game.ply == 0
    assert rec.status == SYNC
    gc.collect()
    if hasattr(gc, "mem_alloc"):
        assert gc.mem_alloc() - before < 8192
