import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import atexit  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402

import pytest  # noqa: E402

from tests import processes as _processes  # noqa: E402


@pytest.fixture
def processes():
    """Start a test's processes with this (tests/processes.py): each in a group of its own,
    ended with everything it started when the test ends, however it ends."""
    procs = _processes.Processes()
    try:
        yield procs
    finally:
        procs.close()


def pytest_configure(config):
    # SIGTERM (a CI job's timeout, `timeout` around pytest) ends pytest as Ctrl-C does, so that
    # the fixtures' teardowns end the tests' processes; and whatever is left at exit is ended.
    if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        try:
            signal.signal(signal.SIGTERM, signal.default_int_handler)
        except ValueError:
            pass  # not the main thread
    atexit.register(_processes.end_all)


@pytest.hookimpl(trylast=True)  # after the session's fixtures are torn down
def pytest_sessionfinish(session):
    # The last net: a process still running below this pytest process (or its xdist worker)
    # when its tests are over was started by a test that did not end it. It is ended, and
    # named, so that the test gets fixed. (Not in xdist's controller: its workers are its
    # children until they are done.)
    if session.config.pluginmanager.get_plugin("dsession") is not None:
        return
    left = [pid for pid in _processes.descendants(os.getpid()) if _processes.alive(pid)]
    if not left:
        return
    names = []
    for pid in left:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                names.append(f"{pid}: " + f.read().replace(b"\0", b" ").decode(errors="replace")[:160])
        except OSError:
            names.append(str(pid))
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    sys.stderr.write("\ntests left processes running (ended now):\n  " + "\n  ".join(names) + "\n")
