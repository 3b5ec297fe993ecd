"""python -m host_tools COMMAND — the host tools of the open chess board."""
import argparse
import sys


OURS = ("host_tools", "firmware", "simulator", "hardware", "tests", "bench")


def main(argv=None):
    """The command; outside the venv ./run sets up, one line says so (not a traceback)."""
    try:
        return _main(argv)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] in OURS:
            raise
        command = next((w for w in (sys.argv[1:] if argv is None else argv) if not w.startswith("-")), "")
        raise SystemExit(f"python -m host_tools: error: {e.name} is not installed for {sys.executable}: "
                         f"run ./run {command}".rstrip() + " (it sets up .venv the first time)") from None


def _main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="the main job: simulated boards play into the relay", add_help=False)
    sub.add_parser("replay", help="a trace through the firmware in simulated time, to PGN", add_help=False)
    sub.add_parser("sim", help="the simulated board on a pseudo-terminal", add_help=False)
    sub.add_parser("uf2", help="build the board's UF2: MicroPython with the firmware frozen in", add_help=False)
    sub.add_parser("update", help="a new UF2 onto a board through its USB line (no BOOTSEL)", add_help=False)
    sub.add_parser("relay", help="boards in, live PGN, web page and LiveChess API out", add_help=False)
    sub.add_parser("play", help="play on the board against an engine", add_help=False)
    sub.add_parser("audiocard", help="the audio module's memory card: the board's phrases", add_help=False)
    sub.add_parser("access", help="the settings for blind and deaf players, in plain words", add_help=False)
    a, rest = ap.parse_known_args(argv)
    if a.command == "demo":
        from host_tools import demo

        return demo.main(rest)
    if a.command == "replay":
        from host_tools import replay

        return replay.main(rest)
    if a.command == "sim" and "--pair" in rest:  # two boards for one game, with a relay
        from host_tools import simpair

        return simpair.main([w for w in rest if w != "--pair"])
    if a.command == "sim":
        from host_tools import sim

        return sim.main(rest)
    if a.command == "uf2":
        from host_tools import uf2

        return uf2.main(rest)
    if a.command == "update":
        from host_tools import update

        return update.main(rest)
    if a.command == "play":
        from host_tools import play

        return play.main(rest)
    if a.command == "audiocard":
        from host_tools import audiocard

        return audiocard.main(rest)
    if a.command == "access":
        from host_tools import access

        return access.main(rest)
    if a.command == "relay":
        from host_tools.relay import cli

        return cli.main(rest)
    return 2


if __name__ == "__main__":
    sys.exit(main())
