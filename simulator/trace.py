# Trace files: what happened on a board, line by line (the simulator and the tests play
# them; the format may be extended, never changed):
#   # comment
#   <t_ms> occ <16 hex digits>     occupancy; bit i is square i, a1 = 0, b1 = 1, ..., h8 = 63
#   <t_ms> press white|black       a clock lever pressed by that player (down, and up
#                                  TAP_MS later: a tap)
#   <t_ms> lever white|black down|up   a clock lever going down or coming up (a hold is a
#                                  down, a wait and an up)
#   <t_ms> button <name> down|up   another button: plus, minus, ok, menu, and the faces' keys
#                                  ask-white, ask-black, draw-white, draw-black
# t_ms are milliseconds from the start of the trace, never decreasing.
from firmware.board.occupancy import from_hex

BUTTONS = ("plus", "minus", "ok", "menu", "ask-white", "ask-black", "draw-white", "draw-black")
LEVERS = ("white", "black")
TAP_MS = 90  # how long a tapped lever stays down


class TraceError(ValueError):
    pass


def parse_line(line, occ=None):
    """One line -> None (blank, comment) or (t_ms, kind, arg): ("occ", 8 bytes),
    ("press", "white"|"black"), ("button", (name, down)) for a lever too."""
    s = line.strip()
    if not s or s[0] == "#":
        return None
    parts = s.split()
    try:
        t = int(parts[0])
        kind = parts[1]
    except (ValueError, IndexError):
        raise TraceError("bad trace line: %r" % (line,))
    if kind == "occ" and len(parts) == 3:
        try:
            return t, kind, from_hex(parts[2], occ)
        except ValueError:
            raise TraceError("bad occupancy in trace line: %r" % (line,))
    if kind == "press" and len(parts) == 3 and parts[2] in ("white", "black"):
        return t, kind, parts[2]
    if kind == "button" and len(parts) == 4 and parts[2] in BUTTONS and parts[3] in ("down", "up"):
        return t, kind, (parts[2], parts[3] == "down")
    if kind == "lever" and len(parts) == 4 and parts[2] in LEVERS and parts[3] in ("down", "up"):
        return t, "button", (parts[2], parts[3] == "down")
    raise TraceError("bad trace line: %r" % (line,))
