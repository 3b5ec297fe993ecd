# The firmware side of the differential test against python-chess. It replays a stream
# of JSON lines written by tests/firmware/diffgen.py (CPython, python-chess) and compares, at every
# ply, everything the rule checker decides. It runs under CPython and inside micropython:
#   micropython -X heapsize=128K tests/firmware/diffcheck.py FILE
# Lines:
#   {"start": FEN, "c960": bool}           a new game
#   {"expect": {...}, "move": UCI | null}   compare the position, then play the move
#   {"pop": N}                              take back N moves
import json
import sys

from firmware.rules.game import Game
from firmware.rules.squares import WHITE, BLACK


def _outcome(game):
    o = game.outcome()
    return None if o is None else [o.termination, o.result()]


def state(game):
    """What the checker decides about the current position, in diffgen's field names."""
    return {
        "moves": " ".join(sorted(game.uci(m) for m in game.legal_moves())),
        "fen": game.fen(),
        "shredder": game.fen(shredder=True),
        "check": game.is_check(),
        "mate": game.is_checkmate(),
        "stale": game.is_stalemate(),
        "insw": game.has_insufficient_material(WHITE),
        "insb": game.has_insufficient_material(BLACK),
        "rep3": game.is_repetition(3),
        "claim3": game.can_claim_threefold_repetition(),
        "claim50": game.can_claim_fifty_moves(),
        "rep5": game.is_fivefold_repetition(),
        "f75": game.is_seventyfive_moves(),
        "outcome": _outcome(game),
    }


class Checker:
    def __init__(self):
        self.game = None
        self.games = 0
        self.plies = 0

    def feed(self, rec):
        if "start" in rec:
            if self.game is None:
                self.game = Game(rec["start"], rec["c960"])
            else:
                self.game.reset(rec["start"], rec["c960"])
            self.games += 1
        elif "pop" in rec:
            for _ in range(rec["pop"]):
                self.game.pop()
        else:
            game = self.game
            want = rec["expect"]
            got = state(game)
            for k in want:
                if got[k] != want[k]:
                    raise AssertionError("game %d ply %d %s: checker %r, python-chess %r (FEN %s)"
                                         % (self.games, game.ply, k, got[k], want[k], want["fen"]))
            u = rec["move"]
            if u:
                m = game.parse_uci(u)
                if "san" in rec and game.san(m) != rec["san"]:
                    raise AssertionError("game %d ply %d SAN of %s: checker %r, python-chess %r"
                                         % (self.games, game.ply, u, game.san(m), rec["san"]))
                game.push(m)
            self.plies += 1


def main(path):
    c = Checker()
    with open(path) as f:
        while True:
            line = f.readline()
            if not line:
                break
            c.feed(json.loads(line))
    print("ok games %d plies %d" % (c.games, c.plies))


if __name__ == "__main__":
    sys.path.append(".")
    main(sys.argv[1])
