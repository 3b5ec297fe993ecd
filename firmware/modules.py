# Modules loaded for a moment and let go: code the board needs only now and then (a time
# control read, the clock's menu, a DGT program, ...) is imported when wanted and dropped
# from where an import keeps it after, so that its code goes back to the heap. Which ones,
# and the names they need interned at start-up: firmware/app/lazy.py.
import sys


def load(package, name):
    """Module package.name, imported now if it is not loaded."""
    __import__(package + "." + name)
    return sys.modules[package + "." + name]


def forget(package, name):
    """Drop module package.name from where an import keeps it (sys.modules and its
    package), so that its code is freed once nothing else refers to it."""
    sys.modules.pop(package + "." + name, None)
    try:
        delattr(sys.modules[package], name)
    except (KeyError, AttributeError):
        pass
