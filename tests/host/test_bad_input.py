"""Bad input anywhere gets a clear error and changes nothing else: values put into a
board's line (the LiveChess API's setup and call parameters), the relay's JSON, names on
their way into PGN tags, and the command lines of the host tools. The firmware's side
(decoded values, the journal's tail) is in tests/firmware/test_values.py and
test_journal.py."""
import asyncio
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import chess
import chess.pgn
import pytest
import serial

from host_tools.board.record import GameRecord, pgn_string
from host_tools.protocol import decode
from host_tools.relay.round import RoundError, RoundInfo
from host_tools.sim import SimulatedBoard
from tests.host.test_relay import LEGAL, START, _relay, _trace, _until, fake_board_on_a_relay, run

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"Authorization": "Bearer secret-token"}
# What the LiveChess API may put on a board's line, and nothing else.
LIVECHESS_LINES = re.compile(r"^(new fen=\S+|config orientation=(turned|normal)|hello|resend \d+:\d+)$")


async def _livechess(relay, serial_nr):
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(relay.urls()["livechess"], headers={"Origin": "https://lichess.org"})
    await ws.send_str(json.dumps({"id": 1, "call": "subscribe", "param": {
        "feed": "eboardevent", "id": 1, "param": {"serialnr": serial_nr}}}))
    assert (await ws.receive_json())["response"] == "call"
    await ws.receive_json()  # where the board stands
    return http, ws


async def _call(ws, rid, param):
    await ws.send_str(json.dumps({"id": rid, "call": "call", "param": param}))
    while True:
        msg = await ws.receive_json(timeout=10)
        if msg.get("response") != "feed":
            return msg


def test_livechess_setup_cannot_put_a_command_on_the_board(tmp_path):
    # The real firmware behind the relay: a FEN with a newline once started the clock
    # ("x\nstart") or agreed a draw ("x\ndraw"). Now it is refused, and the board's game,
    # clock and record are as they were.
    (tmp_path / "boards").mkdir()
    trace = _trace(tmp_path, LEGAL[:2], "t.trace")

    async def body():
        board = SimulatedBoard(trace, link=str(tmp_path / "boards" / "b1"), presets=str(tmp_path / "p.json"),
                               board_id="sim-inject")
        relay = _relay(tmp_path)
        await relay.start()
        try:
            assert await _until(lambda: 1 in relay.sessions and relay.sessions[1].record
                                and len(relay.sessions[1].record.plies) == 2)
            s = relay.sessions[1]
            before = (s.current, s.record.last_seq, s.record.result)
            http, ws = await _livechess(relay, "sim-inject")
            answers = []
            for i, fen in enumerate(("x\nstart", "x\ndraw", "x\npause", "x\r\nresume",
                                     "4k3/8/8/8/8/8/8/4K3 w - - 0 1\ndraw", "8/8/8/8/8/8/8/8\x00",
                                     "4k3/8/8/8/8/8/8/4K3 w - - 0 1 result 1-0")):
                answers.append(await _call(ws, 10 + i, {"id": 1, "method": "setup", "param": {"fen": fen}}))
            await ws.close()
            await http.close()
            await asyncio.sleep(1.0)
            after = (s.current, s.record.result)
        finally:
            await relay.stop()
            board.stop()
        return answers, before, after

    answers, before, after = run(body())
    assert all(a["response"] == "error" for a in answers), answers
    # No new game, no result, and no event but the trace's own (its first press starts the
    # clock: one start) - a pause, resume or draw would each be one.
    assert after == (before[0], before[2]) == (1, "*")
    kinds = [l.split()[1] for l in (tmp_path / "out" / "board-1.events").read_text().splitlines()]
    assert set(kinds) <= {"game", "start", "move", "clk"} and kinds.count("game") == 1, kinds
    assert kinds.count("start") <= 1 and kinds.count("move") == 2, kinds


def _random_json(r, depth=0):
    k = r.randrange(9 if depth < 3 else 6)
    if k == 0:
        return "".join(chr(r.choice([r.randrange(0, 32), r.randrange(32, 127), r.randrange(127, 0x3000),
                                     0x2028, 10, 13])) for _ in range(r.randrange(0, 40)))
    if k == 1:
        return r.choice(["4k3/8/8/8/8/8/8/4K3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                         "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nstart", "8/8/8/8/8/8/8/8 w - - 0 1%0Adraw"])
    if k == 2:
        return r.choice([None, True, False, 0, -1, 2 ** 70, 1e308, float("nan")])
    if k in (3, 4, 5):
        return r.choice(["setup", "flip", "x", "", "setup\n", "flip draw"])
    if k in (6, 7):
        return {r.choice(["fen", "flip", "id", "method", "param", "x"]): _random_json(r, depth + 1)
                for _ in range(r.randrange(0, 4))}
    return [_random_json(r, depth + 1) for _ in range(r.randrange(0, 4))]


def test_fuzzing_livechess_calls_never_forges_a_board_line(tmp_path):
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B", "@1:2 start",
              "@1:3 move 1 e2e4 e4"]
    r = random.Random(2026)

    async def body():
        answers = []
        async with fake_board_on_a_relay(tmp_path, events) as (fake, relay):
            http, ws = await _livechess(relay, "fake1")
            for i in range(1500):
                param = {"id": r.choice([1, 1, 1, 2, "1", None]), "method": r.choice(["setup", "flip", _random_json(r)]),
                         "param": _random_json(r)}
                k = r.randrange(10)
                if k == 0:
                    param = _random_json(r)
                elif k < 4:  # well formed, as a client would send it (a mutation or two)
                    param = r.choice([{"id": 1, "method": "setup", "param": {"fen": r.choice([
                        "4k3/8/8/8/8/8/8/4K3", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", START.replace("%20", " "),
                        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nstart", "4k3/8/8/8/8/8/8/4K3\u2028draw"])}},
                        {"id": 1, "method": "flip", "param": {"flip": r.choice([True, False, "yes", 1])}}])
                text = json.dumps({"id": i, "call": "call", "param": param}, allow_nan=True)
                await ws.send_str(text)
                while True:
                    msg = await ws.receive_json(timeout=10)
                    if msg.get("response") != "feed":
                        answers.append(msg)
                        break
            await ws.close()
            await http.close()
            await asyncio.sleep(0.5)
        return answers, fake.received

    answers, received = run(body())
    assert len(answers) == 1500 and all(a["response"] in ("call", "error") for a in answers)
    assert sum(a["response"] == "call" for a in answers) > 20  # valid calls did go through
    for line in received:
        assert LIVECHESS_LINES.match(line), line
        if line.startswith("new fen="):
            chess.Board(decode(line[len("new fen="):]))  # a FEN, whole, and nothing else


def test_the_relay_answers_bad_json_with_400(tmp_path):
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A black=B"]
    deep = b"[" * 30000 + b"]" * 30000  # within the 64 KB a request may have
    deep_obj = b'{"command": ' + b"[" * 20000 + b"]" * 20000 + b"}"

    async def body():
        logged = []
        out = {}
        async with fake_board_on_a_relay(tmp_path, events, token="secret-token", log=logged.append) as (fake, relay):
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                for name, path, data in (
                        ("boards 5", "api/round", b'{"boards": 5}'),
                        ("boards list", "api/round", b'{"boards": [1, 2]}'),
                        ("board not object", "api/round", b'{"boards": {"1": "Anna"}}'),
                        ("name object", "api/round", b'{"boards": {"1": {"white": {"x": 1}}}}'),
                        ("event list", "api/round", b'{"event": ["a"]}'),
                        ("deep round", "api/round", deep),
                        ("deep command", "api/boards/1/command", deep),
                        ("deep in command", "api/boards/1/command", deep_obj),
                        ("command list", "api/boards/1/command", b'["pause"]'),
                        ("command number", "api/boards/1/command", b'{"command": 5}'),
                        ("command newline", "api/boards/1/command", b'{"command": "pause\\ndraw"}'),
                        ("command latin", "api/boards/1/command", b'{"command": "new white=\\u00e9"}'),
                        ("not utf8", "api/round", b'{"event": "\xe9"}')):
                    resp = await http.post(base + path, data=data, headers=GOOD)
                    out[name] = (resp.status, await resp.text())
                out["pgn"] = await (await http.get(base + "round.pgn")).text()
        return out, fake.received, logged

    out, received, logged = run(body())
    for name in ("boards 5", "boards list", "board not object", "name object", "event list", "deep round",
                 "deep command", "deep in command", "command list", "command number", "command newline",
                 "command latin", "not utf8"):
        status, text = out[name]
        assert status == 400 and text and "Traceback" not in text, (name, status, text)
    assert "nested too deeply" in out["deep round"][1] and '"boards" is an object' in out["boards 5"][1]
    assert not any(l.startswith(("pause", "draw", "new")) for l in received)
    assert not any("Traceback" in l or "Error" in l for l in logged)


def _tags(pgn_text):
    """The tags of every game as a reader that follows the PGN standard sees them (a
    quote or backslash inside a string is escaped with a backslash)."""
    games = []
    for block in pgn_text.strip().split("\n\n\n"):
        tags = []
        for line in block.splitlines():
            if line.startswith("["):
                m = re.fullmatch(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]', line)
                assert m, line
                tags.append((m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))))
        games.append(tags)
    return games


def test_names_cannot_forge_a_pgn_tag(tmp_path):
    # The board's own names come decoded: a control character there (from an old board,
    # or noise) becomes U+FFFD; quotes and backslashes are escaped.
    events = [f"@1:1 game tc=300+2 fen={START} chess960=- white=A%0A%5BResult%20%220-1%22%5D "
              "black=Back%5C%22slash", "@1:2 start", "@1:3 move 1 e2e4 e4"]

    async def body():
        out = {}
        async with fake_board_on_a_relay(tmp_path, events, token="secret-token") as (fake, relay):
            base = relay.urls()["page"]
            async with aiohttp.ClientSession() as http:
                out["board names"] = await (await http.get(base + "round.pgn")).text()
                for bad in ("A\n[Result \"0-1\"]", "B\x00", "C\r", "D\u2028", "E\x85"):
                    resp = await http.post(base + "api/round", headers=GOOD,
                                           json={"event": "X", "boards": {"1": {"white": bad}}})
                    out[bad] = (resp.status, await resp.text())
                resp = await http.post(base + "api/round", headers=GOOD, json={
                    "event": 'Club "Open" \\ 2026', "boards": {"1": {"white": 'O"Neil] [Result "0-1',
                                                                     "black": "back\\slash"}}})
                out["quotes"] = resp.status
                await asyncio.sleep(0.7)  # the round PGN is written at most twice a second
                out["round names"] = await (await http.get(base + "round.pgn")).text()
                out["file"] = (tmp_path / "out" / "round.pgn").read_text()
        return out

    out = run(body())
    tags = dict(_tags(out["board names"])[0])
    assert tags["White"] == "A\ufffd[Result \"0-1\"]" and tags["Black"] == 'Back\\"slash'
    assert tags["Result"] == "*"
    for bad in ("A\n[Result \"0-1\"]", "B\x00", "C\r", "D\u2028", "E\x85"):
        status, text = out[bad]
        assert status == 400 and "control character" in text, (bad, out[bad])
    assert out["quotes"] == 200
    for text in (out["round names"], out["file"]):
        (game,) = _tags(text)
        names = [n for n, _ in game]
        assert names.count("Result") == 1 and len(names) == len(set(names))
        tags = dict(game)
        assert tags["White"] == 'O"Neil] [Result "0-1' and tags["Black"] == "back\\slash"
        assert tags["Event"] == 'Club "Open" \\ 2026' and tags["Result"] == "*"
        assert chess.pgn.read_game(io.StringIO(text)).headers["Result"] == "*"


def test_a_round_file_with_a_control_character_is_refused(tmp_path):
    p = tmp_path / "round.json"
    p.write_text(json.dumps({"event": "X", "boards": {"1": {"white": "A\nB"}}}))
    with pytest.raises(RoundError, match="control character"):
        RoundInfo.load(p)
    p.write_text(json.dumps({"event": "X", "boards": {"1": {"white": 'A "B" \\ C'}}}))
    assert RoundInfo.load(p).boards[1]["white"] == 'A "B" \\ C'
    assert pgn_string('A "B" \\ C\n') == 'A \\"B\\" \\\\ C'
    r = GameRecord(1)
    r.white = 'x"] [Black "y'
    assert '[White "x\\"] [Black \\"y"]' in r.pgn()


def test_a_round_file_gives_the_players_fide_ids_titles_and_ratings(tmp_path):
    # (#14) As PGN tags lichess's broadcasts read; a bad value is refused with the reason.
    from host_tools.relay.publish import Publisher
    from host_tools.board.session import BoardSession

    data = {"event": "Open", "round": 3, "lichess_round": "AbCd1234", "boards": {"1": {
        "white": "Anna", "black": "Bo", "white_fide_id": 1503014, "white_title": "GM", "white_rating": 2610,
        "black_fide_id": "24116068", "black_rating": "1840"}}}
    r = RoundInfo.from_json(data)
    assert r.lichess_round == "AbCd1234"
    s = BoardSession(1)
    s.records[1] = GameRecord(1)
    s.current = 1
    text = Publisher(None, {1: s}, lambda: r).pgn(s, s.records[1])
    headers = chess.pgn.read_game(io.StringIO(text)).headers
    assert (headers["White"], headers["WhiteFideId"], headers["WhiteTitle"], headers["WhiteElo"]) == (
        "Anna", "1503014", "GM", "2610")
    assert (headers["BlackFideId"], headers["BlackElo"]) == ("24116068", "1840") and "BlackTitle" not in headers
    # What the page shows beside the names: title, rating, federation.
    r = RoundInfo.from_json(dict(data, boards={"1": dict(data["boards"]["1"], white_fed="ITA")}))
    assert r.boards[1]["info"] == {"white": {"fide_id": 1503014, "title": "GM", "rating": 2610, "fed": "ITA"},
                                   "black": {"fide_id": 24116068, "rating": 1840}}
    for field, value, says in (("white_title", "Grandmaster", "one of GM"), ("white_rating", 99999, "out of range"),
                               ("black_fide_id", "12ab", "whole number"), ("white_rating", True, "whole number"),
                               ("white_fed", "Italy", "three-letter"), ("black_fed", "it<", "three-letter"),
                               ("white_fed", 380, "three-letter")):
        bad = json.loads(json.dumps(data))
        bad["boards"]["1"][field] = value
        with pytest.raises(RoundError, match=says):
            RoundInfo.from_json(bad)
    with pytest.raises(RoundError, match="lichess_round"):
        RoundInfo.from_json(dict(data, lichess_round="../x"))


# ----- processes: the simulator's watchdog and its signals


def _children(pid):
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _sim(processes, *args):
    proc = processes.start([sys.executable, "-m", "host_tools", "sim", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("simulated board on "), line + proc.stderr.read()
    end = time.time() + 20
    while time.time() < end and not _children(proc.pid):
        time.sleep(0.05)
    (child,) = _children(proc.pid)
    return proc, line.split()[-1], child


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_simulators_watchdog_brings_the_board_back_and_signals_end_every_process(tmp_path, processes):
    # A hang after 150 scans: the watchdog (8 s with --flash) resets the board, which
    # comes back from its journal; the simulator goes on, on the same line.
    proc, path, first = _sim(processes, "--flash", str(tmp_path / "flash"), "--fault", "hang:150")
    try:
        port = serial.Serial(path, timeout=0.2)
        seen = b""
        end = time.time() + 40
        said = 0.0
        while time.time() < end and b"recovered" not in seen:
            # As a host of ours does: hello now and while the board is quiet (it never
            # speaks first, and after its reset it waits to be spoken to again).
            if time.time() - said > 2:
                port.write(b"\nhello\n")
                said = time.time()
            seen += port.read(4096)
        assert b"recovered game=1" in seen, seen[-500:]
        assert proc.poll() is None, "the simulator ended when its board was reset"
        (second,) = _children(proc.pid)
        assert second != first and not _alive(first)
        port.write(b"hello\n")
        end = time.time() + 10
        while time.time() < end and b"hello" not in seen.rsplit(b"recovered", 1)[1]:
            seen += port.read(4096)
        assert re.search(rb"hello proto=1 fw=\S+ board=\S+ game=1 seq=\d+", seen.rsplit(b"recovered", 1)[1])
        port.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        end = time.time() + 5
        while time.time() < end and _alive(second):
            time.sleep(0.05)
        assert not _alive(second), "SIGTERM left the firmware's process running"
    finally:
        if proc.poll() is None:
            proc.kill()
    # SIGKILL of the simulator cannot run its cleanup: the kernel ends the child with it.
    proc, _, child = _sim(processes)
    proc.kill()
    proc.wait()
    end = time.time() + 5
    while time.time() < end and _alive(child):
        time.sleep(0.05)
    assert not _alive(child), "SIGKILL left the firmware's process running"


# ----- command lines: one clear line, a non-zero status


def _cli(*args, timeout=60):
    r = subprocess.run([sys.executable, "-m", "host_tools", *args], cwd=ROOT, capture_output=True,
                       text=True, timeout=timeout)
    return r.returncode, r.stderr.strip().splitlines()[-1:] or [""], r.stderr


@pytest.mark.parametrize("args,says", [
    (["replay", "--trace", "{trace}", "--time-control", "300+x", "--pgn-out", "{tmp}/x.pgn"], "--time-control"),
    (["replay", "--trace", "{trace}", "--fen", "not a fen", "--pgn-out", "{tmp}/x.pgn"], "--fen"),
    (["replay", "--trace", "{trace}", "--chess960", "960", "--pgn-out", "{tmp}/x.pgn"], "0..959"),
    (["replay", "--trace", "{trace}", "--chess960", "-1", "--pgn-out", "{tmp}/x.pgn"], "0..959"),
    (["replay", "--trace", "{tmp}/missing", "--pgn-out", "{tmp}/x.pgn"], "not a readable file"),
    (["replay", "--trace", "{trace}", "--pgn-out", "/nonexistent/x.pgn"], "--pgn-out"),
    (["sim", "--trace", "{tmp}/missing"], "not a readable file"),
    (["sim", "--pgn", "{tmp}/missing"], "not a readable file"),
    (["sim", "--pgn", "{trace}"], "the PGN file"),
    (["sim", "--flash", "/proc/no/flash"], "cannot be written"),
    (["sim", "--trace", "{tmp}/bad.trace"], "line 2, is no trace line: '1500 occ zzzz'"),
    (["replay", "--trace", "{tmp}/bad.trace", "--pgn-out", "{tmp}/x.pgn"], "line 2, is no trace line: '1500 occ zzzz'"),
    (["sim", "--trace", "{tmp}/backwards.trace"], "line 2, goes back in time (500 ms after 1000)"),
    (["sim", "--flash", "{tmp}/flash-folder"], "the flash folder's journal.bin is not a file"),
    (["sim", "--flash", "{tmp}/flash-watchdog"], "the flash folder's watchdog is not a file"),
    (["sim", "--flash", "{tmp}/flash-link"], "the flash folder's journal.bin is a link"),
    (["sim", "--fault", "sometimes"], "--fault"),
    (["relay", "--port", "99999", "--no-discover", "--out", "{tmp}/out"], "--port"),
    (["relay", "--round-file", "{tmp}/missing", "--no-discover", "--out", "{tmp}/out"], "not a readable file"),
    (["relay", "--round-file", "{trace}", "--no-discover", "--out", "{tmp}/out"], "not JSON"),
    (["relay", "--round-file", "{tmp}/superscript.json", "--no-discover", "--out", "{tmp}/out"],
     "board 1's white_rating is a whole number, not '²'"),
    (["relay", "--no-discover", "--out", "/proc/no/out"], "cannot be written"),
    (["relay", "/dev/nonexistent", "--no-discover", "--out", "{tmp}/out"], "no serial port /dev/nonexistent"),
    (["relay", "--engine", "{tmp}/no-engine", "--no-discover", "--out", "{tmp}/out"], "is not an executable file"),
    (["relay", "--engine-ms", "5", "--no-discover", "--out", "{tmp}/out"], "--engine-ms is 50..10000"),
])
def test_a_bad_command_line_says_why_in_one_line(tmp_path, args, says):
    trace = _trace(tmp_path, LEGAL[:2], "t.trace")
    (tmp_path / "superscript.json").write_text('{"boards": {"1": {"white": "A", "white_rating": "\u00b2"}}}')
    (tmp_path / "bad.trace").write_text("0 occ ffff00000000ffff\n1500 occ zzzz\n")
    (tmp_path / "backwards.trace").write_text("1000 occ ffff00000000ffff\n500 press white\n")
    (tmp_path / "flash-folder" / "journal.bin").mkdir(parents=True)
    (tmp_path / "flash-watchdog" / "watchdog").mkdir(parents=True)
    (tmp_path / "flash-link").mkdir()
    (tmp_path / "precious").write_text("someone's file")
    (tmp_path / "flash-link" / "journal.bin").symlink_to(tmp_path / "precious")
    args = [a.format(tmp=tmp_path, trace=trace) for a in args]
    code, (last,), err = _cli(*args)
    assert code != 0 and "Traceback" not in err, err
    assert f"python -m host_tools {args[0]}: error:" in last and says in last, err
    assert not (tmp_path / "x.pgn").exists()
    assert (tmp_path / "precious").read_text() == "someone's file"


def test_a_relay_port_in_use_says_so(tmp_path):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    try:
        code, (last,), err = _cli("relay", "--port", str(s.getsockname()[1]), "--no-discover",
                                  "--out", str(tmp_path / "out"))
    finally:
        s.close()
    assert code != 0 and "Traceback" not in err and "address already in use" in last, err


def test_the_readme_names_only_options_the_commands_have():
    readme = "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    for command in ("sim", "replay", "relay", "update"):
        helptext = subprocess.run([sys.executable, "-m", "host_tools", command, "--help"], cwd=ROOT,
                                  capture_output=True, text=True, timeout=60).stdout
        named = set(re.findall(rf"\./run {command}\b[^`\n|]*", readme))
        assert named, command
        for usage in named:
            for option in re.findall(r"--[a-z][a-z0-9-]*", usage):
                assert option in helptext, (command, option)


def test_a_simulated_board_on_a_flash_whose_settings_are_folders_starts_and_says_so(tmp_path):
    # presets.json, access.json and config.json made folders (as mpremote could on a
    # chip): the board starts on its defaults, says why once asked, and plays.
    flash = tmp_path / "flash"
    for name in ("presets.json", "access.json", "config.json"):
        (flash / name).mkdir(parents=True)
    board = SimulatedBoard(_trace(tmp_path, LEGAL[:2], "t.trace"), fast=False, flash=flash,
                           link=str(tmp_path / "link"))
    try:
        port = serial.Serial(board.path, timeout=0.5)
        port.write(b"\nhello\n")
        seen = b""
        end = time.time() + 20
        while time.time() < end and b"move 2 " not in seen:
            seen += port.read(4096)
        port.close()
    finally:
        board.stop()
    text = seen.decode()
    assert "hello proto=1" in text and "move 2 e7e5" in text, text
    for name in ("presets.json", "access.json", "config.json"):
        assert f"{flash / name}%20is%20a%20folder" in text, text
