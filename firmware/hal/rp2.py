# The real board: a Raspberry Pi Pico wired as hardware/ describes (pins: pinmap.py).
# Rp2Hal takes its parts ready-made, so that its logic runs on the host with fakes;
# create() builds them from `machine` on the Pico - the only code that imports it.
#
# Figures for a 125 MHz RP2040 (bench/scan.py): a full scan is 8 rows x (3 pin writes, a
# 5 us settle, one register read), at most ~0.6 ms in MicroPython, so 100 scans a second
# take at most ~6% of the CPU.
#
# machine, rp2 and neopixel are imported inside the functions that use them: they exist
# only on the chip, and this file's logic runs on the host with fakes (tests/).
import os
import time

from firmware.hal import motorduty
from firmware.hal import pinmap as P
from firmware.hal.buttons import ButtonBank
from firmware.hal.dfplayer import DFPlayer
from firmware.hal.flashsectors import FlashSectors
from firmware.hal.base import Hal
from firmware.hal.battery import LOW_BATTERY_MV, cell_mv, percent
from firmware.hal.ht16k33 import Face
from firmware.hal.matrix import MatrixScanner
from firmware.hal.sc16is750 import UartBridge
from firmware.hal.scanner import TimedScanner
from firmware.hal.squareleds import SquareLeds
from firmware.hal.usbserial import UsbSerial
from firmware.rules.squares import WHITE

REPL_FLAG = "/repl"  # present at a start: the prompt, not the application (once)
KEY_POLL_MS = 30  # the faces' ask keys are read this often (the HT16K33 keeps a press till read)


class Rp2Hal(Hal):
    scan_ms = 10

    def __init__(self, address_pins, read_columns, settle, button_down, ticks_ms, ticks_diff,
                 i2c=None, motors=(None, None), buzzer=None, leds=(None, None), battery=None,
                 vbus=None, wdt=None, board_id="pico", stdin=None, stdout=None, squares=None, vsys=None):
        self.now = ticks_ms
        self.diff = ticks_diff
        self.matrix = MatrixScanner(address_pins, read_columns, settle)
        self.scanner = TimedScanner(self.matrix, ticks_ms)
        self.take_scan = self.scanner.take  # create() starts the timer that fills it
        self.buttons = ButtonBank([n for n, _ in P.BUTTONS], button_down, ticks_diff)
        self.faces = (None, None)
        self._keys_at = ticks_ms()
        self.i2c = i2c
        self._audio = None
        if i2c is not None:  # each face as it is built; one that does not answer is None
            self.faces = (find_face(i2c, P.DISPLAY_WHITE, P.BACKPACKS_WHITE),
                          find_face(i2c, P.DISPLAY_BLACK, P.BACKPACKS_BLACK))
        self.motors = motors
        self.buzzer_pwm = buzzer
        self.leds = leds
        self.battery = battery
        self.vbus = vbus
        self.vsys = vsys  # ADC 3: a third of VSYS, for the motors' duty (firmware/hal/motorduty.py)
        self.rail_mv = motorduty.RAIL_MAX_MV
        self.wdt = wdt
        self.square_leds = SquareLeds(squares) if squares is not None else None
        self.board_id = board_id
        self.usb = UsbSerial(stdin, stdout)
        self.read = self.usb.read
        self.write = self.usb.write

    def audio(self):
        """The optional audio module (a DFPlayer Mini behind an SC16IS750 on the faces'
        I2C bus: hardware/README.md), or None when none answers. Looked for when speech is
        first wanted."""
        if self._audio is None:
            self._audio = False
            if self.i2c is not None:
                try:
                    self._audio = DFPlayer(UartBridge(self.i2c, P.AUDIO_BRIDGE))
                except OSError:  # none fitted
                    pass
        return self._audio or None

    # ----- inputs

    def scan(self, out):
        return self.matrix.scan(out)

    def inputs(self):
        now = self.now()
        out = self.buttons.inputs(now)
        if self.diff(now, self._keys_at) >= KEY_POLL_MS:
            self._keys_at = now
            for i in (0, 1):
                if self.faces[i] is None:
                    continue
                try:
                    keys = self.faces[i].keys()
                except OSError:  # a face's bus hiccup: its keys are read at the next poll
                    keys = 0
                for names, bit in ((P.ASK_KEYS, P.ASK_KEY_BIT), (P.DRAW_KEYS, P.DRAW_KEY_BIT)):
                    if keys & (1 << bit):
                        out = list(out)
                        out.append(("button", names[i][0], True, now))
        return out

    def on_press(self, fn):
        """fn() is called from the pin interrupt each time a lever or button goes down
        (the loop answers a press at once: firmware/app/main.py). It must allocate
        nothing: asyncio.ThreadSafeFlag's set."""
        self.buttons.on_down = fn

    # ----- outputs

    def display(self, white, black):
        for face, text in zip(self.faces, (white, black)):
            if face is not None:
                face.show(text)

    def signal(self, side, on):
        face = self.faces[0 if side == WHITE else 1]
        if face is not None:
            face.signal(on)

    def led(self, name, on):
        pin = self.leds[0 if name == "white" else 1]
        if pin is not None:
            pin.value(1 if on else 0)

    def motor(self, side, duty_percent):
        pwm = self.motors[0 if side == WHITE else 1]
        if pwm is not None:
            pwm.duty_u16(motorduty.duty_u16(duty_percent, self.rail_mv))  # at most its rated voltage

    def buzzer(self, freq):
        if self.buzzer_pwm is not None:
            if freq:
                self.buzzer_pwm.freq(freq)
                self.buzzer_pwm.duty_u16(32768)
            else:
                self.buzzer_pwm.duty_u16(0)

    def squares(self, kinds):
        """The square LEDs (64 bytes: 0 off, 1 from, 2 to, 3 hint); nothing without a chain."""
        if self.square_leds is not None:
            self.square_leds.show(kinds)

    def power(self):
        """(the cells' mV or None, on USB power, low, per cent left or None) - the low-
        battery sign and the level C.02 asks for (firmware/hal/battery.py)."""
        if self.vsys is not None:
            self.rail_mv = motorduty.vsys_mv(self.vsys.read_u16())
        if self.battery is None:
            return None, True, False, None
        mv = cell_mv(self.battery.read_u16())
        usb = bool(self.vbus.value()) if self.vbus is not None else False
        return mv, usb, (not usb and mv < LOW_BATTERY_MV), percent(mv)

    def feed_watchdog(self):
        if self.wdt is not None:
            self.wdt.feed()

    def restart_to_repl(self):
        """Restart into MicroPython's prompt without the application (the `repl`
        command): a flag file the next start reads and removes, then a reset."""
        import machine

        with open(REPL_FLAG, "w") as f:
            f.write("repl\n")
        machine.reset()


    def restart_to_bootloader(self):
        """Into the RP2040's USB bootloader (the `bootloader` command, the menu's UPDATE):
        the RPI-RP2 drive appears and takes a UF2, as with BOOTSEL held at power-up. The
        line's last words get out first."""
        import machine
        import time

        time.sleep_ms(100)
        machine.bootloader()


def find_face(i2c, addr, backpacks):
    """A face's driver, whichever way the maker built it, found by who answers on the bus:
    its own board's HT16K33 at addr (firmware/hal/ht16k33.py), else its two backpacks
    (firmware/hal/backpack.py, imported only then); None if neither answers (the board
    still works). The same UF2 for both."""
    try:
        return Face(i2c, addr)
    except OSError:
        pass
    try:
        i2c.writeto(backpacks[0], b"\x21")  # the left backpack's oscillator: does it answer?
    except OSError:
        return None
    from firmware.hal.backpack import BackpackFace

    try:
        return BackpackFace(i2c, backpacks)
    except OSError:  # the right one does not
        return None


def _square_chain(machine):
    # The optional WS2812 chain (hardware/README.md); without one, writing to the pin is
    # harmless, so it is always driven.
    try:
        import neopixel
    except ImportError:
        return None
    return neopixel.NeoPixel(machine.Pin(P.SQUARE_LEDS), 64)


def maintenance():
    """Why the application must not start, or None: the `repl` command asked for the
    prompt (once), or the menu button is held down at power-up (a board whose
    application cannot be reached from the host)."""
    import machine

    try:
        os.remove(REPL_FLAG)
        return "the repl command"
    except OSError:
        pass
    menu = machine.Pin(P.BUTTON_MENU, machine.Pin.IN, machine.Pin.PULL_UP)
    if not menu.value():
        return "the menu button held at power-up"
    return None


def journal_sectors():
    """The journal's sectors on the flash (firmware/hal/flashsectors.py), made at the
    first start (a few seconds, before the watchdog runs); None, with the reason, if the
    flash cannot give them."""
    import rp2

    try:
        return FlashSectors(rp2.Flash()), None
    except OSError as e:
        return None, "journal off: no sectors on the flash (%s)" % e


def create():
    """The Pico's parts, from the pin map. Only here is `machine` imported."""
    import machine

    addr = [machine.Pin(p, machine.Pin.OUT, value=1) for p in P.ROW_SELECT]
    for p in P.COLUMNS:
        machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP)
    shift = P.COLUMNS[0]
    sio_in = 0xD0000004  # SIO GPIO_IN: every GPIO level in one read

    def read_columns():
        return (machine.mem32[sio_in] >> shift) & 0xFF

    def settle():
        time.sleep_us(5)

    buttons = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for _, p in P.BUTTONS]
    hal = Rp2Hal(addr, read_columns, settle, lambda i: not buttons[i].value(), time.ticks_ms,
                 time.ticks_diff,
                 i2c=machine.I2C(P.I2C_ID, sda=machine.Pin(P.I2C_SDA), scl=machine.Pin(P.I2C_SCL), freq=400000),
                 motors=(machine.PWM(machine.Pin(P.MOTOR_WHITE), freq=20000, duty_u16=0),
                         machine.PWM(machine.Pin(P.MOTOR_BLACK), freq=20000, duty_u16=0)),
                 buzzer=machine.PWM(machine.Pin(P.BUZZER), freq=2000, duty_u16=0),
                 leds=(machine.Pin(P.LED_WHITE, machine.Pin.OUT, value=0),
                       machine.Pin(P.LED_BLACK, machine.Pin.OUT, value=0)),
                 battery=machine.ADC(P.BATTERY_ADC), vbus=machine.Pin(P.VBUS_SENSE, machine.Pin.IN),
                 vsys=machine.ADC(29),
                 wdt=machine.WDT(timeout=8000), squares=_square_chain(machine),
                 board_id="".join("%02x" % b for b in machine.unique_id()))
    # The matrix every 10 ms from a timer (firmware/hal/scanner.py), not from the loop.
    hal.scan_timer = machine.Timer(period=Rp2Hal.scan_ms, mode=machine.Timer.PERIODIC,
                                   callback=hal.scanner.tick)
    bank = hal.buttons
    ticks = time.ticks_ms
    for i, pin in enumerate(buttons):
        # The press's tick is taken in the interrupt; the handler allocates nothing.
        pin.irq(trigger=machine.Pin.IRQ_FALLING, handler=lambda p, i=i: bank.irq(i, ticks()), hard=True)
    return hal
