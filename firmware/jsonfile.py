# Settings files on the device's flash (presets, signals, the board's settings): JSON,
# written to a new file that is then renamed over the old one, so that a power cut leaves
# the old file or the new one, never half of one (a rename is atomic on littlefs).
#
# Whatever a file holds, reading it never raises anything but ValueError: a board must
# start on any content of its own files (a folder where the file should be, a file too
# large for the heap, bytes that are not JSON, JSON nested deeper than MicroPython's
# parser can take without running out of memory). Its owner then falls back to defaults
# and says why in a warning line.
import json
import os

MAX_BYTES = 4096  # far above any settings file (presets: ~400 bytes)
MAX_DEPTH = 8  # nesting of [ and {: the settings need 3


def _depth_ok(text):
    depth = 0
    quoted = False
    escaped = False
    for c in text:
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif c == "]" or c == "}":
            depth -= 1
    return True


def load(path):
    """The JSON value in path; None if there is no such file. ValueError, saying why, if
    it cannot be read as a settings file."""
    try:
        st = os.stat(path)
    except OSError:
        return None  # no such file
    if st[0] & 0x4000:
        raise ValueError("%s is a folder" % path)
    if st[6] > MAX_BYTES:
        raise ValueError("%s has %d bytes, more than a settings file" % (path, st[6]))
    try:
        with open(path) as f:
            text = f.read()
    except (OSError, UnicodeError, MemoryError) as e:
        raise ValueError("%s cannot be read (%r)" % (path, e))
    if not _depth_ok(text):
        raise ValueError("%s is nested too deep" % path)
    try:
        return json.loads(text)
    except (ValueError, MemoryError, RuntimeError, IndexError) as e:
        raise ValueError("%s is not JSON (%s)" % (path, e))


def save(path, value):
    """value as JSON in path, whole or not at all. OSError if the flash refuses."""
    tmp = path + ".new"
    f = open(tmp, "w")
    try:
        f.write(json.dumps(value))
    finally:
        f.close()
    os.rename(tmp, path)
