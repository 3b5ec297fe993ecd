# The firmware side of bench/recognizer.py (runs inside micropython):
#   micropython -X heapsize=128K bench/recognizer_core.py TRACE FEN|start CHESS960(0|1)
# Replays the trace with a scan every 10 ms and times every scan call, by what it did:
# "unchanged" (nothing new), "change" (a new stable board classified), "to_event" (from
# the start of the scan or press that commits a move to its move event), "commit" (that
# whole call, with the work after the event: recording the move and preparing the next
# position), and the idle steps done between scans. Prints one line per kind:
#   <kind> n <count> median_us <m> worst_us <w>
import sys
from array import array
from time import ticks_us, ticks_diff

sys.path.append(".")

from firmware.board.recognizer import MoveRecognizer
from firmware.board.sink import GameSink  # noqa: E402
from simulator.trace import parse_line  # noqa: E402
from firmware.rules.game import Game  # noqa: E402
from firmware.rules.squares import WHITE, BLACK  # noqa: E402


class Stats:
    """Median and worst of microsecond figures, as a histogram (no list of every one)."""

    def __init__(self):
        self.h = array("I", bytes(4 * 1024))
        self.n = 0
        self.worst = 0

    def add(self, us):
        self.h[us if us < 1023 else 1023] += 1
        self.n += 1
        if us > self.worst:
            self.worst = us

    def line(self, name):
        if not self.n:
            return "%s n 0" % name
        half = self.n // 2
        seen = 0
        for us in range(1024):
            seen += self.h[us]
            if seen > half:
                break
        return "%s n %d median_us %d worst_us %d" % (name, self.n, us, self.worst)


def main(path, fen, c960):
    game = Game(None if fen == "start" else fen, c960 == "1")
    moved = [0]
    event_at = [0]

    class Sink(GameSink):
        def make_move(self, m, now):
            moved[0] += 1
            event_at[0] = ticks_us()
            self.game.push(m)

    rec = MoveRecognizer(game, sink=Sink(game))
    while rec.idle():
        pass
    unchanged = Stats()
    change = Stats()
    commit = Stats()
    to_event = Stats()
    idle = Stats()
    occ = bytearray(8)
    now = 0
    f = open(path)
    while True:
        line = f.readline()
        if not line:
            break
        ev = parse_line(line)
        if ev is None:
            continue
        t, kind, arg = ev
        while now < t:
            before_moves = moved[0]
            before_since = rec._since
            t0 = ticks_us()
            rec.scan(occ, now)
            us = ticks_diff(ticks_us(), t0)
            if moved[0] != before_moves:
                commit.add(us)
                to_event.add(ticks_diff(event_at[0], t0))
            elif rec._since != before_since:
                change.add(us)
            else:
                unchanged.add(us)
            t0 = ticks_us()
            if rec.idle():
                idle.add(ticks_diff(ticks_us(), t0))
            now += 10
        if kind == "occ":
            occ[:] = arg
        elif kind == "press":
            before_moves = moved[0]
            t0 = ticks_us()
            rec.press(WHITE if arg == "white" else BLACK, now)
            us = ticks_diff(ticks_us(), t0)
            if moved[0] != before_moves:
                commit.add(us)
                to_event.add(ticks_diff(event_at[0], t0))
        else:
            rec.button(arg[0], arg[1], now)
    print(unchanged.line("unchanged"))
    print(change.line("change"))
    print(to_event.line("to_event"))
    print(commit.line("commit"))
    print(idle.line("idle"))
    print("moves %d settle_ms %d" % (game.ply, rec.settle_ms))


main(sys.argv[1], sys.argv[2], sys.argv[3])
