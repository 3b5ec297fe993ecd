# The event signals, felt on the player's own vibration motor (and, for deaf players, seen
# on his side's light). A pattern is a tuple of pulses (on_ms, off_ms_after, level); level 1
# is normal, 2 strong (two intensity levels: studies find at most about four reliable).
#
# One vocabulary of pulse lengths for everything the clock plays (docs/access.md, "Pulses"):
#   s  an event's short pulse   250 ms        .  a digit's short pulse   100 ms
#   l  an event's long pulse    750 ms        -  a digit's long pulse    500 ms
#   t  a tick of the last five seconds 400 ms    0  taptic's zero group 1000 ms
#   r  a pulse of the rattle (a cut) 180 ms     M  the mark (hours, moves) 1500 ms
# upper case: strong. Events leave 200 ms between their pulses, the rattle 100 ms; the digits'
# pauses are numbercode.py's. No event uses a digit's pulse (no event reads as a number), and
# every event has its own rhythm, on the motor and on the light too, where strength does not
# show (tests/firmware/test_access.py holds both, and docs/access.md's table to this file).
from firmware.const import const

SHORT = const(250)
LONG = const(750)
GAP = const(200)
TICK = const(400)
# The rattle's pulse: long enough for the coin motor to spin up and be felt. The motor the
# project orders (Seeed 316040001, hardware/order.csv) is the 1020-15-003-001, whose product
# specification (Seeed's 316040001/1020_datasheet.doc, section 3 "Electrical
# Characteristics", item 3-3) gives its start voltage, 2.3 V or less, and no start time; so
# the time is taken from the step response Precision Microdrives publishes for a small ERM
# at its rated voltage (its 305-000: the full amplitude after about 180 ms). Each pulse is
# 180 ms, strong (the motor's rated voltage: firmware/hal/motorduty.py), 100 ms apart.
RATTLE = const(180)
RATTLE_GAP = const(100)

# One constant per event; EVENTS below orders them (the docs' table, the practice mode).
# Each is written out pulse by pulse, the last without a gap after it: made of constants
# alone, MicroPython's compiler keeps it in the firmware's flash, not on the heap. In the
# letters of the vocabulary above:
OPPONENT_MOVED = ((SHORT, 0, 1),)  # s: the opponent completed his move: your clock runs
MOVE_DONE = ((SHORT, GAP, 1), (SHORT, 0, 1))  # s s: your move was completed
THRESHOLD_1 = ((LONG, 0, 1),)  # l: the first time threshold (10 minutes by default)
THRESHOLD_2 = ((LONG, GAP, 1), (SHORT, 0, 1))  # l s: the second (5 minutes)
THRESHOLD_3 = ((LONG, GAP, 1), (SHORT, GAP, 1), (SHORT, 0, 1))  # l s s: the third (1 minute)
THRESHOLD_4 = ((LONG, GAP, 2), (LONG, 0, 2))  # L L: the fourth (10 seconds): may cut an answer short
TICK_PATTERN = ((TICK, 0, 1),)  # t: each second of the last five
YOUR_FLAG = ((LONG, GAP, 2), (LONG, GAP, 2), (LONG, 0, 2))  # L L L
OPPONENT_FLAG = ((SHORT, GAP, 2), (LONG, GAP, 2), (SHORT, 0, 2))  # S L S
ILLEGAL = ((SHORT, GAP, 2), (SHORT, GAP, 2), (SHORT, 0, 2))  # S S S: your illegal press (7.5.3) or move
OPPONENT_ILLEGAL = ((SHORT, GAP, 2), (LONG, GAP, 1), (SHORT, GAP, 2), (LONG, 0, 1))  # S l S l: he pressed without a move
BOARD_DIFFERS = ((LONG, GAP, 1), (SHORT, GAP, 1), (LONG, 0, 1))  # l s l: the board differs from the game
TIME_ADDED = ((SHORT, GAP, 1), (LONG, GAP, 1), (SHORT, GAP, 1), (SHORT, 0, 1))  # s l s s: time given to you (7.5.5)
PERIOD = ((SHORT, GAP, 1), (LONG, 0, 1))  # s l: a new period: its time added
DRAW_OFFER = ((SHORT, GAP, 1), (SHORT, GAP, 1), (LONG, 0, 1))  # s s l: the opponent offers a draw
CLAIM = ((SHORT, GAP, 1), (SHORT, GAP, 1), (LONG, GAP, 1), (SHORT, 0, 1))  # s s l s: a draw claimed (9.2, 9.3)
GAME_OVER = ((LONG, GAP, 1), (LONG, GAP, 1), (SHORT, 0, 1))  # l l s (not l l: on a light strength does not show)
PAUSE = ((LONG, GAP, 1), (SHORT, GAP, 1), (SHORT, GAP, 1), (LONG, 0, 1))  # l s s l: the arbiter is called (6.11.2)
RESUME = ((SHORT, GAP, 1), (LONG, GAP, 1), (LONG, 0, 1))  # s l l: the clock runs again
MESSAGE = ((SHORT, GAP, 1), (SHORT, GAP, 1), (LONG, GAP, 1), (LONG, 0, 1))  # s s l l: the arbiter's message
OPPONENT_TOUCHED = ((SHORT, GAP, 1), (SHORT, GAP, 1), (SHORT, GAP, 1), (LONG, 0, 1))  # s s s l: he touched a piece (D.2.10)
MENU = ((SHORT, GAP, 1), (SHORT, GAP, 1), (SHORT, GAP, 1), (SHORT, 0, 1))  # s s s s: a setting's name follows
RIGHT = ((LONG, GAP, 1), (LONG, GAP, 1), (LONG, GAP, 1), (LONG, 0, 1))  # l l l l: practice: the answer was right
WRONG = ((LONG, GAP, 1), (SHORT, GAP, 1), (SHORT, GAP, 1), (SHORT, 0, 1))  # l s s s: practice: wrong

# Every event in the order the docs' table and the practice mode give them (its number
# there is its place here, from 1).
EVENTS = (
    ("opponent_moved", OPPONENT_MOVED), ("move_done", MOVE_DONE),
    ("threshold_1", THRESHOLD_1), ("threshold_2", THRESHOLD_2), ("threshold_3", THRESHOLD_3),
    ("threshold_4", THRESHOLD_4), ("tick", TICK_PATTERN), ("your_flag", YOUR_FLAG),
    ("opponent_flag", OPPONENT_FLAG), ("illegal", ILLEGAL), ("opponent_illegal", OPPONENT_ILLEGAL),
    ("board_differs", BOARD_DIFFERS), ("time_added", TIME_ADDED), ("period", PERIOD),
    ("draw_offer", DRAW_OFFER), ("claim", CLAIM), ("game_over", GAME_OVER), ("pause", PAUSE),
    ("resume", RESUME), ("message", MESSAGE), ("opponent_touched", OPPONENT_TOUCHED),
    ("menu", MENU), ("right", RIGHT), ("wrong", WRONG),
)

# What may cut short an answer the player asked for (the flag, the last ten seconds): any
# other event waits until the answer has ended (firmware/access/player.py).
URGENT = (YOUR_FLAG, OPPONENT_FLAG, THRESHOLD_4)
# An answer cut short is felt as cut: a rattle of strong pulses at once, then the pause
# between signals, then the event that cut it.
CUT = ((RATTLE, RATTLE_GAP, 2), (RATTLE, RATTLE_GAP, 2), (RATTLE, RATTLE_GAP, 2), (RATTLE, 0, 2))

# The time thresholds' patterns, the first (the longest time) first; the default times are
# the access settings' (firmware/access/settings.py).
THRESHOLDS = (THRESHOLD_1, THRESHOLD_2, THRESHOLD_3, THRESHOLD_4)

_LETTERS = {SHORT: "s", LONG: "l", TICK: "t", RATTLE: "r"}


def rhythm(pattern):
    """The pattern as letters of the vocabulary above; upper case for strong."""
    out = ""
    for on, off, level in pattern:
        ch = _LETTERS[on]
        out += ch.upper() if level == 2 else ch
    return out
