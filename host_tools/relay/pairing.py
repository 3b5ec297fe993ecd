"""Two boards, one game (FIDE Laws, appendix D): the sighted player's board and the blind
player's (hardware/tactile.py), paired in the round file - board n's `blind_serial` is the
blind player's board, `blind` his colour. The blind player's board is board n + PAIRED on
the relay: the arbiter sees both; spectators, the round PGN and lichess see board n's game
only.

A move made on one board must be repeated on the other (D.2.3): the relay asks the board
that lags to show it (`expect <uci>`: its squares light, its face shows it, the player there
feels that the opponent moved), and takes nothing else there. When the two boards' games
part beyond that - a second move before the first was repeated, or another move made in
its place - the arbiter is alerted at once (D.2.9), with the move where they part and what
each board has, and both boards are told (`message DIFFER`); once the boards are one game
again, that is said too."""
from __future__ import annotations

PAIRED = 1000  # the blind player's board of pairing n is board n + PAIRED


def moves(s) -> list[str]:
    rec = s.record if s is not None else None
    return [p.uci for p in rec.plies] if rec is not None else []


def sans(s) -> list[str]:
    rec = s.record if s is not None else None
    return [p.san for p in rec.plies] if rec is not None else []


class Pairing:
    def __init__(self, sessions: dict, round_info, alert, send):
        """round_info(): the round; alert(session, kind, text, urgent); send(session, line):
        a command line to a board (its answer is not waited for)."""
        self.sessions = sessions
        self.round_info = round_info
        self.alert = alert
        self.send = send
        self._asked: dict[int, str] = {}  # board -> the move it was asked to repeat
        self._parted: dict[int, tuple] = {}  # pairing -> what was said when the games parted

    def changed(self, s) -> None:
        """A board's game or clock changed: the pair held against each other."""
        main = s.number - PAIRED if s.number > PAIRED else s.number  # the pairing's number
        if not self.round_info().boards.get(main, {}).get("blind_serial"):
            return  # not a pair
        a, b = self.sessions.get(main), self.sessions.get(main + PAIRED)
        if a is None or b is None or a.record is None or b.record is None:
            return
        ma, mb = moves(a), moves(b)
        short, have, lag = (a, ma, mb) if len(ma) < len(mb) else (b, mb, ma)
        if len(have) == len(lag) and have == lag:
            self._asked.pop(short.number, None)
            self._rejoined(main)
            return
        if len(lag) == len(have) + 1 and lag[:len(have)] == have:
            uci = lag[-1]
            if self._asked.get(short.number) != uci:  # asked once a move
                self._asked[short.number] = uci
                self.send(short, "expect " + uci)
            self._rejoined(main)
            return
        k = next((i for i, (x, y) in enumerate(zip(ma, mb)) if x != y), min(len(ma), len(mb)))
        what = (k, tuple(ma[k:k + 2]), tuple(mb[k:k + 2]))
        if self._parted.get(main) == what:
            return
        self._parted[main] = what
        move = k // 2 + 1
        side = "White" if k % 2 == 0 else "Black"
        self.alert(a, "pair-differs",
                   f"D.2.9: the two boards differ from move {move} ({side}): the sighted player's board has "
                   f"{_list(sans(a)[k:])}, the blind player's board (board {b.number}) {_list(sans(b)[k:])}", True)
        for x in (a, b):
            self.send(x, "message DIFFER")

    def _rejoined(self, main: int) -> None:
        if self._parted.pop(main, None) is not None:
            self.alert(self.sessions[main], "pair-differs", "the two boards are one game again", False)
            for x in (self.sessions.get(main), self.sessions.get(main + PAIRED)):
                if x is not None:
                    self.send(x, "message")


def _list(moves_) -> str:
    return ", ".join(moves_) if moves_ else "nothing"
