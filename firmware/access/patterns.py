# The event signals, felt on the player's own vibration motor (and, for deaf players, seen
# on his side's LED). A pattern is a tuple of pulses (on_ms, off_ms_after, level); level 1
# is normal, 2 strong (two intensity levels: studies find at most about four reliable).
# Every pulse is at least 250 ms (pulses under ~30 ms are not felt as vibration; ~200 ms
# read best), every pattern has its own rhythm of short and long pulses, so that no two can
# be mistaken - on the light too, where strength does not show - and no event uses a
# pulse of the number code (100 and 500 ms, the 1 s zero and the 1.5 s mark:
# firmware/access/numbercode.py), so that no event reads as a digit, on the motor or on
# the light (tests/firmware/test_access.py checks it).
SHORT = 250
LONG = 750
GAP = 200
TICK = 400

_S = (SHORT, GAP, 1)
_L = (LONG, GAP, 1)
_SS = (SHORT, GAP, 2)
_LL = (LONG, GAP, 2)


def _p(*pulses):
    """The last pulse has no gap after it."""
    last = pulses[-1]
    return pulses[:-1] + ((last[0], 0, last[2]),)


PATTERNS = {
    "opponent_moved": _p(_S),  # your clock is now running
    "move_done": _p(_S, _S),  # your move was completed
    "threshold_10m": _p(_L),
    "threshold_5m": _p(_L, _S),
    "threshold_1m": _p(_L, _S, _S),
    "threshold_10s": _p(_LL, _LL),
    "tick": ((TICK, 0, 1),),  # each second of the last five
    "your_flag": _p(_LL, _LL, _LL),
    "opponent_flag": _p(_SS, _LL, _SS),
    "illegal": _p(_SS, _SS, _SS),
    "board_differs": _p(_L, _S, _L),
    "period": _p(_S, _L),  # time was added: a new period
    "draw": _p(_S, _S, _L),  # a draw offer or claim
    "game_over": _p(_L, _L, _S),  # not l l: on a light, strength does not show (the 10 s warning is L L)
    "arbiter": _p(_L, _S, _S, _L),  # the clock stopped: the arbiter is called (6.11.2), or his message
    "resume": _p(_S, _L, _L),  # the arbiter's pause is over: the clock runs again
    "opponent_illegal": _p(_SS, _L, _SS, _L),  # the opponent pressed without a move (7.5.3)
    "opponent_touched": _p(_S, _S, _S, _L),  # on his own board of a pair he touched a piece (D.2.10)
}

# What may cut short an answer the player asked for (the flag, the last ten seconds): any
# other event waits until the answer has ended (firmware/access/player.py).
URGENT = ("your_flag", "opponent_flag", "threshold_10s")
# An answer cut short is felt as cut: a rattle of short strong pulses at once, then the
# pause between signals, then the event that cut it.
CUT = ((80, 80, 2), (80, 80, 2), (80, 80, 2), (80, 0, 2))

# Time thresholds (ms) and their patterns; the defaults the settings start from.
THRESHOLDS = ((600000, "threshold_10m"), (300000, "threshold_5m"), (60000, "threshold_1m"),
              (10000, "threshold_10s"))


def rhythm(pattern):
    """The pattern as letters: s short, l long, t tick; upper case for strong."""
    out = ""
    for on, off, level in pattern:
        ch = "t" if on == TICK else ("s" if on == SHORT else "l")
        out += ch.upper() if level == 2 else ch
    return out
