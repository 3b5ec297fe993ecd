"""python -m host_tools COMMAND — the host tools of the open chess board."""
import argparse
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="play the seed games through the firmware inside micropython")
    a = ap.parse_args(argv)
    if a.command == "demo":
        from host_tools import demo

        return demo.main()
    return 2


if __name__ == "__main__":
    sys.exit(main())
