"""The memory card of the board's voice (#13), as `python -m host_tools audiocard` makes it:
every track the firmware can ask for is there, in each language's folder, as an MP3 the
DFPlayer plays (MPEG-2 layer III, 22,050 Hz, mono), of speech (not silence, not clipped),
and shorter than the time the firmware waits for a phrase to end (voice.TRACK_MS)."""
import shutil
import subprocess
import sys

import pytest

from firmware.access import phrases
from firmware.access.voice import TRACK_MS
from host_tools import audiocard

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng (Debian) is missing")

BITRATES = (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)  # MPEG-2 layer III, kbit/s
RATES = (22050, 24000, 16000)


def mp3_ms(data: bytes) -> int:
    """The length of an MPEG-2 layer III stream and whether it is mono or stereo, walked frame by frame from its first
    byte (a frame that does not parse fails the test)."""
    i, frames, rate, channels = 0, 0, None, set()
    while i + 4 <= len(data):
        h = int.from_bytes(data[i:i + 4], "big")
        assert h >> 21 == 0x7FF, f"no frame sync at {i}"
        assert (h >> 19) & 3 == 2 and (h >> 17) & 3 == 1, "not MPEG-2 layer III"
        kbps = BITRATES[(h >> 12) & 15]
        rate = RATES[(h >> 10) & 3]
        channels.add((h >> 6) & 3)
        size = 72000 * kbps // rate + ((h >> 9) & 1)
        assert size > 4
        i += size
        frames += 1
    assert rate == audiocard.RATE and len(channels) == 1
    return frames * 576 * 1000 // rate, "mono" if channels == {3} else "stereo"


def test_the_card_has_every_phrase_in_every_language(tmp_path):
    made = audiocard.make(tmp_path)
    assert len(made) == 3 * phrases.TRACKS
    listed = (tmp_path / "phrases.txt").read_text(encoding="utf-8").splitlines()[1:]
    assert len(listed) == len(made)
    for lang in phrases.LANGUAGES:
        for ear in phrases.EARS:  # both ears (mono), White's alone and Black's (stereo)
            folder = tmp_path / ("%02d" % phrases.folder(lang, ear))
            files = sorted(p.name for p in folder.iterdir())
            assert files == ["%03d.mp3" % n for n in range(1, phrases.TRACKS + 1)]
            for n in range(1, phrases.TRACKS + 1):
                ms, kind = mp3_ms((folder / ("%03d.mp3" % n)).read_bytes())
                assert 150 <= ms < TRACK_MS - 500, (lang, n, ms)  # speech, and never given up on
                assert kind == ("mono" if ear is None else "stereo"), (lang, ear, n)
    said = {(lang, n): text for lang, n, text, _ in made}
    # The words the firmware means by its tracks (firmware/access/phrases.py).
    t = phrases.track
    assert said[("en", t(37))] == "37" and said[("en", t("300"))] == "300"
    assert said[("en", t("N"))] == "Knight" and said[("it", t("N"))] == "Cavallo"
    assert said[("en", t("f"))] == "F" and said[("it", t("f"))] == "effe"
    assert said[("en", t("to_control"))] == "to the time control"
    assert said[("it", t("to_control"))] == "al controllo del tempo"
    assert said[("it", t("ep"))] == "en passant" and said[("it", t("white"))] == "Bianco"
    assert said[("it", t("seconds"))] == "secondi" and said[("it", t("flag"))] == "bandierina caduta"
    # A count of one agrees with its noun, as the Italian Laws write it.
    assert [said[("it", t(w))] for w in ("one_hour", "one_minute", "one_second", "one_move")] == \
        ["un'ora", "un minuto", "un secondo", "una mossa"]
    assert said[("en", t("one_move"))] == "one move" and said[("en", t("flag"))] == "flag fallen"
    # Appendix D.2.1's style: the files as names, the ranks and pieces in German.
    assert [said[("fide", t(f))] for f in "abcdefgh"] == \
        ["Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"]
    assert said[("fide", t("short"))] == "Kurze Rochade" and said[("fide", t("long"))] == "Lange Rochade"
    assert said[("fide", t("N"))] == "Springer" and said[("fide", t("to"))] == "nach"
    assert said[("fide", t("one_minute"))] == "eine Minute" and said[("fide", t(8))] == "8"


def test_the_command_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "host_tools", "audiocard", str(tmp_path / "card"), "--lang", "it"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "card" / "02" / ("%03d.mp3" % phrases.TRACKS)).exists()
    assert (tmp_path / "card" / "12").exists() and (tmp_path / "card" / "22").exists()
    assert not (tmp_path / "card" / "01").exists()
    r = subprocess.run([sys.executable, "-m", "host_tools", "audiocard", str(tmp_path / "x"), "--lang", "fr"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1] == "python -m host_tools audiocard: error: languages are en, it, fide"
    assert not (tmp_path / "x").exists()
