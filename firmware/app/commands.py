# The host's commands (docs/protocol.md), as a table: word -> (handler, number of
# positional words, keys it takes). A line is split (firmware/app/protocol.py), checked
# against its row, and handled; whatever is wrong is answered `err <code> <text>` and
# changes nothing. The handlers act on the device they are given, through its parts.
import gc

from firmware.app import protocol as P
from firmware.app import settings as S
from firmware.app.selftest import SelfTest
from firmware.clock.clock import ClockError
from firmware.match import MatchError
from firmware.rules.chess960 import back_rank
from firmware.rules.squares import WHITE, BLACK, parse_square, square_name
from firmware.rules.position import move_from, move_to
from firmware.rules.uci import parse_uci, uci

SIDES = {"w": WHITE, "b": BLACK, "white": WHITE, "black": BLACK}
ACCESS_KEYS = ("blind", "visual", "buzzer", "code", "intensity", "thresholds", "speech", "volume", "ears", "white")


def side_of(word):
    s = SIDES.get(word)
    if s is None:
        raise ValueError("a side is w or b, not %r" % (word,))
    return s


def whole(word, what):
    if not word or not (word.isdigit() or (word[0] == "-" and word[1:].isdigit())):
        raise ValueError("%s must be a whole number, not %r" % (what, word))
    return int(word)


def _hello(dev, pos, kw, now):
    dev.hello(True)
    return ()  # the hello line is the answer


def _new(dev, pos, kw, now):
    control = kw.get("tc", dev.control)
    if "preset" in kw:
        control = dev.presets.get(whole(kw["preset"], "preset"))
    if "fen" in kw and "chess960" in kw:
        raise ValueError("give fen or chess960, not both")
    number = whole(kw["chess960"], "chess960") if "chess960" in kw else None
    if number is not None:
        back_rank(number)  # checks 0..959 before anything changes
    dev.start_game(control, kw.get("fen"), number, kw.get("white", dev.white), kw.get("black", dev.black), now,
                   kw.get("source", ""))
    if number is not None:
        dev.recognizer.set_next_start(dev.game.fen(), True)
    return ("new", str(dev.record.log.game_id))


def _start(dev, pos, kw, now):
    dev.clock.start(now, dev.game.turn)


def _pause(dev, pos, kw, now):
    dev.clock.pause(now)


def _resume(dev, pos, kw, now):
    dev.clock.resume(now)


def _set(dev, pos, kw, now):
    what, side, value = pos[0], side_of(pos[1]), whole(pos[2], "the value")
    if what == "time":
        dev.clock.set_time(side, value)
    elif what == "moves":
        dev.clock.set_moves(side, value)
    elif what == "period":
        dev.clock.set_period(side, value)
    else:
        raise ValueError("set time|moves|period w|b VALUE")
    return ("set", what)


def _penalty(dev, pos, kw, now):
    side = side_of(pos[1])
    if pos[0] == "illegal":
        dev.match.illegal_move(side, now)
    elif pos[0] == "claim":
        dev.match.incorrect_claim(side, now)
    else:
        raise ValueError("penalty illegal|claim w|b")
    return ("penalty", pos[0])


def _quickplay(dev, pos, kw, now):
    dev.match.quickplay_finish(side_of(pos[0]), now)


def _resign(dev, pos, kw, now):
    dev.match.resign(side_of(pos[0]), now)


def _draw(dev, pos, kw, now):
    dev.match.agree_draw(now)


def _message(dev, pos, kw, now):
    """The arbiter's message (at most a face's 8 characters; none: cleared) on the faces
    where no clock runs, until a move or the next message; for a deaf player, on his own
    face and light as well (a notice: beside his running time, its sign MS)."""
    if len(pos) > 1 or kw:
        raise ValueError("message <text> (one word: spaces as %20)")
    text = pos[0].upper() if pos else ""
    if len(text) > 8 or not all(32 <= ord(c) <= 90 for c in text):
        raise ValueError("a message is at most 8 letters, digits and signs")
    dev.faces.message(text or None)
    if text:
        dev.events.tell(None, dev.signals.message, text, "MS")


def _claim(dev, pos, kw, now):
    ok = dev.match.claim_draw(side_of(pos[0]), now)
    return ("claim", "correct" if ok else "incorrect")


RESULTS = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": None}


def _result(dev, pos, kw, now):
    if pos[0] not in RESULTS:
        raise ValueError("result 1-0|0-1|1/2-1/2")
    dev.match.arbiter_result(RESULTS[pos[0]], now)


def _state(dev, pos, kw, now):
    o = dev.match.outcome
    log = dev.record.log
    dev.write("state game=%d seq=%d ply=%d turn=%s result=%s fen=%s board=%s" % (
        log.game_id, log.count, dev.game.ply, "w" if dev.game.turn == WHITE else "b",
        o.result() if o else "*", P.encode(dev.game.fen()), dev.recognizer.status))
    dev.events.clock_line(now)
    return ()


def _resend(dev, pos, kw, now):
    log = dev.record.log
    word = pos[0]
    game = log.game_id
    if ":" in word:
        g, word = word.split(":", 1)
        game = whole(g, "the game")
    first = whole(word, "the sequence number")
    if game != log.game_id:
        raise P.NotNow("game %d is not the current game (%d)" % (game, log.game_id))
    if not 1 <= first <= log.count + 1:
        raise ValueError("sequence numbers of game %d are 1..%d" % (game, log.count))
    for seq in range(first, log.count + 1):
        dev.write(dev.record.line(seq))
    return ("resend", "%d:%d" % (game, log.count))


def _preset(dev, pos, kw, now):
    if pos[:1] == ["list"]:
        _check(pos, kw, 1)
        for n, name, control in dev.presets.all():
            dev.write("preset %d %s %s" % (n, P.encode(name), control))
        return ("preset", "list")
    if pos[:1] == ["set"]:
        _check(pos, kw, 2, ("name", "tc"))
        dev.presets.set_user(whole(pos[1], "the slot"), kw.get("name", "User"), kw["tc"])
        return ("preset", "set")
    raise ValueError("preset list | preset set SLOT name=NAME tc=CONTROL")


def _selftest(dev, pos, kw, now):
    """For a maker: `selftest start` on an empty board, move a piece over every square
    (slid steadily along the ranks or files: the map) and press every button, `selftest
    report`, `selftest map`, `selftest stop`."""
    t = dev.selftest
    if t is None:
        t = dev.selftest = SelfTest(dev.hal)
    if pos[0] == "start":
        t.start(now)
    elif pos[0] == "report":
        dev.write(t.report())
    elif pos[0] == "map":
        for line in t.map_lines():
            dev.write(line)
    elif pos[0] == "stop":
        t.stop()
        dev.recognizer.restart(now)
    else:
        raise ValueError("selftest start|report|map|stop")
    return ("selftest", pos[0])


def _access(dev, pos, kw, now):
    """Signals for blind and deaf players, by seat (left, right, both; a colour names the
    seat it has now): access blind=left visual=right code=taptic buzzer=on
    intensity=80,100 thresholds=600,300,60,10 speech=en volume=20 ears=left white=right
    (kept on the device: firmware/access/settings.py)."""
    if kw:
        dev.access.update(kw)
        dev.apply_access()
    dev.write("access " + dev.access.describe())
    if dev.access["speech"] and dev.signals.voice() is None:
        dev.write("warning " + P.encode("speech is set, but no audio module answers (hardware/README.md)"))


def _memory(dev, pos, kw, now):
    """The heap after a full collection, and its largest free block (bench/chip.py; a
    maker's check). -1: this interpreter cannot tell."""
    gc.collect()
    free = gc.mem_free() if hasattr(gc, "mem_free") else -1
    used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else -1
    return ("memory", "free=%d" % free, "used=%d" % used, "largest=%d" % _largest(free))


def _largest(free):
    # The largest block the heap can give now, to 16 bytes (MicroPython's block): found
    # by asking for blocks of halving sizes (a refusal costs a collection: a few tens of
    # milliseconds on the chip, for a command a person or a benchmark sends).
    if free < 0:
        return -1
    lo, hi = 0, free // 16
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            b = bytearray(mid * 16)  # its header is a block of its own, anywhere
            b = None
            lo = mid
        except MemoryError:
            hi = mid - 1
    return lo * 16


def _repl(dev, pos, kw, now):
    """For `deploy`: the board restarts into MicroPython's prompt, without the application
    (and so without its watchdog), until the next reset. Not while a clock runs."""
    c = dev.clock
    if c.running >= 0 and not c.paused and not c.stopped:
        raise P.NotNow("a clock is running: pause it first")
    dev.write("ok repl")
    dev.record.commit(now, c)  # the game stays on flash, as after a power cut
    dev.hal.restart_to_repl()


def _expect(dev, pos, kw, now):
    """expect UCI: the move of the player who is not at the board (an engine, an
    opponent online), shown for the player at the board to carry out; only it is taken,
    and it is completed when it stands on the board. expect -: no longer."""
    if pos[0] == "-":
        if dev.match.outcome is None:  # (after the result no move is taken anyway)
            dev.events.expect(0, now)
        return ("expect", "-")
    if dev.match.outcome is not None:
        raise P.NotNow("the game is over")
    m = parse_uci(dev.game.position, pos[0])  # an illegal or malformed move changes nothing
    dev.events.expect(m, now)
    return ("expect", uci(dev.game.position, m))


def _pair(dev, pos, kw, now):
    """pair w|b here|there: this board is one of two for one game (appendix D: the blind
    player's own board and the sighted player's); that side's moves are made on the other
    board and repeated here (shown by expect). here: this board's clock is the game's, and
    that side's press completes his move made there before it is repeated here; there:
    the other board's clock is the game's, and this board's levers do nothing. pair -: no
    longer. Not kept across a restart: the host says it again when it meets the board."""
    if pos[0] == "-" and len(pos) == 1:
        dev.controls.pair(0, True)
        return ("pair", "-")
    if len(pos) != 2 or pos[1] not in ("here", "there"):
        raise ValueError("pair w|b here|there, or pair -")
    side = side_of(pos[0])
    dev.controls.pair(side, pos[1] == "here")
    return ("pair", pos[0], pos[1])


def _touched(dev, pos, kw, now):
    """touched <square>: on the other board of a pair, the opponent (the side whose moves
    are made there) touched the piece on square (4.3): felt by the player at this board
    (appendix D.2.10: what his assistant would tell him, if he wants it)."""
    c = dev.controls
    if not c.elsewhere:
        raise P.NotNow("not one of a pair")
    sq = parse_square(pos[0])
    dev.events.tell(BLACK if c.elsewhere == WHITE else WHITE, dev.signals.opponent_touched, "TOUCH " + square_name(sq).upper(), "TC")


def _hint(dev, pos, kw, now):
    """hint UCI: a move suggested for the player at the board (an engine's hint), lit on
    the square LEDs until the position changes; nothing else changes. hint -: no longer."""
    if pos[0] == "-":
        dev.faces.hint(None, None)
        return ("hint", "-")
    if dev.match.outcome is not None:
        raise P.NotNow("the game is over")
    m = parse_uci(dev.game.position, pos[0])  # an illegal or malformed move changes nothing
    dev.faces.hint(move_from(m), move_to(m))
    return ("hint", uci(dev.game.position, m))


def _complete(dev, pos, kw, now):
    """complete w|b: that side's move is completed now, as by his press (a game whose
    clock is kept elsewhere: the host sent the move to lichess)."""
    side = side_of(pos[0])
    if not dev.match.awaits_press(side):
        raise P.NotNow("no move of that side waits for its press")
    dev.controls.press(side, now)


def _sync(dev, pos, kw, now):
    """sync W B: both clocks show what the game's own clock says (lichess's), running or
    not; the side to move counts down from now. Not an arbiter's correction: no event."""
    dev.clock.sync(whole(pos[0], "white's time"), whole(pos[1], "black's time"), now)
    dev.events.clock_dirty = True


def _config(dev, pos, kw, now):
    dev.configure(S.parse(kw))  # every value checked before any is used or saved
    dev.settings.save(kw)


# word -> (handler, positional words (None: the handler checks), keys)
TABLE = {
    "hello": (_hello, 0, ()),
    "new": (_new, 0, ("tc", "fen", "chess960", "white", "black", "preset", "source")),
    "start": (_start, 0, ()), "pause": (_pause, 0, ()), "resume": (_resume, 0, ()),
    "set": (_set, 3, ()), "penalty": (_penalty, 2, ()), "quickplay": (_quickplay, 1, ()),
    "resign": (_resign, 1, ()), "draw": (_draw, 0, ()), "claim": (_claim, 1, ()),
    "result": (_result, 1, ()), "state": (_state, 0, ()), "resend": (_resend, 1, ()),
    "preset": (_preset, None, ()), "selftest": (_selftest, 1, ()), "access": (_access, 0, ACCESS_KEYS),
    "config": (_config, 0, S.KEYS), "memory": (_memory, 0, ()),
    "repl": (_repl, 0, ()), "expect": (_expect, 1, ()), "complete": (_complete, 1, ()),
    "sync": (_sync, 2, ()), "hint": (_hint, 1, ()), "message": (_message, None, ()),
    "pair": (_pair, None, ()), "touched": (_touched, 1, ()),
}


def _check(pos, kw, npos, keys=()):
    if len(pos) != npos:
        raise ValueError("expected %d word(s), got %d" % (npos, len(pos)))
    for k in kw:
        if k not in keys:
            raise ValueError("unknown key " + k)


def handle(dev, text, bad, now):
    """One line from the host (or bad: why it was refused whole): handled, answered."""
    if bad:
        dev.write("err %s" % bad)
        return
    try:
        cmd, pos, kw = P.split(text)
    except ValueError as e:
        dev.write("err bad-argument " + P.encode(str(e)))
        return
    row = TABLE.get(cmd)
    if row is None:
        dev.write("err unknown-command " + P.encode(cmd))
        return
    handler, npos, keys = row
    try:
        if npos is not None:
            _check(pos, kw, npos, keys)
        said = handler(dev, pos, kw, now)
    except (P.NotNow, ClockError, MatchError) as e:
        dev.write("err not-now " + P.encode(str(e)))
        return
    except (ValueError, IndexError, KeyError) as e:
        dev.write("err bad-argument " + P.encode(str(e)))
        return
    except OSError as e:  # the flash refused a settings file (full, or a folder in its place)
        dev.write("err not-now " + P.encode("the flash refused it (%s)" % (e,)))
        return
    if said is None:
        said = (cmd,)
    if said:
        dev.write(" ".join(("ok",) + said))
