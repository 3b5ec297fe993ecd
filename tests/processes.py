"""The processes a test starts, ended when the test ends: passed, failed, stopped by a
timeout (subprocess's TimeoutExpired, an assertion) or interrupted (Ctrl-C, SIGTERM).

Each process is started in a process group of its own (a new session on POSIX, a new
process group on Windows), so that ending it ends what it started too: a `./run` and its
Python, `sim --pair` and its two boards and their engine. Ending is SIGTERM to the group
(the program's own cleanup runs), then SIGKILL to the group after a grace time; on Linux
the processes it started that left its group (they made sessions of their own) are found
from /proc and ended too.

    def test_x(processes):
        p = processes.start([sys.executable, "-m", "host_tools", "sim", ...], stdout=PIPE)
        ...
        r = processes.run([...], timeout=60)   # subprocess.run, ended as a group on timeout

tests/conftest.py gives the fixture `processes`; tests/test_processes.py shows that a
process started by a failing test is ended."""
import os
import signal
import subprocess
import sys
import time

GRACE_S = 5.0  # from SIGTERM to SIGKILL: long enough for a program's own cleanup

_ALL = []  # every Processes not yet closed: ended at exit and on SIGTERM too (tests/conftest.py)


def _group_kwargs():
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def descendants(pid):
    """The pids of every process below pid (Linux, from /proc; elsewhere none)."""
    children = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def alive(pid):
    """Whether pid is a process that still runs (a zombie, ended but not reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def end(proc, grace_s=GRACE_S):
    """End proc and everything it started: SIGTERM to its group (and to the descendants that
    left it), then SIGKILL after grace_s to whatever is left. Returns its exit code."""
    if sys.platform == "win32":
        if proc.poll() is None:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True)
        return proc.wait()
    below = descendants(proc.pid)
    _signal_all(proc.pid, below, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        proc.poll()
        if proc.returncode is not None and not _group_alive(proc.pid) and not any(alive(p) for p in below):
            break
        time.sleep(0.05)
    below += [p for p in descendants(proc.pid) if p not in below]
    _signal_all(proc.pid, below, signal.SIGKILL)
    try:
        return proc.wait(grace_s)
    except subprocess.TimeoutExpired:  # (uninterruptible in the kernel: nothing more to do)
        return None


def _signal_all(pgid, pids, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    # (zombies count as members: only the ones not ours to reap could stay; look closer)
    return any(alive(p) for p in _members(pgid)) if os.path.isdir("/proc") else True


def _members(pgid):
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[3]) == pgid:
                        out.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return out


class Processes:
    """The processes of one test (the fixture `processes`)."""

    def __init__(self, grace_s=GRACE_S):
        self.grace_s = grace_s
        self.started = []
        _ALL.append(self)

    def start(self, args, **kwargs):
        """subprocess.Popen in a process group of its own, ended with the test."""
        proc = subprocess.Popen(args, **_group_kwargs(), **kwargs)
        self.started.append(proc)
        return proc

    def run(self, args, timeout=None, input=None, check=False, **kwargs):
        """subprocess.run, but on a timeout the whole group is ended (subprocess.run kills
        only the process it started, leaving what that started running)."""
        if input is not None:
            kwargs["stdin"] = subprocess.PIPE
        if kwargs.pop("capture_output", False):
            kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
        proc = self.start(args, **kwargs)
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.end(proc)
            raise
        finally:
            self.end(proc)  # (anything it left behind in its group)
        r = subprocess.CompletedProcess(args, proc.returncode, out, err)
        if check:
            r.check_returncode()
        return r

    def end(self, proc):
        """End one now (see end() above); its exit code."""
        code = end(proc, self.grace_s)
        return proc.returncode if code is None else code

    def close(self):
        """End every process started here (the fixture's teardown)."""
        for proc in self.started:
            self.end(proc)
        if self in _ALL:
            _ALL.remove(self)


def end_all():
    """Every process of every test not yet torn down (pytest interrupted, or its process
    ending: tests/conftest.py)."""
    for procs in list(_ALL):
        procs.close()
