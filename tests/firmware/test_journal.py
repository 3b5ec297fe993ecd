# The device's journal on flash (firmware/app/journal.py): a power cut leaves the game as
# it was at its last commit; damage is found, reported, and the board starts clean;
# sectors are erased only while no clock runs. (A power cut inside every single flash
# operation: test_journal_cuts.py.)
import gc
import os
import sys

from firmware.version import VERSION
from firmware.app.device import Device
from firmware.app.eventlog import EventLog
from firmware.app.journal import Journal, JournalError, crc16, SECTOR, PAGE
from firmware.hal.filesectors import FileSectors
from tests.firmware.flashfakes import CountingSectors, FailingSectors
from firmware.rules.squares import WHITE, BLACK, parse_square
from firmware.board.occupancy import occupied
from tests.firmware.fakehal import FakeHal, run, set_square, speak_first
from tests.firmware.support import raises

MICROPYTHON_HEAP = "448K"  # the whole application, two boards in turn (a power cut), and the
# flash fakes (the 64-bit unix port: ~190 KB on the chip; the chip itself: tests/e2e/test_chip.py);
# and room for the port's seventh qstr pool (1280 names, ~14 KB in one block), which these
# modules' names reach only in mid-test, with the heap in pieces
DIR = "/tmp/chessboard-test-journal"  # each test its own folder: they run in parallel


def _clean(test):
    global DIR
    DIR = "/tmp/chessboard-test-journal-%s-%s" % (sys.implementation.name, test)
    try:
        os.mkdir(DIR)
    except OSError:
        pass
    for name in os.listdir(DIR):
        os.remove(DIR + "/" + name)


COUNT = 16  # sectors: 64 KB of flash
SMALL = 4  # sectors of a flash in memory


def _journal():
    return Journal(FileSectors(DIR + "/flash.bin", COUNT), DIR + "/journal.games")


def _device(t=0, occ=None, journal=None):
    hal = FakeHal()
    hal.t = t
    if occ is not None:
        hal.occ[:] = occ
    dev = Device(hal, presets_path=DIR + "/presets.json", journal=journal or _journal())
    run(dev, hal, 50)
    speak_first(dev, hal)
    return dev, hal


def _patch(at, data):
    """Change bytes of the flash image in place (a bit error, noise)."""
    with open(DIR + "/flash.bin", "r+b") as f:
        f.seek(at)
        f.write(data)


def _flip(at, n):
    """Invert n bytes of the flash image."""
    with open(DIR + "/flash.bin", "rb") as f:
        f.seek(at)
        old = f.read(n)
    _patch(at, bytes(b ^ 0xFF for b in old))


def _move(dev, hal, uci, think=2000):
    for _ in range(think // 1000):
        run(dev, hal, 1000)
        hal.lines()  # what the device said before the move is not looked at
    frm, to = uci[:2], uci[2:4]
    if occupied(hal.occ, parse_square(to)):
        set_square(hal.occ, to, False)  # the captured piece off first
        run(dev, hal, 150)
    set_square(hal.occ, frm, False)
    run(dev, hal, 150)
    set_square(hal.occ, to, True)
    run(dev, hal, 200)


def _press(dev, hal, side):
    hal.queue.append(("press", side, None, hal.t))
    run(dev, hal, 50)


def _cut():
    """The power goes: nothing is closed, nothing more is written (and the heap, as on a
    board that starts again, holds one device)."""
    gc.collect()


GAME = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5")


def _play(dev, hal, moves):
    side = WHITE
    for uci in moves:
        _move(dev, hal, uci)
        _press(dev, hal, side)
        side = BLACK if side == WHITE else WHITE


def _events(dev):
    return [dev.record.line(s) for s in range(1, dev.record.log.count + 1)]


def test_crc16_is_ccitt():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_a_power_cut_keeps_the_game_and_the_clocks():
    _clean("a_power_cut_keeps_the_game_and_the_clocks")
    dev, hal = _device()
    hal.send("start\n")
    run(dev, hal, 50)
    _play(dev, hal, GAME[:6])
    _move(dev, hal, GAME[6], think=35000)  # White moves and has not pressed yet
    run(dev, hal, 1000)
    before = _events(dev)
    fen = dev.game.fen()
    times = (dev.clock.left[0], dev.clock.left[1])
    occ = bytes(hal.occ)
    dev = hal = None
    _cut()
    dev, hal = _device(t=987654, occ=occ)
    lines = hal.lines()
    # (seq: the recovery's pause of the interrupted clock is one more event)
    assert lines[0] == "hello proto=1 fw=" + VERSION + " board=sim game=1 seq=%d" % (len(before) + 1)
    rec = lines[1].split()
    assert rec[:4] == ["recovered", "game=1", "seq=%d" % len(before), "ply=7"]
    side, ms = rec[4][len("interrupted="):].split(":")
    assert side == "w" and 30000 <= int(ms) < 40000  # at least the last checkpoint
    assert _events(dev)[:-1] == before
    assert _events(dev)[-1] == "@1:%d pause" % (len(before) + 1)
    assert dev.game.fen() == fen
    c = dev.clock
    assert c.paused and c.running_side() == WHITE
    assert (c.time_left(WHITE, hal.t), c.time_left(BLACK, hal.t)) == times  # as at the last press
    # The arbiter resumes; White's press completes the move made before the cut.
    hal.send("resume\n")
    run(dev, hal, 1000)
    _press(dev, hal, WHITE)
    got = [l for l in hal.lines() if l.startswith("@")]
    assert got[0] == "@1:%d resume" % (len(before) + 2)
    head, v = got[1].rsplit(" ", 1)
    assert head == "@1:%d clk 7" % (len(before) + 3)
    assert times[0] + 2000 - 1100 <= int(v) <= times[0] + 2000 - 1000  # only the time since resume
    assert c.running_side() == BLACK
    # The same lines again for a host that asks.
    hal.send("resend 1\n")
    run(dev, hal, 200)
    again = [l for l in hal.lines() if l.startswith("@")]
    assert again[:len(before)] == before


def test_a_finished_game_comes_back_finished():
    _clean("a_finished_game_comes_back_finished")
    dev, hal = _device()
    _play(dev, hal, GAME[:4])
    hal.send("resign b\n")
    run(dev, hal, 100)
    before = _events(dev)
    occ = bytes(hal.occ)
    dev = hal = None
    _cut()
    dev, hal = _device(t=5, occ=occ)
    lines = hal.lines()
    assert "interrupted=-" in lines[1]
    assert _events(dev) == before
    assert dev.match.outcome.result() == "1-0"
    assert dev.clock.stopped


def _stream_byte(dev, n):
    """Where the n-th byte of the current generation's stream lies in the flash image."""
    j = dev.record.journal
    k, off = divmod(n, 4080)
    return j._sector(k) * SECTOR + 16 + off


def test_a_damaged_journal_is_reported_and_the_board_starts_clean():
    _clean("a_damaged_journal_is_reported_and_the_board_starts_clean")
    dev, hal = _device()
    _play(dev, hal, GAME[:4])
    at = _stream_byte(dev, 60)
    dev = hal = None
    _cut()
    _flip(at, 1)  # a bit error in the middle
    dev, hal = _device()
    lines = hal.lines()
    assert lines[0].startswith("hello proto=1 fw=" + VERSION + " board=sim game=")
    assert lines[1].startswith("warning journal%20damaged"), lines
    hal.send("resend 2:1\n")
    run(dev, hal, 100)
    assert hal.lines()[0].startswith("@2:1 game ")  # a new number: never game 1 again
    assert dev.game.ply == 0
    # Whatever the flash holds, the board starts.
    from firmware.app.journal import sector_header

    x = 12345
    data = bytearray(PAGE)
    for fill in ("zeros", "noise", "headers"):
        dev = hal = None
        _cut()
        for at in range(0, COUNT * SECTOR, PAGE):
            for i in range(PAGE):
                if fill == "zeros":
                    data[i] = 0
                else:
                    x = (x * 1103515245 + 12345) & 0x3FFFFFFF
                    data[i] = (x >> 16) & 0xFF
            if fill == "headers" and at % SECTOR == 0:  # sector headers that read, over noise
                data[0:16] = sector_header(7, at // SECTOR % 3)
            _patch(at, data)
        dev = hal = None
        _cut()
        dev, hal = _device()
        assert dev.record.log.count >= 1 and dev.game.ply == 0
        _play(dev, hal, GAME[:2])  # and the journal works again
        dev = hal = None
        _cut()
        dev, hal = _device()
        assert dev.game.ply == 2, fill


def test_a_journal_that_replays_to_an_illegal_game_is_damage():
    _clean("a_journal_that_replays_to_an_illegal_game_is_damage")
    dev, hal = _device()
    _play(dev, hal, GAME[:2])
    log = dev.record.log
    # A well-formed journal whose move is not legal in the position (a firmware bug or
    # a file from elsewhere): found by the rule checker, never played.
    j = dev.record.journal
    events = [bytearray(log.raw(s)) for s in range(1, log.count + 1)]
    ev = [e for e in events if e[0] == 1][0]  # the first move
    ev[6] = 0
    ev[7] = 0
    j.begin(log.game_id, log.header, [bytes(e) for e in events], dev.clock.state(hal.t))
    j.close()
    dev = hal = None
    _cut()
    dev, hal = _device()
    lines = hal.lines()
    assert lines[1].startswith("warning journal%20damaged")
    assert dev.game.ply == 0


def test_game_numbers_never_repeat_and_a_new_game_replaces_the_journal():
    _clean("game_numbers_never_repeat_and_a_new_game_replaces_the_journal")
    dev, hal = _device()
    hal.send("new tc=600+5\n")
    run(dev, hal, 100)
    assert dev.record.log.game_id == 2
    dev = hal = None
    _cut()
    dev, hal = _device()
    assert dev.record.log.game_id == 2 and dev.games.control == "600+5"
    hal.send("new\n")
    run(dev, hal, 100)
    os.remove(DIR + "/flash.bin")  # even without the journal, the count goes on
    dev = hal = None
    _cut()
    dev, hal = _device()
    assert dev.record.log.game_id == 4


def test_a_move_costs_a_few_hundred_bytes_of_flash():
    _clean("a_move_costs_a_few_hundred_bytes_of_flash")
    dev, hal = _device()
    start = dev.record.journal.bytes_written
    _play(dev, hal, GAME)
    per_move = (dev.record.journal.bytes_written - start) // len(GAME)
    assert per_move < 512, per_move


def test_a_flash_that_fails_does_not_stop_the_game():
    _clean("a_flash_that_fails_does_not_stop_the_game")
    dev, hal = _device(journal=Journal(FailingSectors(SMALL), DIR + "/journal.games"))
    lines = hal.lines()
    assert any(l.startswith("warning journal%20off") for l in lines)
    assert lines[0].startswith("hello ") and " game=1 " in lines[0]
    _play(dev, hal, GAME[:2])
    assert dev.game.ply == 2


def test_sectors_are_erased_while_no_clock_runs_and_never_in_a_game():
    # Every erase before the clock starts (or, for a game longer than what was prepared,
    # right after a press); none in the path between a move and its line.
    _clean("erases")
    flash = CountingSectors(DIR + "/flash.bin", COUNT)
    j = Journal(flash, DIR + "/journal.games", ahead=2)
    dev, hal = _device(journal=j)
    hal.display = lambda white, black: None  # what the faces show: not looked at here
    start = bytes(hal.occ)
    run(dev, hal, 1000)
    assert j.ready() == 2
    hal.send("start\n")
    run(dev, hal, 50)
    n = len(flash.log)
    _play(dev, hal, GAME)
    assert "e" not in flash.log[n:] and j.unprepared == 0
    # A game that outruns the prepared sector: one more is erased right after a press
    # (its clk line already sent), never when the stream needs it.
    hal.occ[:] = start
    hal.send("new\n")
    run(dev, hal, 1000)
    j.ahead = 1
    hal.send("start\n")
    run(dev, hal, 50)
    hal.faces = []
    flash.log = []
    erases = j.erases
    _play(dev, hal, LONG)
    assert j.erases > erases and j.unprepared == 0, (j.erases, erases)
    assert dev.game.ply == len(LONG)


# 44 plies, none of them castling, en passant or a promotion (python-chess checked)
LONG = ("h2h4 g7g5 h1h2 f7f6 f2f4 g5g4 c2c3 c7c6 b2b3 b7b6 d2d4 c8a6 f4f5 d8c8 c1h6 e8f7 "
        "e2e3 c8e8 d1g4 d7d5 g4f4 a6b5 f4g5 f8h6 a2a3 a7a5 h2h1 b5d3 e1d2 e8d7 d2d1 e7e6 "
        "h1h2 d7a7 d1e1 d3f5 c3c4 f5e4 g1e2 b8d7 g5g8 f7g8 a1a2 g8f8").split()


def test_an_event_record_keeps_every_field():
    log = EventLog()
    log.new_game(7, "tc=300+2", False)
    log.append(1, WHITE, 151, 1234567, "exd8=Q+")  # the longest SAN
    log.append(2, BLACK, 151, -4321)  # a clock below zero (a game that goes on after a flag)
    log.append(7, BLACK, 120000)
    assert log.get(2) == (1, "w", 151, 1234567, "exd8=Q+")
    assert log.get(3) == (2, "b", 151, -4321, "")
    assert log.get(4) == (7, "b", 120000, 0, "")
    again = EventLog()
    again.new_game(7, "tc=300+2", False)
    for seq in range(2, 5):
        again.append_raw(log.raw(seq))
    assert [again.get(s) for s in range(1, 5)] == [log.get(s) for s in range(1, 5)]
    assert raises(ValueError, again.append_raw, b"\x1f" + bytes(15))  # no such kind
    assert raises(ValueError, again.append_raw, bytes(12))


def test_a_game_on_flash_from_the_older_firmware_comes_back():
    # Before 2026-11 an event took 20 bytes on flash (kind, side, a, b, text length, text):
    # a board updated in the middle of a game finds that game again.
    import struct

    _clean("a_game_on_flash_from_the_older_firmware_comes_back")
    dev, hal = _device()
    _play(dev, hal, GAME[:6])
    before = _events(dev)
    state = dev.clock.state(hal.t)
    old = []
    for s in range(1, dev.record.log.count + 1):
        r = dev.record.log.raw(s)
        text = bytes(r[9:]).rstrip(b"\0")
        old.append(struct.pack("<BBiiB9s", r[0] & 0x1F, r[0] >> 7, *struct.unpack_from("<ii", r, 1), len(text), text))
    header = dev.record.log.header
    occ = bytes(hal.occ)
    dev = hal = None
    _cut()
    _clean("a_game_on_flash_from_the_older_firmware_comes_back")
    j = _journal()
    j.prepare()
    j.begin(1, header, old, state)
    j = None
    dev, hal = _device(occ=occ)
    lines = hal.lines()
    assert lines[1].startswith("recovered game=1 seq=%d ply=6" % len(before)), lines
    assert _events(dev) == before + ["@1:%d pause" % (len(before) + 1)]  # its clock was running


def test_clock_state_round_trip():
    from firmware.clock.clock import ChessClock

    c = ChessClock("40/5400+30:1800+30")
    c.start(0, WHITE)
    c.press(WHITE, 5000)
    c.press(BLACK, 9000)
    c.pause(12000)
    s = c.state(12000)
    d = ChessClock("40/5400+30:1800+30")
    d.restore(s, 777)
    assert d.state(888) == s
    assert d.time_left(WHITE, 999) == c.time_left(WHITE, 13000)
    assert raises(ValueError, d.restore, s[:5], 0)
    bad = list(s)
    bad[2] = 9
    assert raises(ValueError, d.restore, bad, 0)


def test_a_torn_write_is_dropped_and_the_journal_written_again_whole():
    _clean("torn")
    dev, hal = _device()
    _play(dev, hal, GAME[:4])
    before = _events(dev)
    occ = bytes(hal.occ)
    dev.record.journal._append(b"E\x14\x00" + bytes(7), True)  # a record the power cut interrupted
    dev = hal = None
    _cut()
    dev, hal = _device(occ=occ)
    lines = hal.lines()
    assert any("interrupted%20write%20or%20noise%20dropped" in l for l in lines), lines
    assert _events(dev)[:len(before)] == before
    _play(dev, hal, GAME[4:6])
    after = _events(dev)
    occ = bytes(hal.occ)
    dev = hal = None
    _cut()
    dev, hal = _device(occ=occ)
    assert not any(l.startswith("warning") for l in hal.lines())  # nothing after the torn bytes
    assert _events(dev)[:len(after)] == after


def _noise(n):
    noise = bytearray(n)
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        noise[i] = (x >> 16) & 0xFF
    return noise


def _noise_after_the_last_record(test, junk):
    # Zeros or noise after the last whole record: the game comes back as at its last
    # commit, with a warning, and the journal is written again whole.
    _clean(test)
    dev, hal = _device()
    _play(dev, hal, GAME[:6])
    before = _events(dev)
    occ = bytes(hal.occ)
    dev.record.journal._append(junk, True)
    dev = hal = None
    _cut()
    dev, hal = _device(occ=occ)
    lines = hal.lines()
    assert not any("damaged" in l for l in lines), (junk[:8], lines)
    assert any(("%d%%20bytes%%20of%%20an%%20interrupted%%20write%%20or%%20noise" % len(junk)) in l
               for l in lines), lines
    assert _events(dev)[:len(before)] == before and dev.game.ply == 6


def test_zeros_after_the_last_record_keep_the_game():
    _noise_after_the_last_record("zeros_tail", bytes(16))
    _noise_after_the_last_record("zeros_tail", bytes(600))


def test_noise_after_the_last_record_keeps_the_game():
    _noise_after_the_last_record("noise_tail", b"\xfe")
    _noise_after_the_last_record("noise_tail", _noise(300))


def test_a_long_noise_after_the_last_record_keeps_the_game():
    _noise_after_the_last_record("long_noise_tail", _noise(700))
    _noise_after_the_last_record("long_noise_tail", b"E" + _noise(40))


def test_noise_in_the_middle_is_damage():
    # Noise with whole records after it: damage, a new game.
    _clean("junk_middle")
    dev, hal = _device()
    _play(dev, hal, GAME[:6])
    occ = bytes(hal.occ)
    at = _stream_byte(dev, 200)
    dev = hal = None
    _cut()
    _flip(at, 8)
    dev, hal = _device(occ=occ)
    assert any(l.startswith("warning journal%20damaged") for l in hal.lines())
    assert dev.game.ply == 0
