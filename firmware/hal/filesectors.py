# Flash sectors kept in a file: the simulator's and the tests' stand-in for the journal's
# sectors on the Pico (firmware/hal/flashsectors.py). It behaves like NOR flash: an erase
# sets a sector to 0xFF, a program can only clear bits (the new byte is old AND new), so a
# program over a write the power cut interrupted gives what the chip would.
SECTOR = 4096
PAGE = 256


class FileSectors:
    def __init__(self, path, count=96):
        self.path = path
        self.count = count
        self.programs = 0
        self.erases = 0
        try:
            f = open(path, "r+b")
        except OSError:
            f = open(path, "w+b")
        self._f = f
        self._old = bytearray(PAGE)
        self._blank = b"\xff" * PAGE  # written a page at a time: no large block
        size = f.seek(0, 2)
        while size < count * SECTOR:  # new flash comes erased
            f.write(self._blank)
            size += PAGE
        f.flush()

    def read(self, sector, offset, buf):
        self._f.seek(sector * SECTOR + offset)
        self._f.readinto(buf)

    def program(self, sector, offset, page):
        if offset % PAGE or len(page) != PAGE or not 0 <= sector < self.count:
            raise ValueError("a program is one whole page of a sector")
        f = self._f
        at = sector * SECTOR + offset
        old = self._old
        f.seek(at)
        f.readinto(old)
        for i in range(PAGE):
            old[i] &= page[i]
        f.seek(at)
        f.write(old)
        f.flush()
        self.programs += 1

    def erase(self, sector):
        if not 0 <= sector < self.count:
            raise ValueError("no sector %d" % sector)
        f = self._f
        f.seek(sector * SECTOR)
        for _ in range(SECTOR // PAGE):
            f.write(self._blank)
        f.flush()
        self.erases += 1

    def close(self):
        self._f.close()
