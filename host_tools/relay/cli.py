"""python -m host_tools relay [PORT ...] [options]   (also: chessboard-relay)

Opens the given serial ports (paths or glob patterns such as '/tmp/boards/*'), and Picos
running this firmware as they are plugged in, and relays their games: PGN files in --out,
the live page, the round PGN for lichess, a websocket feed and the DGT LiveChess API. The
token for the relay's own API (round file, arbiter commands) is printed at start, or taken
from CHESSBOARD_RELAY_TOKEN; LICHESS_TOKEN with --lichess-round pushes the round PGN to a
lichess broadcast round."""
from __future__ import annotations

import argparse
import asyncio
import os
import signal

from host_tools.commandline import CommandError, readable_file, writable_folder
from host_tools.relay.round import RoundError

PROG = "python -m host_tools relay"


def _port(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a TCP port is 0..65535, not {text!r}")
    return n


def parse(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ports", nargs="*", help="serial ports or glob patterns")
    ap.add_argument("--out", default="out/relay", help="the output folder (PGN files, the relay's journal)")
    ap.add_argument("--round-file", help="JSON: event, site, date, round, boards {n: {white, black, serial}}")
    ap.add_argument("--earlier", action="append", default=[], metavar="PGN",
                    help="an earlier round of the event (its round.pgn, or lichess's download): the "
                         "standings count its games and the page shows it again; once per round")
    ap.add_argument("--host", default="127.0.0.1", help="address to serve on (default: this machine only)")
    ap.add_argument("--port", type=_port, default=8080, help="HTTP port of the page and the PGN")
    ap.add_argument("--livechess-port", type=_port, default=1982)
    ap.add_argument("--livechess-host", default="127.0.0.1",
                    help="address of the LiveChess API (default: this machine only, whatever --host is: "
                         "it is the players' programs' and the arbiter's, not the hall's; with --delay it "
                         "needs the token)")
    ap.add_argument("--per-address", type=int, default=16, metavar="N",
                    help="connections one address may hold (default 16: a spectator's browser; behind a "
                         "proxy every spectator comes from its address: raise it)")
    ap.add_argument("--no-discover", action="store_true", help="do not look for Picos by USB id")
    ap.add_argument("--origins", help="comma-separated origins allowed to use the LiveChess API")
    ap.add_argument("--lichess-round", help="lichess broadcast round id to push to (token: LICHESS_TOKEN); "
                                            "for more than 100 boards, several: id1,id2 (boards 1-100, 101-200, ...)")
    ap.add_argument("--lichess-url", default="https://lichess.org")
    ap.add_argument("--speak", choices=("en", "it", "fide"),
                    help="speak every move, and times on request (espeak-ng)")
    ap.add_argument("--voice-white", help="espeak-ng voice for White (with --voice-black: one output each)")
    ap.add_argument("--voice-black")
    ap.add_argument("--engine", help="UCI engine for the spectators' evaluation on the page "
                                     "(default: Stockfish, when installed)")
    ap.add_argument("--engine-ms", type=int, default=300,
                    help="the engine's most time per position, ms (one engine thread: at most one core)")
    ap.add_argument("--no-engine", action="store_true", help="no evaluation on the page")
    ap.add_argument("--delay", type=int, default=0, metavar="SECONDS",
                    help="a broadcast delay: the page, the PGN files and URLs and the lichess push show "
                         "the games this much later (the arbiter's page at once; no evaluation)")
    return ap.parse_args(argv)


def _check(a) -> None:
    """What the command line names, before the relay starts: one line says what is wrong."""
    writable_folder(a.out, "the output folder (--out)")
    if not 0 <= a.delay <= 3600:
        raise CommandError(f"--delay is 0..3600 seconds, not {a.delay}")
    if a.delay and a.speak:
        raise CommandError(f"--speak says every move as it is made: with --delay {a.delay} it would tell the hall "
                           f"the moves early (fair play); the blind player's own board speaks to him")
    if not 1 <= a.per_address <= 4096:
        raise CommandError(f"--per-address is 1..4096, not {a.per_address}")
    if a.round_file:
        readable_file(a.round_file, "the round file")
    for p in a.earlier:
        readable_file(p, "an earlier round (--earlier)")
    for p in a.ports:
        # A path is a board that must be there; a glob pattern waits for boards to appear.
        if not any(c in p for c in "*?[") and not os.path.exists(p):
            raise CommandError(f"no serial port {p} (to wait for boards to appear, give a glob "
                               f"pattern such as '/dev/ttyACM*')")


def _analysis(a) -> dict | None:
    """The spectators' evaluation: the engine asked for (which must be there), else
    Stockfish if this machine has it, else none."""
    from host_tools.engines import EngineMissing, find_engine

    if a.no_engine:
        return None
    if not 50 <= a.engine_ms <= 10000:
        raise CommandError(f"--engine-ms is 50..10000, not {a.engine_ms}")
    try:
        return {"engine_path": find_engine(a.engine), "movetime_ms": a.engine_ms}
    except EngineMissing as e:
        if a.engine:
            raise CommandError(str(e)) from None
        return None


async def run(a, until=None, on_start=None):
    from host_tools.relay.app import Relay

    lichess = None
    lichess_round = a.lichess_round
    if not lichess_round and a.round_file:  # the round file may name it
        from host_tools.relay import round as round_file

        try:
            lichess_round = round_file.RoundInfo.load(a.round_file).lichess_round
        except round_file.RoundError:
            lichess_round = None  # (the relay says what is wrong with the file below)
    if lichess_round:
        from host_tools.relay.lichess import round_ids

        try:
            round_ids(lichess_round)
        except ValueError as e:
            raise SystemExit(f"{PROG}: error: --lichess-round: {e}") from None
        token = os.environ.get("LICHESS_TOKEN")
        if not token:
            raise SystemExit("a lichess round to push to needs LICHESS_TOKEN in the environment")
        lichess = {"round_id": lichess_round, "token": token, "base_url": a.lichess_url}
    speaker = None
    if a.speak:
        from host_tools.relay.speaker import Speaker

        voices = {"w": a.voice_white, "b": a.voice_black} if a.voice_white and a.voice_black else None
        speaker = Speaker(a.speak, voices)
    try:
        _check(a)
        analysis = _analysis(a)
        relay = Relay(a.out, a.ports, discover=not a.no_discover, round_file=a.round_file, host=a.host,
                      http_port=a.port, livechess_port=a.livechess_port, livechess_host=a.livechess_host,
                      token=os.environ.get("CHESSBOARD_RELAY_TOKEN"),
                      origins=a.origins.split(",") if a.origins else None, lichess=lichess, speaker=speaker,
                      analysis=analysis, delay_s=a.delay, earlier=a.earlier, door={"per_client": a.per_address})
    except (CommandError, RoundError) as e:
        raise SystemExit(f"{PROG}: error: {e}") from None
    try:
        await relay.start()
    except OSError as e:  # a port in use, an address this machine does not have
        relay.store.close()
        raise SystemExit(f"{PROG}: error: cannot serve on {a.host} port {a.port} and "
                         f"{a.livechess_host} port {a.livechess_port}: {e.strerror or e}") from None
    u = relay.urls()
    print(f"live page:      {u['page']}")
    print(f"arbiter's page: {u['arbiter']}  (it asks for the API token)")
    print(f"round PGN:      {u['round_pgn']}  (file: {u['pgn_file']})")
    print(f"LiveChess API:  {u['livechess']}" + ("  (with the delay: only with the token, ?token=...)"
                                                  if a.delay else ""))
    print(f"API token:      {relay.token}")
    print(f"evaluation:     {analysis['engine_path'] if analysis and not a.delay else 'off'}", flush=True)
    if a.delay:
        print(f"delay:          {a.delay} s (the page, the PGN and the lichess push; the arbiter's page live)", flush=True)
    if on_start:
        on_start(relay)
    try:
        if until is None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            await stop.wait()
        else:
            await until(relay)
    finally:
        await relay.stop()
    return relay


def main(argv=None):
    from host_tools.board.port import raise_open_files_limit

    raise_open_files_limit()
    asyncio.run(run(parse(argv)))
    return 0
