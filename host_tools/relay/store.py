"""The relay's files, all under one output folder:

    <out>/board-<n>.events       every sequenced event line a board sent, in order: the
                                 relay's own journal, replayed on restart
    <out>/board-<n>.pgn          that board's current game
    <out>/board-<n>-game-<g>.pgn each finished or replaced game
    <out>/round.pgn              every game of the round, board by board (what lichess polls)
    <out>/boards.json            which board serial is which board number
    <out>/clocks.json            each board's latest clock line (shown after a restart)
    <out>/alerts.jsonl           what the arbiter was alerted to (relay/alerts.py)
    <out>/notes.jsonl            what the arbiter noted at a move (a claim's written move)

All writing happens in the store's threads, never on the event loop: the journals in one
writer thread, in the order asked; whole files (PGNs, the relay's small JSON files) in
FILE_THREADS threads, each file always in the same one, its latest text only; the round's
PGN (large) in a thread of its own. A file never shows half of its text under its name: it
is written under another name and the names change in one step - on Linux a PGN is written
over its spare (`.board-<n>.pgn.spare`, hidden: the text before last) and the two exchange
names, elsewhere, and for what is synced, a new file is renamed over the old. (A reader
that keeps a PGN open while its board makes two more moves can see the later text over
the earlier.) What cannot be made again is made durable in batches
(`sync`, every few seconds) by threads of their own, so that a thousand boards' fsyncs (an
fsync can take milliseconds) never hold up a PGN file: the journals appended to, the
files replaced since the last batch that were written durable (boards.json), and the folder
(their names) - each by fdatasync (fsync where the system has no fdatasync), several side
by side (the filesystem commits them together), never a sync() of every file on the
machine. The files the relay makes from the journals (`write(..., durable=False)`: the
PGNs, clocks.json) are not synced: the relay makes them again from its journals when it
starts (relay/publish.py, `rewrite`), so a power cut that leaves one old costs nothing.
A line lost to a crash of the host before its fsync is not lost either: the board keeps
its game, and the relay asks it to resend from the last event its journal has.
"""
from __future__ import annotations

import os
import queue
import threading
from pathlib import Path


BULK = 256 * 1024  # a file larger than this is written by the bulk thread
# Whole files (a board's PGN at each move) are written by this many threads, each file by
# the same one: a rename over an existing file waits for the new file's data on ext4
# (auto_da_alloc), and a thousand boards' PGNs a second one after another were seconds
# behind; side by side the disk takes them as they come.
FILE_THREADS = 8
# The files of a batch are fsynced by this many threads side by side: ext4 and the like
# commit concurrent fsyncs in one journal commit, where a thousand in a row were a
# thousand commits (each holding the PGN files' renames up).
SYNC_THREADS = 8
_datasync = getattr(os, "fdatasync", os.fsync)  # the data and what reading it needs (its size), not its times


def _exchanger():
    """Linux's renameat2(RENAME_EXCHANGE) (glibc 2.28+), by ctypes: two names swap their
    files in one step; None where there is none. A file made from the journals takes its
    name so: os.replace over an existing file makes ext4 write the new file's data out at
    once (auto_da_alloc, there so that a power cut leaves no empty file in place of an
    old one - which the relay makes again at a start anyway), a disk write a board a move
    (1.1 ms median a rename at 2,000 boards, against 0.02 ms exchanged), where the page
    cache writes a file changed every few seconds once, or never (it was replaced and
    gone before its turn)."""
    import sys
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, exchange = -100, 2

    def swap(a: str, b: str) -> bool:
        return fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), exchange) == 0
    return swap


_exchange = _exchanger()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Store:
    def __init__(self, out: str | Path):
        self.out = Path(out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self._paths: dict[str, Path] = {}  # names checked: their paths
        self._journals: dict = {}
        self._unsynced: set = set()
        self._new_journals = False  # a journal created since the last sync (its name is in the folder)
        self._replaced: set[str] = set()  # durable whole files written since the last sync (any file thread)
        self._derived: set[str] = set()  # whole files made again from the journals at a start: never synced
        self._q: queue.Queue = queue.Queue()
        self._syncs: queue.Queue = queue.Queue()  # (descriptors to fsync, event to set or None)
        self._thread = threading.Thread(target=self._writer, name="relay store", daemon=True)
        self._thread.start()
        self._syncer = threading.Thread(target=self._sync_thread, name="relay fsync", daemon=True)
        self._syncer.start()
        self._lock = threading.Lock()
        self._lines: list | None = None  # the batch of lines the writer has not taken yet
        self._names: list = [None] * FILE_THREADS  # each file thread's batch of names not taken yet
        self._pending: dict[str, str] = {}  # files to write: their latest text
        self._bulk: queue.Queue = queue.Queue()  # large files' writes (a thread of their own)
        self._bulker = threading.Thread(target=self._bulk_writer, args=(self._bulk,), name="relay bulk", daemon=True)
        self._bulker.start()
        self._files = [queue.Queue() for _ in range(FILE_THREADS)]  # whole files' writes, by name
        self._filers = [threading.Thread(target=self._bulk_writer, args=(q,), name=f"relay files {i}", daemon=True)
                        for i, q in enumerate(self._files)]
        for th in self._filers:
            th.start()

    def path(self, name: str) -> Path:
        """A file in the output folder; refuses any name that would leave it. A name once
        checked is known (a board's PGN is written at every move: resolving its path each
        time cost the event loop a realpath's system calls)."""
        p = self._paths.get(name)
        if p is not None:
            return p
        p = (self.out / name).resolve()
        if p.parent != self.out or not name or "/" in name or "\\" in name or name.startswith("."):
            raise ValueError(f"not a file of the output folder: {name!r}")
        if len(self._paths) < 100_000:
            self._paths[name] = p
        return p

    # ----- asked from the event loop: queued

    def append_event(self, board: int, line: str) -> None:
        self._append(f"board-{board}.events", line)

    def append(self, name: str, line: str) -> None:
        """A line at the end of a file of the output folder (synced with the journals)."""
        self.path(name)
        self._append(name, line)

    def _append(self, name: str, line: str) -> None:
        """Lines are queued in batches: a batch's list goes into the writer's queue with its
        first line, and the lines that come before the writer takes it join it (a queue's
        put wakes a thread, which under a thousand boards' lines cost the event loop more
        than the lines themselves). A swap closes the batch: what comes after it is
        written after it."""
        with self._lock:
            batch = self._lines
            if batch is None:
                batch = self._lines = []
                self._q.put(("lines", batch))
            batch.append((name, line))

    def write(self, name: str, text: str, durable: bool = True) -> None:
        """The whole file, replaced (a new file renamed). Only the latest text of a file
        is written: a write still waiting is replaced, not queued behind (a thousand boards'
        PGNs change faster than a disk takes them one by one). A large file (the round's
        PGN) goes through a thread of its own, so that it never holds the boards' up.
        durable=False: a file the relay makes again from its journals when it starts (a
        PGN): written, never fsynced (a thousand boards' PGNs were a thousand fsyncs a
        second)."""
        self.path(name)  # refused at once if it is no file of ours
        with self._lock:
            if durable:
                self._derived.discard(name)
            else:
                self._derived.add(name)
            waiting = name in self._pending
            self._pending[name] = text
            if not waiting and len(text) <= BULK:  # (batched as the lines are: one put wakes a thread for many)
                i = hash(name) % FILE_THREADS
                batch = self._names[i]
                if batch is None:
                    batch = self._names[i] = []
                    self._files[i].put(("names", batch, i))
                batch.append(name)
                return
        if not waiting:
            self._bulk.put(("write", name))

    def sync(self) -> None:
        self._q.put(("sync",))

    def swap(self, a: str, b: str) -> None:
        """Two files of the output folder change names (either may not exist): a board
        renumbered takes its journal and PGN files with it."""
        self.path(a), self.path(b)
        with self._lock:  # what waits to be written under either name is written first
            texts = {name: self._pending.pop(name) for name in (a, b) if name in self._pending}
            self._lines = None  # (the lines before it are written before it, those after it after)
        self._q.put(("swap", a, b, texts))

    def flush(self) -> None:
        """Wait until everything asked so far is on disk."""
        done, bulk = threading.Event(), threading.Event()
        self._q.put(("mark", done))
        self._bulk.put(("mark", bulk))
        self._files_done()
        done.wait()
        bulk.wait()

    def _files_done(self) -> None:
        """Wait until the whole files' writes asked so far are done."""
        marks = [threading.Event() for _ in self._files]
        for q, mark in zip(self._files, marks):
            q.put(("mark", mark))
        for mark in marks:
            mark.wait()

    def close(self) -> None:
        self.sync()
        self.flush()
        self._q.put(None)
        self._thread.join()
        self._bulk.put(None)
        self._bulker.join()
        for q, th in zip(self._files, self._filers):
            q.put(None)
            th.join()
        self._syncs.put(None)
        self._syncer.join()
        for f in self._journals.values():
            f.close()
        self._journals.clear()

    # ----- read at start-up

    def events(self, board: int) -> list[str]:
        return self.lines(f"board-{board}.events")

    def lines(self, name: str) -> list[str]:
        p = self.path(name)
        return p.read_text(encoding="utf-8", errors="replace").splitlines() if p.exists() else []

    def boards(self) -> list[int]:
        out = []
        for p in self.out.glob("board-*.events"):
            try:
                out.append(int(p.stem.split("-")[1]))
            except ValueError:
                pass
        return sorted(out)

    # ----- the writer thread

    def _writer(self) -> None:
        while True:
            job = self._q.get()
            if job is None:
                return
            try:
                kind = job[0]
                if kind == "lines":
                    with self._lock:
                        if self._lines is job[1]:
                            self._lines = None  # taken: the next line starts a batch of its own
                    written = {}
                    for name, line in job[1]:
                        f = written.get(name) or self._journals.get(name)
                        if f is None:
                            f = self._journals[name] = open(self.path(name), "a", encoding="utf-8")
                            self._new_journals = True  # (its name: the folder synced with it)
                        f.write(line + "\n")
                        written[name] = f
                    for name, f in written.items():
                        f.flush()
                        self._unsynced.add(name)
                elif kind == "write":
                    self._write(job[1])
                elif kind == "swap":
                    self._files_done()  # (a write of either name under way ends first)
                    pa, pb = self.path(job[1]), self.path(job[2])
                    for name, text in job[3].items():
                        self._replace(name, text)
                    for name in job[1:3]:
                        f = self._journals.pop(name, None)
                        if f is not None:
                            os.fsync(f.fileno())
                            f.close()
                        self._unsynced.discard(name)
                    tmp = pa.with_name(pa.name + ".swap")
                    if pa.exists():
                        os.replace(pa, tmp)
                    if pb.exists():
                        os.replace(pb, pa)
                    if tmp.exists():
                        os.replace(tmp, pb)
                elif kind == "sync":
                    # (descriptors of their own: a journal closed meanwhile by a swap is
                    # still the one synced, and no other file takes its number)
                    fds = [os.dup(self._journals[b].fileno()) for b in self._unsynced if b in self._journals]
                    self._unsynced.clear()
                    with self._lock:
                        names, self._replaced = self._replaced, set()
                    if self._new_journals:
                        names.add("")  # the folder alone
                        self._new_journals = False
                    self._syncs.put((fds, names, None))
                elif kind == "mark":
                    self._syncs.put(([], (), job[1]))  # set once the syncs before it are done
            except OSError as e:  # a full disk must not stop the relay: said, and go on
                print(f"relay store: {e}", flush=True)

    def _write(self, name: str) -> None:
        with self._lock:
            text = self._pending.pop(name, None)
        if text is not None:
            self._replace(name, text)

    def _replace(self, name: str, text: str) -> None:
        """A file's whole text, never half of it under its name; UTF-8 on every system.
        Plain descriptors: a thousand boards' PGNs a second, and this thread shares the
        interpreter with the event loop. A file made from the journals is written over its
        spare (`.<name>.spare`, its text before last) and the two exchange names: no file is
        made or deleted a write. A new file a write, renamed over the old one, made ext4
        allocate an inode and free one each time, and on ext4 without a journal its allocator
        looks past every inode freed in the last minute (`recently_deleted`): at 2,000 boards, a thousand a
        second, that was a quarter of the relay's CPU and stalls of up to half a second.
        The spare is made with the file (when the board connects), not at its first move:
        a file made within minutes of thousands deleted takes milliseconds there."""
        p = str(self.path(name))
        data = text.encode("utf-8")
        with self._lock:
            derived = name in self._derived
        if derived and _exchange is not None:
            spare = os.path.join(os.path.dirname(p), "." + name + ".spare")
            fd = os.open(spare, os.O_WRONLY | os.O_CREAT, 0o644)  # (not truncated to nothing: ext4 would write it out at its close)
            try:
                _write_all(fd, data)
                os.ftruncate(fd, len(data))  # (the earlier text was longer)
            finally:
                os.close(fd)
            if not _exchange(spare, p):  # the first time: nothing to exchange with
                os.replace(spare, p)
                os.close(os.open(spare, os.O_WRONLY | os.O_CREAT, 0o644))  # (made now, not at the next write)
            return
        tmp = p + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o644)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, p)
        if not derived:
            with self._lock:
                self._replaced.add(name)

    def _bulk_writer(self, jobs: queue.Queue) -> None:
        while True:
            job = jobs.get()
            if job is None:
                return
            if job[0] == "mark":
                job[1].set()
                continue
            names = [job[1]]
            if job[0] == "names":
                with self._lock:
                    if self._names[job[2]] is job[1]:
                        self._names[job[2]] = None
                names = job[1]
            for name in names:
                try:
                    self._write(name)
                except OSError as e:
                    print(f"relay store: {e}", flush=True)

    def _sync_thread(self) -> None:
        """fsyncs, coalesced: whatever is asked while one batch runs is one batch after it."""
        pool = None
        while True:
            jobs = [self._syncs.get()]
            while True:
                try:
                    jobs.append(self._syncs.get_nowait())
                except queue.Empty:
                    break
            fds, names, done = [], set(), []
            for job in jobs:
                if job is not None:
                    fds += job[0]
                    names.update(job[1])
                    if job[2] is not None:
                        done.append(job[2])
            work = [(fd, None) for fd in fds]
            if names and os.name == "posix":  # (Windows renames no file another handle holds open)
                work += [(None, name) for name in sorted(names) if name]
                work.append((None, ""))  # the folder: the new files' names
            if len(work) > 1:
                if pool is None:
                    from concurrent.futures import ThreadPoolExecutor
                    pool = ThreadPoolExecutor(SYNC_THREADS, thread_name_prefix="relay fsync")
                list(pool.map(self._sync_one, work))
            elif work:
                self._sync_one(work[0])
            for d in done:
                d.set()
            if None in jobs:
                if pool is not None:
                    pool.shutdown()
                return

    def _sync_one(self, job: tuple) -> None:
        """One file made durable: a journal's descriptor (a duplicate, closed here), or a
        file of the output folder by name ("": the folder itself)."""
        fd, name = job
        try:
            if fd is None:
                try:
                    fd = os.open(str(self.path(name)) if name else str(self.out), os.O_RDONLY)
                except FileNotFoundError:
                    return  # renamed or gone since: its new name is in the batch
                if not name:
                    os.fsync(fd)  # (a folder: fdatasync may refuse one)
                    return
            _datasync(fd)
        except OSError as e:
            print(f"relay store: {e}", flush=True)
        finally:
            if fd is not None:
                os.close(fd)
