# Scanning the reed-switch matrix. The rows are selected one at a time (through a
# 74HC138: the selected row is driven low, the others high); each column has a pull-up and
# reads low when the switch of the selected row is closed. A diode in series with every
# switch (cathode to the row) keeps current from running backwards through other closed
# switches: without it, three pieces at the corners of a rectangle make a ghost at the
# fourth corner (tests/firmware/test_matrix.py shows both).
#
# Pins are passed in: anything with value(v) for the address lines, and a callable that
# returns the 8 column levels as one byte (bit f = file f, 1 = high = open), so that the
# rp2 HAL can read all columns with one register read.


class MatrixScanner:
    def __init__(self, address_pins, read_columns, settle=None):
        self.address = address_pins
        self.read_columns = read_columns
        self.settle = settle  # called after a row is selected (a few microseconds)

    def scan(self, out):
        """Fill out (8 bytes, rank 1 first) with the occupied squares (bit set = piece)."""
        a0, a1, a2 = self.address
        read = self.read_columns
        settle = self.settle
        for r in range(8):
            a0.value(r & 1)
            a1.value((r >> 1) & 1)
            a2.value((r >> 2) & 1)
            if settle:
                settle()
            out[r] = ~read() & 0xFF
        return out
