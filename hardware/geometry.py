"""The board's mechanical dimensions, in millimetres: the one source the sensor strips
(hardware/pcb.py) and the enclosure (hardware/enclosure.py) read. FIDE recommends 5-6 cm
squares for a standard board (the Laws' guidelines on equipment); 55 mm is the default, any
pitch from 52 to 62 mm generates (PITCH_RANGE: outside it no common magnet reads a piece in
its square's corner and keeps a crowd of neighbours under the reeds' drop-out with the
margin hardware/magnets.py asks; at 50 mm the best does x0.97 of it, at 64 mm x0.97).

The sensor is eight identical strips, one per rank, laid side by side under the playing
surface (a 464 mm board is too large to order cheaply; a 466 x 54.5 mm strip is not). Under
every square lie three reed switches in parallel (SQUARE_REEDS; one diode for the three, on
the square's one matrix cell): one along the square's diagonal through its centre, two
along the rank (tilted 10 degrees) above and below it. A switch closes on the difference of
magnetic potential between its ends, which is nil for a magnet on the plane that bisects
its glass; wherever a piece's base lies wholly on its square, one of the three is far from
that plane and near the magnet, and no piece on another square reaches any of them
(hardware/magnets.py). A strip's left end, beyond file a, carries its two 16-pin headers
and the lines between them.

Coordinates: on a strip, x right from its left end and y down from its top edge (towards
Black); on the board, x right from the a-file's edge and y down from the 8th rank's edge
(so square a8's top-left corner is (0, 0)).
"""
PITCH = 55.0  # a square's side
PITCH_RANGE = (52.0, 62.0)  # where the sensing holds (hardware/magnets.py: a crowd round an empty square)
# The reed switches under a square, in parallel on its matrix cell: (x, y, angle) of each
# glass's centre (mm from the square's centre at 55 mm squares, x towards file h, y towards
# White) and its direction (degrees from the rank towards White). Its file line's pad is the
# end towards file a, its diode's the end towards file h. At another pitch the centres
# scale with the room a piece has on its square (reed_layout_scale): hardware/magnets.py.
SQUARE_REEDS = ((0.0, 0.0, 45.0), (1.0, 9.0, 10.0), (-1.0, -9.0, 10.0))
PIECE_BASE = 25.0  # the smallest base of the pieces bought (a pawn: 50 % of FIDE's 5 cm; parts.py)
# Before issue 47: one reed per square, along the diagonal, its centre 11 mm from the
# square's (a pawn near the line x + y = 15.6 mm gave it nothing): kept for the tests.
SINGLE_REED = ((11.0 * 0.5 ** 0.5, 11.0 * 0.5 ** 0.5, 45.0),)
REED_PADS = 20.32  # between the reed switch's pads: 14 mm glass, leads bent 3 mm from it
REED_GLASS = (14.0, 2.3)  # the glass's length and diameter
DIODE_PADS = 7.62  # a DO-35 diode lying flat
DIODE_GAP = 3.5  # from the lowest reed pad to the diode's anode
FILE_TRACK = 6.0  # the file line comes down through a via this far left of the square's centre
RANK_BELOW = 4.0  # the rank line runs this far below the diode
TRACK = 0.5  # track width
LEVEL_STEP = 1.0  # between neighbouring parallel lines (0.5 mm apart: the top switch pads clear them at 48 mm)
VIA = (0.8, 0.4)  # a via's diameter and drill
HEADER_PITCH = 2.54
HEADER_PINS = 16
HEADER_INSET = 2.4  # a header's pins from the strip's edge (and from its left end)
PAD = 1.8  # THT pad diameter
DRILL = 0.9  # the reeds' and diodes' round leads (0.5-0.6 mm)
HEADER_PAD = 1.7
HEADER_DRILL = 1.0  # a 0.64 mm square pin is 0.91 mm across its diagonal (KiCad's own footprint: 1.0)
EDGE_CLEARANCE = 0.5  # copper to the board's edge (what board houses ask)
STRIP_GAP = 0.5  # between neighbouring strips
PCB_THICKNESS = 1.6


def check_pitch(pitch):
    lo, hi = PITCH_RANGE
    if not lo <= pitch <= hi:
        raise ValueError("the square pitch is %g to %g mm" % (lo, hi))
    return pitch


def header_x(k):
    """Pin k's x (0..15) on either header, from the strip's left end."""
    return HEADER_INSET + k * HEADER_PITCH


def strip_left(pitch=PITCH):
    """How far a strip reaches beyond file a: its headers' 16 pins, then room before file
    a's line (half a millimetre steps)."""
    need = header_x(HEADER_PINS - 1) + PAD / 2 + 1.6 - (pitch / 2 - FILE_TRACK)
    # and file a's leftmost switch pad clear of the last header line (its track, 0.3 mm)
    left = -min(x for pads in reed_pads(0.0, 0.0, pitch) for x, _ in pads)
    need = max(need, header_x(HEADER_PINS - 1) + TRACK / 2 + 0.3 + PAD / 2 - (pitch / 2 - left))
    return max(0.0, -(-need * 2 // 1) / 2)


def strip_size(pitch=PITCH):
    """(length, width) of one strip."""
    return strip_left(pitch) + 8 * pitch, pitch - STRIP_GAP


def strip_square_centre(f, pitch=PITCH):
    """The centre of file f's square (0..7) on a strip."""
    return strip_left(pitch) + (f + 0.5) * pitch, (pitch - STRIP_GAP) / 2


def strip_origin(r, pitch=PITCH):
    """Where rank r's strip (0..7) has its top-left corner, on the board."""
    return -strip_left(pitch), (7 - r) * pitch + STRIP_GAP / 2


def square_centre(f, r, pitch=PITCH):
    """The centre of square (file 0..7, rank 0..7) on the board."""
    return (f + 0.5) * pitch, (7 - r + 0.5) * pitch


def piece_base(pitch=PITCH):
    """The smallest base a piece has (mm): the pieces bought, or half the square if that
    is less (FIDE: a square twice a pawn's base)."""
    return min(PIECE_BASE, pitch / 2)


def reed_layout_scale(pitch=PITCH):
    """How far the reeds' centres lie from their square's, against 55 mm squares: as the
    room a piece's centre has on its square (the square less the smallest base)."""
    return max(1.0, (pitch - piece_base(pitch)) / (PITCH - piece_base(PITCH)))


def square_reeds(pitch=PITCH, layout=None):
    """[((x, y), (ux, uy))]: each reed glass's centre (mm from its square's centre, y towards
    White) and its direction, from file a's end to file h's."""
    import math

    layout = SQUARE_REEDS if layout is None else layout
    k = reed_layout_scale(pitch) if layout is SQUARE_REEDS else 1.0
    return [((x * k, y * k), (math.cos(math.radians(a)), math.sin(math.radians(a)))) for x, y, a in layout]


def reed_centres(f, r, pitch=PITCH):
    """Where square (f, r)'s reed glasses have their centres, on the board."""
    x, y = square_centre(f, r, pitch)
    return [(x + dx, y + dy) for (dx, dy), _ in square_reeds(pitch)]


def reed_pads(cx, cy, pitch=PITCH):
    """Each reed switch's two pads [((x, y) of its file line's pad, (x, y) of its diode's)]
    for the square centred at (cx, cy) (any frame with y towards White)."""
    h = REED_PADS / 2
    return [((cx + x - h * ux, cy + y - h * uy), (cx + x + h * ux, cy + y + h * uy)) for (x, y), (ux, uy) in square_reeds(pitch)]


def sensor_extent(pitch=PITCH):
    """(x0, y0, x1, y1): what the eight strips cover, on the board."""
    return -strip_left(pitch), 0.0, 8 * pitch, 8 * pitch


# ----- Mounting: each strip lies on posts of the enclosure's tray, through these holes
MOUNT_HOLE = 3.2  # a strip's mounting hole (the tray's 3 mm pins)
MOUNT_AT = (2, 4, 6)  # on the lines between files b|c, d|e, f|g, at the rank's centre line


def strip_mount_holes(pitch=PITCH):
    """A strip's mounting holes, on the strip: where no copper runs (between a diode and
    the next file's line, between the file lines above and the rank line below)."""
    return [(strip_left(pitch) + k * pitch, (pitch - STRIP_GAP) / 2) for k in MOUNT_AT]


def mount_holes(pitch=PITCH):
    """Every strip's mounting holes, on the board: [(rank, x, y)]."""
    return [(r, k * pitch, (7 - r + 0.5) * pitch) for r in range(8) for k in MOUNT_AT]


# ----- The board's layers, bottom up (the enclosure's heights)
FLOOR = 2.4  # the tray's floor
UNDER_PCB = 8.0  # under the strips: solder joints, the ribbons, strip 1's right-angle header
ABOVE_PCB = 3.3  # from the strips' top to the playing surface's underside: the glass (2.3) and 1 mm
TOP_PLATE = 3.0  # the playing surface (plywood or acrylic)
FELT = 1.0  # a piece's felt, over its magnet
WALL = 8.0  # the tray's outer wall (the playing surface's screws go into it)


def magnet_to_reed():
    """From a piece's magnet (its lower face) down to the axis of the glass under it."""
    return FELT + TOP_PLATE + ABOVE_PCB - REED_GLASS[1] / 2


def frame(pitch=PITCH):
    """The board's border around the squares: the wall, the strips' left ends inside it
    (with a millimetre to spare), at least 30 mm."""
    return max(30.0, strip_left(pitch) + WALL + 1.0)


def board_outer(pitch=PITCH):
    """The enclosure's outer side, square."""
    return 8 * pitch + 2 * frame(pitch)


# ----- the optional square LEDs (firmware/hal/squareleds.py): a WS2812B strip of 30 LEDs a
# metre cut at its marks into single-LED pieces, each stuck on the sensor strip under its
# square along the rank, below its reeds and diode (towards White): clear of the glass, the
# pads and the holes.
LED_PIECE = (33.3, 10.0)  # a piece of a 30/m strip: its length between cut marks, its width
LED_CLEAR = 0.6  # between the piece and the nearest pad's copper


def led_piece(cx, cy, pitch=PITCH):
    """The LED piece's corners under the square centred at (cx, cy) (any frame with y
    towards White), and its LED's centre: ([(x, y)] * 4, (x, y))."""
    lowest = max(y for pads in reed_pads(0.0, 0.0, pitch) for _, y in pads)  # the reeds' and the diode's pads
    top = cy + lowest + PAD / 2 + LED_CLEAR
    half_l = LED_PIECE[0] / 2
    corners = [(cx - half_l, top), (cx + half_l, top), (cx + half_l, top + LED_PIECE[1]), (cx - half_l, top + LED_PIECE[1])]
    return corners, (cx, top + LED_PIECE[1] / 2)
