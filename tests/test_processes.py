"""The fixture `processes` (tests/processes.py) ends what a test started, however the test
ends: a pytest of its own runs tests that start a shell which starts a child of its own
(and one that ignores SIGTERM, and one that leaves the group), then fail, time out or are
stopped as a CI job's timeout stops pytest (SIGTERM); afterwards none of those processes
runs. And a process a test started without the fixture and left running is ended when the
tests are over, and named."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.processes import alive

ROOT = Path(__file__).resolve().parent.parent

INNER = textwrap.dedent('''
    import os
    import subprocess
    import sys
    import time

    import pytest

    OUT = os.environ["PIDS_OUT"]

    # A shell that starts a child of its own (one that ignores SIGTERM, one that leaves the
    # shell's group), says their pids and waits.
    SHELL = ("trap '' TERM; sleep 300 & echo $! >> {out}; setsid sleep 300 & echo $! >> {out}; "
             "echo $$ >> {out}; wait")


    def _start(processes, name):
        out = os.path.join(OUT, name)
        p = processes.start(["bash", "-c", SHELL.format(out=out)])
        for _ in range(200):
            if os.path.exists(out) and len(open(out).read().split()) == 3:
                return p
            time.sleep(0.05)
        raise AssertionError("the shell did not start")


    def test_fails(processes):
        _start(processes, "fails")
        assert False, "this test fails on purpose"


    def test_times_out(processes):
        out = os.path.join(OUT, "times_out")
        processes.run(["bash", "-c", SHELL.format(out=out)], timeout=1.5)


    def test_after_them():
        # (runs after the two above: what they started is already ended, by their teardown)
        from tests.processes import alive
        names = ("fails", "times_out")
        pids = [int(x) for n in names for x in open(os.path.join(OUT, n)).read().split()]
        time.sleep(0.5)
        with open(os.path.join(OUT, "after"), "w") as f:
            f.write(" ".join(str(p) for p in pids if alive(p)))


    def test_interrupted(processes):
        _start(processes, "interrupted")
        open(os.path.join(OUT, "interrupted.ready"), "w").close()
        time.sleep(300)


    def test_without_the_fixture():
        out = os.path.join(OUT, "left")
        subprocess.Popen(["bash", "-c", "echo $$ >> " + out + "; exec sleep 300"])
        for _ in range(200):
            if os.path.exists(out):
                return
            time.sleep(0.05)
''')


def _pids(path):
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _gone(pids, within_s=15.0):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _inner(tmp_path, processes, *select):
    (tmp_path / "test_inner.py").write_text(INNER)
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    env = dict(os.environ, PIDS_OUT=str(pids), PYTHONPATH=str(ROOT))
    args = [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-p", "no:xdist",
            "-q", "test_inner.py", *select]
    return pids, env, args


def test_a_failing_or_timed_out_tests_processes_are_ended(tmp_path, processes):
    pids, env, args = _inner(tmp_path, processes, "-k", "fails or times_out or after or without")
    r = processes.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "2 failed, 2 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]
    assert "TimeoutExpired" in r.stdout and "this test fails on purpose" in r.stdout
    assert (pids / "after").read_text() == "", "still running after their tests ended"
    for name in ("fails", "times_out", "left"):
        started = _pids(pids / name)
        assert len(started) == (1 if name == "left" else 3), (name, started)
        assert _gone(started), (name, [p for p in started if alive(p)])
    # the one started without the fixture is named when the tests are over, and only that one
    left = r.stderr.split("tests left processes running (ended now):", 1)[-1]
    assert left.count("sleep 300") == 1, r.stderr[-2000:]


def test_a_test_stopped_by_sigterm_has_its_processes_ended(tmp_path, processes):
    pids, env, args = _inner(tmp_path, processes, "-k", "interrupted")
    p = processes.start(args, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    ready = pids / "interrupted.ready"
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.1)
    assert ready.exists(), "the inner test did not start"
    started = _pids(pids / "interrupted")
    assert len(started) == 3 and all(alive(x) for x in started)
    os.kill(p.pid, signal.SIGTERM)  # a CI job's timeout stops pytest
    err = p.communicate(timeout=60)[1]
    assert _gone(started), [x for x in started if alive(x)]
    assert "tests left processes running" not in err, err[-2000:]  # the fixture ended them, not the last net
