"""The relay's files (host_tools/relay/store.py): a file's writes waiting in the queue end
in its latest text, a large file goes its own way and is there after a flush, and a swap
of two boards' files takes what waited to be written under each name along with it."""
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
