# Signals for blind and deaf players (firmware/access/): each side's event patterns and
# number codes, played on its motor (blind), its face's SIGNAL light (deaf: a light of its
# own, apart from the running-side LED) and the buzzer (if on), as the access settings say
# for the seat where that side sits (firmware/access/seats.py). One method per event, as a
# ClockSink has (a name mistyped fails at import, not at the event). The time thresholds
# and the last seconds of the running side are watched here; a touch of a player's ask key
# (on his face: never his lever, which keeps the Laws' meaning) asks for a number: one touch
# his time, two the opponent's after it, three his moves and the moves left to the control
# after both; a touch while an answer plays stops it. With speech set and an audio module on
# the board, the board also says each answer as it plays, every move and a flag aloud
# (firmware/access/voice.py). The clock's menu and the practice mode play on one seat's
# motor whatever its settings (menu_sides).
from firmware.access import numbercode
from firmware.access import patterns as P
from firmware.access.player import SignalPlayer
from firmware.access.seats import channel, seat_of
from firmware.rules.squares import WHITE, BLACK

SETTLE_MS = 700  # answers begin this long after the asker's last touch (his next adds to them)
ASKS = ("time", "opponent", "move")


def letter(side):
    return "w" if side == WHITE else "b"


def _both(side):
    return (side,) if side is not None else (WHITE, BLACK)


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
        self.menu_sides = ()  # the sides whose motors the menu plays on, whatever their settings
        self._releasing = False  # the menu closed: its side is released once its rhythm has played

    # ----- whom a side's signals reach (by his seat)

    def blind(self, side):
        return seat_of(self.access, side) in self.access["blind"]

    def deaf(self, side):
        return seat_of(self.access, side) in self.access["visual"]

    def _level(self, side, level):
        a = self.access
        if self.blind(side) or side in self.menu_sides:
            self.hal.motor(side, a["intensity"][level - 1] if level else 0)
        if self.deaf(side):
            self.hal.signal(side, level > 0)
        if a["buzzer"]:
            self.hal.buzzer(2000 if level else 0)

    def _event(self, side, pattern, now):
        for s in _both(side):
            if self.blind(s) or self.deaf(s) or self.access["buzzer"]:
                self.players[s].event(pattern, now, pattern in P.URGENT)

    # ----- the events, one method each (side None: both players)

    def opponent_moved(self, side, now):
        self._event(side, P.OPPONENT_MOVED, now)

    def move_done(self, side, now):
        self._event(side, P.MOVE_DONE, now)

    def illegal(self, side, now):
        self._event(side, P.ILLEGAL, now)

    def opponent_illegal(self, side, now):
        self._event(side, P.OPPONENT_ILLEGAL, now)

    def board_differs(self, side, now):
        self._event(side, P.BOARD_DIFFERS, now)

    def time_added(self, side, now):
        self._event(side, P.TIME_ADDED, now)

    def period(self, side, now):
        self._event(side, P.PERIOD, now)

    def draw_offer(self, side, now):
        self._event(side, P.DRAW_OFFER, now)

    def claim(self, side, now):
        self._event(side, P.CLAIM, now)

    def game_over(self, side, now):
        self._event(side, P.GAME_OVER, now)

    def pause(self, side, now):
        self._event(side, P.PAUSE, now)

    def resume(self, side, now):
        self._event(side, P.RESUME, now)

    def message(self, side, now):
        self._event(side, P.MESSAGE, now)

    def opponent_touched(self, side, now):
        self._event(side, P.OPPONENT_TOUCHED, now)

    def flag(self, side, now):
        """side's flag fell: his pattern, the opponent's, and said aloud."""
        self._event(side, P.YOUR_FLAG, now)
        self._event(BLACK if side == WHITE else WHITE, P.OPPONENT_FLAG, now)
        if self.access["speech"]:
            v = self.voice()
            if v is not None:
                v.flag(letter(side))

    # ----- the board's own voice

    def voice(self):
        """The board's own voice: None unless speech is set and an audio module answers
        (the HAL's audio(): firmware/hal/dfplayer.py)."""
        a = self.access
        lang = a["speech"]
        if not lang:
            return None
        v = self._voice
        ears = ("w" if "l" in a["ears"] else "") + ("b" if "r" in a["ears"] else "")
        if v is None or v.lang != lang:
            audio = getattr(self.hal, "audio", None)
            player = audio() if audio is not None else None
            if player is None:
                return None
            from firmware.access.voice import Voice  # its code and phrases load only when it speaks

            v = self._voice = Voice(player, lang, a["volume"], self.hal.diff, ears=ears)
        else:
            if v.volume != tuple(a["volume"]):
                v.set_volume(a["volume"])
            v.ears = ears
        return v

    def speaks(self):
        return bool(self.access["speech"])

    def moved(self, side, san, uci, en_passant):
        """A move made, said aloud (when the board speaks)."""
        v = self.voice()
        if v is not None:
            v.move(letter(side), san, uci, en_passant)

    def release_menu(self):
        """The menu closed: its seat's motor follows the settings again once what the menu
        plays there has ended (never cut mid-pulse, never left on)."""
        self._releasing = bool(self.menu_sides)

    # ----- the clock's step

    def step(self, now, clock):
        self._thresholds(now, clock)
        for side in (WHITE, BLACK):
            self.players[side].step(now)
        if self._voice is not None:
            self._voice.step(now)
        if self._releasing and not [s for s in self.menu_sides if self.players[s].busy]:
            self.menu_sides = ()
            self._releasing = False
        if self.access.unsaved and (clock.running < 0 or clock.paused or clock.stopped):
            self.access.save()  # the seats the start taught, kept once no clock runs

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
                self._event(run, P.THRESHOLDS[i], now)
        if left <= 5000 and prev // 1000 != left // 1000:
            self._event(run, P.TICK_PATTERN, now)

    # ----- questions

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
        ear = channel(self.access, side)
        if kind != "move":
            whose = side if kind == "time" else (BLACK if side == WHITE else WHITE)
            ms = clock.time_left(whose, now)
            if v is not None:
                v.time(letter(whose), ms, ear)  # into the asker's ear
            return numbercode.time_code(ms, code)
        i = side >> 4
        made = clock.moves[i]
        p = clock.control.periods[clock.period[i]]
        left = None
        if p.moves and not clock.in_overtime[i]:
            left = p.moves - clock.period_moves[i]
        if v is not None:
            v.moves(letter(side), made, left, ear)
        return numbercode.moves_code(made, left, code)
