# The DGT e-board protocol on the line (firmware/app/dgt.py, docs/dgt.md): the switch
# between the two protocols, the board dump and field updates as hands move the pieces,
# the clock's messages, the answers to identification commands. Runs in both
# interpreters; the whole game through the simulator is tests/e2e/test_dgt.py.
from firmware.app import dgt as D
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import fresh_device, run, set_square
from tests.firmware.support import ee_records

MICROPYTHON_HEAP = "384K"  # the whole application, all of its code on this 64-bit heap


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


def _move(dev, hal, frm, to, side):
    set_square(hal.occ, frm, False)
    run(dev, hal, 300)
    set_square(hal.occ, to, True)
    run(dev, hal, 600)
    hal.queue.append(("press", side, None, hal.t))
    run(dev, hal, 100)


START_DUMP = bytes((8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2))


def test_a_dgt_command_switches_the_line_and_the_board_dump_is_the_position():
    dev, hal = _dgt_device()
    assert dev.port.dgt is not None and dev.record.mute
    assert _messages(hal) == [(D.BOARD_DUMP, START_DUMP)]


def test_field_updates_follow_the_hands_and_give_the_move():
    dev, hal = _dgt_device()
    hal.send(bytes((D.SEND_UPDATE_BRD,)))
    run(dev, hal, 50)
    _messages(hal)
    # e4, then d5, then the capture exd5: the captured piece off first.
    for frm, to, side in (("e2", "e4", WHITE), ("d7", "d5", BLACK)):
        _move(dev, hal, frm, to, side)
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
    assert dev.port.dgt is None and not dev.record.mute
    lines = hal.lines()
    assert lines[0].startswith("hello proto=1") and lines[0].endswith("game=%d seq=%d" % (dev.record.log.game_id, dev.record.log.count))
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
    assert dev.port.dgt is None and hal.lines()[0].startswith("err unknown-command")
    hal.send("config serial=auto\n")
    run(dev, hal, 50)


def _bus_messages(hal, address):
    """Bus-mode messages written since the last call: (id, data), each checked whole: its
    length, the board's address, its checksum (the sum of every byte before it, 7 bits)."""
    raw = b"".join(hal.out)
    hal.out = []
    got = []
    i = 0
    while i < len(raw):
        assert raw[i] & 0x80, raw[i:i + 20]
        n = raw[i + 1] << 7 | raw[i + 2]
        msg = raw[i:i + n]
        assert len(msg) == n and all(b < 0x80 for b in msg[1:]), msg
        assert (msg[3] << 7 | msg[4]) == address
        assert msg[-1] == sum(msg[:-1]) & 0x7F
        got.append((msg[0], msg[5:-1]))
        i += n
    return got


def _bus(cmd, address):
    c = bytes((cmd, address >> 7, address & 0x7F))
    return c + bytes((sum(c) & 0x7F,))


def test_bus_mode_a_board_polled_for_its_changes_as_dgt_describes():
    from firmware.app import dgtstore as E

    dev, hal = fresh_device("dgt-bus")
    hal.send("new tc=300+0\n")
    run(dev, hal, 50)
    hal.lines()
    # The host finds the board by a ping to every board (address 0): a DGT board powers
    # up in bus mode, and the line switches to DGT at the first bus command.
    hal.send(_bus(D.BUS_PING, 0))
    run(dev, hal, 50)
    assert dev.port.dgt is not None and dev.port.dgt.bus
    address = dev.port.dgt.address
    assert _bus_messages(hal, address) == [(D.MSG_BUS_PING, b"")]
    # Another board's command, a bad checksum, a ping ignored once: no answer.
    hal.send(_bus(D.BUS_SEND_BRD, (address + 1) & 0x3FFF) + _bus(D.BUS_SEND_BRD, address)[:3] + b"\x00")
    run(dev, hal, 50)
    assert _bus_messages(hal, address) == []
    hal.send(_bus(D.BUS_IGNORE_NEXT_PING, address) + _bus(D.BUS_PING, 0) + _bus(D.BUS_PING, 0))
    run(dev, hal, 50)
    assert [m for m, _ in _bus_messages(hal, address)] == [D.MSG_BUS_PING, D.MSG_BUS_PING]
    hal.send(_bus(D.BUS_SEND_VERSION, address) + _bus(D.BUS_SEND_BRD, address))
    run(dev, hal, 50)
    assert _bus_messages(hal, address) == [(D.MSG_BUS_VERSION, bytes((1, 0))), (D.MSG_BUS_BRD_DUMP, START_DUMP)]
    # The event's start: a start tag, then every piece; the first changes asked.
    hal.send(_bus(D.BUS_SEND_CHANGES, address) + _bus(D.BUS_SET_START_GAME, address))
    run(dev, hal, 50)
    got = _bus_messages(hal, address)
    assert [m for m, _ in got] == [D.MSG_BUS_UPDATE, D.MSG_BUS_START_GAME_WRITTEN]
    first = ee_records(got[0][1])
    assert first[:4] == [E.EE_NOP, E.EE_NOP, E.EE_NOP, E.EE_POWERUP]  # as at a power-up
    assert sorted(r[1] for r in first[4:] if isinstance(r, tuple)) == [f for f in range(64) if START_DUMP[f]]
    assert E.EE_BEGINPOS in first  # the start position, tagged
    hal.queue.append(("press", BLACK, None, hal.t))  # White's clock starts
    run(dev, hal, 100)
    _move(dev, hal, "e2", "e4", WHITE)
    _move(dev, hal, "d7", "d5", BLACK)
    hal.send(_bus(D.BUS_SEND_CHANGES, address))
    run(dev, hal, 50)
    (mid, data), = _bus_messages(hal, address)
    changes = ee_records(data)
    f = D.field
    assert changes[0] == E.EE_START_TAG and all(r[0] == "f" for r in changes[1:33])
    moves = changes[33:]
    # e2 empty, a pawn on e4, White's halted clock (left), then Black's move and clock.
    assert [r[:3] if r[0] == "f" else r[:2] for r in moves] == [
        ("f", f(12), 0), ("f", f(28), 1), ("t", True), ("f", f(51), 0), ("f", f(35), 7), ("t", False)]
    assert 290 <= moves[2][2] < 300 and 290 <= moves[5][2] < 300  # 0:04:5x each
    # Asked again (a checksum error on the host's side): the same; asked anew: nothing new.
    hal.send(_bus(D.BUS_REPEAT_CHANGES, address) + _bus(D.BUS_SEND_CHANGES, address))
    run(dev, hal, 50)
    assert _bus_messages(hal, address) == [(D.MSG_BUS_UPDATE, data), (D.MSG_BUS_UPDATE, b"")]
    # Everything from the start tag, then the clock; the board's game is as ever.
    hal.send(_bus(D.BUS_SEND_FROM_START, address) + _bus(D.BUS_SEND_CLK, address))
    run(dev, hal, 50)
    got = _bus_messages(hal, address)
    assert got[0] == (D.MSG_BUS_FROM_START, data) and got[1][0] == D.MSG_BUS_BWTIME and len(got[1][1]) == 7
    assert dev.game.ply == 2
    # A single-board command leaves bus mode and is answered as ever.
    hal.send(bytes((D.SEND_BRD,)))
    run(dev, hal, 50)
    assert not dev.port.dgt.bus and [m for m, _ in _messages(hal)] == [D.BOARD_DUMP]


def test_ee_moves_give_the_stores_record_and_the_clock_text_shows_where_no_clock_runs():
    from firmware.app import dgtstore as E

    dev, hal = _dgt_device()
    _messages(hal)
    hal.queue.append(("press", BLACK, None, hal.t))
    run(dev, hal, 100)
    _move(dev, hal, "g1", "f3", WHITE)
    hal.send(bytes((D.SEND_EE_MOVES,)))
    run(dev, hal, 50)
    (mid, data), = _messages(hal)
    records = ee_records(data)
    assert mid == D.EE_MOVES and records[-1] == E.EE_EOF
    assert records[:4] == [E.EE_NOP, E.EE_NOP, E.EE_NOP, E.EE_POWERUP]
    f = D.field
    assert records[-4:-1] == [("f", f(6), 0), ("f", f(21), 3), ("t", True, records[-2][2])]
    hal.send(bytes((D.SEND_EE_MOVES,)))
    run(dev, hal, 50)
    assert ee_records(_messages(hal)[0][1])[-2] == E.EE_DOWNLOADED  # the store notes it was read
    # A DGT 3000's text: on the face whose clock stands (Black's runs now: White's face),
    # until the clock's END.
    hal.send(bytes((D.CLOCK_MESSAGE, 12, 3, D.CLOCK_ASCII)) + b" ng8f6  " + bytes((0, 0)))
    run(dev, hal, 150)
    assert hal.faces[-1][0] == "ng8f6" and hal.faces[-1][1].startswith("4:5")
    hal.send(bytes((D.CLOCK_MESSAGE, 3, 3, D.CLOCK_END, 0)))
    run(dev, hal, 150)
    assert "ng8f6" not in hal.faces[-1]
    hal.send("pause\n")  # no clock runs: on both faces (a line-protocol host is back)
    run(dev, hal, 50)
    hal.send(bytes((D.RESET, D.CLOCK_MESSAGE, 12, 3, D.CLOCK_ASCII)) + b"PAUSED\x01\x02" + bytes((0, 0)))
    run(dev, hal, 150)
    assert hal.faces[-1] == ("PAUSED", "PAUSED")  # bytes that are no characters dropped


def test_a_brushed_piece_is_never_named_as_a_capture():
    # After 1.e4 d5: the d5 pawn brushed off for 40 ms and back, White's e4 pawn lifted
    # 10 ms after it came back and put on e5. The updates name only pieces the game has:
    # d5 stays Black's pawn (no exd5 in hand) and e5 gets White's pawn (no queen from off
    # the board), whatever the timing.
    for gap in (0, 5, 10, 15, 30):
        dev, hal = _dgt_device()
        _move(dev, hal, "e2", "e4", WHITE)
        _move(dev, hal, "d7", "d5", BLACK)
        hal.send(bytes((D.SEND_UPDATE_BRD,)))
        run(dev, hal, 50)
        _messages(hal)
        set_square(hal.occ, "d5", False)
        run(dev, hal, 40)
        set_square(hal.occ, "d5", True)
        run(dev, hal, gap)
        set_square(hal.occ, "e4", False)
        run(dev, hal, 300)
        set_square(hal.occ, "e5", True)
        run(dev, hal, 600)
        updates = [(d[0], d[1]) for m, d in _messages(hal) if m == D.FIELD_UPDATE]
        d5, e5 = 3 * 8 + 3, 3 * 8 + 4  # DGT fields: a8 = 0
        assert all(piece in (0, 1, 7) for _, piece in updates), (gap, updates)  # pawns only
        assert (d5, 1) not in updates and (e5, 1) in updates, (gap, updates)
