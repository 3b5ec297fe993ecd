# Hand-written physical scenarios for the recogniser tests (CPython and micropython):
# lift and place pieces by square name, press clocks, push buttons, let time pass.
from firmware.board.occupancy import to_hex
from firmware.rules.position import Position
from tests.firmware.fakehal import set_square


class Scenario:
    def __init__(self, fen=None, chess960=False):
        self.occ = Position(fen, chess960).occupancy(bytearray(8))
        self.t = 0
        self.lines = []
        self._occ()

    def _occ(self):
        self.lines.append("%d occ %s" % (self.t, to_hex(self.occ)))

    def wait(self, ms):
        self.t += ms
        return self

    def _set(self, name, on):
        set_square(self.occ, name, on)
        self._occ()

    def lift(self, *names, gap=150):
        for n in names:
            self._set(n, False)
            self.wait(gap)
        return self

    def place(self, *names, gap=150):
        for n in names:
            self._set(n, True)
            self.wait(gap)
        return self

    def move(self, frm, to, think=400, hand=200):
        """A quiet move: lift, carry, place, and let it settle."""
        self.wait(think)
        self.lift(frm, gap=hand)
        self.place(to, gap=300)
        return self

    def bounce(self, name, on, times=3):
        """Reed chatter: the switch toggles a few times within milliseconds."""
        for _ in range(times):
            self._set(name, on)
            self.t += 2
            self._set(name, not on)
            self.t += 2
        self._set(name, on)
        return self

    def lever(self, side, hold_ms):
        """A clock lever held down hold_ms and let go (a blind player's question, or a
        press that completes a move and then asks)."""
        self.lines.append("%d lever %s down" % (self.t, side))
        self.t += hold_ms
        self.lines.append("%d lever %s up" % (self.t, side))
        self.t += 100
        return self

    def press(self, side):
        self.lines.append("%d press %s" % (self.t, side))
        return self

    def button(self, name):
        self.lines.append("%d button %s down" % (self.t, name))
        self.t += 80
        self.lines.append("%d button %s up" % (self.t, name))
        self.t += 100
        return self
