"""Access for a blind player without a sighted helper (#50), on the host's side: the table
of docs/access.md is the firmware's own patterns (made by `python -m host_tools access
--table`), every event is described, the round file names a blind player's seat, and the
helper for a sighted assistant or a screen reader talks to the real firmware: settings,
answers and refusals in sentences, never percent-encoded, nothing told by colour or place."""
import re
from pathlib import Path

import pytest

from firmware.access import patterns as P
from host_tools import access as A
from host_tools.relay.round import RoundError, RoundInfo

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_table_is_the_firmwares_patterns():
    text = (ROOT / "docs" / "access.md").read_text()
    begin, end = text.index(A.TABLE_BEGIN), text.index(A.TABLE_END) + len(A.TABLE_END)
    assert text[begin:end] == A.table(), "docs/access.md is stale: python -m host_tools access --table"
    assert [name for name, _ in P.EVENTS] == list(A.MEANINGS)  # every event described, in order
    # Each row's pattern is the firmware's, read back from the page as a reader sees it.
    rows = re.findall(r"^\| (\d+) \| (.+?) \| ([sltSLT ]+) \|$", text, re.M)
    assert [(int(n), p) for n, _, p in rows] == [(i, " ".join(P.rhythm(p))) for i, (_, p) in enumerate(P.EVENTS, 1)]
    # The deaf player's table names events by their number in the table.
    deaf = text[text.index("| event | his face |"):]
    deaf = deaf[:deaf.index("\n\n")]
    names = [name for name, _ in P.EVENTS]
    for numbers, want in (("18 / 19", ("pause", "resume")), ("| 13 |", ("time_added",)), ("| 20 |", ("message",)),
                          ("10 / 11", ("illegal", "opponent_illegal")), ("none / 16", ("claim",))):
        assert numbers in deaf
        got = [int(n) for n in re.findall(r"\d+", numbers)]
        assert [names[n - 1] for n in got] == list(want)
    # "Every pulse at least 250 ms" was never true of the rattle: the page no longer says it.
    assert "at least 250 ms" not in text


def test_the_round_file_names_a_blind_players_seat():
    board = {"white": "A", "black": "B", "serial": "e6614c2f", "blind_serial": "e6614d10", "blind": "black"}
    r = RoundInfo.from_json({"boards": {"3": dict(board, blind_seat="left")}})
    assert r.boards[3]["blind_seat"] == "left"
    assert RoundInfo.from_json(r.to_json()).boards[3]["blind_seat"] == "left"
    with pytest.raises(RoundError, match="blind_seat is left or right"):
        RoundInfo.from_json({"boards": {"3": dict(board, blind_seat="north")}})


class _Firmware:
    """The real firmware on the test HAL, as the helper's serial line."""

    def __init__(self):
        from tests.firmware.fakehal import fresh_device, run

        self.dev, self.hal = fresh_device("access-helper", speak=False)
        self._run = run

    def write(self, data):
        self.hal.send(data)

    def read(self):
        while self.hal.inbox:
            self._run(self.dev, self.hal, 10)
        self._run(self.dev, self.hal, 10)
        out = b"".join(self.hal.out)
        self.hal.out = []
        return out


def test_the_helper_says_settings_and_refusals_in_words():
    fw = _Firmware()
    said = []
    code = A.run(A.Board(fw, timeout=2), ["blind=left", "speech=it", "ears=on"], None, said.append)
    assert code == 0 and fw.dev.config.access_settings["speech"] == "it" and fw.dev.config.access_settings["blind"] == "l"
    assert "Blind, the signals on the motor: the player at the left half of the clock." in said
    assert "Voice: Italian." in said and "Earphone, the answers into one's own earphone only: both players." in said
    # Typed line by line, as a screen reader's user does; a refusal is the board's words.
    said.clear()
    A.run(A.Board(fw, timeout=2), [], ["blind up", "volume 15,25", "quit"], said.append)
    refusal = [s for s in said if s.startswith("The board refused it")]
    assert refusal == ["The board refused it: blind is left, right, both or - (or a colour: w, b, wb)."]
    assert "Volume: 15 of 30 at the left seat, 25 at the right seat." in said
    for s in said:
        assert "%20" not in s and "%2" not in s and "\x1b" not in s  # no escapes, no colours


def test_every_phrase_of_the_menu_and_the_practice_is_recorded_in_every_language():
    from firmware.access import menu, phrases
    from host_tools import audiocard

    every = audiocard.words()
    assert len(every) == phrases.TRACKS <= 255 and len(set(map(str, every))) == len(every)
    assert len(menu.words()) == phrases.MENU_TRACKS
    for lang in phrases.LANGUAGES:
        for word in menu.words():
            assert audiocard.text(word, lang).strip(), (lang, word)
            assert every[menu.track(word) - 1] == word  # the firmware's track is the card's
