# What every HAL does the same way, whatever it reads its board and buttons from: the
# scans and the inputs since the last step merged into one stream in time order. A HAL
# that scans on time from a timer (take_scan: firmware/hal/scanner.py) gives each scan
# its own tick, and each press or button goes in between the scans it came between; one
# that scans when asked (scan) gives one board, its inputs after it.


class Hal:
    take_scan = None  # take_scan(out8) -> tick or None: the oldest scan not yet taken
    _occ = None  # the board's 8 bytes, made once

    def feed(self, now, board, press, button):
        """Each scan to board(occ, t) (one at now, for a HAL that scans when asked), each
        lever to press(side, t) and each other button to button(name, down, t), in time
        order (press None: the inputs are not read); whether a lever was pressed."""
        occ = self._occ
        if occ is None:
            occ = self._occ = bytearray(8)
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
