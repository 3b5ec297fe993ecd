# The USB serial line as MicroPython gives it: sys.stdin/sys.stdout (on the Pico, the
# USB CDC port; in the simulator, the process's pipes). read() never blocks.
import select
import sys


class UsbSerial:
    def __init__(self, stdin=None, stdout=None, size=128):
        self._stdin = stdin if stdin is not None else sys.stdin
        self._stdout = stdout if stdout is not None else sys.stdout
        self._poll = None  # made at the first read
        self._byte = bytearray(1)
        self._buf = bytearray(size)
        self.closed = False

    def read(self):
        """What has arrived (up to `size` bytes), or None; never blocks."""
        if self.closed:
            return None
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self._stdin, select.POLLIN)
        n = 0
        buf = self._buf
        while n < len(buf) and self._poll.poll(0):
            if not self._stdin.buffer.readinto(self._byte):
                self.closed = True  # the other end went away
                break
            buf[n] = self._byte[0]
            n += 1
        return bytes(buf[:n]) if n else None

    def write(self, data):
        self._stdout.buffer.write(data)
