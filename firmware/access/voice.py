# The board's own voice: what a blind player asks and every move, spoken by the optional
# audio module (a DFPlayer Mini: firmware/hal/dfplayer.py) from the phrases on its card
# (firmware/access/phrases.py), as a talking clock speaks them, with no laptop. Phrases
# queue in order and play one after another: the next goes out when the module says the
# last one has finished (a short breath after it, in which its second "finished" frame is
# swallowed), or after TRACK_MS if that word never comes. step(now) drives it without
# blocking; nothing is read from the bus while it is silent.
from firmware.access import phrases

GAP_MS = 60
TRACK_MS = 3000  # no phrase is longer: a lost "finished" frame never stops the voice
QUEUE = 128  # tracks waiting (~40 s of speech); an utterance that does not fit is dropped


class Voice:
    def __init__(self, player, lang, volume, diff, log=None):
        """player: a DFPlayer; lang: "en" or "it"; volume 0..30; diff: ticks_diff; log: a
        list to record each phrase played in as (tick, folder, track), for tests."""
        self.player = player
        self.lang = lang
        self.folder = phrases.folder(lang)
        self.diff = diff
        self.log = log
        self._queue = bytearray(QUEUE)
        self._head = 0
        self._len = 0
        self._playing = False
        self._at = 0  # when the phrase playing began, or the last one ended
        self.set_volume(volume)

    def set_volume(self, volume):
        self.volume = volume
        self.player.volume(volume)

    @property
    def busy(self):
        return self._playing or self._len > 0

    def say(self, tracks):
        """Queue an utterance (a list of tracks)."""
        if self._len + len(tracks) > QUEUE:
            return False
        for t in tracks:
            self._queue[(self._head + self._len) % QUEUE] = t
            self._len += 1
        return True

    def silence(self):
        """Stop and forget what waits (a new game)."""
        self._len = 0
        if self._playing:
            self.player.stop()
            self._playing = False

    def time(self, side, ms):
        return self.say(phrases.time(side, ms, []))

    def moves(self, side, made, left):
        return self.say(phrases.moves(side, made, left, []))

    def move(self, side, san, uci, en_passant):
        return self.say(phrases.move(side, san, uci, en_passant, []))

    def flag(self, side):
        out = phrases.side(side, [])
        out.append(phrases.track("flag"))
        return self.say(out)

    def step(self, now):
        if self._playing:
            if not (self.player.poll() or self.diff(now, self._at) >= TRACK_MS):
                return
            self._playing = False
            self._at = now
        if not self._len or self.diff(now, self._at) < GAP_MS:
            return
        self.player.poll()  # the module's second "finished" for the last phrase
        track = self._queue[self._head]
        self._head = (self._head + 1) % QUEUE
        self._len -= 1
        self.player.play(self.folder, track)
        if self.log is not None:
            self.log.append((now, self.folder, track))
        self._playing = True
        self._at = now
