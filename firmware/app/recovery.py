# The game back from the journal after a power cut, a watchdog reset or a crash: the
# journal's events (already in the record's log) played again through the match, checked
# by the rule checker as they go, and the clock as it was at the last completed move, the
# interrupted turn paused at its beginning (docs/protocol.md: "recovered").
from firmware.app import protocol as P
from firmware.app.eventlog import MOVE, CLK, TAKEBACK, ILLEGAL, RESULT, TERMINATIONS
from firmware.app.journal import JournalError
from firmware.clock.clock import ClockState
from firmware.rules.outcome import Outcome
from firmware.rules.squares import WHITE, BLACK

SIDES = {"w": WHITE, "b": BLACK}


def header_values(header):
    """The game line's values: (control, fen or None, Chess960 number or None, white, black)."""
    cmd, pos, kw = P.split("game " + header)
    n = kw["chess960"]
    if n != "-" and not n.isdigit():
        raise ValueError("chess960 must be a number, not %r" % n)
    number = None if n == "-" else int(n)
    return kw["tc"], None if number is not None else kw["fen"], number, kw["white"], kw["black"]


def replay(log, r, setup, feed_watchdog, now):
    """The game of Recovered r (its events in log) set up again with setup(control, fen,
    number, now) -> Match and played to its last commit. ValueError (IllegalMoveError
    among them) if the events do not make a game."""
    count = log.count
    if count < 1 or log.get(1)[0] != 0:
        raise ValueError("the journal's first event is not the game")
    control, fen, number, white, black = header_values(r.header)
    m = setup(control, fen, number, white, black, now)
    log.count = count
    log.game_id = r.game_id
    log.header = r.header
    log.chess960 = number is not None
    g = m.game
    for seq in range(2, count + 1):
        if not seq & 31:
            feed_watchdog()  # a long game takes a while to play again on the chip
        kind, side, a, b, text = log.get(seq)
        if kind == MOVE:
            if a != g.ply + 1:
                raise ValueError("event %d: move %d after ply %d" % (seq, a, g.ply))
            m.replay_move(b)  # IllegalMoveError (a ValueError) if it is not legal here
        elif kind == CLK:
            if not 1 <= a <= g.ply:
                raise ValueError("event %d: clk of ply %d" % (seq, a))
            m.replay_completed(a, b, SIDES[side])
        elif kind == TAKEBACK:
            if not 0 <= a <= g.ply:
                raise ValueError("event %d: takeback to %d" % (seq, a))
            while g.ply > a:
                m.take_back(now)
        elif kind == ILLEGAL:
            m.replay_illegal(SIDES[side], a)
        elif kind == RESULT:
            m.replay_result(Outcome(TERMINATIONS[b], None if a == 2 else (WHITE, BLACK)[a]))
    # The clock as at the last completed move: the interrupted turn starts again from its
    # beginning, paused; how long it had run is reported for the arbiter.
    m.clock.restore(r.state, now, turn_ms=0)
    return m


def interrupted_ms(r, clock):
    """How long the interrupted turn had run (at least): the last commit's, or the last
    checkpoint's after it."""
    ran = ClockState(*r.state).turn_ms  # the journal keeps the state as its 16 numbers
    if r.tick is not None and r.tick[0] == clock.running:
        ran = max(ran, r.tick[1])
    return ran


def recover(record, setup, feed_watchdog, now, problems):
    """The journal's game (record: firmware/app/record.py), put back as it was at its last
    commit with setup (as in replay); its Recovered, or None: no journal, none on it, or a
    damaged one (then problems says so, and the log is empty)."""
    if record.journal is None:
        return None
    try:
        found = record.load()
        if found is None:
            return None
        replay(record.log, found, setup, feed_watchdog, now)
    except (JournalError, ValueError, IndexError, KeyError) as e:
        problems.append("journal damaged (%s), %s; a new game" % (e, record.journal.bad_path))
        record.forget()
        return None
    if found.dropped:
        problems.append("journal: %d bytes of an interrupted write or noise dropped" % found.dropped)
    record.recovered(found)
    return found


def resume(record, r, game, clock, now):
    """Tell the host (`recovered`), and pause the interrupted turn's clock: it waits for
    the arbiter, or the players, to resume it."""
    running = clock.running >= 0 and not clock.stopped
    record.write("recovered game=%d seq=%d ply=%d interrupted=%s" % (
        record.log.game_id, record.log.count, game.ply,
        ("%s:%d" % ("w" if clock.running == 0 else "b", interrupted_ms(r, clock))) if running else "-"))
    if running and not clock.paused:
        clock.pause(now)  # logged
