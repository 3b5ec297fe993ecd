"""Bad input for the surfaces that are not the relay's HTTP (that is tests/host/webfuzz.py): what
a device sends the relay, what a lichess server streams to `play lichess`, round files,
and trace files. Each generator is seeded, and each runner returns what it tried and how
it came out (a Counter), so that tests/host/test_surface_fuzz.py runs a few seconds of it in CI
and bench/fuzz.py runs more and prints the figures. A runner lets any exception that is
not the surface's own clean refusal through: that is a finding."""
from __future__ import annotations

import json
import random
from collections import Counter

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"

# Words no reader should take at face value: digits int() refuses or cannot hold, percent
# escapes of line breaks and of nothing, a lone surrogate, long runs.
ODD_WORDS = ["", "-", "-1", "0", "abc", "\u00b2", "\u0661", "9" * 5000, "1e9", "%0A", "%0D%0A", "%ZZ", "%",
             "%00", "%E2%80%A8", "\ud800", "x" * 300, "game=abc", "=", "==", "\t", "\u2028", "w", "b",
             "running", "flag", "*", "1-0", "checkmate"]


def odd_word(rng: random.Random) -> str:
    return rng.choice(ODD_WORDS)


def mutate_words(rng: random.Random, line: str) -> str:
    """A line with some of its words replaced, dropped, doubled or turned into odd ones."""
    words = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        op = rng.random()
        if op < 0.5:
            key, eq, _ = words[i].partition("=")
            words[i] = key + "=" + odd_word(rng) if eq and rng.random() < 0.7 else odd_word(rng)
        elif op < 0.7 and len(words) > 1:
            del words[i]
        elif op < 0.85:
            words.insert(i, words[i])
        else:
            words.insert(i, odd_word(rng))
    return " ".join(words)


# ----- what a device sends the relay (docs/protocol.md)

DEVICE_LINES = [
    f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B",
    "@1:2 start", "@1:3 move 1 e2e4 e4", "@1:4 clk 1 299000", "@1:5 move 2 e7e5 e5",
    "@1:6 takeback 1", "@1:7 illegal w 1", "@1:8 penalty w 120000", "@1:9 flag b",
    "@1:10 result 1-0 checkmate", "@1:11 set time w 60000", "@1:12 pause", "@1:13 resume",
    "@2:1 game tc=60 fen=- chess960=518 white=C black=D",
    "hello proto=1 fw=0.1.0 board=fuzz game=1 seq=3",
    "clock 300000 299000 w running moves=1,0 period=0,0 flags=0,0",
    "recovered game=1 seq=4 ply=1 interrupted=w:3000",
    "state game=1 seq=3 ply=1 turn=b result=* fen=" + START + " board=0",
    "ok resend 1:3", "err bad-value what", "warning journal%20off", "board lifted=e2",
    "ask w 299000", "ok new 2", "unreadable",
]


def device_line(rng: random.Random) -> bytes:
    """A line a broken or hostile device might send: a mutated real one, bytes of noise,
    an overlong line, or a real one cut short."""
    k = rng.random()
    if k < 0.6:
        return mutate_words(rng, rng.choice(DEVICE_LINES)).encode("utf-8", "surrogatepass") + b"\n"
    if k < 0.75:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
    if k < 0.8:
        return b"@1:3 move " + b"x" * rng.choice((5000, 70000)) + b"\n"
    line = rng.choice(DEVICE_LINES).encode()
    return line[:rng.randrange(len(line))] + rng.choice((b"", b"\n", b"\r\n", b"\x00"))


def fuzz_session(n: int, seed: int = 1) -> Counter:
    """n device lines into a relay's board session, each of whose readers (the page's
    JSON, the PGN, the LiveChess reconstruction) is then asked for the board: what the
    session made of them."""
    from host_tools.protocol import DeviceParser
    from host_tools.relay.livechess import LiveChessApi
    from host_tools.relay.round import RoundInfo
    from host_tools.board.session import BoardSession
    from host_tools.relay.views import board_json

    rng = random.Random(seed)
    seen = Counter()
    round_info = RoundInfo()
    for _ in range(max(1, n // 50)):  # a device at a time, fifty lines each
        s = BoardSession(1)
        s.send = lambda line: True
        parser = DeviceParser()
        for _ in range(50):
            for m in parser.feed(device_line(rng)):
                for what, _ in s.handle(m) or [("nothing", None)]:
                    seen[what] += 1
            board_json(s, round_info)
            for rec in s.records.values():
                rec.pgn()
            LiveChessApi.reconstruction(s, rng.choice((None, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")))
        seen["lines"] += 50
    return seen


# ----- what a lichess server streams to play lichess (lichess's Board API)

GAME_FULL = {"type": "gameFull", "id": "abcd1234", "rated": False, "variant": {"key": "standard"},
             "speed": "rapid", "clock": {"initial": 600000, "increment": 5000},
             "white": {"id": "player", "name": "Player", "rating": 1500},
             "black": {"id": "rival", "name": "Rival", "rating": 1500},
             "initialFen": "startpos",
             "state": {"type": "gameState", "moves": "e2e4", "wtime": 600000, "btime": 600000,
                       "winc": 5000, "binc": 5000, "status": "started"}}
GAME_EVENTS = [
    GAME_FULL,
    {"type": "gameState", "moves": "e2e4 e7e5", "wtime": 599000, "btime": 598000, "winc": 5000, "binc": 5000,
     "status": "started", "wdraw": False, "bdraw": True, "wtakeback": False, "btakeback": True},
    {"type": "gameState", "moves": "e2e4 e7e5", "wtime": 599000, "btime": 0, "winc": 5000, "binc": 5000,
     "status": "outoftime", "winner": "white"},
    {"type": "chatLine", "username": "rival", "text": "hello", "room": "player"},
    {"type": "opponentGone", "gone": True, "claimWinInSeconds": 10},
]
ODD_VALUES = [None, True, 0, -1, 2 ** 70, 1.5, float("inf"), float("nan"), "", "x" * 300, "\ud800", "Player",
              "e2e4 " * 400, "zz99", [], {}, [None], {"id": None}]


def mutate_json(rng: random.Random, value, depth: int = 0):
    """value with some of its parts replaced by odd values, dropped or added to."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            r = rng.random()
            if r < 0.1:
                continue
            out[k] = rng.choice(ODD_VALUES) if r < 0.3 else mutate_json(rng, v, depth + 1)
        if rng.random() < 0.1:
            out[rng.choice(["type", "state", "moves", "white", "extra"])] = rng.choice(ODD_VALUES)
        return out
    if isinstance(value, list):
        return [mutate_json(rng, v, depth + 1) for v in value if rng.random() > 0.1]
    if isinstance(value, str) and rng.random() < 0.3:
        return mutate_words(rng, value)
    return value


def stream_line(rng: random.Random) -> bytes:
    """A line of a game stream: a mutated real event, JSON that is no object, or no JSON."""
    k = rng.random()
    if k < 0.8:
        text = json.dumps(mutate_json(rng, rng.choice(GAME_EVENTS)))
        if rng.random() < 0.05:
            text = text.replace("600000", "9" * 5000, 1)
        return text.encode() + b"\n"
    if k < 0.9:
        return json.dumps(rng.choice(ODD_VALUES)).encode() + b"\n"
    return bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 100))) + b"\n"


# ----- files

ROUND = {"event": "Club", "site": "Here", "date": "2026.11.25", "round": "3",
         "boards": {"1": {"white": "A", "black": "B", "serial": "pico-1", "white_rating": 1500,
                          "black_title": "FM", "white_fide_id": 12345, "black_fed": "ITA"},
                    "2": {"white": "C", "black": "D"}}}


def fuzz_round(n: int, seed: int = 1) -> Counter:
    """n mutated round files read as the relay reads them: each is a round, or refused with
    a RoundError; a round's PGN tags are one line each."""
    from host_tools.board.record import GameRecord
    from host_tools.relay.round import RoundError, RoundInfo, parse_json

    rng = random.Random(seed)
    seen = Counter()
    for _ in range(n):
        text = json.dumps(mutate_json(rng, ROUND))
        if rng.random() < 0.1:
            text = text[:rng.randrange(len(text))]
        try:
            r = RoundInfo.from_json(parse_json(text, "the round"))
        except RoundError:
            seen["refused"] += 1
            continue
        for number, names in r.boards.items():
            pgn = GameRecord(1).pgn(event=r.event, site=r.site, round_=f"{r.round}.{number}",
                                    white=names.get("white"), black=names.get("black"),
                                    extra_tags=names.get("tags", ()))
            head = pgn.split("\n\n")[0].split("\n")
            assert all(line.startswith("[") and line.endswith('"]') for line in head), pgn
        seen["read"] += 1
    return seen


def trace_line(rng: random.Random) -> str:
    good = rng.choice(["0 occ ffff00000000ffff", "100 press white", "200 lever black down",
                       "300 button menu up", "# a comment", ""])
    return mutate_words(rng, good) if good and rng.random() < 0.8 else good


def fuzz_trace(n: int, seed: int = 1) -> Counter:
    """n mutated trace lines read as the simulator reads them: an event, nothing, or a
    TraceError."""
    from simulator.trace import TraceError, parse_line

    rng = random.Random(seed)
    seen = Counter()
    for _ in range(n):
        try:
            seen["event" if parse_line(trace_line(rng)) else "nothing"] += 1
        except TraceError:
            seen["refused"] += 1
    return seen


def fuzz_lichess(n: int, seed: int = 1) -> Counter:
    """n mangled stream lines read as play lichess reads them (host_tools/play/
    lichess_events.py): each read, or refused with a ValueError."""
    from host_tools.play import lichess_events

    rng = random.Random(seed)
    seen = Counter()
    start = {"type": "gameStart", "game": {"gameId": "abcd1234", "id": "abcd1234", "compat": {"board": True}}}
    for _ in range(n):
        stream = rng.choice(("game", "event"))
        try:
            if stream == "game":
                obj = json.loads(stream_line(rng))
            else:
                obj = mutate_json(rng, start)
        except ValueError:
            seen["not JSON"] += 1
            continue
        try:
            lichess_events.read(stream, obj)
            seen["read"] += 1
        except ValueError:
            seen["refused"] += 1
    return seen
