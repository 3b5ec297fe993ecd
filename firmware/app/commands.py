# The host's commands (docs/protocol.md), as a table: each word names the part that does
# it and that part's method, the arguments its words make, and the keys it takes. A line
# is split (firmware/app/protocol.py), checked against its row, and the method called
# with the arguments and the tick; whatever is wrong is answered `err <code> <text>` and
# changes nothing. The method's answer: None -> `ok <word>`; a tuple -> `ok` and its
# words; () -> none (the method wrote its own lines).
#
# To add a command: a method on the part that does it, and a row here. The parts are the
# device's (firmware/app/device.py gives them by these names).
from firmware.app import protocol as P
from firmware.app import settings as S
from firmware.app.games import NEW_KEYS
from firmware.clock.clock import ClockError
from firmware.match import MatchError
from firmware.rules.squares import WHITE, BLACK

ACCESS_KEYS = ("blind", "visual", "buzzer", "code", "intensity", "thresholds", "speech", "volume", "ears", "white")
RESULTS = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": None}


def _result(word):
    if word not in RESULTS:
        raise ValueError("result 1-0|0-1|1/2-1/2")
    return RESULTS[word]


# What a positional word is read as: s a side, n a whole number, w the word as it is,
# r a result; * all the words and the keys (the method checks them).
def _number(word):
    return P.whole(word, "the value")


READ = {"s": P.side_of, "n": _number, "w": str, "r": _result}

# word: (part, method, its words, keys)
TABLE = {
    "hello": ("record", "hello", "", ()),
    "new": ("games", "new", "", NEW_KEYS),
    "start": ("games", "start_clock", "", ()),
    "pause": ("clock", "pause", "", ()),
    "resume": ("clock", "resume", "", ()),
    "set": ("games", "set", "wsn", ()),
    "penalty": ("games", "penalty", "ws", ()),
    "quickplay": ("match", "quickplay_finish", "s", ()),
    "resign": ("match", "resign", "s", ()),
    "draw": ("match", "agree_draw", "", ()),
    "claim": ("games", "claim", "s", ()),
    "result": ("match", "arbiter_result", "r", ()),
    "state": ("games", "state", "", ()),
    "resend": ("record", "resend", "w", ()),
    "expect": ("games", "expect", "w", ()),
    "hint": ("games", "hint", "w", ()),
    "sync": ("clock", "sync", "nn", ()),
    "message": ("events", "message", "*", ()),
    "complete": ("controls", "complete", "s", ()),
    "pair": ("controls", "pair", "*", ()),
    "touched": ("controls", "touched", "w", ()),
    "preset": ("config", "preset", "*", ()),
    "config": ("config", "config", "", S.KEYS),
    "access": ("config", "access", "", ACCESS_KEYS),
    "selftest": ("selftest", "command", "w", ()),
    "memory": ("power", "memory", "", ()),
    "repl": ("power", "repl", "", ()),
    "bootloader": ("power", "bootloader", "", ()),
}


def handle(parts, text, bad, now):
    """One line from the host (or bad: why it was refused whole), handled by its part
    (parts: name -> the part, the names of TABLE's rows) and answered (the record's
    write)."""
    write = parts["record"].write
    if bad:
        write("err %s" % bad)
        return
    try:
        cmd, words, kw = P.split(text)
    except ValueError as e:
        write("err bad-argument " + P.encode(str(e)))
        return
    row = TABLE.get(cmd)
    if row is None:
        write("err unknown-command " + P.encode(cmd))
        return
    part, method, kinds, keys = row
    try:
        if kinds == "*":
            args = [words, kw]
        else:
            P.check(words, kw, len(kinds), keys)
            args = [READ[k](w) for k, w in zip(kinds, words)]
            if keys:
                args.append(kw)
        said = getattr(parts[part], method)(*args, now)
    except (P.NotNow, ClockError, MatchError) as e:
        write("err not-now " + P.encode(str(e)))
        return
    except (ValueError, IndexError, KeyError) as e:
        write("err bad-argument " + P.encode(str(e)))
        return
    except OSError as e:  # the flash refused a settings file (full, or a folder in its place)
        write("err not-now " + P.encode("the flash refused it (%s)" % (e,)))
        return
    if said is None:
        said = (cmd,)
    if said:
        write(" ".join(("ok",) + said))
