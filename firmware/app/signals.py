# Signals for blind and deaf players (firmware/access/): each side's event patterns and
# number codes, played on its motor (blind), its face's SIGNAL light (deaf: a light of its
# own, apart from the running-side LED) and the buzzer (if on), as the access settings say.
# The time thresholds and the last seconds of the running side are watched here; a touch
# of a player's ask key (on his face: never his lever, which keeps the Laws' meaning) asks
# for a number: one touch his time, two the opponent's after it, three his moves and the
# moves left to the control after both; a touch while an answer plays stops it. With
# speech set and an audio module on the board, the board also says each answer as it
# plays, every move and a flag aloud (firmware/access/voice.py).
from firmware.access import numbercode
from firmware.access.patterns import PATTERNS, THRESHOLDS, URGENT
from firmware.access.player import SignalPlayer
from firmware.access.voice import Voice
from firmware.rules.squares import WHITE, BLACK

THRESHOLD_PATTERNS = [name for _, name in THRESHOLDS]
SETTLE_MS = 700  # answers begin this long after the asker's last touch (his next adds to them)
ASKS = ("time", "opponent", "move")


def letter(side):
    return "w" if side == WHITE else "b"


class Signals:
    def __init__(self, hal, access):
        """access: AccessSettings."""
        self.hal = hal
        self.access = access
        self.players = {WHITE: SignalPlayer(lambda lv: self._level(WHITE, lv), hal.diff,
                                            compose=lambda kind, now: self._answer(WHITE, kind, now)),
                        BLACK: SignalPlayer(lambda lv: self._level(BLACK, lv), hal.diff,
                                            compose=lambda kind, now: self._answer(BLACK, kind, now))}
        self._left = {WHITE: None, BLACK: None}
        self._asks = {WHITE: 0, BLACK: 0}  # touches of the question waiting
        self._clock = None  # the clock the answers read (the match's, given with each touch)
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
                self.players[s].event(PATTERNS[name], now, name in URGENT)

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
            v = self._voice = Voice(player, lang, self.access["volume"], self.hal.diff, ears=self.access["ears"])
        else:
            if v.volume != tuple(self.access["volume"]):
                v.set_volume(self.access["volume"])
            v.ears = self.access["ears"]
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

    def ask(self, side, t, clock):
        """A touch of a player's ask key: what it does ("time", "opponent", "move", or
        "stop" for an answer it stopped; None for a fourth touch, which adds nothing)."""
        p = self.players[side]
        self._clock = clock
        if p.answering:
            p.stop(t)
            self._asks[side] = 0
            if self._voice is not None:
                self._voice.silence()
            return "stop"
        n = self._asks[side] + 1 if p.asking else 1
        if n > len(ASKS):
            return None
        self._asks[side] = n
        p.answer(ASKS[n - 1], t + SETTLE_MS)
        return ASKS[n - 1]

    def _answer(self, side, kind, now):
        """An answer's pulses, as it begins (the time is the time now), said aloud too:
        "time" his time, "opponent" the opponent's, "move" his moves made and, in a period
        with a move count, the moves he has left to the time control (appendix D)."""
        clock = self._clock
        code = self.access["code"]
        v = self.voice() if self.access["speech"] else None
        if kind != "move":
            whose = side if kind == "time" else (BLACK if side == WHITE else WHITE)
            ms = clock.time_left(whose, now)
            if v is not None:
                v.time(letter(whose), ms, letter(side))  # into the asker's ear
            return numbercode.time_code(ms, code)
        i = side >> 4
        made = clock.moves[i]
        p = clock.control.periods[clock.period[i]]
        left = None
        if p.moves and not clock.in_overtime[i]:
            left = p.moves - clock.period_moves[i]
        if v is not None:
            v.moves(letter(side), made, left, letter(side))
        return numbercode.moves_code(made, left, code)
