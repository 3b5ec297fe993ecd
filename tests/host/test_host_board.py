"""One board as the host knows it (host_tools/board/): the session tells its sink what a
line changed, one method per kind; a game's record as python-chess reads its PGN back; the
host's Outcome as the firmware's; the one time formatter."""
import io

import chess
import chess.pgn

from firmware.app import eventlog
from firmware.rules import outcome as fw
from firmware.rules.squares import BLACK, WHITE
from host_tools.board.record import Applied, GameRecord, Outcome, clock_text
from host_tools.board.session import BoardSession, ChangeList, SessionSink
from host_tools.protocol import parse_line

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"


class Told(SessionSink):
    def __init__(self):
        self.calls = []

    def event(self, ev):
        self.calls.append(("event", ev.kind))

    def clock(self):
        self.calls.append(("clock",))

    def status(self, m):
        self.calls.append(("status", m.kind))

    def problem(self, text):
        self.calls.append(("problem", text.split(":")[0]))

    def answer(self, line, m):
        self.calls.append(("answer", line, m.kind))

    def ask(self, side, what):
        self.calls.append(("ask", side, what))

    def result(self):
        return self.calls


def test_the_session_tells_its_sink_one_method_per_kind():
    s = BoardSession(1)
    sent = []
    s.send = sent.append
    got = Told()
    s.waiting.append(("pause", lambda m: None))
    for line in ["hello proto=1 board=pico-1 game=7 seq=3", f"@7:1 game tc=60 fen={START} chess960=- white=A black=B",
                 "@7:3 move 2 e7e5", "@7:2 move 1 e2e4", "@7:2 move 1 e2e4", "clock 60000 59000 b running",
                 "board differs e4", "ok pause", "ask w time", "@7:3 move 2 e7e6", "@7:4 move 9 a7a5"]:
        s.handle(parse_line(line), got)
    assert got.calls == [("status", "hello"), ("event", "game"), ("event", "move"), ("clock",), ("status", "board"),
                         ("answer", "pause", "ok"), ("ask", "w", "time"), ("event", "move"), ("problem", "game 7")]
    assert sent == ["resend 7:1", "resend 7:2"]  # the hello's, and the gap's
    # With no sink, the same as (kind, detail) pairs.
    assert BoardSession(2).handle(parse_line("clock 1000 2000 w paused")) == [("clock", None)]
    assert isinstance(ChangeList().result(), list)


def test_apply_says_what_it_made_of_an_event_in_the_firmwares_words():
    rec = GameRecord(1)
    assert rec.apply(parse_line(f"@1:1 game tc=60 fen={START}")) is Applied.OK
    assert rec.apply(parse_line("@1:3 start")) is Applied.GAP
    assert rec.apply(parse_line("@1:1 game tc=60")) is Applied.DUPLICATE
    assert [a.value for a in Applied] == ["ok", "duplicate", "gap"]


def test_the_record_reads_back_by_python_chess_as_it_was():
    rec = GameRecord(4)
    lines = [f"@4:1 game tc=300+2 fen={START} chess960=- white=Anna%20B black=%C3%89lodie", "@4:2 start",
             "@4:3 move 1 e2e4", "@4:4 clk 1 301000", "@4:5 set time w 120000", "@4:6 move 2 e7e5",
             "@4:7 clk 2 3700000", "@4:8 move 3 g1f3", "@4:9 result 1-0 resignation"]
    for line in lines:
        rec.apply(parse_line(line))
    game = chess.pgn.read_game(io.StringIO(rec.pgn(event="Open", round_="1.4")))
    assert not game.errors
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert (game.headers["White"], game.headers["Black"], game.headers["Result"]) == ("Anna B", "Élodie", "1-0")
    assert game.headers["Termination"] == "normal" and game.headers["Round"] == "1.4"
    assert [n.clock() for n in game.mainline()] == [301, 3700, None]
    assert "arbiter: White's clock set to 2:00" in game.next().comment
    assert game.end().comment == "resignation"
    # The record's own python-chess game is the same game.
    built = rec.pgn_game(event="Open", round_="1.4")
    assert str(built) == str(game) and built.headers == game.headers


def test_the_hosts_outcome_is_the_firmwares():
    winners = {WHITE: chess.WHITE, BLACK: chess.BLACK, None: None}
    for termination in eventlog.TERMINATIONS:
        for w in (WHITE, BLACK, None):
            assert Outcome(termination, winners[w]).result() == fw.Outcome(termination, w).result()
    rec = GameRecord(1)
    assert rec.outcome() is None
    rec.result, rec.termination = "0-1", fw.TIME_FORFEIT
    assert rec.outcome() == Outcome("time_forfeit", chess.BLACK)


def test_one_time_formatter():
    assert clock_text(301_999) == "0:05:01" and clock_text(3_723_000) == "1:02:03"
    assert clock_text(301_999, hours=False) == "5:01" and clock_text(3_723_000, hours=False) == "1:02:03"
    assert clock_text(-5) == "0:00:00"
