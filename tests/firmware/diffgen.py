"""Games for the differential test, with python-chess's verdict at every ply.

Yields the JSON-able records that tests/firmware/diffcheck.py replays. Three kinds of game:
random ones; quiet ones that, after an opening, prefer moves that are no capture or pawn
move and often step a piece straight back, to reach repetitions and the 50/75-move rules;
and games from the hard perft positions. Standard and Chess960 starts, and now and then a
take-back of one to three moves.
"""
import random

import chess

HARD_STARTS = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 90 80",
    "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
    "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
)


def _expect(b):
    oc = b.outcome()
    # A threefold claim needs at least 8 quiet plies (each side moves away and back twice);
    # with fewer than 7 before the claimant's move, python-chess would answer False too.
    claim3 = b.halfmove_clock >= 7 and b.can_claim_threefold_repetition()
    return {
        "moves": " ".join(sorted(b.uci(m) for m in b.legal_moves)),
        "fen": b.fen(),
        "shredder": b.fen(shredder=True),
        "check": b.is_check(),
        "mate": b.is_checkmate(),
        "stale": b.is_stalemate(),
        "insw": b.has_insufficient_material(chess.WHITE),
        "insb": b.has_insufficient_material(chess.BLACK),
        "rep3": b.is_repetition(3),
        "claim3": claim3,
        "claim50": b.can_claim_fifty_moves(),
        "rep5": b.is_fivefold_repetition(),
        "f75": b.is_seventyfive_moves(),
        "outcome": None if oc is None else [oc.termination.name.lower(), oc.result()],
    }


def _choose(b, rng, quiet):
    moves = list(b.legal_moves)
    if quiet and len(b.move_stack) > 12 and rng.random() < 0.9:
        if len(b.move_stack) >= 2 and rng.random() < 0.5:
            back = b.move_stack[-2]
            undo = chess.Move(back.to_square, back.from_square)
            if undo in moves:
                return undo
        calm = [m for m in moves if not b.is_zeroing(m)]
        if calm:
            return rng.choice(calm)
    return rng.choice(moves)


def game_records(seed):
    """The records of one game, chosen by seed."""
    rng = random.Random(seed)
    kind = rng.random()
    if kind < 0.1:
        fen, c960 = rng.choice(HARD_STARTS), False
        b = chess.Board(fen)
    elif kind < 0.45:
        n = rng.randrange(960)
        b = chess.Board.from_chess960_pos(n)
        c960 = True
    else:
        b = chess.Board()
        c960 = False
    quiet = rng.random() < 0.4
    limit = rng.choice((40, 80, 120, 200, 400 if quiet else 250))
    yield {"start": b.fen(), "c960": c960}
    while True:
        rec = {"expect": _expect(b), "move": None}
        if b.outcome() is None and len(b.move_stack) < limit:
            m = _choose(b, rng, quiet)
            rec["move"] = b.uci(m)
            rec["san"] = b.san(m)
            yield rec
            b.push(m)
            if len(b.move_stack) > 4 and rng.random() < 0.02:
                k = rng.randint(1, 3)
                for _ in range(k):
                    b.pop()
                yield {"pop": k}
        else:
            yield rec
            return
