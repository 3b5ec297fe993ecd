# The simulated board: a virtual reed matrix played from a trace file (format:
# simulator/trace.py), clock and menu buttons from the same trace, the USB serial as
# the micropython process's stdin/stdout, and outputs (display, LEDs) recorded as lines in
# a file that tests read. Time is real (optionally sped up) or virtual: in virtual time the
# simulator advances the clock itself by one scan period a step, as fast as it can.
import sys

from firmware.ticks import ticks_ms, ticks_diff

from firmware.board.occupancy import START
from simulator.trace import TAP_MS, TraceError, parse_line
from firmware.hal.base import Hal
from firmware.hal.buttons import ButtonBank
from firmware.hal.pinmap import ASK_KEYS, BUTTONS, DRAW_KEYS
from firmware.hal.usbserial import UsbSerial
from firmware.rules.squares import WHITE

# A gap longer than this between two looks at the real clock is the host not running the
# simulator (a busy machine, a stopped process), not time on the board: see now().
_STALL_MS = 100
_ASK_KEYS = [n for n, _ in ASK_KEYS + DRAW_KEYS]  # the faces' keys


class SimHal(Hal):
    def __init__(self, trace=None, virtual=True, speed=1, outputs=None, scan_ms=10,
                 board=None, watchdog=None, follow=False):
        """board: a file that holds the pieces' squares (the physical board outlives a
        reset of the chip: a restarted simulator reads it); watchdog: a file the watchdog
        feed writes (the host's simulator resets a board that stops feeding it); follow:
        the trace is a file that grows while the board runs - a person at the board,
        played by a program (host_tools/sim.py: SimulatedBoard.hand) - and each of its
        lines happens when it is read, whatever time it gives."""
        self.virtual = virtual
        self.speed = speed
        self.scan_ms = scan_ms
        self._t = 0
        self._real = ticks_ms()
        self.occ = bytearray(START)
        self._trace = open(trace) if trace else None
        self._next = None
        self._follow = follow and trace is not None
        self._partial = ""
        # The levers and buttons as the Pico's pins and interrupts give them to the same
        # ButtonBank (firmware/hal/buttons.py): presses, holds and releases alike.
        self._names = [n for n, _ in BUTTONS]
        self._down = bytearray(len(self._names))
        self.buttons = ButtonBank(self._names, lambda i: self._down[i], self.diff)
        self._ups = []  # (t, name): the release of a tapped lever, due
        self._asked = []  # the ask keys' presses, as the device's inputs
        self._out = open(outputs, "w") if outputs else None
        self.usb = UsbSerial(size=64)
        self.trace_done = trace is None
        self._board = board
        self._watchdog = watchdog
        self._audio = None
        if board:
            try:
                with open(board) as f:
                    occ = bytes.fromhex(f.read().strip())
                if len(occ) == 8:
                    self.occ[:] = occ
            except (OSError, ValueError):
                pass
        self._line_no = 0
        self._load()

    # ----- time

    def now(self):
        if not self.virtual:
            # Real time, except that a stall of the host stops the simulated world: the
            # hands of the trace and the clock wait with the scans, as a chip, which never
            # stalls, would see them. (Real time that jumped would show the matrix the
            # board a second on, a lift and a place or a press and the opponent's next
            # lift in one scan: moves the chip would never miss.)
            real = ticks_ms()
            gap = ticks_diff(real, self._real)
            self._real = real
            self._t += (gap if gap <= _STALL_MS else self.scan_ms) * self.speed
        return self._t

    def diff(self, a, b):
        return a - b if self.virtual else ticks_diff(a, b)

    def advance(self, ms):
        self._t += ms

    # ----- the trace: the board and the buttons

    def _event(self, line):
        """A trace line's event, or None; a line that is no trace line is said on stderr
        and skipped: the board plays on (host tools check a trace before they start)."""
        self._line_no += 1
        try:
            return parse_line(line)
        except TraceError as e:
            sys.stderr.write("trace line %d skipped: %s\n" % (self._line_no, e))
            return None

    def _load(self):
        while self._trace is not None:
            line = self._trace.readline()
            if self._follow:
                if not line.endswith("\n"):  # nothing more yet, or a line half written
                    self._partial += line
                    self._next = None
                    return
                line = self._partial + line
                self._partial = ""
                ev = self._event(line)
                if ev is not None:
                    self._next = (self.now(), ev[1], ev[2])  # it happens now
                    return
                continue
            if not line:
                self._trace.close()
                self._trace = None
                self.trace_done = True
                return
            ev = self._event(line)
            if ev is not None:
                self._next = ev
                return
        self._next = None

    def _pump(self):
        if self._follow and self._next is None:
            self._load()
        now = self.now()
        while self._next is not None and self._next[0] <= now:
            t, kind, arg = self._next
            if kind == "occ":
                self.occ[:] = arg
                if self._board:
                    with open(self._board, "w") as f:
                        f.write(bytes(arg).hex())
            elif kind == "press":
                self._set(arg, True, t)
                self._ups.append((t + TAP_MS, arg))
            else:
                self._set(arg[0], arg[1], t)
            self._next = None
            self._load()

    def _set(self, name, down, t):
        if name in _ASK_KEYS:  # on a face: its HT16K33 reports each press once, held or not
            if down:
                self._asked.append(("button", name, True, t))
            return
        i = self._names.index(name)
        if down and not self._down[i]:
            self._down[i] = 1
            self.buttons.irq(i, t)  # what the pin's interrupt does
        elif not down:
            self._down[i] = 0

    def _release_taps(self, now):
        if self._ups:
            due = [u for u in self._ups if u[0] <= now]
            for u in due:
                self._ups.remove(u)
                self._set(u[1], False, u[0])

    def scan(self, out):
        self._pump()
        out[:] = self.occ
        return out

    def inputs(self):
        self._pump()
        now = self.now()
        if self._ups:
            self._release_taps(now)
        out = self.buttons.inputs(now)
        if self._asked:
            out = list(out) + self._asked
            self._asked = []
        return out

    # ----- USB serial: stdin and stdout

    def read(self):
        return self.usb.read()

    def write(self, data):
        self.usb.write(data)

    # ----- outputs

    def _record(self, text):
        if self._out:
            self._out.write("%d %s\n" % (self.now(), text))

    def display(self, white, black):
        self._record("display %s | %s" % (white, black))

    def led(self, name, on):
        self._record("led %s %s" % (name, "on" if on else "off"))

    def signal(self, side, on):
        self._record("signal %s %s" % ("w" if side == WHITE else "b", "on" if on else "off"))

    def motor(self, side, duty_percent):
        self._record("motor %s %d" % ("w" if side == WHITE else "b", duty_percent))

    def buzzer(self, freq):
        self._record("buzzer %d" % freq)

    def squares(self, kinds):
        self._record("squares " + bytes(kinds).hex())

    def power(self):
        return None, True, False, None  # a simulated board is on USB power

    def audio(self):
        """The optional audio module: the simulated board has one (simulator/dfplayer.py),
        its phrases recorded in the outputs as `say <folder> <track>`."""
        if self._audio is None:
            from firmware.hal.dfplayer import DFPlayer
            from simulator.dfplayer import SimAudioModule

            self.audio_module = SimAudioModule(self.now, self.diff,
                                               lambda f, t: self._record("say %d %d" % (f, t)))
            self._audio = DFPlayer(self.audio_module)
        return self._audio

    def feed_watchdog(self):
        if self._watchdog:
            with open(self._watchdog, "w") as f:
                f.write("%d\n" % self.now())

    def restart_to_repl(self):
        # The simulated board has no prompt to give: it stops, as the Pico leaves the
        # application.
        raise SystemExit(0)

    def restart_to_bootloader(self):
        # No bootloader to start: the simulated board stops, as the Pico leaves the
        # application for its USB drive.
        raise SystemExit(0)

    def close(self):
        if self._out:
            self._out.close()
