# Values decoded from the host's lines (names, FENs, controls): UTF-8 text with no control
# character and a length limit, re-encoded on output, so that no decoded byte can end,
# split or forge a line of the board's own. Runs in both interpreters.
from firmware.app import protocol as P
from tests.firmware.fakehal import fresh_device, run
from tests.firmware.support import Rand, raises

MICROPYTHON_HEAP = "384K"  # the whole application. At 256K-304K this test fails on a 1,280-byte
# allocation with 79-123 KB free since the DGT switch was added to the device (its live heap
# grew by 1.5 KB): a fragmentation of this 64-bit port not yet understood (the chip bench
# plays its 300 plies with 62 KB free)


def test_decode_takes_utf8_text_and_refuses_control_characters():
    assert P.decode("Anna%20Rudolf") == "Anna Rudolf"
    assert P.decode("%C3%A9t%C3%A9") == "\u00e9t\u00e9"
    assert P.decode("a%3Db%25") == "a=b%"
    for bad in ("A%0A@9:2", "x%00", "%7F", "%0D", "%09", "%C2%85", "%E2%80%A8", "%E2%80%A9",
                "%C3", "%FF", "%C3%28", "%2", "%G1", "%+1", "% 1", "x" * (P.MAX_VALUE + 1)):
        raises(ValueError, P.decode, bad)


def test_encode_leaves_no_byte_that_can_split_a_line():
    for value in ("Anna Rudolf", "a=b%c", "\u00e9t\u00e9", "x\ny", "\x00\x7f\r\t", "\u2028",
                  "O'Brien \"Bob\" \\", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"):
        e = P.encode(value)
        assert all(32 < ord(c) < 127 for c in e) and " " not in e and "=" not in e, e
        if not any(ord(c) < 32 or ord(c) == 127 or ord(c) == 0x2028 for c in value):
            assert P.decode(e) == value
    assert P.encode("\u00e9") == "%C3%A9" and P.encode("a b") == "a%20b"


def _device():
    dev, hal = fresh_device("values")
    hal.lines()
    return dev, hal


def _ask(dev, hal, text):
    hal.send(text)
    while hal.inbox:
        run(dev, hal, 10)
    run(dev, hal, 20)
    return [l for l in hal.lines() if not l.startswith("clock ")]


def _snapshot(dev):
    return (dev.record.log.game_id, dev.record.log.count, dev.game.fen(), dev.games.control, dev.games.white, dev.games.black)


def test_a_name_with_a_newline_or_latin1_bytes_is_refused():
    dev, hal = _device()
    before = _snapshot(dev)
    got = _ask(dev, hal, "new white=A%0A@9:2%20result%201-0 black=%C3%A9t%00x\n")
    assert len(got) == 1 and got[0].startswith("err bad-argument"), got
    assert _snapshot(dev) == before
    got = _ask(dev, hal, "new white=%E9t%E9\n")  # Latin-1, not UTF-8
    assert len(got) == 1 and got[0].startswith("err bad-argument"), got
    assert _snapshot(dev) == before


def test_a_utf8_name_goes_out_encoded():
    dev, hal = _device()
    got = _ask(dev, hal, "new white=%C3%89lodie%20Ren%C3%A9e black=O'Brien%20%22Bob%22\n")
    assert got[-1].startswith("ok new")
    assert dev.games.white == "\u00c9lodie Ren\u00e9e" and dev.games.black == "O'Brien \"Bob\""
    game = [l for l in got if " game " in l][0]
    assert "white=%C3%89lodie%20Ren%C3%A9e" in game and 'black=O\'Brien%20"Bob"' in game
    got = _ask(dev, hal, "resend 1\n")
    assert got[0] == game


def _values(r):
    """A random value as a host might put it on a line: printable characters, escapes of
    any byte (a control one, a lone UTF-8 byte, a whole UTF-8 character), very long."""
    out = []
    for _ in range(1 + r.next(12)):
        k = r.next(6)
        if k == 0:
            out.append("%%%02X" % r.next(256))
        elif k == 1:
            out.append("%%%02X" % (r.next(32) if r.next(2) else 127))
        elif k == 2:
            out.append(("%C3%A9", "%E2%80%A8", "%C2%85", "%F0%9F%98%80", "%0A", "%0D%0A@1:9")[r.next(6)])
        else:
            out.append(chr(33 + r.next(94)).replace("%", "%25").replace("=", "%3D"))
    if r.next(20) == 0:
        out.append("x" * (P.MAX_VALUE + 1))
    return "".join(out)


COMMANDS = ("new white=%s", "new black=%s", "new fen=%s", "new tc=%s", "preset set 2 name=%s tc=60",
            "access code=%s", "config orientation=%s", "resend %s", "set time w %s", "claim %s",
            "new white=A black=%s tc=%s")


def test_fuzzed_values_never_forge_a_line():
    dev, hal = _device()
    r = Rand(7)
    refused = 0
    for i in range(600):
        template = COMMANDS[r.next(len(COMMANDS))]
        values = tuple(_values(r) for _ in range(template.count("%s")))
        line = template % values
        before = _snapshot(dev)
        events = dev.record.log.count
        got = _ask(dev, hal, line + "\n")
        for l in got:
            assert all(32 <= ord(c) < 127 for c in l), (line, l)
        if got and got[-1].startswith("err "):
            refused += 1
            assert _snapshot(dev) == before, line
        # Every sequenced line is an event of the log, in order: none is forged.
        seqs = [l for l in got if l.startswith("@")]
        if dev.record.log.game_id == before[0]:
            assert len(seqs) == dev.record.log.count - events, (line, got)
        for l in seqs:
            head = l.split()[0]
            g, s = head[1:].split(":")
            assert int(g) == dev.record.log.game_id and 1 <= int(s) <= dev.record.log.count, (line, l)
    assert refused > 300
    got = _ask(dev, hal, "hello\n")
    assert got[0].startswith("hello proto=1")
