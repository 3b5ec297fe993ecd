# The DFPlayer Mini (MP3-TF-16P), the optional audio module's player: it plays the board's
# recorded phrases from its memory card (firmware/access/phrases.py) through its own 3 W
# amplifier. Commands are 10-byte frames at 9600 baud:
#   7E FF 06 cmd 00 param_hi param_lo sum_hi sum_lo EF
# where sum is minus the sum of the six bytes from FF to param_lo, in 16 bits. The module
# sends the same frames back: 3D when a card track has finished (often twice), 40 an error,
# 3F the card at start-up. Given any UART-like object (write, readinto).
from firmware.const import const

_PLAY_FOLDER = const(0x0F)  # param: folder << 8 | track (folders 01..99, tracks 001..255)
_VOLUME = const(0x06)  # 0..30
_STOP = const(0x16)
_FINISHED = const(0x3D)
_ERROR = const(0x40)


def frame(cmd, param, out):
    """The command's 10 bytes, written into out (a bytearray of 10)."""
    out[0] = 0x7E
    out[1] = 0xFF
    out[2] = 0x06
    out[3] = cmd
    out[4] = 0
    out[5] = param >> 8 & 0xFF
    out[6] = param & 0xFF
    s = -(0xFF + 0x06 + cmd + out[5] + out[6]) & 0xFFFF
    out[7] = s >> 8
    out[8] = s & 0xFF
    out[9] = 0xEF
    return out


class DFPlayer:
    def __init__(self, uart):
        self.uart = uart
        self._out = bytearray(10)
        self._in = bytearray(10)  # a frame being received
        self._n = 0
        self._buf = bytearray(16)

    def _send(self, cmd, param):
        self.uart.write(frame(cmd, param, self._out))

    def play(self, folder, track):
        self._send(_PLAY_FOLDER, folder << 8 | track)

    def volume(self, level):
        self._send(_VOLUME, 0 if level < 0 else 30 if level > 30 else level)

    def stop(self):
        self._send(_STOP, 0)

    def poll(self):
        """Reads what the module sent: True when a track finished, or it could not play
        one (an error: the phrase is missing from the card), since the last poll."""
        done = False
        n = self.uart.readinto(self._buf)
        for i in range(n):
            b = self._buf[i]
            if self._n == 0 and b != 0x7E:
                continue  # not a frame's start: noise
            self._in[self._n] = b
            self._n += 1
            if self._n == 10:
                self._n = 0
                f = self._in
                if f[9] == 0xEF and f[3] in (_FINISHED, _ERROR):
                    done = True
        return done
