# Signals for blind and deaf players (firmware/access/): each side's event patterns and
# number codes, played on its motor (blind), its face's SIGNAL light (deaf: a light of its
# own, apart from the running-side LED) and the buzzer (if on), as the access settings say.
# The time thresholds and the last seconds of the running side are watched here; a held
# clock lever asks for a number (own time, the opponent's, his moves and the moves left to
# the control). With speech set and an audio module on the board, the board also says the
# answer, every move and a flag aloud (firmware/access/voice.py).
from firmware.access import numbercode
from firmware.access.patterns import PATTERNS, THRESHOLDS
from firmware.access.player import SignalPlayer
from firmware.access.voice import Voice
from firmware.rules.squares import WHITE, BLACK

THRESHOLD_PATTERNS = [name for _, name in THRESHOLDS]
ASK_AGAIN_MS = 3000  # a second hold within this asks for the opponent's time, a third the move
ASKS = ("time", "opponent", "move")


def letter(side):
    return "w" if side == WHITE else "b"


class Signals:
    def __init__(self, hal, access):
        """access: AccessSettings."""
        self.hal = hal
        self.access = access
        self.players = {WHITE: SignalPlayer(lambda lv: self._level(WHITE, lv), hal.diff),
                        BLACK: SignalPlayer(lambda lv: self._level(BLACK, lv), hal.diff)}
        self._left = {WHITE: None, BLACK: None}
        self._asks = {WHITE: (0, None), BLACK: (0, None)}  # gestures so far, tick of the last
        self._voice = None  # a Voice once speech is wanted and a module answers

    def _level(self, side, level):
        a = self.access
        l = letter(side)
        if l in a["blind"]:
            self.hal.motor(side, a["intensity"][level - 1] if level else 0)
        if l in a["visual"]:
            self.hal.signal(side, level > 0)
        if a["buzzer"]:
            self.hal.buzzer(2000 if level else 0)

    def event(self, side, name, now):
        """An event's pattern for one side (None: both)."""
        a = self.access
        for s in ((side,) if side is not None else (WHITE, BLACK)):
            l = letter(s)
            if l in a["blind"] or l in a["visual"] or a["buzzer"]:
                self.players[s].event(PATTERNS[name], now)

    def voice(self):
        """The board's own voice: None unless speech is set and an audio module answers
        (the HAL's audio(): firmware/hal/dfplayer.py)."""
        lang = self.access["speech"]
        if not lang:
            return None
        v = self._voice
        if v is None or v.lang != lang:
            audio = getattr(self.hal, "audio", None)
            player = audio() if audio is not None else None
            if player is None:
                return None
            v = self._voice = Voice(player, lang, self.access["volume"], self.hal.diff)
        elif v.volume != self.access["volume"]:
            v.set_volume(self.access["volume"])
        return v

    def speaks(self):
        return bool(self.access["speech"])

    def moved(self, side, san, uci, en_passant):
        """A move made, said aloud (when the board speaks)."""
        v = self.voice()
        if v is not None:
            v.move(letter(side), san, uci, en_passant)

    def flag(self, side, now):
        self.event(side, "your_flag", now)
        self.event(BLACK if side == WHITE else WHITE, "opponent_flag", now)
        if self.access["speech"]:
            v = self.voice()
            if v is not None:
                v.flag(letter(side))

    def step(self, now, clock):
        self._thresholds(now, clock)
        for side in (WHITE, BLACK):
            self.players[side].step(now)
        if self._voice is not None:
            self._voice.step(now)

    def _thresholds(self, now, clock):
        run = clock.running_side()
        if run is None or clock.paused:
            return
        left = clock.time_left(run, now)
        prev = self._left[run]
        self._left[run] = left
        if prev is None or left >= prev:
            return
        # The first threshold (the longest time) has the first pattern, and so on.
        for i, secs in enumerate(self.access["thresholds"]):
            if prev > secs * 1000 >= left:
                self.event(run, THRESHOLD_PATTERNS[i], now)
        if left <= 5000 and prev // 1000 != left // 1000:
            self.event(run, "tick", now)

    def ask(self, side, t, clock, game):
        """A held clock lever: 1 the player's time, 2 (within 3 s) the opponent's, 3 his
        moves made and (with a move count) the moves left to the time control, played as a
        number code when no event signal is due. Returns what was asked."""
        n, at = self._asks[side]
        n = n + 1 if at is not None and self.hal.diff(t, at) < ASK_AGAIN_MS else 1
        self._asks[side] = (n, t)
        v = self.voice() if self.access["speech"] else None
        if n <= 2:
            whose = side if n == 1 else (BLACK if side == WHITE else WHITE)
            ms = clock.time_left(whose, t)
            groups = numbercode.time_groups(ms)
            if v is not None:
                v.time(letter(whose), ms)
        else:
            # Appendix D: his number of moves, then, in a period with a move count, the
            # moves he has left to the time control.
            i = side >> 4
            made = clock.moves[i]
            groups = numbercode.number_groups(made)
            p = clock.control.periods[clock.period[i]]
            left = None
            if p.moves and not clock.in_overtime[i]:
                left = p.moves - clock.period_moves[i]
                groups += numbercode.number_groups(left)
            if v is not None:
                v.moves(letter(side), made, left)
        self.players[side].number(numbercode.encode(groups, self.access["code"]), t)
        return ASKS[min(n, 3) - 1]
