# SAN out, with the expected strings as python-chess writes them.
from firmware.rules.position import Position
from firmware.rules.san import san, LETTERS_IT, LETTERS_DE
from firmware.rules.uci import parse_uci

CASES = (
    ("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1": "O-O", "e1c1": "O-O-O+", "a1a8": "Ra8+"}),
    ("r3k2r/8/8/8/8/8/8/R3K2R b kq - 0 1", {"e8g8": "O-O", "e8c8": "O-O-O"}),
    ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", {"b1d2": "Nbd2", "f3d2": "Nfd2"}),
    ("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", {"a1a2": "R1a2", "a4a2": "R4a2"}),
    ("1k6/8/8/8/Q6Q/8/8/K6Q w - - 0 1",
     {"a4e4": "Qae4", "h4e4": "Qh4e4", "h1e4": "Q1e4", "h1e1": "Q1e1", "h4e1": "Q4e1", "h4h2": "Q4h2+",
      "h4b4": "Qhb4+"}),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", {"b7b8q": "b8=Q+", "b7b8n": "b8=N", "b7b8r": "b8=R+"}),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", {"e5d6": "exd6"}),
    ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", {"a1a8": "Ra8#", "e1c1": "O-O-O"}),
    ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", {"d8h4": "Qh4#"}),
)


def test_san_like_python_chess():
    for fen, moves in CASES:
        p = Position(fen)
        for u, want in moves.items():
            assert san(p, parse_uci(p, u)) == want, (fen, u, san(p, parse_uci(p, u)))
        assert p.fen() == Position(fen).fen()  # san looked ahead but changed nothing


def test_san_in_chess960():
    p = Position("rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1", chess960=True)
    assert san(p, parse_uci(p, "b1a1")) == "O-O-O"


def test_national_letters():
    p = Position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    assert san(p, parse_uci(p, "b1d2"), LETTERS_IT) == "Cbd2"
    assert san(p, parse_uci(p, "b1d2"), LETTERS_DE) == "Sbd2"
    p = Position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert san(p, parse_uci(p, "b7b8q"), LETTERS_IT) == "b8=D+"
