# Trace files: what happened on a board, line by line (the simulator and the tests play
# them; the format may be extended, never changed):
#   # comment
#   <t_ms> occ <16 hex digits>     occupancy; bit i is square i, a1 = 0, b1 = 1, ..., h8 = 63
#   <t_ms> press white|black       a clock button pressed by that player
#   <t_ms> button <name> down|up   another button: plus, minus, ok, menu
# t_ms are milliseconds from the start of the trace, never decreasing.
from firmware.board.occupancy import from_hex

BUTTONS = ("plus", "minus", "ok", "menu")


class TraceError(ValueError):
    pass


def parse_line(line, occ=None):
    """One line -> None (blank, comment) or (t_ms, kind, arg): ("occ", 8 bytes),
    ("press", "white"|"black"), ("button", (name, down))."""
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
    raise TraceError("bad trace line: %r" % (line,))
