# The game record on its way to the host: the event log (what a resend gives again), the
# journal on flash (firmware/app/journal.py) and the write-ahead rule between them. Once an
# event is logged, every line - the event's and any line after it - waits until the event
# is on flash (commit: one write and one flush at the end of the step), so that after a
# power cut the board has every event a host can have seen. Without a journal, lines go
# out at once. It writes the lines that say who the board is and which game it plays
# (hello, the game line) and answers a resend.
from firmware.app import protocol as P
from firmware.app.eventlog import EventLog
from firmware.app.journal import LOW
from firmware.version import VERSION

CHECKPOINT_EVERY_MS = 30000  # a running turn's time to the journal (for a power cut)


class Record:
    def __init__(self, hal, journal, board_id):
        """journal: a Journal (firmware/app/journal.py) or None (in memory only);
        board_id: the board's name in the hello line."""
        self.hal = hal
        self.board_id = board_id
        self.pair = None  # "w,here": one of two boards for one game (controls.py), said in hello
        self.log = EventLog()
        self.journal = journal
        self.games = self.journal.games() if self.journal else 0  # the highest number used
        self._held = None  # lines waiting for the commit
        self._committed = 0
        self._fresh = False  # the journal is to be written anew at the next commit
        self._checkpoint_at = hal.now()
        self.mute = False  # lines are not sent (a DGT program is on the line): still recorded
        self.notices = None  # a list: the warnings and recoveries of a muted start, kept

    # ----- lines

    def write(self, line):
        if self._held is not None:
            self._held.append(line)
        else:
            self._out(line)

    def _out(self, line):
        if not self.mute:
            self.hal.write((line + "\n").encode())
        elif self.notices is not None and len(self.notices) < 8 and (
                line.startswith("warning ") or line.startswith("recovered ")):
            self.notices.append(line)

    def event(self, kind, side=0, a=0, b=0, text="", uci=None):
        """An event into the log, its line out after the commit; uci: a move's UCI text."""
        seq = self.log.append(kind, side, a, b, text)
        if self.journal is not None and self._held is None:
            self._held = []  # from here on, lines wait for the commit
        self.write(self.log.line(seq, uci))

    def line(self, seq):
        """The line of event seq of the current game."""
        return self.log.line(seq)

    def hello(self, now, with_game=True):
        """Who the board is (and the game it plays): the answer to the host's hello."""
        log = self.log
        line = "hello proto=%d fw=%s board=%s" % (P.VERSION, VERSION, self.board_id)
        if with_game:
            line += " game=%d seq=%d" % (log.game_id, log.count)
        if self.pair:  # one of two boards for one game (`pair`): the host checks it is meant
            line += " pair=" + self.pair
        self.write(line)
        return ()  # the hello line is the answer

    def paired(self, text):
        """This board is one of a pair ("w,here"; None: not): said in every hello."""
        self.pair = text

    def resend(self, word, now):
        """The events of the current game from seq on ("12" or "3:12") again."""
        log = self.log
        game = log.game_id
        if ":" in word:
            g, word = word.split(":", 1)
            game = P.whole(g, "the game")
        first = P.whole(word, "the sequence number")
        if game != log.game_id:
            raise P.NotNow("game %d is not the current game (%d)" % (game, log.game_id))
        if not 1 <= first <= log.count + 1:
            raise ValueError("sequence numbers of game %d are 1..%d" % (game, log.count))
        for seq in range(first, log.count + 1):
            self.write(self.line(seq))
        return ("resend", "%d:%d" % (game, log.count))

    def new_game(self, control, fen, number, white, black, source=""):
        """A new game's record: its number (never one used before) and its game line."""
        header = "tc=%s fen=%s chess960=%s white=%s black=%s" % (
            control, P.encode(fen), "-" if number is None else number, P.encode(white), P.encode(black))
        if source:
            header += " source=" + P.encode(source)
        self.games = max(self.games, self.log.game_id) + 1
        self.log.new_game(self.games, header, number is not None)
        if self.journal is not None:
            self._fresh = True
            if self._held is None:
                self._held = []
        self.write(self.log.line(1))

    # ----- flash

    def load(self):
        """The journal's game into the log: a Recovered (firmware/app/journal.py), None if
        there is none. JournalError (moved aside) if it is damaged."""
        return self.journal.load(self.log)

    def recovered(self, r):
        """The journal's game is back in play: written again whole at the first commit (a
        new generation in fresh sectors, so nothing is ever programmed over an
        interrupted write, and the checkpoints go)."""
        self.games = max(self.games, r.game_id)
        self._committed = self.log.count
        self._fresh = True

    def forget(self):
        """A damaged journal: no game in the log."""
        self.log.count = 0
        self.log.game_id = 0

    def commit(self, now, clock, prepare=None):
        """Write the events not yet on flash and the clock's state, then let their lines
        (and those held behind them) go to the host; then the journal's housekeeping:
        checkpoint, and prepare (None: not now; see prepare()). The loop calls it once,
        at the end of each step."""
        j = self.journal
        log = self.log
        if j is not None and (self._fresh or log.count != self._committed):
            try:
                state = clock.state(now)
                if self._fresh:
                    self.games = max(self.games, log.game_id)
                    j.set_games(self.games)
                    j.begin(log.game_id, log.header,
                            (log.raw(s) for s in range(1, log.count + 1)), state)
                else:
                    j.commit([log.raw(s) for s in range(self._committed + 1, log.count + 1)],
                             log.count, state)
            except (OSError, MemoryError) as e:
                # A full or failing flash (or no memory for the write) must not stop the
                # game: it goes on in memory, and the host has every line.
                self._journal_off(e)
            self._committed = log.count
            self._fresh = False
            self._checkpoint_at = now
        held = self._held
        self._held = None
        if held:
            for line in held:
                self._out(line)
        if self.journal is not None:
            self.checkpoint(now, clock)
            if prepare is not None:
                self.prepare(clock, prepare)

    def prepare(self, clock, pressed):
        """Erase a journal sector ahead of need, at a moment that costs nothing: while no
        clock runs (one per call, until enough are ready), or right after a press (the
        press's time is taken; the opponent has just begun to think) when a very long
        game has nearly used up what was prepared. Never in the path of a move's line."""
        j = self.journal
        if j is None:
            return
        idle = clock.running < 0 or clock.paused or clock.stopped
        if idle or pressed:
            try:
                j.prepare(None if idle else LOW)
            except OSError as e:
                self._journal_off(e)

    def checkpoint(self, now, clock):
        """The running turn's time so far, every CHECKPOINT_EVERY_MS: after a power cut
        the arbiter is told how long the interrupted turn had run."""
        if self.journal is None or clock.running < 0 or clock.paused or \
                self.hal.diff(now, self._checkpoint_at) < CHECKPOINT_EVERY_MS:
            return
        self._checkpoint_at = now
        try:
            self.journal.checkpoint(self.log.count, clock.running, clock.state(now).turn_ms)
        except OSError as e:
            self._journal_off(e)

    def _journal_off(self, e):
        self.journal.close()
        self.journal = None
        if self._held is None:
            self._held = []
        self._held.append("warning " + P.encode("journal off: cannot write (%s)" % e))
