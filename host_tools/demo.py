"""The main job for now: the seed games of the reference played move by move through the
firmware's rule checker inside the real `micropython` interpreter (64K heap), each move's
SAN and the game-end verdict checked against python-chess on the host."""
import io

import chess
import chess.pgn

from host_tools import micropython

# The example games of the seeds (shared/reference), in Italian notation as there.
SEED_GAMES = (
    ("Légal's mate", "1.e4 e5 2.Cf3 d6 3.Ac4 Cc6 4.Cc3 Ag4 5.Cxe5 Axd1 6.Axf7+ Re7 7.Cd5#"),
    ("FIDE Laws, appendix C",
     "1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5 6. exd6 e.p. Cxd6 7. Ag5 Cc6 "
     "8. De3 Ae7 9. Cbd2 0-0 10. 0-0-0 Te8 11. Rb1"),
)
_ITALIAN = str.maketrans({"R": "K", "D": "Q", "T": "R", "A": "B", "C": "N"})


def italian_to_game(text):
    """Italian SAN (R D T A C) -> python-chess game."""
    text = text.replace("e.p.", "").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    return chess.pgn.read_game(io.StringIO(text.translate(_ITALIAN)))


def play(name, text, out=print):
    game = italian_to_game(text)
    moves = list(game.mainline_moves())
    board = game.board()
    r = micropython.run(["host_tools/mpy/play_moves.py"], heap="64K", compiled=True,
                        input="start\n" + "".join(m.uci() + "\n" for m in moves))
    if r.returncode:
        raise RuntimeError("the firmware failed:\n" + r.stdout + r.stderr)
    lines = r.stdout.splitlines()
    out(f"== {name}: {len(moves)} plies through the firmware rule checker (micropython, 64K heap)")
    row = []
    for move, line in zip(moves, lines):
        ply, san, fen = line.split(" ", 2)
        want = board.san(move)
        board.push(move)
        if san != want or fen != board.fen():
            raise RuntimeError(f"firmware said {san} {fen}, python-chess {want} {board.fen()}")
        row.append((f"{(int(ply) + 1) // 2}. " if int(ply) % 2 else "") + san)
    out("   " + " ".join(row))
    result = lines[-1].split()
    out(f"   result {result[1]} ({result[2]})" if result[1] != "*" else "   the game goes on (no automatic end)")
    return result[1]


def main():
    for name, text in SEED_GAMES:
        play(name, text)
    return 0
