# The clock face (firmware/hal/face.py) and its HT16K33 driver (firmware/hal/ht16k33.py):
# what each text lights, read back from the bytes the driver sends as a person reads the
# face - the characters, the colons, the signs and the indicator lights.
from firmware.clock.display import side_text
from firmware.clock.menu import ClockMenu, control_label
from firmware.clock.presets import FIXED
from firmware.hal import face as F
from firmware.hal.ht16k33 import Face

READABLE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-+/% "


class FakeI2C:
    def __init__(self):
        self.writes = []

    def writeto(self, addr, data):
        self.writes.append((addr, bytes(data)))


def _decode(ram):
    """What a person reads on a face from its 16 RAM bytes: the characters (a time's colons
    and points in place) and the set of lit indicators by name."""
    back = {}
    for ch in READABLE:
        g = F.glyph(ch)
        assert g not in back or ch == " ", "two characters look alike: %r %r" % (back.get(g), ch)
        back[g] = ch
    words = [ram[2 * i] | ram[2 * i + 1] << 8 for i in range(F.CHARS)]
    lights = set(F.INDICATORS[i] for i in range(F.CHARS) if words[i] & 0x8000)
    out = ""
    for i in range(F.CHARS):
        out += back.get(words[i] & 0x3FFF, "?")
        if words[i] & F.DP:
            out += "."
        if i == 3 and "colon h:mm" in lights or i == 5 and "colon m:ss" in lights:
            out += ":"
    return out, lights


def _face():
    bus = FakeI2C()
    return Face(bus, 0x71), bus


def _shown(text):
    face, bus = _face()
    face.show(text)
    addr, data = bus.writes[-1]
    assert addr == 0x71 and data[0] == 0 and len(data) == 17  # from RAM address 0, all of it
    return _decode(data[1:])


def test_times_read_as_h_mm_ss_m_ss_and_tenths():
    assert _shown("1:29:43") == ("   1:29:43", {"colon h:mm", "colon m:ss"})
    assert _shown("4:37") == ("     4:37", {"colon m:ss"})
    assert _shown("14:37") == ("    14:37", {"colon m:ss"})
    assert _shown("19.7") == ("     19.7", set())
    assert _shown("2:00:00") == ("   2:00:00", {"colon h:mm", "colon m:ss"})  # not 20:00
    # An hour and a half and a minute and a half no longer look alike (the 4-digit faces
    # showed 1:29 for both).
    assert _shown("1:29:00")[0] != _shown("1:29")[0]


def test_the_signs_c02_asks_for():
    # The flag that fell first and second (also when both are down), the period, byo-yomi,
    # the delay, low battery, a move made that awaits its press.
    assert _shown("0.0 F1") == ("F1    0.0", {"FLAG"})
    assert _shown("0.0 F2") == ("F2    0.0", {"FLAG"})
    assert _shown("1:29:43 < P2") == ("P2 1:29:43", {"colon h:mm", "colon m:ss"})
    assert _shown("4:37 < D4") == ("D4   4:37", {"colon m:ss", "DELAY"})
    assert _shown("4:37 < D12") == ("12   4:37", {"colon m:ss", "DELAY"})
    assert _shown("0:25 < B3") == ("B3   0:25", {"colon m:ss", "BYO-YOMI"})
    assert _shown("9.7 F1 P2") == ("F1 P2 9.7", {"FLAG"})  # two signs where there is room
    assert _shown("4:37 F1 P2") == ("F1   4:37", {"colon m:ss", "FLAG"})  # else the first
    assert _shown("1:29:43 L")[1] == {"colon h:mm", "colon m:ss", "LOW BAT"}
    assert _shown("1:29:43 < M")[1] == {"colon h:mm", "colon m:ss", "MOVE"}
    # The flag first, whatever the order of the signs in the text.
    assert _shown("1:29:43 P2 F2")[0] == "F2 1:29:43"


def test_both_flags_down_the_faces_say_which_fell_first():
    # The clock's own text, as the device sends it, read on the two faces (C.02).
    from firmware.clock.clock import ChessClock
    from firmware.rules.squares import WHITE, BLACK
    from tests.firmware.support import FakeTicks

    t = FakeTicks(1000)
    clock = ChessClock("60", diff=t.diff, add=t.add, freeze_on_flag=False)
    clock.start(t.now())
    t.advance(30000)
    clock.press(WHITE, t.now())
    t.advance(61000)
    clock.check(t.now())
    clock.press(BLACK, t.now())
    t.advance(31000)
    clock.check(t.now())
    white, black = _shown(side_text(clock, WHITE, t.now())), _shown(side_text(clock, BLACK, t.now()))
    assert white == ("F2    0.0", {"FLAG"}) and black == ("F1    0.0", {"FLAG"})


def test_menus_and_moves_read_whole():
    assert _shown("W MOVES") == ("W MOVES ", set())
    assert _shown("e2-e4") == ("E2-E4   ", set())
    assert _shown("e2-e4 L") == ("E2-E4   ", {"LOW BAT"})
    assert _shown("BATTERY")[0] == "BATTERY "
    assert _shown("87%")[0] == "87%     "


def test_every_menu_text_and_preset_fits_the_face():
    for _, control in FIXED:
        label = control_label(control)
        cells = [0] * F.CHARS
        assert F.render(label, cells), label
        assert "?" not in _shown(label)[0], label
    menu = ClockMenu()
    menu.mode = "presets"
    for n in range(1, len(FIXED) + 1):
        menu.preset = n
        for text in menu.text():
            assert F.render(text, [0] * F.CHARS), text
            assert "?" not in _shown(text)[0], text
    assert menu.text() == ("P16 UPCO", "UP")
    menu.preset = 1
    assert menu.text() == ("P1 FIDE", "40/90+30")


def test_text_too_long_is_cut_and_said():
    cells = [0] * F.CHARS
    assert not F.render("P16 UPCOUNT", cells)
    assert F.render("P16 UPCO", cells)


def test_unchanged_text_is_not_sent_and_the_signal_light_is_kept():
    face, bus = _face()
    face.show("4:37")
    n = len(bus.writes)
    face.show("4:37")
    assert len(bus.writes) == n
    face.signal(True)
    assert bus.writes[-1] == (0x71, bytes((15, 0x80)))  # one byte: ROW15 of COM7
    face.signal(True)
    assert len(bus.writes) == n + 1  # already on
    face.show("4:36")
    assert _decode(bus.writes[-1][1][1:])[1] == {"colon m:ss", "SIGNAL"}
    face.signal(False)
    assert bus.writes[-1] == (0x71, bytes((15, 0x00)))
    face.show("1:00:00 L")
    assert "SIGNAL" not in _decode(bus.writes[-1][1][1:])[1]


def test_the_driver_starts_the_chip_at_the_sized_brightness():
    from firmware.hal.ht16k33 import BRIGHTNESS

    face, bus = _face()
    cmds = [d for _, d in bus.writes]
    assert cmds[:3] == [b"\x21", b"\x81", bytes((0xE0 | BRIGHTNESS,))]
    assert cmds[3] == bytes(17)  # nothing lit until the first text
