# The DGT e-board protocol on the line (firmware/app/dgt.py, docs/dgt.md): the switch
# between the two protocols, the board dump and field updates as hands move the pieces,
# the clock's messages, the answers to identification commands. Runs in both
# interpreters; the whole game through the simulator is tests/test_dgt.py.
from firmware.app import dgt as D
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import fresh_device, run, set_square

MICROPYTHON_HEAP = "320K"  # the whole application and the DGT link (~8 KB more on this 64-bit port)


def _messages(hal):
    """The DGT messages written since the last call: (id, data); raises on any byte
    outside a message (a text line would be one)."""
    raw = b"".join(hal.out)
    hal.out = []
    got = []
    i = 0
    while i < len(raw):
        assert raw[i] & 0x80, "not a DGT message at byte %d: %r" % (i, raw[i:i + 20])
        n = raw[i + 1] << 7 | raw[i + 2]
        data = raw[i + 3:i + n]
        assert len(data) == n - 3 and all(b < 0x80 for b in data), raw[i:i + n]
        got.append((raw[i], data))
        i += n
    return got


def _dgt_device():
    dev, hal = fresh_device("dgt")
    hal.send("new tc=300+0\n")
    run(dev, hal, 50)
    hal.lines()
    hal.send(bytes((D.RESET, D.SEND_BRD)))
    run(dev, hal, 50)
    return dev, hal


START_DUMP = bytes((8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2))


def test_a_dgt_command_switches_the_line_and_the_board_dump_is_the_position():
    dev, hal = _dgt_device()
    assert dev.dgt is not None and dev.record.mute
    assert _messages(hal) == [(D.BOARD_DUMP, START_DUMP)]


def test_field_updates_follow_the_hands_and_give_the_move():
    dev, hal = _dgt_device()
    hal.send(bytes((D.SEND_UPDATE_BRD,)))
    run(dev, hal, 50)
    _messages(hal)
    # e4, then d5, then the capture exd5: the captured piece off first.
    for frm, to, side in (("e2", "e4", WHITE), ("d7", "d5", BLACK)):
        set_square(hal.occ, frm, False)
        run(dev, hal, 300)
        set_square(hal.occ, to, True)
        run(dev, hal, 600)
        hal.queue.append(("press", side, None, hal.t))
        run(dev, hal, 100)
    got = _messages(hal)
    f = D.field
    e2, e4, d7, d5 = f(12), f(28), f(51), f(35)
    assert got == [(D.FIELD_UPDATE, bytes((e2, 0))), (D.FIELD_UPDATE, bytes((e4, 1))),
                   (D.FIELD_UPDATE, bytes((d7, 0))), (D.FIELD_UPDATE, bytes((d5, 7)))]
    set_square(hal.occ, "d5", False)
    run(dev, hal, 300)
    set_square(hal.occ, "e4", False)
    run(dev, hal, 300)
    set_square(hal.occ, "d5", True)
    run(dev, hal, 600)
    assert _messages(hal) == [(D.FIELD_UPDATE, bytes((d5, 0))), (D.FIELD_UPDATE, bytes((e4, 0))),
                              (D.FIELD_UPDATE, bytes((d5, 1)))]
    assert dev.game.ply == 3  # the board took the capture as ever
    # Nothing of the game is lost: back in the line protocol, it is all there.
    hal.send("hello\n")
    run(dev, hal, 50)
    assert dev.dgt is None and not dev.record.mute
    lines = hal.lines()
    assert lines[0].startswith("hello proto=1") and lines[0].endswith("game=%d seq=%d" % (dev.log.game_id, dev.log.count))
    hal.send("resend 1\n")
    run(dev, hal, 50)
    moves = [l.split()[2:4] for l in hal.lines() if " move " in l]
    assert moves == [["1", "e2e4"], ["2", "d7d5"], ["3", "e4d5"]]


def test_castling_shows_the_king_and_the_rook_where_they_stand():
    dev, hal = fresh_device("dgt-castle")
    hal.send("new tc=300+0 fen=r3k2r/8/8/8/8/8/8/R3K2R%20w%20KQkq%20-%200%201\n")
    run(dev, hal, 50)
    hal.occ[:] = bytes((0x91, 0, 0, 0, 0, 0, 0, 0x91))
    run(dev, hal, 1000)
    hal.out = []
    hal.send(bytes((D.SEND_UPDATE_NICE, D.SEND_BRD)))
    run(dev, hal, 50)
    _messages(hal)
    for sq, on in (("e1", False), ("h1", False), ("g1", True), ("f1", True)):
        set_square(hal.occ, sq, on)
        run(dev, hal, 200)
    run(dev, hal, 600)
    updates = [d for m, d in _messages(hal) if m == D.FIELD_UPDATE]
    f = D.field
    assert updates[-2:] == [bytes((f(6), 5)), bytes((f(5), 2))]  # the king on g1, the rook on f1
    hal.send(bytes((D.SEND_BRD,)))
    run(dev, hal, 50)
    dump = [d for m, d in _messages(hal) if m == D.BOARD_DUMP][0]
    assert dump[f(6)] == 5 and dump[f(5)] == 2 and dump[f(4)] == 0 and dump[f(7)] == 0


def test_the_clock_is_sent_as_a_dgt_clock_and_its_commands_are_acknowledged():
    dev, hal = _dgt_device()
    hal.send(bytes((D.SEND_UPDATE_NICE,)))
    run(dev, hal, 50)
    _messages(hal)
    hal.queue.append(("press", BLACK, None, hal.t))  # White's clock starts
    run(dev, hal, 2050)
    times = [d for m, d in _messages(hal) if m == D.BWTIME]
    last = times[-1]
    # right (Black) 0:05:00, left (White) 0:04:57 or 0:04:58, White's turn, running.
    assert last[0:3] == bytes((0, 0x05, 0x00)) and last[3] == 0 and last[4] == 0x04 and last[5] in (0x57, 0x58)
    assert last[6] == 0x01 | 0x10
    assert 2 <= len(times) <= 4  # only when a second changed
    # The clock's version asked: an acknowledgement (ack0 0x10, ack1 0x09, version 1.0).
    hal.send(bytes((D.CLOCK_MESSAGE, 3, 3, D.CLOCK_VERSION, 0)))
    run(dev, hal, 20)
    acks = [d for m, d in _messages(hal) if m == D.BWTIME and (d[0] & 0x0F) == 0x0A]
    assert len(acks) == 1
    a = acks[0]
    assert (a[1] | (a[3] << 3) & 0x80, a[2] | (a[3] << 2) & 0x80, a[4] | (a[0] << 3) & 0x80) == (0x10, 0x09, 0x10)
    # Set and run: the times set as sync sets them.
    hal.send(bytes((D.CLOCK_MESSAGE, 10, 3, D.CLOCK_SETNRUN, 0, 3, 0, 0, 4, 30, 1, 0)))
    run(dev, hal, 20)
    assert dev.clock.time_left(WHITE, hal.t) // 1000 in (179, 180) and dev.clock.time_left(BLACK, hal.t) == 270000


def test_identification_answers():
    dev, hal = _dgt_device()
    _messages(hal)
    hal.send(bytes((D.SEND_VERSION, D.RETURN_SERIALNR, D.RETURN_LONG_SERIALNR, D.SEND_TRADEMARK,
                    D.SEND_BATTERY_STATUS, D.RETURN_BUSADRES, D.SEND_EE_MOVES)))
    run(dev, hal, 50)
    got = _messages(hal)
    assert [m for m, _ in got] == [D.VERSION, D.SERIALNR, D.LONG_SERIALNR, D.TRADEMARK, D.BATTERY_STATUS,
                                   D.BUSADRES, D.EE_MOVES]
    assert got[0][1] == bytes((1, 0))
    serial = got[2][1].decode()
    assert len(serial) == 10 and serial.isdigit() and got[1][1].decode() == serial[-5:]
    assert b"not a DGT product" in got[3][1]
    assert got[4][1][0] == 100


def test_the_leds_command_lights_the_move_and_line_mode_never_switches():
    dev, hal = _dgt_device()
    hal.send(bytes((D.SET_LEDS, 4, 1, D.field(12), D.field(28), 0)))
    run(dev, hal, 50)
    assert [sq for sq in range(64) if hal.lit[sq]] == [12, 28]
    _messages(hal)
    hal.send("hello\nconfig serial=line\n")
    run(dev, hal, 50)
    hal.lines()
    hal.send(bytes((D.SEND_BRD,)) + b"\n")
    run(dev, hal, 50)
    assert dev.dgt is None and hal.lines()[0].startswith("err unknown-command")
    hal.send("config serial=auto\n")
    run(dev, hal, 50)
