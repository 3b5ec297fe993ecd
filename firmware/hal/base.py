# What every HAL does the same way, whatever it reads its board and buttons from: the
# scans and the inputs since the last step merged into one stream in time order. A HAL
# that scans on time from a timer (take_scan: firmware/hal/scanner.py) gives each scan
# its own tick, and each press or button goes in between the scans it came between; one
# that scans when asked (scan) gives one board, its inputs after it.


class Hal:
    take_scan = None  # take_scan(out8) -> tick or None: the oldest scan not yet taken
    _occ = None  # the board's 8 bytes, made once
    _to = None  # (board, press, button): where feed hands them (connect)

    def connect(self, board, press, button):
        """Where feed hands each scan (board(occ, t)), each lever (press(side, t)) and each
        other button (button(name, down, t)): given once, so that a step makes nothing."""
        self._to = (board, press, button)
        self._occ = bytearray(8)

    def feed(self, now, board=None):
        """Every scan and input since the last call, in time order, where connect said (one
        scan at now, for a HAL that scans when asked); board: the scans elsewhere instead,
        and the inputs not read (a self-test reads them itself). Whether a lever was
        pressed."""
        occ = self._occ
        to = self._to
        press = button = None
        if board is None:
            board, press, button = to
        inputs = self.inputs() if press is not None else ()
        k = 0
        n = len(inputs)
        take = self.take_scan
        if take is None:
            board(self.scan(occ), now)
        else:
            while True:
                t = take(occ)
                if t is None:
                    break
                while k < n and self.diff(inputs[k][3], t) < 0:
                    _act(inputs[k], press, button)
                    k += 1
                board(occ, t)
        pressed = False
        for i in range(n):
            if i >= k:
                _act(inputs[i], press, button)
            pressed = pressed or inputs[i][0] == "press"
        return pressed


def _act(ev, press, button):
    kind, a, b, t = ev
    if kind == "press":
        press(a, t)
    else:
        button(a, b, t)
