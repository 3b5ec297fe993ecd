# MicroPython's const(): its compiler folds `NAME = const(1)` into the code that uses it
# (and keeps no global for a _private name). CPython has no micropython module: there it
# is the number itself. Every layer of the firmware takes it from here.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x
