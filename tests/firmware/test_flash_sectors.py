"""The journal's sectors taken from littlefs (firmware/hal/flashsectors.py), checked inside
the real `micropython` with its littlefs (vfs.VfsLfs2) on a NOR flash in memory: the
filesystem keeps working around them and they are found again (tests/firmware/
flashsectors_check.py)."""
from tests.firmware import mpy

CPYTHON_ONLY = "it starts micropython itself"  # (its tests are not run again in micropython)


def test_journal_sectors_live_inside_littlefs():
    r = mpy.run(["tests/firmware/flashsectors_check.py"], heap="1M")  # the flash itself lives in this heap
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr
