"""The round the relay broadcasts: event, site, date, round, and per board the players and
the board's serial, from `--round-file` or `POST /api/round` (the same JSON). Every value
is checked here, once: text of a bounded length with no control character (a name ends
up in PGN tags, on the page and in the feed), board numbers 1..999. Anything else is a
`RoundError` (a `ValueError`) that says what is wrong, and the round in force stays."""
from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from host_tools.relay.lichess import round_ids
from host_tools.board.session import SERIAL

MAX_BOARDS = 999
PLAYER_KEYS = ("white", "black", "serial", "blind_serial", "blind", "blind_seat")
# Per board, for each player (white_..., black_...): his FIDE ID, title and rating, as the
# PGN tags WhiteFideId, WhiteTitle, WhiteElo (lichess's broadcasts read them); and his
# federation (white_fed: ITA), for the page.
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "LM", "NM")
PLAYER_FIELDS = {"fide_id": "FideId", "title": "Title", "rating": "Elo"}


class RoundError(ValueError):
    """A round file or request the relay cannot take; board: the board number (as the
    round gives it) the reason is about, if one."""

    def __init__(self, text: str, board: str | None = None):
        super().__init__(text)
        self.board = board


def clean_text(value, what: str, limit: int) -> str:
    """value as a tag's text: a string (or a whole number) of at most limit characters,
    with no control character (C0, DEL, C1, line or paragraph separator)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RoundError(f"{what} must be text, not {type(value).__name__}")
    text = str(value)
    if len(text) > limit:
        raise RoundError(f"{what} is longer than {limit} characters")
    bad = next((c for c in text if not c.isprintable() and c != " "), None)
    if bad is not None:
        raise RoundError(f"{what} holds a control character (U+{ord(bad):04X})")
    return text


@dataclass
class RoundInfo:
    event: str = "?"
    site: str = "?"
    date: str = ""
    round: str = "1"
    boards: dict[int, dict] = field(default_factory=dict)  # number -> white, black, serial, ...
    lichess_round: str | None = None  # the lichess broadcast round to push to

    @classmethod
    def load(cls, path: str | Path | None) -> "RoundInfo":
        if not path:
            return cls(date=datetime.date.today().strftime("%Y.%m.%d"))
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RoundError(f"cannot read the round file {path}: {e}") from None
        try:
            return cls.from_json(parse_json(text, f"the round file {path}"))
        except RoundError as e:
            if e.board is None:
                raise
            raise RoundError(f"the round file {path}, line {_line_of(text, e.board)}: {e}", e.board) from None

    @classmethod
    def from_json(cls, data) -> "RoundInfo":
        if not isinstance(data, dict):
            raise RoundError("a round is a JSON object")
        raw = data.get("boards") or {}
        if not isinstance(raw, dict):
            raise RoundError('"boards" is an object: {"1": {"white": ..., "black": ..., "serial": ...}}')
        if len(raw) > MAX_BOARDS:
            raise RoundError(f"at most {MAX_BOARDS} boards")
        boards = {}
        for k, v in raw.items():
            try:
                n, boards[n] = _board_entry(k, v)
            except RoundError as e:
                raise RoundError(str(e), k) from None
        _check_pairings(boards, {n: k for k, n in ((k, int(k)) for k in raw)})
        date = data.get("date") or datetime.date.today().strftime("%Y.%m.%d")
        lichess_round = data.get("lichess_round")
        if lichess_round is not None:
            if not isinstance(lichess_round, str):
                raise RoundError("lichess_round is the round's id as text (or several, with commas)")
            try:
                lichess_round = ",".join(round_ids(lichess_round))
            except ValueError as e:
                raise RoundError(f"lichess_round: {e}") from None
        return cls(clean_text(data.get("event", "?"), "the event", 120),
                   clean_text(data.get("site", "?"), "the site", 120),
                   clean_text(date, "the date", 10),
                   clean_text(data.get("round", "1"), "the round", 10), boards, lichess_round)


    def to_json(self) -> dict:
        """The round as a round file says it (from_json(to_json()) is the same round)."""
        boards = {}
        for n, b in self.boards.items():
            entry = {k: b[k] for k in PLAYER_KEYS + ("touches",) if k in b}
            for color, info in b.get("info", {}).items():
                for k, v in info.items():
                    entry[f"{color}_{k}"] = v
            boards[str(n)] = entry
        out = {"event": self.event, "site": self.site, "date": self.date, "round": self.round, "boards": boards}
        if self.lichess_round:
            out["lichess_round"] = self.lichess_round
        return out

    def with_serial(self, serial: str, n: int) -> "RoundInfo":
        """The same round with board n played on the board of this serial (and no other);
        a board that had number n takes this one's old number."""
        data = self.to_json()
        target = data["boards"].setdefault(str(n), {})
        displaced = target.get("serial")
        for entry in data["boards"].values():
            if entry.get("serial") == serial:
                del entry["serial"]
                if displaced and displaced != serial:
                    entry["serial"] = displaced
        target["serial"] = serial
        return RoundInfo.from_json(data)


def _board_entry(k, v) -> tuple[int, dict]:
    """One pairing of a round file, checked: (its number, what the relay keeps of it)."""
    if not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 4):
        raise RoundError(f"a board number is a whole number, not {str(k)[:20]!r}")
    n = int(k)
    if not 1 <= n <= MAX_BOARDS or not isinstance(v, dict):
        raise RoundError(f"bad board {k!r}: a number 1..{MAX_BOARDS} and an object")
    entry = {key: clean_text(v[key], f"board {k}'s {key}", 80) for key in PLAYER_KEYS if key in v}
    for key in ("serial", "blind_serial"):  # a board's name as its hello says it (host_tools/board/session.py)
        if key in entry and not SERIAL.fullmatch(entry[key]):
            raise RoundError(f"board {k}'s {key} {entry[key][:40]!r} is not a board's name "
                             f"(letters, digits, . _ : -, as the board's hello says it)")
    # Appendix D: the blind player's own board, paired with this one (relay/twoboards.py).
    if ("blind_serial" in entry) != ("blind" in entry) or entry.get("blind", "white") not in ("white", "black"):
        raise RoundError(f"board {k}: a blind player's board is given with blind_serial and blind "
                         f"(white or black) together")
    if "blind_serial" in entry and entry["blind_serial"] == entry.get("serial"):
        raise RoundError(f"board {k}: blind_serial is the board's own serial; the blind player's board is "
                         f"another board (with one board there would be no clock at all)")
    if entry.get("blind_seat", "left") not in ("left", "right"):  # his half of the clock (docs/access.md)
        raise RoundError(f"board {k}: blind_seat is left or right: the half of the clock the blind player sits at")
    if "touches" in v:  # D.2.10: the blind player is told when the sighted player touches a piece
        if not isinstance(v["touches"], bool) or "blind_serial" not in v:
            raise RoundError(f"board {k}: touches is true or false, with blind_serial")
        entry["touches"] = v["touches"]
    entry["tags"] = _player_tags(v, k)
    entry["info"] = _player_info(v, k, entry["tags"])
    return n, entry


def _check_pairings(boards: dict, keys: dict) -> None:
    """The round as a whole: a board (by serial) plays one pairing, in one role (the
    pairing's board, or a blind player's board), and a blind player's board n + 1000
    is free (no pairing has that number: board numbers are below 1000)."""
    seen: dict[str, tuple[int, str]] = {}
    for n in sorted(boards):
        for key in ("serial", "blind_serial"):
            serial = boards[n].get(key)
            if serial is None:
                continue
            if serial in seen:
                m, other = seen[serial]
                raise RoundError(f"board {keys[n]}'s {key} {serial} is board {keys[m]}'s {other} already: "
                                 f"a board plays one pairing, in one role", keys[n])
            seen[serial] = (n, key)


def _line_of(text: str, board: str) -> int:
    """The line of a round file where board's entry starts (1 when it cannot be found)."""
    at = text.find('"boards"')
    m = re.compile(r'"%s"\s*:' % re.escape(board)).search(text, max(at, 0))
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _player_tags(v: dict, board: str) -> list[tuple[str, str]]:
    """The PGN tags of a board's players' FIDE IDs, titles and ratings, checked."""
    tags = []
    for color, tag_color in (("white", "White"), ("black", "Black")):
        for key, tag in PLAYER_FIELDS.items():
            name = f"{color}_{key}"
            if name not in v:
                continue
            value = v[name]
            what = f"board {board}'s {name}"
            if key == "title":
                if value not in TITLES:
                    raise RoundError(f"{what} is one of {', '.join(TITLES)}, not {value!r}")
                text = value
            else:
                if not _whole(value):
                    raise RoundError(f"{what} is a whole number, not {str(value)[:20]!r}")
                number = int(value)
                limit = 4000 if key == "rating" else 10 ** 10
                if not 0 < number < limit:
                    raise RoundError(f"{what} is out of range: {number}")
                text = str(number)
            tags.append((tag_color + tag, text))
    return tags


def _whole(value) -> bool:
    """A whole number as a round file may give it: a JSON number, or ASCII digits ("²" is
    a digit to Python, and int() refuses it)."""
    if isinstance(value, str):
        return value.isascii() and value.isdigit() and len(value) <= 11
    return isinstance(value, int) and not isinstance(value, bool)


def _player_info(v: dict, board: str, tags: list) -> dict:
    """What the page shows of a board's players beside their names: title, rating and
    federation (a three-letter FIDE code, e.g. ITA; the page only, PGN has no tag for it),
    and the FIDE ID (kept when the page saves the round)."""
    info = {"white": {}, "black": {}}
    for tag, text in tags:
        color = "white" if tag.startswith("White") else "black"
        key = tag[len(color):]
        info[color][{"Title": "title", "Elo": "rating", "FideId": "fide_id"}[key]] = text if key == "Title" else int(text)
    for color in info:
        fed = v.get(f"{color}_fed")
        if fed is None:
            continue
        if not (isinstance(fed, str) and len(fed) == 3 and fed.isascii() and fed.isalpha() and fed.isupper()):
            raise RoundError(f"board {board}'s {color}_fed is a three-letter FIDE federation such as ITA, not {fed!r}")
        info[color]["fed"] = fed
    return info


def parse_json(text: str, what: str):
    """JSON text, or a RoundError saying why not (deep nesting included)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise RoundError(f"{what}: JSON nested too deeply") from None
    except ValueError as e:
        raise RoundError(f"{what} is not JSON: {e}") from None
