# Replays a file of traces inside micropython (or CPython) and prints what was recognised:
#   micropython -X heapsize=128K tests/firmware/replay_file.py FILE
# The file holds games one after another, each starting with a line
#   # game <chess960: 0|1> <FEN>
# Output per game: "game <n> moves <uci ...> | events moves=<n> takebacks=<n>".
import sys

sys.path.append(".")

from tests.firmware.replay import replay  # noqa: E402


def games(path):
    f = open(path)
    head = f.readline()
    while head:
        parts = head.split(None, 3)
        c960 = parts[2] == "1"
        fen = parts[3].strip()
        pending = []

        def lines():
            while True:
                line = f.readline()
                if not line or line.startswith("# game "):
                    pending.append(line)
                    return
                yield line

        yield fen, c960, lines()
        # the generator stopped at the next header (or the end)
        head = pending[0] if pending else ""
    f.close()


def main(path):
    n = 0
    rec = None
    for fen, c960, lines in games(path):
        game, ev, rec = replay(lines, fen, c960, keep=False, rec=rec)
        n += 1
        print("game %d moves" % n, end="")
        pos = game.position
        for i in range(pos.ply):
            print(" " + game.uci(pos.move_at(i)), end="")
        print(" | events moves=%d takebacks=%d" % (ev.moves, ev.takebacks))


main(sys.argv[1])
