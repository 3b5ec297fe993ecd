"""The board's mechanical dimensions, in millimetres: the one source the sensor PCB
(hardware/pcb.py) reads, and the enclosure will. FIDE recommends 5-6 cm squares for a
standard board (the Laws' guidelines on equipment); 55 mm is the default, any pitch from 40
to 65 mm generates.

Under every square lies a reed switch along its file, its glass centred REED_OFFSET below
the square's centre (towards White), so that a piece's magnet stands over one end of the
glass, where an upright magnet's field runs along the switch (hardware/README.md, "The
matrix"); its diode beside its lower lead.
"""
PITCH = 55.0  # a square's side
BORDER = 12.0  # PCB beyond the 8 x 8 squares: the rank lines' legs and the connector
REED_OFFSET = 5.0  # the glass's centre below the square's centre
REED_PADS = 20.32  # between the reed switch's pads: 14 mm glass, leads bent 3 mm from it
DIODE_PADS = 7.62  # a DO-35 diode lying flat
DIODE_GAP = 4.0  # from the reed's lower pad to the diode's anode
FILE_TRACK = 6.0  # the file line runs this far left of the reed
RANK_BELOW = 4.0  # the rank line runs this far below the diode
TRACK = 0.5  # track width
FAN_STEP = 1.2  # between neighbouring lines where they fan in to the connector
HEADER_PITCH = 2.54
PAD = 1.8  # THT pad diameter
DRILL = 0.9
EDGE_CLEARANCE = 0.5  # copper to the board's edge (what board houses ask)


def square_centre(f, r, pitch=PITCH):
    """The centre of square (file 0..7, rank 0..7) on the PCB: x right, y down, rank 8 at
    the top, the board's top-left corner at (0, 0)."""
    return BORDER + (f + 0.5) * pitch, BORDER + (7 - r + 0.5) * pitch


def board_size(pitch=PITCH):
    return 8 * pitch + 2 * BORDER
