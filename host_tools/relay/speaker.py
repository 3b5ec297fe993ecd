"""The relay's voice: moves spoken as they are made, and a player's time, his opponent's or
the move number when he asks for it on the board (a touch of his ask key: the board reports
`ask <side> time|opponent|move`, and `ask <side> stop` when a touch stopped his answer). Speech runs in its own thread: the relay never waits
for audio."""
from __future__ import annotations

import queue
import threading

from host_tools.speech import Announcer, move_number_text, moves_to_control, time_text


class Speaker:
    def __init__(self, lang: str = "en", voices: dict | None = None, log=print, announcer=None):
        self.announcer = announcer or Announcer(lang, voices)
        self.lang = self.announcer.lang
        self.log = log
        self.said: list[tuple[str | None, str]] = []  # (side, text): what was spoken
        self._q: queue.Queue = queue.Queue()
        self._failed = False
        threading.Thread(target=self._run, name="speaker", daemon=True).start()

    def move(self, san: str, side: str, uci: str | None = None, en_passant: bool = False) -> None:
        self._q.put((self.announcer.text_for_move(san, side, uci, en_passant), side))

    def ask(self, session, side: str, what: str) -> None:
        if what == "stop":  # his touch stopped the board's answer: what waits to be said goes too
            kept = []
            while not self._q.empty():
                item = self._q.get_nowait()
                if item[1] != side:
                    kept.append(item)
            for item in kept:
                self._q.put(item)
            return
        c = session.clock
        if what == "move":
            rec = session.record
            n = rec.board().fullmove_number if rec else 1
            left = None
            if rec:  # his completed moves, and what is left of them to the time control
                white_first = rec.fen.split()[1] == "w"
                plies = len(rec.plies)
                mine = (plies + (1 if (side == "w") == white_first else 0)) // 2
                left = moves_to_control(rec.tc, mine)
            text = move_number_text(n, self.lang, left)
        else:
            who = side if what == "time" else ("b" if side == "w" else "w")
            text = time_text(c.white_ms if who == "w" else c.black_ms, self.lang, who)
        self._q.put((text, side))

    def _run(self) -> None:
        while True:
            text, side = self._q.get()
            self.said.append((side, text))
            try:
                self.announcer.say(text, side)
            except Exception as e:  # no sound card: said once, and the relay goes on
                if not self._failed:
                    self._failed = True
                    self.log(f"speech: {e}")

    def idle(self) -> bool:
        return self._q.empty()
