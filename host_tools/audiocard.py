"""The memory card of the board's optional audio module (a DFPlayer Mini: hardware/README.md),
made on the host: every phrase the board says (firmware/access/phrases.py, the table the
firmware reads too) spoken by espeak-ng, trimmed of its silence and written as MP3, one
folder per language as the module wants them: 01/001.mp3 ... for English, 02/... for
Italian, 03/... for the appendix D.2.1 style (German); and each again for one ear alone
(`access ears=on`: a headphone socket per player): 11-13 White's (the left channel),
21-23 Black's (the right). Copy the folders onto an empty FAT32 micro SD card.

    python -m host_tools audiocard DIR [--lang en,it,fide]

DIR/phrases.txt lists every track with its words and length, to check the card by ear.
Needs espeak-ng (Debian package) and lameenc (PyPI: the MP3 encoder).
"""
from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tempfile
import wave
from array import array
from pathlib import Path

from firmware.access import phrases
from host_tools import access, speech

RATE = 22050  # espeak-ng's own rate; the DFPlayer plays MP3 at 8 to 48 kHz
SILENCE = 400  # a sample closer to zero than this is silence (16-bit)
KEEP_MS = 20  # kept at each end of a trimmed phrase, so no word is clipped
# The board's own words beyond the host's speech tables: a count of one agrees with its
# noun ("un'ora", "una mossa": the Italian Laws' words), and a fallen flag is said as each
# language says it ("la bandierina è caduta", art. 6.8 in Italian).
EXTRA = {
    "en": {"move": "move", "moves": "moves", "to_control": "to the time control", "flag": "flag fallen",
           "one_hour": "one hour", "one_minute": "one minute", "one_second": "one second", "one_move": "one move"},
    "it": {"move": "mossa", "moves": "mosse", "to_control": "al controllo del tempo", "flag": "bandierina caduta",
           "one_hour": "un'ora", "one_minute": "un minuto", "one_second": "un secondo", "one_move": "una mossa"},
    "fide": {"move": "Zug", "moves": "Züge", "to_control": "bis zur Zeitkontrolle", "flag": "Blättchen gefallen",
             "one_hour": "eine Stunde", "one_minute": "eine Minute", "one_second": "eine Sekunde",
             "one_move": "ein Zug"},
}
# Letters alone: English espeak reads a capital as its name ("a" alone would be the word).
FILE_NAMES = {"en": {f: f.upper() for f in "abcdefgh"}, "it": speech.FILES["it"], "fide": speech.FILES["fide"]}


def text(word, lang: str) -> str:
    """What track `word` (a number 0..99 or an entry of phrases.WORDS) says."""
    if isinstance(word, int) or word.isdigit():
        return str(word)
    if word in speech.PIECES[lang] and len(word) == 1 and word.isupper():
        return speech.PIECES[lang][word]
    if word in FILE_NAMES[lang]:
        return FILE_NAMES[lang][word]
    if word in EXTRA[lang]:
        return EXTRA[lang][word]
    menu = access.spoken(word, lang)  # the access menu's and the practice's (host_tools/access.py)
    if menu is not None:
        return menu
    return speech.WORDS[lang][word]


def words() -> list:
    """Every track's word, in track order (track n is words()[n - 1])."""
    from firmware.access import menu  # the access menu's and the practice's words come after

    return list(range(phrases.NUMBERS)) + list(phrases.WORDS) + list(menu.words())


def trimmed(wav_bytes: bytes) -> array:
    """The phrase's 16-bit mono samples without the silence before and after it."""
    with wave.open(io.BytesIO(wav_bytes)) as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1 or w.getframerate() != RATE:
            raise ValueError("espeak-ng gave %d-byte, %d-channel audio at %d Hz" % (
                w.getsampwidth(), w.getnchannels(), w.getframerate()))
        samples = array("h", w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    loud = [i for i, s in enumerate(samples) if abs(s) >= SILENCE]
    if not loud:
        raise ValueError("espeak-ng said nothing")
    keep = RATE * KEEP_MS // 1000
    return samples[max(0, loud[0] - keep):loud[-1] + keep]


def mp3(samples: array, ear: str | None = None) -> bytes:
    """The phrase as MP3: mono for both ears (ear None), or stereo with only White's
    channel (ear "w": the left) or Black's ("b": the right) sounding."""
    import lameenc

    enc = lameenc.Encoder()
    enc.set_in_sample_rate(RATE)
    enc.set_channels(1 if ear is None else 2)
    enc.set_bit_rate(48 if ear is None else 64)
    enc.set_quality(2)
    if ear is None:
        pcm = array("h", samples)
    else:
        pcm = array("h", bytes(4 * len(samples)))  # left, right, left, right, ...
        pcm[0 if ear == "w" else 1::2] = array("h", samples)
    if sys.byteorder == "big":
        pcm.byteswap()
    return bytes(enc.encode(pcm.tobytes()) + enc.flush())


def make(out: Path, langs=phrases.LANGUAGES, espeak: str | None = None) -> list[tuple]:
    """Writes the card's folders into out - for each language, its phrases for both ears,
    for White's alone and for Black's (phrases.folder) - and returns [(lang, track, text,
    ms)] for each phrase."""
    espeak = espeak or shutil.which("espeak-ng")
    if espeak is None:
        raise RuntimeError("espeak-ng is missing (Debian package espeak-ng)")
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "phrase.wav"
        for lang in langs:
            folders = {ear: out / ("%02d" % phrases.folder(lang, ear)) for ear in phrases.EARS}
            for folder in folders.values():
                folder.mkdir(parents=True, exist_ok=True)
            for n, word in enumerate(words(), 1):
                said = text(word, lang)
                subprocess.run([espeak, "-v", speech.VOICES[lang], "-s", "160", "-w", str(wav), said],
                               check=True, capture_output=True, timeout=30)
                samples = trimmed(wav.read_bytes())
                for ear, folder in folders.items():
                    (folder / ("%03d.mp3" % n)).write_bytes(mp3(samples, ear))
                made.append((lang, n, said, len(samples) * 1000 // RATE))
    with open(out / "phrases.txt", "w", encoding="utf-8") as f:
        f.write("# folder/track  ms  words (python -m host_tools audiocard)\n")
        for lang, n, said, ms in made:
            f.write("%02d/%03d.mp3 %5d  %s\n" % (phrases.folder(lang), n, ms, said))
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools audiocard", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="where the card's folders go (an empty folder, or the card itself)")
    ap.add_argument("--lang", default=",".join(phrases.LANGUAGES),
                    help="languages, comma-separated (default: %(default)s)")
    a = ap.parse_args(argv)
    prog = ap.prog
    langs = [x for x in a.lang.split(",") if x]
    bad = [x for x in langs if x not in phrases.LANGUAGES]
    if bad or not langs:
        raise SystemExit(f"{prog}: error: languages are {', '.join(phrases.LANGUAGES)}")
    out = Path(a.dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        made = make(out, langs)
    except (OSError, RuntimeError, ValueError, ImportError, subprocess.SubprocessError) as e:
        raise SystemExit(f"{prog}: error: {e}") from None
    print(f"{len(made)} phrases in {', '.join(langs)} written to {out} (list: {out / 'phrases.txt'})")
    return 0
