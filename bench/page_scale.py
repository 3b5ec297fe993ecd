"""The live page with a hall of boards: from a board's move line to the move drawn in a real
browser (target: p99 <= 100 ms with 200 boards), and what the spectators' engine costs.

    python bench/page_scale.py [--boards 200] [--seconds 30] [--engine-ms 300] [--no-engine]

The boards are bench/relay_scale.py's replayers (one process, a pty each, a move every 1-3 s
of a random game, a clock line every second); the relay runs as its own process, as in
use, with its Stockfish evaluation unless --no-engine; the page is opened in headless
chromium (playwright). A MutationObserver in the page notes, for every board's card, when
it first shows a move (its data-moves count: its board and clocks drawn with it; the move
list too where it is shown), at the next animation frame (drawn); the delay is
that instant minus the instant the replayer wrote the move line (one machine, one wall
clock). Reported: median and p99 of the delay, moves missed by the page (must be 0), the
engine's CPU (its process: at most one core by construction, one search thread) and the
positions it evaluated, the relay's CPU, and chromium's."""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
REPLAYERS = ROOT / "bench" / "relay_scale.py"

from relay_scale import TOKEN, feed, p99  # noqa: E402  (the same feed reading and percentile as the relay's figures)

# Runs in the page before its own script: the first frame at which each board shows n moves.
OBSERVER = """
window.__drawn = {};
new MutationObserver((records) => {
  const cards = new Set();
  for (const r of records) {
    const card = r.target.closest ? r.target.closest('section.card') : null;
    if (card) cards.add(card);
    for (const n of r.addedNodes) if (n.matches && n.matches('section.card')) cards.add(n);
  }
  if (!cards.size) return;
  const counts = [...cards].map((c) => [c.id.slice(6), c.dataset.moves]);
  requestAnimationFrame(() => {
    const at = Date.now();
    for (const [n, k] of counts) {
      const key = n + ':' + k;
      if (!(key in window.__drawn)) window.__drawn[key] = at;
    }
  });
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-moves']});
"""


def _proc_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid, name):
    """Processes whose parent is pid and whose name holds name."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                text = f.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        ppid = int(text.rsplit(")", 1)[1].split()[1])
        if ppid == pid and name in comm:
            out.append(int(d))
    return out


def _tree_cpu(root_pids):
    """CPU seconds of these processes and all their descendants."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    todo, seen = list(root_pids), set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += [c for c, pp in parent.items() if pp == p]
    return sum(_proc_cpu(p) for p in seen)


def bench(n, seconds, port, engine_ms, engine):
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is missing (Debian package chromium)")
    tmp = Path(tempfile.mkdtemp(prefix="page-scale-"))
    (tmp / "lines").mkdir()
    result = tmp / "sent.json"
    rep = subprocess.Popen([sys.executable, str(REPLAYERS), "--replayers", str(n), str(tmp / "lines"),
                            str(seconds), str(result)], cwd=ROOT)
    time.sleep(1)
    log = open(tmp / "relay.log", "w")
    cmd = [sys.executable, "-m", "host_tools", "relay", str(tmp / "lines" / "*"), "--out", str(tmp / "out"),
           "--no-discover", "--port", str(port), "--livechess-port", str(port + 1)]
    cmd += ["--engine-ms", str(engine_ms)] if engine else ["--no-engine"]
    relay = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True,
                             env=dict(os.environ, CHESSBOARD_RELAY_TOKEN=TOKEN))
    analyses = 0

    async def run():
        nonlocal analyses
        async with aiohttp.ClientSession() as http:
            for _ in range(600):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/api/state") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=chromium, args=[
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync"])
                page = await browser.new_page(viewport={"width": 1600, "height": 1000})
                await page.add_init_script(OBSERVER)
                await page.goto(f"http://127.0.0.1:{port}/")
                t0 = time.time()
                # playwright's driver and the browser it started: this process's children
                # other than the boards and the relay; the engine: the relay's child, started
                # at the first position it evaluates (looked for at each reading)
                browser_pids = [c for c in _children(os.getpid(), "") if c not in (rep.pid, relay.pid)]
                cpu_of = {"relay": lambda: _proc_cpu(relay.pid),
                          "engine": lambda: sum(map(_proc_cpu, _children(relay.pid, "stockfish"))),
                          "chromium": lambda: _tree_cpu(browser_pids)}
                cpu0 = {k: f() for k, f in cpu_of.items()}
                async for msg in feed(ws, result, seconds):
                    if msg.get("type") == "analysis" and msg.get("analysis"):
                        analyses += 1
                wall = time.time() - t0
                cpu = {k: (f() - cpu0[k]) / wall for k, f in cpu_of.items()}
                await asyncio.sleep(2)
                drawn = await page.evaluate("window.__drawn")
                # the arbiter's state: each board's serial, the replayers' key
                async with http.get(f"http://127.0.0.1:{port}/api/state", headers={"Authorization": "Bearer " + TOKEN}) as r:
                    state = await r.json()
                await browser.close()
            await ws.close()
            return drawn, state, cpu, wall

    drawn, state, cpu, wall = asyncio.run(run())
    rep.wait(60)
    relay.terminate()
    relay.wait(30)
    sent = json.loads(result.read_text())
    number = {b["serial"]: b["number"] for b in state["boards"]}
    delays, missed = [], 0
    for serial, plies in sent.items():
        for ply, t in plies.items():
            at = drawn.get(f"{number.get(serial)}:{ply}")
            if at is None:
                missed += 1
            else:
                delays.append(at - t * 1000)
    total = sum(len(p) for p in sent.values())
    print(f"N={n:3d}  moves {total:5d}  missed by the page {missed}  "
          f"move line -> drawn: median {statistics.median(delays):.1f} ms, p99 {p99(delays):.1f} ms  "
          f"CPU (cores): relay {cpu['relay']:.2f}, chromium {cpu['chromium']:.2f}", flush=True)
    if engine:
        per = cpu["engine"] * wall / analyses if analyses else float("nan")
        print(f"       engine ({engine_ms} ms a position, one thread): {cpu['engine']:.2f} cores, "
              f"{analyses} positions in {wall:.0f} s, {per * 1000:.0f} ms CPU a position", flush=True)


def main():
    from host_tools.board.port import raise_open_files_limit

    raise_open_files_limit()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, nargs="*", default=[200])
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--port", type=int, default=18580)
    ap.add_argument("--engine-ms", type=int, default=300)
    ap.add_argument("--no-engine", action="store_true")
    a = ap.parse_args()
    for i, n in enumerate(a.boards):
        bench(n, a.seconds, a.port + 2 * i, a.engine_ms, not a.no_engine)


if __name__ == "__main__":
    main()
