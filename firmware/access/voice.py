# The board's own voice: what a blind player asks and every move, spoken by the optional
# audio module (a DFPlayer Mini: firmware/hal/dfplayer.py) from the phrases on its card
# (firmware/access/phrases.py), as a talking clock speaks them, with no laptop. Phrases
# queue in order and play one after another: the next goes out when the module says the
# last one has finished (a short breath after it, in which its second "finished" frame is
# swallowed), or after TRACK_MS if that word never comes. step(now) drives it without
# blocking; nothing is read from the bus while it is silent. With ears on, a player's
# answers go into his own ear only (the card's one-channel phrases: White's left, Black's
# right, a headphone socket each), at his own volume; moves and a flag into both.
from firmware.access import phrases

GAP_MS = 60
TRACK_MS = 3000  # no phrase is longer: a lost "finished" frame never stops the voice
QUEUE = 128  # tracks waiting (~40 s of speech); an utterance that does not fit is dropped


class Voice:
    def __init__(self, player, lang, volume, diff, log=None, ears=""):
        """player: a DFPlayer; lang: "en", "it" or "fide"; volume: the left channel's
        (the left seat's earphone) and the right's, 0..30 each; diff: ticks_diff; ears: the
        channels ("w" left, "b" right: "wb" both, True for both) whose player hears his
        answers in his own ear alone; log: a list to record each phrase played in as
        (tick, folder, track), for tests."""
        self.player = player
        self.lang = lang
        self.folder = phrases.folder(lang)
        self.diff = diff
        self.log = log
        self.ears = ears
        self._queue = bytearray(QUEUE)
        self._folders = bytearray(QUEUE)  # each track's folder: which ears hear it
        self._volumes = bytearray(QUEUE)  # and how loud
        self._head = 0
        self._len = 0
        self._playing = False
        self._at = 0  # when the phrase playing began, or the last one ended
        self._loud = -1  # the volume the module has
        self.set_volume(volume)

    def set_volume(self, volume):
        """volume: (White's, Black's) or one for both; the module has it at the next phrase."""
        self.volume = (volume, volume) if isinstance(volume, int) else (volume[0], volume[1])

    @property
    def busy(self):
        return self._playing or self._len > 0

    def say(self, tracks, to=None):
        """Queue an utterance (a list of tracks) for one channel's ear ("w" the left, "b"
        the right: with ears on for it, its alone, at its volume) or both (None: the
        louder volume)."""
        if self._len + len(tracks) > QUEUE:
            return False
        w, b = self.volume
        ears = "wb" if self.ears is True else (self.ears or "")
        folder = phrases.folder(self.lang, to if to is not None and to in ears else None)
        loud = w if to == "w" else b if to == "b" else max(w, b)
        for t in tracks:
            k = (self._head + self._len) % QUEUE
            self._queue[k] = t
            self._folders[k] = folder
            self._volumes[k] = loud
            self._len += 1
        return True

    def silence(self):
        """Stop and forget what waits (a new game)."""
        self._len = 0
        if self._playing:
            self.player.stop()
            self._playing = False

    def time(self, side, ms, to=None):
        """side's time, said to the player to (his answer: his ear alone, with ears on)."""
        return self.say(phrases.time(side, ms, []), to)

    def moves(self, side, made, left, to=None):
        return self.say(phrases.moves(side, made, left, []), to)

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
        k = self._head
        track, folder, loud = self._queue[k], self._folders[k], self._volumes[k]
        self._head = (k + 1) % QUEUE
        self._len -= 1
        if loud != self._loud:
            self._loud = loud
            self.player.volume(loud)
        self.player.play(folder, track)
        if self.log is not None:
            self.log.append((now, folder, track))
        self._playing = True
        self._at = now
