# The optional audio module as the simulated board has it: a DFPlayer Mini behind its
# serial line, answering as the real module does. It takes the firmware's 10-byte frames
# (firmware/hal/dfplayer.py), "plays" a folder's track for track_ms, and then sends the
# "finished" frame twice, as the module is known to. Every phrase played is handed to
# said(folder, track) (the simulator's outputs: `say 1 23`). No sound: the host's speech
# (host_tools/speech.py) speaks for a laptop; this is the board's own voice, tested.
_FINISHED = 0x3D


def frame(cmd, param):
    s = -(0xFF + 0x06 + cmd + (param >> 8 & 0xFF) + (param & 0xFF)) & 0xFFFF
    return bytes((0x7E, 0xFF, 0x06, cmd, 0, param >> 8 & 0xFF, param & 0xFF, s >> 8, s & 0xFF, 0xEF))


class SimAudioModule:
    def __init__(self, now, diff, said=None, track_ms=None):
        """now(): ticks; track_ms(folder, track): how long a phrase plays (400 ms)."""
        self.now = now
        self.diff = diff
        self.said = said
        self.track_ms = track_ms or (lambda folder, track: 400)
        self.volume = None
        self.errors = 0  # frames that were not the DFPlayer's
        self._in = b""
        self._out = b""
        self._playing = None  # (folder, track, until)

    def write(self, data):
        self._in += bytes(data)
        while len(self._in) >= 10:
            f, self._in = self._in[:10], self._in[10:]
            s = -sum(f[1:7]) & 0xFFFF
            if f[0] != 0x7E or f[1:3] != b"\xff\x06" or f[9] != 0xEF or (f[7] << 8 | f[8]) != s:
                self.errors += 1
                continue
            cmd, param = f[3], f[5] << 8 | f[6]
            if cmd == 0x0F:
                folder, track = param >> 8, param & 0xFF
                self._playing = (folder, track, self.now() + self.track_ms(folder, track))
                if self.said is not None:
                    self.said(folder, track)
            elif cmd == 0x06:
                self.volume = param
            elif cmd == 0x16:
                self._playing = None
        return len(data)

    def _pump(self):
        p = self._playing
        if p is not None and self.diff(self.now(), p[2]) >= 0:
            self._playing = None
            self._out += frame(_FINISHED, p[1]) * 2

    def any(self):
        self._pump()
        return len(self._out)

    def readinto(self, buf):
        self._pump()
        n = min(len(buf), len(self._out))
        buf[:n] = self._out[:n]
        self._out = self._out[n:]
        return n
