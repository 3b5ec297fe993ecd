# The rp2 HAL's logic on the host: the matrix scan against a model of the wiring (with and
# without diodes), the buttons' debouncing, the clock face driver against a fake I2C bus.
from firmware.hal.buttons import ButtonBank, DEBOUNCE_MS, LONG_MS
from firmware.hal.matrix import MatrixScanner


class FakePin:
    def __init__(self, v=0):
        self.v = v

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v


class MatrixModel:
    """Closed switches at (rank, file). The selected row (74HC138 output) is low, the
    others high; a column reads low if current can flow from its pull-up into the low row.
    With diodes it can only go through the switch of the selected row; without, it can
    also run backwards through other closed switches (column -> row -> column ...)."""

    def __init__(self, closed, diodes=True):
        self.closed = set(closed)
        self.diodes = diodes
        self.pins = [FakePin(), FakePin(), FakePin()]

    def row(self):
        return self.pins[0].v | self.pins[1].v << 1 | self.pins[2].v << 2

    def read(self):
        r = self.row()
        low = set()
        for f in range(8):
            if (r, f) in self.closed:
                low.add(f)
        if not self.diodes:
            # Nets joined through closed switches: the selected row's net pulls low every
            # column on it, through any chain of closed switches.
            rows = {r}
            cols = set(low)
            grew = True
            while grew:
                grew = False
                for (rr, ff) in self.closed:
                    if (rr in rows) != (ff in cols):
                        rows.add(rr)
                        cols.add(ff)
                        grew = True
            low = cols
        return 0xFF & ~sum(1 << f for f in low)


def _scan(model):
    out = bytearray(8)
    MatrixScanner(model.pins, model.read).scan(out)
    return {(r, f) for r in range(8) for f in range(8) if (out[r] >> f) & 1}


def test_scan_reads_every_square():
    for sq in range(64):
        assert _scan(MatrixModel([(sq >> 3, sq & 7)])) == {(sq >> 3, sq & 7)}
    full = [(r, f) for r in (0, 1, 6, 7) for f in range(8)]
    assert _scan(MatrixModel(full)) == set(full)


def test_diodes_stop_ghosts_that_appear_without_them():
    three = [(0, 0), (0, 3), (4, 0)]  # three corners of a rectangle
    assert _scan(MatrixModel(three, diodes=True)) == set(three)
    ghosted = _scan(MatrixModel(three, diodes=False))
    assert (4, 3) in ghosted  # the fourth corner appears from nowhere


class Buttons:
    def __init__(self):
        self.down = [False, False]
        self.bank = ButtonBank(("white", "black"), lambda i: self.down[i], lambda a, b: a - b)

    def press(self, i, t, bounces=()):
        self.down[i] = True
        self.bank.irq(i, t)
        for b in bounces:
            self.bank.irq(i, t + b)

    def release(self, i):
        self.down[i] = False


def test_a_press_keeps_the_tick_of_its_interrupt_and_bounces_are_dropped():
    b = Buttons()
    b.press(0, 1005, bounces=(1, 3, 7))
    out = b.bank.events(1020, [])
    assert out == [("white", "down", 1005)]
    b.release(0)
    b.bank.irq(0, 1300)  # a bounce of the release
    assert b.bank.events(1301, []) == []
    b.bank.events(1310, [])
    b.bank.events(1360, [])
    b.press(0, 2000)
    assert b.bank.events(2001, []) == [("white", "down", 2000)]


def test_each_edge_stored_wakes_the_loop_from_the_interrupt():
    b = Buttons()
    woken = []
    b.bank.on_down = lambda: woken.append(1)
    b.press(0, 1005, bounces=(1, 3))
    assert len(woken) == 3  # every edge stored; events() then keeps the press alone
    assert b.bank.events(1020, []) == [("white", "down", 1005)]
    for k in range(40):  # a ring full of bounces stores (and wakes) no more
        b.bank.irq(1, 2000 + k)
    assert len(woken) == 3 + 15


def test_long_press():
    b = Buttons()
    b.press(1, 100)
    assert b.bank.events(110, []) == [("black", "down", 100)]
    assert b.bank.events(100 + LONG_MS - 1, []) == []
    assert b.bank.events(100 + LONG_MS, []) == [("black", "long", 100 + LONG_MS)]
    assert b.bank.events(5000, []) == []


class FakeI2C:
    """The faces' bus: what is written, and each HT16K33's key RAM as the chip keeps it (a
    key's bit set by a press until the RAM is read, then cleared)."""

    def __init__(self):
        self.writes = []
        self.keys = {}  # address -> the key RAM's six bytes
        self._pointer = {}

    def writeto(self, addr, data, stop=True):
        self.writes.append((addr, bytes(data)))
        self._pointer[addr] = data[0]

    def readfrom_into(self, addr, buf):
        assert self._pointer.get(addr) == 0x40  # the key RAM, read from its start (datasheet)
        ram = self.keys.get(addr, bytearray(6))
        buf[:] = ram
        self.keys[addr] = bytearray(6)


class FakePwm:
    def __init__(self):
        self.duty = 0
        self.f = 0

    def duty_u16(self, d):
        self.duty = d

    def freq(self, f):
        self.f = f


class FakeAdc:
    def __init__(self, raw):
        self.raw = raw

    def read_u16(self):
        return self.raw


def test_rp2_hal_with_fake_parts():
    from firmware.hal.rp2 import Rp2Hal
    from firmware.rules.squares import WHITE, BLACK

    model = MatrixModel([(0, 4), (7, 3)])
    t = [1000]
    down = [False] * 6
    bus = FakeI2C()
    leds = (FakePin(), FakePin())
    motors = (FakePwm(), FakePwm())
    vbus = FakePin(0)
    hal = Rp2Hal(model.pins, model.read, None, lambda i: down[i], lambda: t[0], lambda a, b: a - b,
                 i2c=bus, motors=motors, buzzer=FakePwm(), leds=leds, battery=FakeAdc(35000), vbus=vbus,
                 vsys=FakeAdc(31110))  # a third of 4.70 V: VSYS on a weak USB port
    out = hal.scan(bytearray(8))
    assert out[0] == 1 << 4 and out[7] == 1 << 3
    down[1] = True
    hal.buttons.irq(1, 995)  # Black's clock button, stamped in the interrupt
    down[2] = True
    hal.buttons.irq(2, 998)  # plus
    assert hal.inputs() == [("press", BLACK, None, 995), ("button", "plus", True, 998)]
    # White's ask key, on his face: its press is in the key RAM until the next poll reads it.
    from firmware.hal.pinmap import ASK_KEY_BIT, DISPLAY_WHITE
    bus.keys[DISPLAY_WHITE] = bytearray(((1 << ASK_KEY_BIT), 0, 0, 0, 0, 0))
    t[0] = 1010
    assert hal.inputs() == ()  # read every 30 ms, not at every step
    t[0] = 1040
    assert hal.inputs() == [("button", "ask-white", True, 1040)]
    t[0] = 1080
    assert hal.inputs() == ()  # reported once: the chip cleared it when read
    from firmware.hal.pinmap import DISPLAY_BLACK, DRAW_KEY_BIT
    bus.keys[DISPLAY_BLACK] = bytearray(((1 << DRAW_KEY_BIT) | (1 << ASK_KEY_BIT), 0, 0, 0, 0, 0))
    t[0] = 1110
    assert hal.inputs() == [("button", "ask-black", True, 1110), ("button", "draw-black", True, 1110)]
    hal.display("4:37 <", "1:29:43")
    assert [a for a, _ in bus.writes[-2:]] == [0x70, 0x71]
    hal.signal(BLACK, True)
    assert bus.writes[-1] == (0x71, bytes((15, 0x80)))  # Black's SIGNAL light
    hal.led("black", True)
    assert leds[1].v == 1 and leds[0].v == 0
    # A motor's duty is a share of its rated 3 V, never more: before VSYS is measured, on the
    # highest rail (5.25 V); once it is, on the rail it has.
    hal.motor(WHITE, 100)
    assert motors[0].duty == 100 * 3000 * 655 // 5250 and motors[1].duty == 0  # 57 %: 3.0 V on 5.25 V
    mv, usb, low, level = hal.power()
    hal.motor(WHITE, 100)
    assert abs(motors[0].duty * 4700 // 65535 - 3000) < 10  # 3.0 V on the measured 4.70 V
    hal.motor(WHITE, 0)
    assert motors[0].duty == 0
    assert 3520 <= mv <= 3530 and not usb and low  # 35000/65535 x 3.3 V x 2: the cells low
    assert level == 9  # on the curve: under a tenth of the charge left
    vbus.v = 1
    assert hal.power()[2] is False  # on USB power nothing is low


class FakeStrip:
    """A neopixel.NeoPixel stand-in: 64 colours and a count of writes."""

    def __init__(self):
        self.px = [(0, 0, 0)] * 64
        self.writes = 0

    def __setitem__(self, i, c):
        self.px[i] = c

    def write(self):
        self.writes += 1


def test_square_leds_snake_order_and_writes_only_on_change():
    from firmware.hal import squareleds as S

    assert [S.index(sq) for sq in (0, 7, 8, 15, 16, 63)] == [0, 7, 15, 8, 16, 56]  # a1 h1 a2 h2 a3 h8
    strip = FakeStrip()
    leds = S.SquareLeds(strip)
    kinds = bytearray(64)
    kinds[12] = 1  # e2
    kinds[28] = 2  # e4
    assert leds.show(kinds) and strip.writes == 1
    assert strip.px[S.index(12)] == S.FROM and strip.px[S.index(28)] == S.TO
    assert not leds.show(kinds) and strip.writes == 1  # nothing changed: the chain is not written
    kinds[12] = 0
    kinds[28] = 3
    assert leds.show(kinds) and strip.px[S.index(12)] == S.OFF and strip.px[S.index(28)] == S.FIX


def _drain(scanner, out, what):
    """what(tick) of every scan the scanner holds, oldest first (the board is in out)."""
    got = []
    while True:
        tick = scanner.take(out)
        if tick is None:
            return got
        got.append(what(tick))


def test_the_timed_scanner_keeps_every_scan_with_its_tick_in_order():
    from firmware.hal.scanner import TimedScanner, RING

    model = MatrixModel([(0, 4)])
    t = [0]
    s = TimedScanner(MatrixScanner(model.pins, model.read), lambda: t[0])
    out = bytearray(8)
    assert s.take(out) is None
    for k in range(3):  # three timer ticks while the loop is busy
        t[0] = 10 * k
        if k == 1:
            model.closed.add((1, 1))
        s.tick()
    assert _drain(s, out, lambda t: (t, out[1])) == [(0, 0), (10, 1 << 1), (20, 1 << 1)]
    # A loop a whole ring behind: the oldest give way, the newest are all there, in order.
    for k in range(RING + 5):
        t[0] = 100 + k
        s.tick()
    ticks = _drain(s, out, lambda t: t)
    assert ticks == list(range(100 + RING + 5 - (RING - 1), 100 + RING + 5)) and s.dropped == 6


def test_a_collection_waits_for_the_next_scan():
    # The garbage collector is started right after a scan (the timer waits while it runs).
    from firmware.hal.scanner import TimedScanner

    model = MatrixModel([])
    calls = [0]

    class Waiting(TimedScanner):
        # The timer's interrupt comes while the loop waits: on its 50th look at the count.
        @property
        def count(self):
            calls[0] += 1
            if calls[0] == 50:
                self.tick()
            return self._count

        @count.setter
        def count(self, v):
            self._count = v

    w = Waiting(MatrixScanner(model.pins, model.read), lambda: 0)
    seen = []
    w.after_next_scan(lambda: seen.append(w._count))
    assert seen == [1] and calls[0] >= 50
    seen.clear()
    w.after_next_scan(lambda: seen.append("gave up"), spins=10)  # no timer: it goes on
    assert seen == ["gave up"]
