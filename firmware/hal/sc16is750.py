# The SC16IS750: a UART on the I2C bus (NXP's I2C/SPI-to-UART bridge), through which the
# board talks to its optional audio module without a GPIO of its own (the Pico's 26 are all
# taken: firmware/hal/pinmap.py). It looks like a machine.UART to its user: write(bytes),
# any(), readinto(buf). Registers are addressed reg << 3 (channel 0); the divisor latch is
# reached with LCR bit 7 set. Given any object with I2C's writeto_mem/readfrom_mem_into.
from firmware.const import const

_RHR = const(0x00)  # read: received bytes; write: THR, bytes to send
_FCR = const(0x02)
_LCR = const(0x03)
_TXLVL = const(0x08)
_RXLVL = const(0x09)
_DLL = const(0x00)  # with LCR bit 7 set
_DLH = const(0x01)
CRYSTAL_HZ = 14745600  # the usual breakout's crystal
FIFO = 64


class UartBridge:
    def __init__(self, i2c, addr, baudrate=9600, crystal_hz=CRYSTAL_HZ):
        """Raises OSError when nothing answers at addr (no audio module fitted)."""
        self.i2c = i2c
        self.addr = addr
        self._one = bytearray(1)
        divisor = crystal_hz // (16 * baudrate)
        self._set(_LCR, 0x80)  # the divisor latch
        self._set(_DLL, divisor & 0xFF)
        self._set(_DLH, divisor >> 8)
        self._set(_LCR, 0x03)  # 8 data bits, no parity, 1 stop bit
        self._set(_FCR, 0x07)  # FIFOs on, both emptied

    def _set(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.addr, reg << 3, self._one)

    def _get(self, reg):
        self.i2c.readfrom_mem_into(self.addr, reg << 3, self._one)
        return self._one[0]

    def write(self, data):
        """Bytes into the transmit FIFO (a DFPlayer command is 10 of its 64)."""
        if self._get(_TXLVL) < len(data):
            return 0
        self.i2c.writeto_mem(self.addr, _RHR << 3, data)
        return len(data)

    def any(self):
        return self._get(_RXLVL)

    def readinto(self, buf):
        """Up to len(buf) received bytes into buf; how many (0: none)."""
        n = self.any()
        if n > len(buf):
            n = len(buf)
        if n:
            mv = memoryview(buf)
            self.i2c.readfrom_mem_into(self.addr, _RHR << 3, mv[:n])
        return n
