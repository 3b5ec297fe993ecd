"""The board's mechanical dimensions, in millimetres: the one source the sensor strips
(hardware/pcb.py) and the enclosure (hardware/enclosure.py) read. FIDE recommends 5-6 cm
squares for a standard board (the Laws' guidelines on equipment); 55 mm is the default, any
pitch from 48 to 65 mm generates.

The sensor is eight identical strips, one per rank, laid side by side under the playing
surface (a 464 mm board is too large to order cheaply; a 462 x 54.5 mm strip is not). Under
every square lies a reed switch along the square's diagonal (towards file h and White), its
glass's centre REED_OFFSET from the square's centre and its near end towards the centre: a
switch closes on the difference of magnetic potential between its ends, which is nil for a
magnet on the plane that bisects the glass, so that plane must lie beyond where a piece
stands (hardware/magnets.py); its diode beside its lower lead. A strip's left end, beyond file a, carries its two 16-pin
headers and the lines between them.

Coordinates: on a strip, x right from its left end and y down from its top edge (towards
Black); on the board, x right from the a-file's edge and y down from the 8th rank's edge
(so square a8's top-left corner is (0, 0)).
"""
PITCH = 55.0  # a square's side
PITCH_RANGE = (48.0, 65.0)
REED_OFFSET = 11.0  # the glass's centre from the square's centre, along REED_AXIS
REED_AXIS = (0.5 ** 0.5, 0.5 ** 0.5)  # the glass's direction: the diagonal towards file h and White
REED_PADS = 20.32  # between the reed switch's pads: 14 mm glass, leads bent 3 mm from it
REED_GLASS = (14.0, 2.3)  # the glass's length and diameter
DIODE_PADS = 7.62  # a DO-35 diode lying flat
DIODE_GAP = 4.0  # from the reed's lower pad to the diode's anode
FILE_TRACK = 6.0  # the file line runs this far left of the reed
RANK_BELOW = 4.0  # the rank line runs this far below the diode
TRACK = 0.5  # track width
LEVEL_STEP = 1.2  # between neighbouring parallel lines
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


def reed_centre(f, r, pitch=PITCH):
    """Where square (f, r)'s reed glass has its centre, on the board."""
    x, y = square_centre(f, r, pitch)
    return x + REED_OFFSET * REED_AXIS[0], y + REED_OFFSET * REED_AXIS[1]


def reed_pads(cx, cy):
    """A reed switch's two pads (x, y) for the square centred at (cx, cy) (any frame with
    y towards White): its file line's pad nearer the centre, then its diode's."""
    ux, uy = REED_AXIS
    return [(cx + (REED_OFFSET + s * REED_PADS / 2) * ux, cy + (REED_OFFSET + s * REED_PADS / 2) * uy) for s in (-1, 1)]


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
# square across the diagonal, on the far side of the square's centre from its reed (the
# reed's near pad is 0.84 mm from the centre): clear of the glass, the pads and the holes.
LED_PIECE = (33.3, 10.0)  # a piece of a 30/m strip: its length between cut marks, its width
LED_SHIFT = 6.0  # the piece's centre (its LED) from the square's centre, away from the reed


def led_piece(cx, cy):
    """The LED piece's corners under the square centred at (cx, cy) (any frame with y
    towards White), and its LED's centre: ([(x, y)] * 4, (x, y))."""
    ux, uy = REED_AXIS
    px, py = -uy, ux  # across the diagonal
    mx, my = cx - LED_SHIFT * ux, cy - LED_SHIFT * uy
    half_l, half_w = LED_PIECE[0] / 2, LED_PIECE[1] / 2
    corners = [(mx + a * half_l * px + b * half_w * ux, my + a * half_l * py + b * half_w * uy)
               for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return corners, (mx, my)
