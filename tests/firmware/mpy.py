"""pytest's bridge to the real MicroPython interpreter: runs code inside `micropython`
with the heap capped (see host_tools/micropython.py)."""
from host_tools import micropython as _mp

# The heap the tests give the firmware. The unix port is a 64-bit build whose objects are
# up to twice the size of the RP2040's, so 128K here is a tighter budget than 128K on the
# chip (where MicroPython has about 190K).
HEAP = "128K"


def run(args, heap=HEAP, timeout=600, input=None, compiled=True):
    """Run inside micropython with the firmware precompiled to .mpy, as a Pico runs it
    (compiling from source needs the compiler's RAM on top, which the chip never spends:
    deploy precompiles). compiled=False runs the sources."""
    return _mp.run(args, heap=heap, timeout=timeout, input=input, compiled=compiled,
                   also=("tests/firmware",))
