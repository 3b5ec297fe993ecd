"""Many boards against one relay: a whole hall (the target: 1,000 boards on this 2-core
machine with p99 under 50 ms, nothing lost), and an arbiter's commands through it (p99 of
the round trip under 300 ms at 200 boards).

    python bench/relay_scale.py [--boards 10 200 1000] [--seconds 30] [--livechess 100] [--standings]
                                [--earlier-games 100000]

Each board is a light replayer on a pseudo-terminal speaking the board's protocol: it
answers hello and resend, sends a move (and its clk) every 1-3 s of a random legal game,
and a clock line every second. The relay runs as its own process, as in use. Reported per
N: the delay from a board's move line to the relay's websocket message (median, p99), and
to that board's PGN on disk (sampled on 10 boards), the relay's CPU and peak memory, and
the moves lost (must be 0). Meanwhile an arbiter sends four commands a second (pause and
resume, to boards at random) through `POST /api/boards/<n>/command`, which each board
answers as the firmware does (`ok pause`): reported, the round trip from the request to the
HTTP answer, and to the board's answer shown on the page (its websocket message).

With `--livechess K`, K LiveChess subscriptions (16 on a connection, as lichess's DGT page
makes them, to boards at random) follow the boards beside the page, and the move line ->
LiveChess feed delay is reported too; with `--standings`, a client polls /api/standings
ten times a second all along (the costly view a spectator can ask for). The machine's
load (1-minute load average, and the share of the CPUs busy during the run) is printed
beside the figures: on a shared machine the figures are only as good as it was quiet. The
relay's own work while the boards play is printed too, per second: its CPU seconds (user, system,
every thread), its read/write system calls and its threads' context switches - measures
that a busy machine changes little, where it changes the delays much (BENCH_PROFILE=FILE:
py-spy's collapsed stacks of the relay's threads over the same span).
`--earlier-games G` gives the relay an earlier round of G games (`--earlier`), so that the
standings have an event's weight to carry."""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import pty
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

import aiohttp
import chess

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"


class Replayer:
    """One board on a pty, driven by the replayer process's event loop."""

    def __init__(self, i, link, loop):
        self.serial = f"bench-{i}"
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave = slave
        os.set_blocking(self.master, False)
        os.symlink(os.ttyname(slave), link)
        self.events = [f"@1:1 game tc=600+5 fen={START} chess960=- white=W{i} black=B{i}"]
        self.sent_at = {}
        self.rng = random.Random(i)
        self.board = chess.Board()
        self.buf = b""
        self.greeted = False
        self.loop = loop
        loop.add_reader(self.master, self.readable)

    def send(self, line):
        try:
            os.write(self.master, (line + "\n").encode())
        except OSError:
            pass

    def readable(self):
        try:
            self.buf += os.read(self.master, 4096)
        except OSError:
            return
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            text = line.decode(errors="replace").strip()
            if text == "hello":
                self.greeted = True
                self.send(f"hello proto=1 fw=bench board={self.serial} game=1 seq={len(self.events)}")
            elif text.startswith("resend "):
                for ev in self.events[int(text.split(":")[1]) - 1:]:
                    self.send(ev)
            elif text in ("pause", "resume"):  # an arbiter's command, answered as the firmware does
                self.send(f"ok {text}")

    async def play(self, until):
        await asyncio.sleep(self.rng.uniform(0.5, 3))
        while time.time() < until and not self.board.is_game_over():
            m = self.rng.choice(list(self.board.legal_moves))
            ply = len(self.board.move_stack) + 1
            san = self.board.san(m)
            self.board.push(m)
            ev = f"@1:{len(self.events) + 1} move {ply} {m.uci()} {san}"
            self.events.append(ev)
            self.sent_at[ply] = time.time()
            self.send(ev)
            clk = f"@1:{len(self.events) + 1} clk {ply} {600000 - ply * 1000}"
            self.events.append(clk)
            self.send(clk)
            self.send("clock 590000 595000 w running moves=1,1 period=0,0 flags=0,0")
            await asyncio.sleep(self.rng.uniform(1, 3))


def replayers(n, lines, seconds, result):
    """The replayer process: n boards in one event loop; sent_at written to `result`."""

    async def go():
        loop = asyncio.get_running_loop()
        boards = [Replayer(i, os.path.join(lines, f"b{i}"), loop) for i in range(n)]
        # Latency is measured in the steady state: the clock starts once the relay has
        # opened every line (a move made before that arrives by resend, later).
        deadline = time.time() + 180
        while not all(b.greeted for b in boards) and time.time() < deadline:
            await asyncio.sleep(0.1)
        # ... and has made each board's files (its PGN, and the spare it is written over):
        # a tournament's boards are set up before the round starts. Files made during the
        # first moves were the first seconds' delays, not the relay's at play: on ext4
        # without a journal a file made within minutes of thousands deleted (the last
        # run's folder) takes milliseconds.
        from host_tools.relay.store import _exchange
        out = Path(lines).parent / "out"
        made = ".board-*.pgn.spare" if _exchange is not None else "board-*.pgn"  # (spares where names are exchanged)
        while time.time() < deadline and len(list(out.glob(made))) < n:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        until = time.time() + seconds
        Path(result + ".playing").write_text("")  # (the bench measures the relay's work from here)
        await asyncio.gather(*(b.play(until) for b in boards))
        await asyncio.sleep(3)  # resends answered, last lines land
        Path(result).write_text(json.dumps({b.serial: b.sent_at for b in boards}))

    asyncio.run(go())


async def feed(ws, result, seconds):
    """The relay's feed messages, until the replayers have written their result (or the run
    is 40 s overdue)."""
    end = time.time() + seconds + 40
    while time.time() < end and not result.exists():
        try:
            yield await ws.receive_json(timeout=0.5)
        except (asyncio.TimeoutError, TypeError):
            continue


def _cpu_mem(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().split(")")[1].split()
    ticks = int(parts[11]) + int(parts[12])
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                rss = int(line.split()[1])
    return ticks / os.sysconf("SC_CLK_TCK"), rss


def _work(pid) -> dict:
    """What the relay process has done so far, as measures that do not depend on how busy
    the machine is: its CPU seconds (user, system; every thread), its system calls that
    read or write (/proc/<pid>/io) and its threads' context switches (each a thread given
    up the CPU: a wait for the disk, a lock or the interpreter's GIL)."""
    tck = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().split(")")[1].split()
    return {"user": int(parts[11]) / tck, "sys": int(parts[12]) / tck,
            "syscalls": _counted(f"/proc/{pid}/io", ("syscr:", "syscw:")),
            "switches": sum(_counted(f"/proc/{pid}/task/{tid}/status",
                                     ("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"))
                            for tid in os.listdir(f"/proc/{pid}/task"))}


def _counted(path, keys):
    """The sum of a /proc file's counters named keys; 0 if it is gone (a thread that ended
    meanwhile) or unreadable."""
    try:
        with open(path) as f:
            return sum(int(line.split()[1]) for line in f if line.startswith(keys))
    except OSError:
        return 0


def p99(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * 0.99))] if v else float("nan")


def _busy():
    """(busy, total) CPU ticks of the whole machine so far (/proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def _earlier_round(path: Path, games: int, players: int = 4000) -> None:
    """Earlier rounds of that many games among `players` players (results only)."""
    rng = random.Random(3)
    with open(path, "w") as f:
        for g in range(games):
            res = rng.choice(("1-0", "0-1", "1/2-1/2"))
            f.write(f'[Event "Bench"]\n[Round "0.{g % 9999 + 1}"]\n[White "P{rng.randrange(players)}"]\n'
                    f'[Black "P{rng.randrange(players)}"]\n[Result "{res}"]\n\n{res}\n\n')


def bench(n, seconds, port, livechess=0, poll_standings=False, earlier_games=0):
    tmp = Path(tempfile.mkdtemp(prefix="relay-scale-"))
    (tmp / "lines").mkdir()
    earlier = []
    if earlier_games:
        _earlier_round(tmp / "earlier.pgn", earlier_games)
        earlier = ["--earlier", str(tmp / "earlier.pgn")]
    result = tmp / "sent.json"
    rep = subprocess.Popen([sys.executable, __file__, "--replayers", str(n), str(tmp / "lines"),
                            str(seconds), str(result)], cwd=ROOT)
    time.sleep(1)
    # The relay's own output goes to a file: a pipe nobody reads fills up and stops it.
    log = open(tmp / "relay.log", "w")
    relay = subprocess.Popen([sys.executable, "-m", "host_tools", "relay", str(tmp / "lines" / "*"),
                              "--out", str(tmp / "out"), "--no-discover", "--port", str(port),
                              "--livechess-port", str(port + 1), "--no-engine", *earlier], cwd=ROOT,
                             stdout=log, stderr=subprocess.STDOUT, text=True,
                             env=dict(os.environ, CHESSBOARD_RELAY_TOKEN=TOKEN))
    profiler = []
    ws_seen, pgn_seen, lc_seen = {}, {}, {}
    standings_rtt = []
    asked = {}  # board number -> (command line, sent at): waiting for the page to show the answer
    http_rtt, page_rtt = [], []
    work = []  # (time, the relay's work so far, the machine's busy ticks) as the boards start and stop playing

    async def listen():
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            ws = None
            for _ in range(1800):  # a relay opening a thousand lines (or reading an event) takes a while
                try:
                    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
                    break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            if ws is None:
                raise SystemExit(f"the relay's websocket did not answer in 180 s: see {tmp / 'relay.log'}")
            # The arbiter's feed: each board's serial (the replayers' key) and the answers to
            # the arbiter's commands are his alone; spectators' feeds get the same moves.
            await ws.send_json({"token": TOKEN})
            while (await ws.receive_json(timeout=30)).get("type") != "arbiter":
                pass  # signed in: this address is the arbiter's (the door keeps room for it)

            async def watch_pgn():
                known = {}
                while True:
                    for i in range(1, 11):
                        p = tmp / "out" / f"board-{i}.pgn"
                        try:
                            m = p.stat().st_mtime_ns
                        except OSError:
                            continue
                        if known.get(i) != m:
                            known[i] = m
                            text = p.read_text()
                            w = text.split('[White "', 1)[1].split('"', 1)[0] if '[White "' in text else ""
                            key = ("bench-" + w[1:], text.count("[%clk"))
                            pgn_seen.setdefault(key, time.time())
                    await asyncio.sleep(0.002)

            async def arbiter():
                # Once the boards are playing: a command every 0.25 s, to a board at random.
                await asyncio.sleep(8)
                rng = random.Random(5)
                paused = set()
                while not result.exists():
                    n_ = rng.randint(1, n)
                    if n_ not in asked:
                        line = "resume" if n_ in paused else "pause"
                        paused ^= {n_}
                        t = time.time()
                        asked[n_] = (line, t)
                        r = await http.post(f"http://127.0.0.1:{port}/api/boards/{n_}/command",
                                            json={"command": line}, headers={"Authorization": "Bearer " + TOKEN})
                        await r.read()
                        if r.status == 200:
                            http_rtt.append((time.time() - t) * 1000)
                    await asyncio.sleep(0.25)

            async def subscriber(k, serials):
                # A LiveChess client (with the token: a delay could be set), 16 subscriptions.
                lc = await http.ws_connect(f"ws://127.0.0.1:{port + 1}/api/v1.0?token={TOKEN}", max_msg_size=0)
                def subscribe(i):
                    return lc.send_str(json.dumps({"id": i, "call": "subscribe", "param": {
                        "feed": "eboardevent", "id": i, "param": {"serialnr": serials[i]}}}))
                for i in range(len(serials)):
                    await subscribe(i)
                fed, later = set(), set()

                async def again(i):
                    await asyncio.sleep(1)
                    await subscribe(i)

                while not result.exists():
                    try:
                        m = await lc.receive_json(timeout=0.5)
                    except (asyncio.TimeoutError, TypeError):
                        continue
                    if m.get("response") == "error" and isinstance(m.get("id"), int):
                        # That board has not said hello yet: again in a second - beside this
                        # loop, which goes on reading (a pause here held the connection's
                        # other feeds back and was counted as the relay's delay).
                        task = asyncio.create_task(again(m["id"]))
                        later.add(task)
                        task.add_done_callback(later.discard)
                    elif m.get("response") == "feed":
                        p = m["param"]
                        if m["id"] in fed:  # (a subscription's first feed is where its board stood: not a move's way)
                            lc_seen.setdefault((p["serialnr"], len(p["san"])), time.time())
                        fed.add(m["id"])
                for task in list(later):
                    task.cancel()
                await lc.close()

            async def standings_poller():
                while not result.exists():
                    t = time.time()
                    async with http.get(f"http://127.0.0.1:{port}/api/standings") as r:
                        await r.read()
                    standings_rtt.append((time.time() - t) * 1000)
                    await asyncio.sleep(0.1)

            async def meter():
                # The relay's work while every board plays (not its start, opening the lines).
                while not Path(str(result) + ".playing").exists():
                    await asyncio.sleep(0.05)
                t = time.time()
                work.append((t, _work(relay.pid), _busy()))
                if os.environ.get("BENCH_PROFILE"):
                    # py-spy (PyPI) samples the relay while the boards play (not its start):
                    # collapsed stacks of every thread to this file
                    profiler.append(subprocess.Popen(
                        ["py-spy", "record", "--pid", str(relay.pid), "--format", "raw", "--rate", "200", "--nonblocking",
                         "--duration", str(seconds), "--output", os.environ["BENCH_PROFILE"]],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                await asyncio.sleep(seconds)
                work.append((time.time(), _work(relay.pid), _busy()))

            rng = random.Random(9)
            others = [asyncio.create_task(meter())] + [asyncio.create_task(subscriber(k, [f"bench-{rng.randrange(n)}" for _ in range(min(16, livechess - k))]))
                      for k in range(0, livechess, 16)]
            if poll_standings:
                others.append(asyncio.create_task(standings_poller()))
            watcher = asyncio.create_task(watch_pgn())
            commands = asyncio.create_task(arbiter())
            async for msg in feed(ws, result, seconds):
                if msg.get("type") == "board":
                    b = msg["board"]
                    ws_seen.setdefault((b.get("serial"), b.get("from", 0) + len(b.get("san") or [])), time.time())
                    want = asked.get(b["number"])
                    if want and b.get("command") == f"{want[0]} -> ok {want[0]}":
                        page_rtt.append((time.time() - want[1]) * 1000)
                        del asked[b["number"]]
            watcher.cancel()
            commands.cancel()
            for task in others:
                task.cancel()
            await ws.close()

    cpu0, _ = _cpu_mem(relay.pid)
    busy0, all0 = _busy()
    t0 = time.time()
    asyncio.run(listen())
    cpu1, rss = _cpu_mem(relay.pid)
    busy1, all1 = _busy()
    load = os.getloadavg()[0]
    wall = time.time() - t0
    rep.wait(60)
    for p in profiler:
        p.wait(60)
    relay.terminate()
    relay.wait(30)
    sent = {serial: {int(k): v for k, v in plies.items()} for serial, plies in json.loads(result.read_text()).items()}
    ws_delay = [(ws_seen[(s, p)] - t) * 1000 for s, plies in sent.items() for p, t in plies.items() if (s, p) in ws_seen]
    pgn_delay = [(pgn_seen[(s, p)] - t) * 1000 for s, plies in sent.items() for p, t in plies.items() if (s, p) in pgn_seen]
    lc_delay = [(lc_seen[(s, p)] - t) * 1000 for s, plies in sent.items() for p, t in plies.items() if (s, p) in lc_seen]
    total = sum(len(p) for p in sent.values())
    if os.environ.get("BENCH_DEBUG"):
        worst = sorted(((ws_seen[(s, p)] - t) * 1000, s, p) for s, plies in sent.items() for p, t in plies.items() if (s, p) in ws_seen)[-8:]
        print("worst ws:", [(round(d), s, p) for d, s, p in worst])
    journal = {}
    for f in (tmp / "out").glob("board-*.events"):
        lines = f.read_text().splitlines()
        head = next((l for l in lines if " game " in l), "")
        w = head.split("white=", 1)[1].split()[0] if "white=" in head else ""
        journal["bench-" + w[1:]] = {int(l.split()[2]) for l in lines if " move " in l}
    lost = sum(len(set(plies) - journal.get(s, set())) for s, plies in sent.items())
    steady = "       relay's work while the boards play: not measured (the run ended early)"
    if len(work) == 2:
        (ta, wa, ba), (tb, wb, bb) = work
        span = tb - ta
        steady = (f"       relay's work while the boards play ({span:.0f} s, per second): CPU {(wb['user'] - wa['user']) / span:.2f} s user + "
                  f"{(wb['sys'] - wa['sys']) / span:.2f} s system, {(wb['syscalls'] - wa['syscalls']) / span:.0f} read/write system calls, "
                  f"{(wb['switches'] - wa['switches']) / span:.0f} context switches  "
                  f"[machine meanwhile: {100 * (bb[0] - ba[0]) / max(1, bb[1] - ba[1]):.0f}% busy]")
    print(f"N={n:3d}  moves {total:5d}  lost {lost}  "
          f"ws median {statistics.median(ws_delay):.1f} ms p99 {p99(ws_delay):.1f} ms  "
          f"pgn median {statistics.median(pgn_delay) if pgn_delay else float('nan'):.1f} ms p99 {p99(pgn_delay):.1f} ms  "
          f"relay CPU {100 * (cpu1 - cpu0) / wall:.0f}% of a core, peak RSS {rss / 1024:.0f} MB  "
          f"[machine: load {load:.1f} on {os.cpu_count()} CPUs, {100 * (busy1 - busy0) / max(1, all1 - all0):.0f}% busy]",
          flush=True)
    print(steady, flush=True)
    if lc_delay:
        print(f"       LiveChess {livechess} subscriptions: move line -> feed median {statistics.median(lc_delay):.1f} ms "
              f"p99 {p99(lc_delay):.1f} ms ({len(lc_delay)} moves seen)", flush=True)
    if standings_rtt:
        print(f"       /api/standings polled {len(standings_rtt)} times: median {statistics.median(standings_rtt):.1f} ms "
              f"p99 {p99(standings_rtt):.1f} ms", flush=True)
    if not os.environ.get("BENCH_KEEP"):  # (BENCH_KEEP=1: the relay's folder and log stay, for a look)
        shutil.rmtree(tmp, ignore_errors=True)
    if page_rtt:
        print(f"       arbiter commands {len(page_rtt)}: request -> HTTP answer median {statistics.median(http_rtt):.1f} ms "
              f"p99 {p99(http_rtt):.1f} ms; -> answer on the page median {statistics.median(page_rtt):.1f} ms "
              f"p99 {p99(page_rtt):.1f} ms", flush=True)


def main():
    from host_tools.board.port import raise_open_files_limit

    raise_open_files_limit()  # a thousand boards are two thousand pty descriptors here
    if sys.argv[1:2] == ["--replayers"]:
        return replayers(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, nargs="*", default=[10, 200, 1000])
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--port", type=int, default=18480)
    ap.add_argument("--livechess", type=int, default=0, metavar="K", help="LiveChess subscriptions beside the page")
    ap.add_argument("--standings", action="store_true", help="a client polling /api/standings 10 times a second")
    ap.add_argument("--earlier-games", type=int, default=0, metavar="G", help="an earlier round of G games")
    a = ap.parse_args()
    for i, n in enumerate(a.boards):
        bench(n, a.seconds, a.port + 2 * i, a.livechess, a.standings, a.earlier_games)


if __name__ == "__main__":
    main()
