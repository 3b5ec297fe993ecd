"""The relay's files (host_tools/relay/store.py): a file's writes waiting in the queue end
in its latest text, a large file goes its own way and is there after a flush, and a swap
of two boards' files takes what waited to be written under each name along with it."""
import pytest

from host_tools.relay.store import BULK, Store


def test_the_latest_text_of_each_file_is_what_is_on_disk(tmp_path):
    store = Store(tmp_path)
    try:
        for i in range(500):
            store.write("board-1.pgn", f"ply {i}\n")
        store.write("round.pgn", "x" * (BULK + 1))
        store.append_event(1, "@1:1 start")
        store.flush()
        assert (tmp_path / "board-1.pgn").read_text() == "ply 499\n"
        assert len((tmp_path / "round.pgn").read_text()) == BULK + 1
        assert (tmp_path / "board-1.events").read_text() == "@1:1 start\n"
    finally:
        store.close()


def test_a_swap_takes_the_waiting_texts_with_their_files(tmp_path):
    store = Store(tmp_path)
    try:
        store.write("board-1.pgn", "one")
        store.flush()
        store.write("board-1.pgn", "one, later")  # still waiting when the boards swap numbers
        store.write("board-2.pgn", "two")
        store.swap("board-1.pgn", "board-2.pgn")
        store.flush()
        assert (tmp_path / "board-2.pgn").read_text() == "one, later"
        assert (tmp_path / "board-1.pgn").read_text() == "two"
    finally:
        store.close()


def test_a_sync_makes_the_relays_own_files_durable_and_no_other(tmp_path, monkeypatch):
    # Every few seconds the relay makes what it wrote durable (nothing is lost on a power
    # cut): each journal appended to, each file replaced since, and the folder holding
    # their names - by fdatasync/fsync of those files, never sync() of the whole machine.
    import os

    from host_tools.relay import store as store_module

    synced = []

    def spy(fd):
        synced.append(os.fstat(fd).st_ino)

    def no_sync():
        raise AssertionError("os.sync() flushes every file on the machine")

    monkeypatch.setattr(store_module, "_datasync", spy)
    monkeypatch.setattr(os, "fsync", spy)
    monkeypatch.setattr(os, "sync", no_sync, raising=False)
    store = Store(tmp_path / "out")
    try:
        store.append_event(1, "@1:1 start")
        store.append_event(2, "@1:1 start")
        store.append("notes.jsonl", "{}")
        store.write("board-1.pgn", "1. e4 *")
        store.write("boards.json", "{}")
        store.flush()
        store.sync()
        store.flush()
        out = tmp_path / "out"
        names = ["board-1.events", "board-2.events", "notes.jsonl", "board-1.pgn", "boards.json"]
        want = {(out / n).stat().st_ino for n in names}
        if os.name == "posix":
            want.add(out.stat().st_ino)
        else:  # (Windows: the journals; a file renamed over cannot be held open)
            want = {(out / n).stat().st_ino for n in names[:3]}
        assert set(synced) == want
        # Nothing new: nothing synced again.
        synced.clear()
        store.sync()
        store.flush()
        assert synced == []
        # Only what changed since.
        store.append_event(2, "@1:2 move 1 e2e4 e4")
        store.write("board-2.pgn", "1. e4 *")
        store.flush()
        store.sync()
        store.flush()
        extra = {out.stat().st_ino, (out / "board-2.pgn").stat().st_ino} if os.name == "posix" else set()
        assert set(synced) == {(out / "board-2.events").stat().st_ino} | extra
    finally:
        store.close()


def test_the_files_made_from_the_journals_are_written_never_synced(tmp_path, monkeypatch):
    # A board's PGN changes at every move: a thousand boards' PGNs were a thousand fsyncs a
    # second. The relay makes them again from its journals when it starts, so they are
    # written (durable=False) and never synced; the journals and boards.json still are.
    import os

    from host_tools.relay import store as store_module

    synced = []
    monkeypatch.setattr(store_module, "_datasync", lambda fd: synced.append(os.fstat(fd).st_ino))
    store = Store(tmp_path / "out")
    try:
        store.write("board-1.pgn", "1. e4 *", durable=False)
        store.write("round.pgn", "1. e4 *", durable=False)
        store.append_event(1, "@1:2 move 1 e2e4 e4")
        store.write("boards.json", "{}")
        store.flush()
        store.sync()
        store.flush()
        out = tmp_path / "out"
        assert (out / "board-1.pgn").read_text() == "1. e4 *"
        for text in ("1. e4 e5 *", "1. e4 e5 2. Nf3 *"):  # (on Linux the new file's name exchanged with the old's)
            store.write("board-1.pgn", text, durable=False)
            store.flush()
            assert (out / "board-1.pgn").read_text() == text
        assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
            "board-1.events", "board-1.pgn", "boards.json", "round.pgn"]  # (and, hidden, their spares)
        assert {(out / "board-1.pgn").stat().st_ino, (out / "round.pgn").stat().st_ino}.isdisjoint(synced)
        assert {(out / "board-1.events").stat().st_ino, (out / "boards.json").stat().st_ino} <= set(synced)
    finally:
        store.close()


def test_a_file_made_from_the_journals_is_rewritten_without_making_or_deleting_a_file(tmp_path):
    # A new file a write, renamed over the old one, makes the filesystem allocate an inode
    # and free one at every move: at 2,000 boards ext4 (without a journal) spent a quarter
    # of the relay's CPU looking past the freed ones. The PGN is written over its spare
    # and the two exchange names: two files in turn, whatever the length of the text.
    import sys

    from host_tools.relay import store as store_module

    if store_module._exchange is None:
        pytest.skip("no renameat2 exchange here (" + sys.platform + "): a new file is renamed each time")
    store = Store(tmp_path)
    try:
        before = None  # (inode, text) of the file before each write
        for text in ("1. e4 *", "1. e4 e5 2. Nf3 Nc6 *", "1. e4 e5 *", "1-0", "1. d4 d5 2. c4 *"):
            store.write("board-1.pgn", text, durable=False)
            store.flush()
            now = tmp_path / "board-1.pgn"
            assert now.read_text() == text  # (a shorter text leaves no tail of the longer)
            spare = tmp_path / ".board-1.pgn.spare"
            if before is None:  # the spare made with the file, not at the board's first move
                assert spare.exists()
            else:  # the file it replaced is kept, as the next write's spare
                assert (spare.stat().st_ino, spare.read_text()) == before
            before = (now.stat().st_ino, text)
        assert not list(tmp_path.glob("*.tmp"))
    finally:
        store.close()
