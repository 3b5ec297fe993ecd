"""The host's protocol parser: any fragmentation of the byte stream gives the same
messages; bad lines become "unreadable" messages, never exceptions; the game record
asks for a resend on a gap and ignores duplicates."""
import random

import pytest

from host_tools.board.record import GameRecord
from host_tools.protocol import CLOCK_STATES, DeviceParser, Event, Status, parse_line

STREAM = (
    b"hello proto=1 fw=0.1.0 board=sim\n"
    b"@3:1 game tc=300+2 fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201 "
    b"chess960=- white=Anna%20B black=Carl\n"
    b"@3:2 start\r\n"
    b"@3:3 move 1 e2e4 e4\n"
    b"clock 301000 300000 b running moves=1,0 period=0,0 flags=0,0\n"
    b"@3:4 clk 1 301000\n"
    b"@3:5 set time w 120000\n"
    b"board differs missing=d1 fix=d3d1\n"
    b"err unknown-command frobnicate\n"
)


def _messages(chunks):
    p = DeviceParser()
    out = []
    for c in chunks:
        out.extend(p.feed(c))
    return out


def test_any_fragmentation_gives_the_same_messages():
    whole = _messages([STREAM])
    assert [m.line for m in _messages([bytes([b]) for b in STREAM])] == [m.line for m in whole]
    rng = random.Random(1)
    for _ in range(200):
        cuts = sorted(rng.sample(range(1, len(STREAM)), rng.randint(1, 30)))
        parts = [STREAM[a:b] for a, b in zip([0] + cuts, cuts + [len(STREAM)])]
        assert [m.line for m in _messages(parts)] == [m.line for m in whole]
    assert len(whole) == 9


def test_what_the_messages_say():
    m = _messages([STREAM])
    assert isinstance(m[0], Status) and m[0].kind == "hello" and m[0].kwargs["proto"] == "1"
    assert isinstance(m[1], Event) and (m[1].game, m[1].seq, m[1].kind) == (3, 1, "game")
    assert m[3].kind == "move" and m[3].args == ["1", "e2e4", "e4"]
    assert m[4].kind == "clock" and m[4].args[:3] == ["301000", "300000", "b"]
    assert m[6].kind == "set time" and m[6].args == ["w", "120000"]
    assert m[7].kind == "board" and m[7].kwargs == {"missing": "d1", "fix": "d3d1"}
    assert m[8].kind == "err" and m[8].args == ["unknown-command", "frobnicate"]


@pytest.mark.parametrize("garbage", [b"\xff\xfe\x00\n", b"@x:y move\n", b"@1:2\n", b"   \n"])
def test_garbage_never_raises(garbage):
    msgs = _messages([garbage, b"@1:1 start\n"])
    assert msgs[-1].kind == "start"
    assert all(m.kind == "unreadable" for m in msgs[:-1])


def test_an_overlong_line_is_dropped_whole():
    msgs = _messages([b"x" * 5000, b"y" * 10, b"\n@1:1 start\n"])
    assert [m.kind for m in msgs] == ["unreadable", "start"]


def test_game_record_gaps_and_duplicates():
    msgs = [m for m in _messages([STREAM]) if isinstance(m, Event)]
    rec = GameRecord(3)
    assert rec.apply(msgs[0]) == "ok"
    assert rec.apply(msgs[2]) == "gap" and rec.next_seq == 2
    assert rec.apply(msgs[1]) == "ok"
    assert rec.apply(msgs[1]) == "duplicate"
    for m in msgs[2:]:
        assert rec.apply(m) == "ok"
    assert rec.white == "Anna B" and rec.plies[0].san == "e4" and rec.plies[0].clk_ms == 301000
    # The arbiter's correction after the move is a comment at it, in words.
    assert "1. e4 { [%clk 0:05:01] arbiter: White's clock set to 2:00 }" in rec.pgn()


def test_an_illegal_move_from_a_board_is_refused():
    rec = GameRecord(1)
    rec.apply(parse_line("@1:1 game tc=60 fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"))
    with pytest.raises(ValueError):
        rec.apply(parse_line("@1:2 move 1 e2e5 e5"))
    assert rec.plies == [] and rec.last_seq == 1


@pytest.mark.parametrize("line", ["@1:3 move 2", "@1:3 move 0 e7e5 e5", "@1:3 move 5 e7e5 e5",
                                  "@1:3 move \u00b2 e7e5 e5", "@1:3 takeback -5", "@1:3 takeback 2",
                                  "@1:3 takeback", "@1:3 result 1-0", "@1:3 result 2-0 checkmate",
                                  "@1:3 clk 1", "@1:3 clk 1 " + "9" * 5000])
def test_an_event_of_the_wrong_shape_is_refused_and_changes_nothing(line):
    # What a board could never send, as the fuzzing of the relay found it: each a
    # ValueError (the relay's board session shows it and goes on), the record as it was.
    rec = GameRecord(1)
    rec.apply(parse_line("@1:1 game tc=60 fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"))
    rec.apply(parse_line("@1:2 move 1 e2e4 e4"))
    with pytest.raises(ValueError):
        rec.apply(parse_line(line))
    assert [p.uci for p in rec.plies] == ["e2e4"] and rec.last_seq == 2 and rec.result == "*"


def test_values_are_encoded_alike_on_both_sides_of_the_wire():
    # The host encodes with the firmware's encode (firmware/app/protocol.py) and decodes
    # with its own tolerant decode: the two sides must agree on every value.
    from firmware.app import protocol as fw
    from host_tools import protocol as host

    r = random.Random(20)
    alphabet = [chr(c) for c in range(0, 0x250)] + ["\u2028", "\u20ac", "\U0001F600", " ", "%", "="]
    for _ in range(3000):
        value = "".join(r.choice(alphabet) for _ in range(r.randrange(0, 30)))
        e = host.encode(value)
        assert e == fw.encode(value)
        assert e.isascii() and e.isprintable() and " " not in e and "=" not in e
        clean = not any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in value)
        assert host.decode(e) == (value if clean else value.translate(host._CONTROL))
        if clean and len(value) <= fw.MAX_VALUE:
            assert fw.decode(e) == value
        elif not clean:
            with pytest.raises(ValueError):
                fw.decode(e)


def test_a_decoded_value_holds_no_control_character():
    # Whatever a board (or anything on its line) sends, no decoded value can split a line,
    # a PGN tag or a command of the host's.
    m = parse_line("@1:1 game tc=300+2 fen=x chess960=- white=A%0A%5BResult%20%221-0%22%5D black=%E9t%00")
    kw = dict(w.split("=", 1) for w in m.args)
    from host_tools.protocol import decode

    assert decode(kw["white"]) == "A\ufffd[Result \"1-0\"]"
    assert decode(kw["black"]) == "\ufffdt\ufffd"
    assert all(ch.isprintable() for ch in decode("%C2%85%E2%80%A8%0D%7F"))


def test_the_vocabulary_is_the_same_on_both_sides_of_the_wire():
    # Event words, termination names and the clock line: the firmware's
    # (firmware/app/eventlog.py), as the host reads them (host_tools/protocol.py, board/record.py).
    from firmware.app import eventlog
    from host_tools.board import record as gamerecord
    from host_tools import protocol as host

    assert tuple(eventlog.WORDS) == host.EVENT_KINDS
    assert set(host.EVENT_KINDS) == set(gamerecord.APPLIED) | set(gamerecord.NOTED) | {"start"}
    assert all(w.split()[0] in host.TWO_WORD_KINDS for w in eventlog.WORDS if " " in w)
    assert set(eventlog.TERMINATIONS) == set(gamerecord.PGN_TERMINATION)
    assert tuple(eventlog.RESULTS) == ("1-0", "0-1", "1/2-1/2")


def test_the_boards_clock_line_reads_on_the_host():
    from firmware.app.device import Device
    from firmware.rules.squares import WHITE
    from host_tools.board.session import BoardSession
    from tests.firmware.fakehal import FakeHal, run, speak_first

    hal = FakeHal()
    dev = Device(hal, presets_path="/tmp/chessboard-vocab-presets.json")
    run(dev, hal, 50)
    speak_first(dev, hal)
    dev.clock.start(hal.t, WHITE)
    run(dev, hal, 1500)
    line = [l for l in hal.lines() if l.startswith("clock ")][-1]
    s = BoardSession(1)
    changes = s.handle(parse_line(line))
    assert changes == [("clock", None)], (line, changes)
    words = line.split()
    assert (s.clock.white_ms, s.clock.black_ms, s.clock.running) == (int(words[1]), int(words[2]), "w")
    assert words[3] == "w" and words[4] == "running" and words[4] in CLOCK_STATES
    assert 0 < 300000 - s.clock.white_ms <= 1500  # White's clock ran since the start


def _pgn_by_python_chess(rec, **tags):
    """The oracle: the same game written by python-chess's own exporter."""
    import chess
    import chess.pgn

    from host_tools.board.record import PGN_TERMINATION, note_text, pgn_string

    class Escaping(chess.pgn.StringExporter):
        def visit_header(self, tagname, tagvalue):
            super().visit_header(tagname, pgn_string(tagvalue))

    board = chess.Board(rec.fen, chess960=rec.chess960 is not None)
    g = chess.pgn.Game()
    g.setup(board)
    for k, v in (("Event", "event"), ("Site", "site"), ("Date", "date"), ("Round", "round_")):
        g.headers[k] = tags.get(v, {"date": "????.??.??"}.get(v, "?"))
    g.headers["White"], g.headers["Black"], g.headers["Result"] = rec.white, rec.black, rec.result
    if tags.get("game_id"):
        g.headers["GameId"] = tags["game_id"]
    g.headers["TimeControl"] = rec.tc
    if rec.termination:
        g.headers["Termination"] = PGN_TERMINATION.get(rec.termination, "normal")
    node, last = g, {chess.WHITE: None, chess.BLACK: None}

    def noted(node, ply):  # the notes at that ply, after the clock, in words
        words = [note_text(text) for at, text in rec.notes if min(at, len(rec.plies)) == ply]
        if words:
            node.comment = " ".join(([node.comment] if node.comment else []) + words)
    noted(g, 0)
    for i, p in enumerate(rec.plies):
        mover = node.board().turn
        node = node.add_variation(node.board().parse_uci(p.uci))
        if p.clk_ms is not None:
            node.set_clock(p.clk_ms // 1000)
            last[mover] = p.clk_ms
        noted(node, i + 1)
    if rec.clocks:
        last = {chess.WHITE: rec.clocks[0], chess.BLACK: rec.clocks[1]}
    for color, tag in ((chess.WHITE, "WhiteClock"), (chess.BLACK, "BlackClock")):
        if last[color] is not None:
            s = last[color] // 1000
            g.headers[tag] = f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    if rec.termination:
        node.comment = (node.comment + " " if node.comment else "") + rec.termination.replace("_", " ")
    return g.accept(Escaping(columns=None)) + "\n\n"


def test_the_pgn_is_what_python_chess_writes():
    # The relay writes a PGN at every move of every board: GameRecord writes it from the
    # SANs it has, and it must be exactly what python-chess's exporter makes of the game.
    import chess

    from host_tools.board.record import Ply

    r = random.Random(9)
    starts = [(chess.STARTING_FEN, None), ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", None),
              ("8/8/4k3/8/8/4K3/4P3/8 b - - 12 57", None)]
    for n in (0, 518, 959, 100):
        b = chess.Board.from_chess960_pos(n)
        starts.append((b.fen(), n))
    for trial in range(300):
        fen, n960 = r.choice(starts)
        rec = GameRecord(1, tc=r.choice(["300+2", "-", "40/5400+30:1800+30"]), fen=fen, chess960=n960,
                         white=r.choice(["A", 'O"Neil \\ Jr', "Élodie"]), black="B")
        board = chess.Board(fen, chess960=n960 is not None)
        for _ in range(r.randrange(0, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            m = r.choice(moves)
            rec.plies.append(Ply(m.uci(), board.san(m), r.choice([None, r.randrange(0, 10_000_000)])))
            board.push(m)
        if r.randrange(3) == 0:
            rec.result, rec.termination = r.choice([("1-0", "resignation"), ("1/2-1/2", "agreement"),
                                                    ("0-1", "time_forfeit"), ("1-0", "checkmate")])
        if r.randrange(4) == 0:
            rec.clocks = (r.randrange(0, 9_000_000), r.randrange(0, 9_000_000))
        for _ in range(r.choice([0, 0, 1, 3])):  # an arbiter's doings (one after a take-back: beyond the plies)
            rec.notes.append((r.randrange(0, len(rec.plies) + 2), r.choice(
                ["penalty b 120000", "set time w 5400000", "pause", "resume", "illegal w 1", "quickplay",
                 "flag b 1", "note White claims a draw with the written move Nf3 {9.2.1.1}: incorrect"])))
        tags = r.choice([{}, {"event": "Club \"Open\"", "site": "Milan", "date": "2026.11.23", "round_": "3.1",
                              "game_id": "3-1-abc-1"}])
        assert rec.pgn(**tags) == _pgn_by_python_chess(rec, **tags), (trial, fen)
