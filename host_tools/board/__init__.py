"""One board as the host knows it, shared by the relay, `play` and `pair`: its serial line
(`port.py`: finding and opening ports; `lines.py`: many boards' lines watched by an event
loop, the relay's; `link.py`: one board's line for a player program), the board's session
on that line (`session.py`: the protocol's messages, games, clocks, resends; what changed
goes to a `SessionSink`, one method per kind) and each game's record (`record.py`: the
sequenced events as a game, checked by python-chess, and its PGN written by python-chess's
exporter).

Words as the board uses them: a game's *record* is its sequenced events (the board's
`record.py` and event log; here `GameRecord`); a *journal* is the same events kept on disk
to outlive a restart (the board's on flash, `firmware/app/journal.py`; the relay's in its
`--out` folder, `host_tools/relay/store.py`)."""
