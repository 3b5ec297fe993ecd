"""The relay: boards in over USB serial, live PGN, a web page, a websocket feed, a DGT
LiveChess-compatible API and lichess broadcast pushes out (docs/broadcaster.md)."""
