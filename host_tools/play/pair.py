"""A game between a sighted and a blind player at home or at a club, on two boards (FIDE
appendix D): the sighted player's board and the blind player's own, both plugged into this
computer, kept as one game by the relay (host_tools/relay/twoboards.py), as at a tournament
but with no round file to write: this makes it from the two boards' names.

Each board is asked who it is; both get the new game (the control, the names), and the
blind player's board is told his seat - the half of his clock he sits at - and where White
sits this game (`access blind=left white=right` for Black at the left: docs/access.md), his
other settings as he left them; the round file names his seat too (`blind_seat`), so the
relay tells his board again if it restarts. Then the relay runs on the two lines until Ctrl-C: the live page, the
arbiter's page (both boards side by side), the game's PGN in --out. The round file and the
relay's command line are made here for simulated boards too (host_tools/simpair.py)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import chess

from host_tools.board.link import BoardError, BoardLink
from host_tools.commandline import CommandError
from host_tools.protocol import encode


def board_name(link: BoardLink, timeout_s: float = 10.0) -> str:
    """The name the board on link gives in its hello (its chip's serial)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if link.connected.is_set() and link.session.serial != "?":
            return link.session.serial
        time.sleep(0.05)
    raise CommandError(f"the board on {link.path} does not say who it is")


def white_seat(blind_color: chess.Color, seat: str) -> str:
    """Where White sits ("left" or "right") when the blind player has blind_color at seat."""
    return seat if blind_color == chess.WHITE else ("right" if seat == "left" else "left")


def set_up(sighted: str, blind: str, blind_color: chess.Color, control: str, white: str, black: str,
           seat: str = "left") -> tuple[str, str]:
    """The two boards (ports) asked who they are and given the game, the blind player's his
    seat (seat: "left" or "right", his half of the clock); (sighted's name, blind's)."""
    names = []
    for port, extra in ((sighted, None), (blind, f"access blind={seat} white={white_seat(blind_color, seat)}")):
        link = BoardLink(port)
        try:
            if not link.connected.wait(10):
                raise CommandError(f"the board on {port} does not answer")
            names.append(board_name(link))
            link.command(f"new tc={control} white={encode(white)} black={encode(black)}")
            if extra:
                link.command(extra)
        except BoardError as e:
            raise CommandError(f"the board on {port}: {e}") from None
        finally:
            link.close()
    if names[0] == names[1]:
        raise CommandError(f"{sighted} and {blind} are the same board ({names[0]})")
    return names[0], names[1]


def round_file(out: Path, sighted_name: str, blind_name: str, blind_color: chess.Color, white: str, black: str,
               touches: bool, event: str = "Casual game", site: str = "?", seat: str = "left") -> Path:
    """The round file of the one pairing (board 1; the blind player's board is 1001, the
    blind player at seat of its clock), in out."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "round.json"
    path.write_text(json.dumps({"event": event, "site": site, "round": "1", "boards": {"1": {
        "white": white, "black": black, "serial": sighted_name, "blind_serial": blind_name,
        "blind": "white" if blind_color == chess.WHITE else "black", "blind_seat": seat, "touches": touches}}}))
    return path


def relay_args(ports: list[str], round_path: Path, out: Path, http_port: int) -> list[str]:
    """The relay's command line on the two boards' ports (paths or a glob), the round file
    of the pairing, its files in out/relay, its page on http_port (0: any)."""
    return [*ports, "--out", str(out / "relay"), "--round-file", str(round_path), "--no-discover",
            "--port", str(http_port), "--livechess-port", str(http_port + 1 if http_port else 0)]
