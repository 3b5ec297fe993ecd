# Plays a trace through the move recogniser, as the device's loop would: a scan every
# scan_ms, the buttons as they come, idle work between scans. Runs under CPython and in
# micropython. Returns the game (its moves are what was recognised) and the events.
import gc

from firmware.board.recognizer import MoveRecognizer
from firmware.board.trace import parse_line
from firmware.rules.game import Game
from firmware.rules.squares import WHITE, BLACK


class Events:
    def __init__(self, keep=True):
        self.keep = keep
        self.list = []
        self.moves = 0
        self.takebacks = 0

    def __call__(self, kind, a, b):
        if kind == "move":
            self.moves += 1
        elif kind == "takeback":
            self.takebacks += 1
        if self.keep:
            self.list.append((kind, a, b))

    def kinds(self):
        return [e[0] for e in self.list]


def replay(lines, fen=None, chess960=False, scan_ms=10, tail_ms=2500, keep=True, rec=None, **kw):
    """Play the trace lines; rec: a recogniser to reuse (its game is reset to fen), as the
    device keeps one for its whole life."""
    events = Events(keep)
    if rec is None:
        gc.collect()  # the last replay's recogniser is garbage now: give its blocks back
        game = Game(fen, chess960)
        rec = MoveRecognizer(game, emit=events, **kw)
    else:
        game = rec.game
        game.reset(fen, chess960)
        rec._emit = events
        rec.restart(0)
    occ = bytearray(8)
    now = 0
    last = 0
    for line in lines:
        ev = parse_line(line)
        if ev is None:
            continue
        t, kind, arg = ev
        while now < t:
            rec.scan(occ, now)
            rec.idle()
            now += scan_ms
        if kind == "occ":
            occ[:] = arg
        elif kind == "press":
            rec.press(WHITE if arg == "white" else BLACK, now)
        else:
            rec.button(arg[0], arg[1], now)
        last = t
    end = last + tail_ms
    while now < end:
        rec.scan(occ, now)
        now += scan_ms
    return game, events, rec
