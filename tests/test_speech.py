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
    assert move_text("e8=Q", "fide", uci="e7e8q") == "Bauer Eva sieben nach Eva acht, Dame"
    assert move_text("Nf3", "en", uci="g1f3") == "Knight f 3"  # nothing else changes
    with pytest.raises(ValueError):
        move_text("Zz9", "en")
    with pytest.raises(ValueError):
        move_text("e4", "fr")


def test_times_and_move_numbers():
    assert time_text(4025000, "en", "w") == "White 1 hour 7 minutes 5 seconds"
    assert time_text(277999, "it", "b") == "Nero 4 minuti 37 secondi"
    assert time_text(9000, "fide", "w") == "Weiß 9 Sekunden"
    assert time_text(61000, "en") == "1 minute 1 second"
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
