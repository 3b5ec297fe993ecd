"""Spoken announcements: the words for moves of every kind in each language (FIDE
appendix D.2.1 style for "fide"), times and move numbers, and a real espeak-ng run that
must produce speech: a WAV file of sensible length that is not silence."""
import array
import shutil
import wave

import pytest

from host_tools.speech import Announcer, move_number_text, move_text, time_text

MOVES = {
    # SAN: (English, Italian, FIDE D.2.1 German)
    "e4": ("pawn e 4", "pedone e 4", "Bauer Eva vier"),
    "Nf3": ("Knight f 3", "Cavallo effe 3", "Springer Felix drei"),
    "exd5": ("pawn e takes d 5", "pedone e prende di 5", "Bauer Eva schlägt David fünf"),
    "Nbd7": ("Knight b d 7", "Cavallo bi di 7", "Springer Bella David sieben"),
    "R1a3": ("Rook 1 a 3", "Torre 1 a 3", "Turm eins Anna drei"),
    "Qh4e1+": ("Queen h 4 e 1 check", "Donna acca 4 e 1 scacco", "Dame Hector vier Eva eins Schach"),
    "O-O": ("castles kingside", "arrocco corto", "Kurze Rochade"),
    "O-O-O+": ("castles queenside check", "arrocco lungo scacco", "Lange Rochade Schach"),
    "e8=N": ("pawn e 8 Knight", "pedone e 8 promuove a Cavallo", "Bauer Eva acht wird Springer"),
    "bxa8=Q#": ("pawn b takes a 8 Queen checkmate", "pedone bi prende a 8 promuove a Donna scacco matto",
                "Bauer Bella schlägt Anna acht wird Dame Schachmatt"),
    "Kxh2": ("King takes h 2", "Re prende acca 2", "König schlägt Hector zwei"),
}


@pytest.mark.parametrize("san", MOVES)
def test_move_words(san):
    en, it, de = MOVES[san]
    assert move_text(san, "en") == en
    assert move_text(san, "it") == it
    assert move_text(san, "fide") == de


def test_en_passant_and_bad_input():
    assert move_text("exd6", "en", en_passant=True) == "pawn e takes d 6 en passant"
    # With the move's UCI, the pawn's own square is said (#13, appendix D).
    assert move_text("exd6", "en", True, "e5d6") == "pawn e 5 takes d 6 en passant"
    assert move_text("e8=Q+", "en", uci="e7e8q") == "pawn e 7 to e 8, Queen check"
    assert move_text("bxa8=N", "it", uci="b7a8n") == "pedone bi 7 prende a 8, Cavallo"
    # Italian's "a" (to) before the file a would be heard as a square: "in".
    assert move_text("a8=Q", "it", uci="a7a8q") == "pedone a 7 in a 8, Donna"
    assert move_text("e8=Q", "fide", uci="e7e8q") == "Bauer Eva sieben nach Eva acht, Dame"
    assert move_text("Nf3", "en", uci="g1f3") == "Knight f 3"  # nothing else changes
    with pytest.raises(ValueError):
        move_text("Zz9", "en")
    with pytest.raises(ValueError):
        move_text("e4", "fr")


def test_moves_to_the_time_control():
    # Appendix D.2.6.1: on request, the moves left to the control.
    from host_tools.speech import moves_to_control

    assert moves_to_control("40/5400+30:1800+30", 0) == 40
    assert moves_to_control("40/5400+30:1800+30", 22) == 18
    assert moves_to_control("40/5400+30:1800+30", 40) is None  # sudden death after it
    assert moves_to_control("40/7200:20/3600", 45) == 15
    assert moves_to_control("40/7200:20/3600", 60) == 20  # the last period with a count repeats
    assert moves_to_control("40/7200:20/3600", 75) == 5
    assert moves_to_control("300+2", 10) is None and moves_to_control("-", 0) is None
    assert move_number_text(23, "en", 18) == "Move 23, 18 moves to the time control"
    assert move_number_text(39, "it", 1) == "Mossa 39, una mossa al controllo del tempo"
    assert move_number_text(39, "en", 1) == "Move 39, one move to the time control"
    assert move_number_text(5, "fide", 36) == "Zug 5, 36 Züge bis zur Zeitkontrolle"


def test_times_and_move_numbers():
    assert time_text(4025000, "en", "w") == "White one hour 7 minutes 5 seconds"
    assert time_text(277999, "it", "b") == "Nero 4 minuti 37 secondi"
    assert time_text(9000, "fide", "w") == "Weiß 9 Sekunden"
    assert time_text(61000, "en") == "one minute one second"
    # A count of one agrees with its noun (espeak reads "1 ora" as "uno ora").
    assert time_text(3661000, "it", "b") == "Nero un'ora un minuto un secondo"
    assert time_text(7261000, "fide") == "2 Stunden eine Minute eine Sekunde"
    assert move_number_text(23, "it") == "Mossa 23" and move_number_text(1, "fide") == "Zug 1"


def test_one_voice_names_the_side():
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: ./run test installs it (Debian package espeak-ng)")
    assert Announcer("en").text_for_move("Nf3", "w") == "White: Knight f 3"
    assert Announcer("en", voices={"w": "en", "b": "en+f3"}).text_for_move("Nf3", "b") == "Knight f 3"


@pytest.mark.parametrize("lang", ["en", "it", "fide"])
def test_espeak_speaks(tmp_path, lang):
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: ./run test installs it (Debian package espeak-ng)")
    out = tmp_path / "move.wav"
    Announcer(lang).move("Qh4e1+", "w", wav=out)
    with wave.open(str(out)) as w:
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
        width = w.getsampwidth()
    assert 1.0 < seconds < 8.0  # a few words, spoken
    samples = array.array("h", frames) if width == 2 else array.array("b", frames)
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5
    assert rms > 300  # not silence


def test_a_player_who_asks_for_the_move_hears_the_moves_left_to_the_control():
    import time

    from host_tools.board.record import GameRecord
    from host_tools.protocol import parse_line
    from host_tools.board.session import BoardSession
    from host_tools.relay.speaker import Speaker

    class Silent:
        lang = "en"

        def say(self, text, side=None):
            pass

    s = BoardSession(1)
    s.records[1] = rec = GameRecord(1)
    s.current = 1
    for line in ("@1:1 game tc=40/5400+30:1800+30 fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"
                 " chess960=- white=A black=B", "@1:2 move 1 e2e4 e4", "@1:3 move 2 e7e5 e5", "@1:4 move 3 g1f3 Nf3"):
        rec.apply(parse_line(line))
    speaker = Speaker(announcer=Silent())
    speaker.ask(s, "b", "move")
    speaker.ask(s, "w", "move")
    end = time.monotonic() + 5
    while len(speaker.said) < 2 and time.monotonic() < end:
        time.sleep(0.01)
    assert [t for _, t in speaker.said] == ["Move 2, 39 moves to the time control",
                                            "Move 2, 38 moves to the time control"]
