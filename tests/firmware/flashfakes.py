# Flash for the journal's tests, with NOR flash's rules (an erase sets 0xFF, a program
# clears bits only): in memory (a bytearray per sector: the tests run in a 256 KB heap),
# or FileSectors that record what they do, so that a power cut can be put in the middle
# of any operation afterwards, or count them, or fail.
from firmware.app.journal import SECTOR, PAGE
from firmware.hal.filesectors import FileSectors


class MemSectors:
    """Flash in memory with NOR flash's rules, a bytearray per sector (the tests run in a
    256 KB heap); every operation recorded (kind, sector, offset, bytes) so that it can be
    played again up to any instant."""

    def __init__(self, count, image=None):
        self.count = count
        if image is not None:
            self.data = [bytearray(b) for b in image]
        else:
            self.data = [bytearray(b"\xff" * SECTOR) for _ in range(count)]
        self.ops = []

    def read(self, sector, offset, buf):
        buf[:] = memoryview(self.data[sector])[offset:offset + len(buf)]

    def program(self, sector, offset, page):
        self.ops.append(("p", sector, offset, bytes(page)))
        apply(self.data, self.ops[-1], PAGE)

    def erase(self, sector):
        self.ops.append(("e", sector, 0, b""))
        apply(self.data, self.ops[-1], SECTOR)


def apply(data, op, upto):
    """One operation on a flash image (a list of sectors), cut after `upto` bytes (a power
    cut in the middle: a program sets its first bytes only, an erase erases a part of the
    sector)."""
    kind, sector, offset, page = op
    b = data[sector]
    if kind == "p":
        for i in range(min(upto, PAGE)):
            b[offset + i] &= page[i]
    else:
        for i in range(min(upto, SECTOR)):
            b[i] = 0xFF


class RecordingSectors(FileSectors):
    """FileSectors that also write every operation to a file: (kind, sector, offset,
    page), to be played again up to any instant after the device is gone."""

    def __init__(self, path, count):
        FileSectors.__init__(self, path, count)
        self.ops = open(path + ".ops", "wb")

    def program(self, sector, offset, page):
        FileSectors.program(self, sector, offset, page)
        self.ops.write(b"p" + bytes((sector, offset >> 8)) + page)

    def erase(self, sector):
        FileSectors.erase(self, sector)
        self.ops.write(b"e" + bytes((sector, 0)) + b"\xff" * PAGE)


class CountingSectors(FileSectors):
    def __init__(self, path, count):
        FileSectors.__init__(self, path, count)
        self.log = []  # "e" for an erase, "p" for a program, in order

    def program(self, sector, offset, page):
        FileSectors.program(self, sector, offset, page)
        self.log.append("p")

    def erase(self, sector):
        FileSectors.erase(self, sector)
        self.log.append("e")


class FailingSectors(MemSectors):
    """Every program fails (a worn-out or missing flash)."""

    def program(self, sector, offset, page):
        raise OSError(5)


class NorBlockDevice:
    """A block device for MicroPython's littlefs (vfs.VfsLfs2) with the Pico's geometry
    (4096-byte erase blocks) and NOR flash's rules, counting what it programs and erases:
    rp2.Flash() in memory."""

    def __init__(self, blocks):
        self.blocks = blocks
        self.data = [bytearray(b"\xff" * SECTOR) for _ in range(blocks)]
        self.programmed = 0
        self.erased = 0

    def readblocks(self, n, buf, off=0):
        buf[:] = memoryview(self.data[n])[off:off + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # a whole-block write: erase, then program
            for k in range(len(buf) // SECTOR):
                self.ioctl(6, n + k)
            off = 0
        i = 0
        while i < len(buf):
            b = self.data[n + (off + i) // SECTOR]
            o = (off + i) % SECTOR
            b[o] &= buf[i]
            i += 1
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return SECTOR
        if op == 6:  # erase a block
            self.erased += 1
            b = self.data[arg]
            for i in range(SECTOR):
                b[i] = 0xFF
            return 0
        return 0
