# The journal's sectors on the Pico's flash (firmware/app/journal.py says why it needs
# sectors of its own). MicroPython's filesystem (littlefs) spans all the flash the firmware
# leaves free, and reformats it if its size changes, so the journal's sectors are taken
# from littlefs itself: files of exactly one erase block (4096 bytes; a file of one block
# holds only its data, no pointers), made once. littlefs never moves, reads nor erases the
# block of a file that is not written again, so those blocks are the journal's, programmed
# and erased directly through the block device. Each file's block is found by a marker
# written into it when it is made, and the list is kept in a map file beside them. A
# redeploy keeps them (deploy replaces only firmware/); removing the folder makes new ones.
import os
import struct

SECTOR = 4096
_MARK = b"CBSLOT"
_ERASE = 6  # the block device's erase ioctl
_COUNT = 4  # ... and its block count


class FlashSectors:
    def __init__(self, bdev, count=64, folder="/journal", feed=None):
        """bdev: the filesystem's block device (rp2.Flash()); feed: called now and then
        while the files are first made (the watchdog)."""
        self.bdev = bdev
        self.count = count
        self.folder = folder
        self.made = False  # the files were made at this start
        self.blocks = self._load()
        if self.blocks is None:
            self.blocks = self._make(feed)
            self.made = True

    # ----- the journal's interface

    def read(self, sector, offset, buf):
        self.bdev.readblocks(self.blocks[sector], buf, offset)

    def program(self, sector, offset, page):
        self.bdev.writeblocks(self.blocks[sector], page, offset)

    def erase(self, sector):
        self.bdev.ioctl(_ERASE, self.blocks[sector])

    # ----- the files

    def _name(self, i):
        return "%s/%02d" % (self.folder, i)

    def _load(self):
        """The blocks from the map, if the map and every file are as they were made."""
        try:
            with open(self.folder + "/map") as f:
                words = f.read().split()
            blocks = [int(w) for w in words[1:]]
            if words[0] != "v1" or len(blocks) != self.count:
                return None
            total = self.bdev.ioctl(_COUNT, 0)
            for i, b in enumerate(blocks):
                if os.stat(self._name(i))[6] != SECTOR or not 0 <= b < total:
                    return None
            return blocks
        except (OSError, ValueError, IndexError):
            return None

    def _make(self, feed):
        try:
            names = os.listdir(self.folder)
        except OSError:
            names = None
            os.mkdir(self.folder)
        for name in names or ():
            os.remove(self.folder + "/" + name)
        nonce = os.urandom(8)
        body = bytearray(b"\xff" * SECTOR)
        body[0:len(_MARK)] = _MARK
        body[6:14] = nonce
        for i in range(self.count):
            struct.pack_into("<H", body, 14, i)
            with open(self._name(i), "wb") as f:
                f.write(body)
            if feed is not None:
                feed()
        blocks = [-1] * self.count
        head = bytearray(16)
        for b in range(self.bdev.ioctl(_COUNT, 0)):
            self.bdev.readblocks(b, head, 0)
            if head[0:6] == _MARK and head[6:14] == nonce:
                i = head[14] | head[15] << 8
                if i < self.count:
                    blocks[i] = b
        if -1 in blocks:
            raise OSError("the journal's files were not found on the flash")
        with open(self.folder + "/map.new", "w") as f:
            f.write("v1 " + " ".join(str(b) for b in blocks) + "\n")
        os.rename(self.folder + "/map.new", self.folder + "/map")
        return blocks
