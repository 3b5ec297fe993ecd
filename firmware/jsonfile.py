# Settings files on the device's flash (presets, signals, the board's settings): JSON,
# written to a new file that is then renamed over the old one, so that a power cut leaves
# the old file or the new one, never half of one (a rename is atomic on littlefs).
import json
import os


def load(path):
    """The JSON value in path; None if there is no such file. ValueError if it does not
    read as JSON."""
    try:
        f = open(path)
    except OSError:
        return None
    try:
        text = f.read()
    finally:
        f.close()
    return json.loads(text)


def save(path, value):
    """value as JSON in path, whole or not at all."""
    tmp = path + ".new"
    f = open(tmp, "w")
    try:
        f.write(json.dumps(value))
    finally:
        f.close()
    os.rename(tmp, path)
