# Runs inside micropython: plays UCI moves read from standard input with the firmware's
# rule checker and prints what the device decides after each one.
#   first line: "fen <FEN>" or "chess960 <N>" or "start"; then one UCI move per line.
# Output per move: "<ply> <SAN> <FEN>"; at the end "result <1-0|0-1|1/2-1/2|*> <reason>".
import sys

from firmware.rules.game import Game
from firmware.rules.errors import IllegalMoveError, InvalidMoveError


def main():
    head = sys.stdin.readline().strip()
    if head.startswith("fen "):
        game = Game(head[4:])
    elif head.startswith("chess960 "):
        game = Game.from_chess960(int(head[9:]))
    else:
        game = Game()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        u = line.strip()
        if not u:
            continue
        try:
            m = game.parse_uci(u)
        except (IllegalMoveError, InvalidMoveError) as e:
            print("error", e)
            continue
        san = game.san(m)
        game.push(m)
        print(game.ply, san, game.fen())
        if game.outcome() is not None:
            break
    o = game.outcome(claim_draw=True)
    print("result", o.result() if o else "*", o.termination if o else "-")


main()
