"""Play a lichess game on the real pieces (`python -m host_tools play lichess`), through
lichess's Board API (host_tools/play/lichess_api.py) with the token in LICHESS_TOKEN.

What the board shows is kept equal to lichess's game, move by move:
- the player's move, once the board has it (its `move` line), goes to lichess at once and
  is completed on the board (`complete`: no press needed, lichess keeps the time);
- every move lichess has that the board has not (the opponent's, or one made on the
  website) is sent to the board with `expect`: its squares light up, the player feels it,
  carries it out, and the board takes only that move;
- lichess's clocks are set on the board's clock at every game state (`sync`);
- a take-back lichess granted is asked for on the board (put the pieces back); the end of
  the game is set on the board (`result`) and said - after the game's last move, the
  player's own (a mate on the board still goes to lichess) or the opponent's (shown and said
  on the board first: a mate there ends the game by itself).
A dropped connection to lichess is opened again; the game stream's first line says the
whole game, so a move is never lost and never sent twice (a move whose sending failed is
sent again only if lichess does not have it). At the keyboard: draw (offer or accept),
takeback (ask or accept), resign, abort, quit."""
from __future__ import annotations

import queue
import threading
import time

import chess

from host_tools.board.link import BoardError, BoardLink, LinkSink, castling_step
from host_tools.board.record import Outcome
from host_tools.protocol import encode
from host_tools.play.keyboard import typed
from host_tools.play.lichess_events import read as read_lichess
from host_tools.play.lichess_api import BoardApi, LichessError

ENDED = ("aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat",
         "noStart", "unknownFinish", "variantEnd")
FIRST_MOVE_WARN_MS = 15000  # warned when lichess would abort the game within this
RETRY_429_S = 60.0  # lichess: after a 429, wait a full minute
SEEK_SAY_S = 30  # while seeking, a word this often
GONE_WARN_S = 10  # lichess unreachable this long in a game: warned that he counts as gone


class OnlineGame:
    def __init__(self, link: BoardLink, api: BoardApi, say=print, speak=None, hands=None):
        self.link = link
        self.api = api
        self.say = say
        self.speak = speak
        self.hands = hands  # a Hands carrying out lichess's moves on a simulated board
        account = api.account()  # a bad token ends here, with lichess's reason
        self.me = (account.get("id") or account.get("username", "")).lower()
        self.game_id: str | None = None
        self.color: chess.Color | None = None
        self.full: dict | None = None
        self.moves: list[str] = []  # lichess's moves, UCI
        self.status = "started"
        self.finished = threading.Event()
        self._board_game: int | None = None  # the board's game number for this lichess game
        self._sent: dict[int, str] = {}  # ply (1-based) -> UCI sent to lichess, not yet seen back
        self._expected: tuple[int, str] | None = None  # (ply, UCI) sent with expect
        self._unsure: set[int] = set()  # plies whose sending failed on the way: lichess's next gameFull says
        self._told: set[str] = set()  # things said once per game state
        self._lost_at: float | None = None  # when the game's stream failed, until it is heard again
        self._results: queue.Queue = queue.Queue()
        self._result_due: str | None = None  # lichess's result, set on the board after its last move
        self._old: set[str] = set()  # his games going before a seek or challenge: not joined
        self._seeking_since: float | None = None  # a seek under way: progress said now and then
        self._seek_word_at = 0.0  # ...next at this time

    def board(self) -> chess.Board | None:
        """The position on the board (its game as the board reports it)."""
        r = self.link.session.record
        return r.board() if r is not None else None

    def players_turn(self) -> bool:
        """Whether the player at the board is to move there now: his turn on lichess, and
        the board has lichess's moves (his opponent's last one carried out)."""
        r = self.link.session.record
        return (r is not None and r.result == "*" and self._board_game is not None and r.game == self._board_game
                and self.status not in ENDED and len(r.plies) == len(self.moves) and self._my_turn())

    # ----- starting

    def _new_game_only(self) -> None:
        """A seek or a challenge wants a new game: the games he has going on lichess (the
        event stream announces them first) are not joined, only said."""
        try:
            self._old = set(self.api.playing())
        except LichessError:
            self._old = set()
        for gid in sorted(self._old):
            self.say(f"You have an unfinished game on lichess (lichess.org/{gid}): it goes on there; "
                     f"play it on the board with --game {gid}.")

    def seek(self, minutes: float, increment: int) -> None:
        self._new_game_only()
        self.api.events()
        self.api.seek(minutes, increment)
        self._seeking_since = time.monotonic()
        self._seek_word_at = self._seeking_since + SEEK_SAY_S
        self.say(f"Seeking a game of {minutes:g}+{increment} on lichess...")

    def challenge(self, username: str, minutes: float, increment: int) -> None:
        self._new_game_only()
        self.api.events()
        self.api.challenge(username, int(minutes * 60), increment)
        self.say(f"Challenge sent to {username} ({minutes:g}+{increment}); waiting for the answer...")

    def join(self, game_id: str) -> None:
        self.api.events()
        self._open(game_id)

    def wait(self) -> None:
        self.api.events()
        self.say("Waiting for a lichess game (accept or start one on lichess.org)...")

    def _open(self, game_id: str) -> None:
        if self.game_id == game_id:
            return
        self.game_id = game_id
        self.full = None
        self.moves = []
        self._sent.clear()
        self._unsure.clear()
        self._lost_at = None
        self._expected = None
        self._board_game = None
        self._result_due = None
        self._told.clear()
        self.finished.clear()
        self.api.game(game_id)

    # ----- the loop

    def run(self, until=None, commands: queue.Queue | None = None) -> None:
        heard = _Heard(self)
        while until is None or not until():
            try:
                what, detail = self.api.items.get(timeout=0.02)
                self._lichess(what, detail)
            except queue.Empty:
                pass
            while self.link.tell(heard):
                pass
            while True:
                try:
                    ply, uci, error = self._results.get_nowait()
                except queue.Empty:
                    break
                self._sent_result(ply, uci, error)
            if typed(commands, self.keyboard):
                return
            self._sync()
            self._watch_connection()
            self._seeking()

    # ----- lichess

    def _lichess(self, what: str, obj) -> None:
        if what in ("event", "game"):
            try:
                obj = read_lichess(what, obj)
            except ValueError as e:
                if "unreadable" not in self._told:  # once a game: a server gone wrong says it often
                    self._told.add("unreadable")
                    self.say(f"lichess sent a line this tool cannot read ({e}): it is left out.")
                return
        if what == "event":
            kind = obj["type"]
            game = obj.get("game")
            if kind == "gameStart" and game["compat"]["board"]:
                gid = game["gameId"]
                if gid and gid not in self._old and (self.game_id is None or self.finished.is_set()):
                    self._seeking_since = None
                    self._open(gid)
            elif kind == "challengeDeclined":
                self.say(f"The challenge was declined ({obj['challenge']['declineReason']}).")
        elif what == "game":
            self._told.discard("dropped")
            if self._lost_at is not None:
                self._lost_at = None
                if "gone" in self._told:
                    self._told.discard("gone")
                    self.say("lichess is back: the game goes on.")
            kind = obj["type"]
            if kind == "gameFull":
                self.full = obj
                self.color = chess.WHITE if obj["white"].get("id", "").lower() == self.me else chess.BLACK
                self._state(obj["state"], full=True)
            elif kind == "gameState":
                self._state(obj)
            elif kind == "opponentGone":
                if obj["gone"]:
                    secs = obj["claimWinInSeconds"]
                    self.say("Your opponent left the game" + (f": you may claim the win in {secs} s." if secs else "."))
                else:
                    self.say("Your opponent is back.")
            elif kind == "chatLine" and obj["username"].lower() != self.me:
                self.say(f"{obj['username']}: {obj['text'][:200]}")
        elif what == "game-error" and str(obj).startswith("HTTP 404"):
            self.say(f"lichess has no game {self.game_id}: check its id (the 8 letters after lichess.org/).")
            self.game_id = None
        elif what == "game-error" or what == "event-error":
            if what == "game-error" and self._lost_at is None:
                self._lost_at = time.monotonic()
            if "dropped" not in self._told:  # once an outage, not once per stream and try
                self._told.add("dropped")
                self.say(f"The connection to lichess dropped: {obj}; opening it again...")
        elif what == "seek-error":
            self.say(f"lichess refused the seek: {_words(obj)}")
        elif what == "event-closed":
            self.api.events()  # lichess ended it (a dropped connection): open it again
        elif what == "game-closed":
            if self.status not in ENDED and self.game_id:
                self.api.game(self.game_id)  # the stream ended before the game: again

    def _state(self, st: dict, full: bool = False) -> None:
        moves = st["moves"].split()
        if len(moves) < len(self.moves) and not full:
            self.say(f"Take-back on lichess: put the board back to {len(moves)} plies.")
        self.moves = moves
        for ply in list(self._sent):
            if ply <= len(moves):
                del self._sent[ply]  # lichess has it (or another move there: the board will differ)
            elif full and ply in self._unsure:
                del self._sent[ply]  # its sending failed and lichess does not have it: sent again
        if full:
            self._unsure.clear()
        self.status = st["status"]
        self._clock(st)
        self._offers(st)
        if self.status in ENDED:
            self._end(st)
        elif "expiration" in st and self._my_turn():
            exp = st["expiration"]
            left = exp.get("millisToMove", 0) - exp.get("idleMillis", 0)
            if 0 < left <= FIRST_MOVE_WARN_MS and "expiry" not in self._told:
                self._told.add("expiry")
                self.say(f"Make your first move within {left // 1000} s, or lichess aborts the game.")

    def _clock(self, st: dict) -> None:
        if not self.link.connected.is_set() or "wtime" not in st or "btime" not in st:
            return
        try:
            self.link.send(f"sync {st['wtime']} {st['btime']}")
        except BoardError:
            pass

    def _offers(self, st: dict) -> None:
        other = "b" if self.color == chess.WHITE else "w"
        for key, text in ((f"{other}draw", "Your opponent offers a draw: type draw to accept."),
                          (f"{other}takeback", "Your opponent asks to take back a move: type takeback to accept.")):
            if st.get(key) and key not in self._told:
                self._told.add(key)
                self.say(text)
            elif not st.get(key):
                self._told.discard(key)

    def _end(self, st: dict) -> None:
        if self.finished.is_set():
            return
        self.finished.set()
        result = Outcome(self.status, {"white": chess.WHITE, "black": chess.BLACK}.get(st.get("winner"))).result()
        if self.status == "aborted":
            text = "The game was aborted."
        else:
            text = f"Game over: {result} ({self.status})."
            self._result_due = result
        self._settle_result()
        self.say(text + " Type quit to leave, or start another game on lichess.org: it comes to the board.")
        if self.speak:
            self.speak(text)

    def _settle_result(self) -> None:
        """lichess's result on the board once the board has the game's last move (the
        opponent's is carried out first; a mate on the board ends it there by itself)."""
        r = self.link.session.record
        if r is not None and r.game == self._board_game and r.result == "*" and len(r.plies) < len(self.moves):
            return  # the last move first (_sync shows it)
        due, self._result_due = self._result_due, None
        if due and r is not None and r.result == "*":
            try:
                self.link.command(f"result {due}")
            except BoardError:
                pass  # the board ended it itself
        try:
            self.link.command("expect -")
        except BoardError:
            pass

    def _my_turn(self) -> bool:
        return self.color is not None and (len(self.moves) % 2 == 0) == (self.color == self._start_turn())

    def _start_turn(self) -> chess.Color:
        fen = (self.full or {}).get("initialFen", "startpos")
        return chess.WHITE if fen == "startpos" else chess.Board(fen).turn

    # ----- the board

    BUTTONS = {"plus": "draw", "minus": "takeback", "ok-long": "resign"}

    def _event(self, ev) -> None:
        """A new event of the board's game: nothing to do at once (the loop reads the
        session's record as it syncs with lichess)."""

    def _line(self, m) -> None:
        """A line of the board's: a button, an attempt, ..."""
        if m.kind == "button" and m.args:
            # The clock's buttons (docs/protocol.md): plus draw, minus take-back, ok held
            # resign - or abort, while lichess allows it (before each side has moved).
            word = self.BUTTONS.get(m.args[0])
            if word == "resign" and len(self.moves) < 2:
                word = "abort"
            if word:
                self.keyboard(word)
        elif m.kind == "attempt" and self._expected:
            if not castling_step(self.board(), self._expected[1], m.args[0] if m.args else ""):
                self.say(f"That is not the move: play {self._expected[1][:2]} to {self._expected[1][2:4]}.")

    def _disconnected(self) -> None:
        on = self.game_id and self.status not in ENDED and not self.finished.is_set()
        self.say("The board's line is gone: waiting for it to come back..." +
                 (" (the game goes on on lichess: your clock runs while it is your move)" if on else ""))

    def _names(self) -> tuple[str, str]:
        def name(p):
            p = p or {}
            n = p.get("name") or p.get("id") or ("lichess AI level %s" % p.get("aiLevel") if p.get("aiLevel") else "?")
            return n if not p.get("rating") else f"{n} ({p['rating']})"
        return name(self.full.get("white")), name(self.full.get("black"))

    def _ensure_board_game(self) -> bool:
        """The board plays this lichess game: a new game on it once (with the lichess
        game's start and names), or the board's current game if it is this one."""
        r = self.link.session.record
        if self._board_game is not None:
            return r is not None and r.game == self._board_game  # (its game line may be on its way)
        source = f"lichess.org/{self.game_id}"
        if r is not None and r.source == source and r.result == "*":
            self._board_game = r.game  # the board has it already (this program was restarted)
            return True
        clock = self.full["clock"]
        tc = "%d+%d" % (clock["initial"] // 1000, clock["increment"] // 1000) if clock else "-"
        white, black = self._names()
        cmd = f"new tc={tc} white={encode(white)} black={encode(black)} source={encode(source)}"
        fen = self.full.get("initialFen", "startpos")
        if fen != "startpos":
            cmd += " fen=" + encode(fen)
        try:
            answer = self.link.command(cmd)
        except BoardError as e:
            self.say(f"The board refused the game: {e}")
            return False
        self._board_game = int(answer.args[1]) if len(answer.args) > 1 and answer.args[1].isdigit() else None
        you = "White" if self.color == chess.WHITE else "Black"
        self.say(f"lichess game {self.game_id}: {white} - {black}; you play {you}. Set up the pieces.")
        return False

    def _sync(self) -> None:
        if self.full is None or not self.link.connected.is_set():
            return
        if not self._ensure_board_game():
            return
        r = self.link.session.record
        if r is None or r.game != self._board_game:
            return
        board = [p.uci for p in r.plies]
        lich = self.moves
        n = len(board)
        if board == lich[:n]:
            if n < len(lich) and r.result == "*":
                self._expect(n + 1, lich[n])  # also lichess's last move, when the game is over
            elif self._result_due:
                self._settle_result()
            return
        if n == len(lich) + 1 and board[:-1] == lich and self._is_mine(n) and self.status not in ENDED:
            # His move, also one that ended the game on the board (a mate): lichess must
            # have it, or its clock would run on and he would lose on time.
            if n in self._sent:
                return
            self._send(n, board[-1])  # first: lichess's clock is the one that counts
            if r.plies[-1].clk_ms is None and r.result == "*":
                self._complete(n)
            return
        if r.result != "*" or self.status in ENDED:
            return
        key = f"differs {n} {len(lich)}"
        if key not in self._told:
            self._told.add(key)
            common = 0
            while common < min(n, len(lich)) and board[common] == lich[common]:
                common += 1
            self.say(f"The board's game differs from lichess's from ply {common + 1}: take back "
                     f"{n - common} move(s) on the board.")

    def _is_mine(self, ply: int) -> bool:
        """Whether ply (1-based) is a move of the player at the board."""
        first = self._start_turn()
        mover = first if ply % 2 == 1 else (not first)
        return mover == self.color

    def _expect(self, ply: int, uci: str) -> None:
        if self._expected == (ply, uci):
            return
        try:
            self.link.command(f"expect {uci}")
        except BoardError as e:
            self.say(f"The board did not take lichess's move {uci}: {e}")
            self._expected = (ply, uci)  # (said once)
            return
        self._expected = (ply, uci)
        r = self.link.session.record
        b = r.board() if r is not None else None
        san = b.san(chess.Move.from_uci(uci)) if b is not None else uci
        who = "You (on lichess)" if self._is_mine(ply) else "Your opponent"
        self.say(f"{who} played {san}: make it on the board ({uci[:2]} to {uci[2:4]}).")
        if self.speak:
            self.speak(san)
        if self.hands is not None and b is not None:
            threading.Thread(target=self.hands.carry_out, args=(b, chess.Move.from_uci(uci)), daemon=True).start()

    def _complete(self, ply: int) -> None:
        side = "w" if (ply % 2 == 1) == (self._start_turn() == chess.WHITE) else "b"
        try:
            self.link.command(f"complete {side}")
        except BoardError:
            pass  # already completed by his own press

    def _send(self, ply: int, uci: str) -> None:
        self._sent[ply] = uci
        game_id = self.game_id

        def send():
            try:
                self.api.move(game_id, uci)
                self._results.put((ply, uci, None))
            except LichessError as e:
                self._results.put((ply, uci, e))
        threading.Thread(target=send, daemon=True).start()

    def _sent_result(self, ply: int, uci: str, error) -> None:
        if error is None:
            self.say(f"Your move {uci} is on lichess.")
            return
        if error == "again":  # the minute after a 429 is over
            if len(self.moves) < ply and self._sent.get(ply) == uci and self.game_id:
                self._send(ply, uci)
            return
        if error.status == 429:
            # lichess asks a client that got 429 to wait a full minute: the move goes again
            # then, if lichess does not have it by then.
            self.say(f"lichess asks to wait a minute before the next request: your move {uci} goes "
                     f"again in {RETRY_429_S:g} s.")
            timer = threading.Timer(RETRY_429_S, lambda: self._results.put((ply, uci, "again")))
            timer.daemon = True
            timer.start()
            return
        if error.status is None or error.status >= 500:
            # Not reached, or lichess could not take it now: sent again once lichess's
            # game stream, opened again, says (gameFull) that it does not have it - not
            # before, so an outage is not a storm of moves.
            self.say(f"Your move {uci} may not have reached lichess ({error}); checking...")
            self._unsure.add(ply)
            if self.game_id:
                self.api.game(self.game_id)
            return
        self.say(f"lichess refused your move {uci}: {error}. Take it back on the board.")

    def _seeking(self) -> None:
        """While a seek waits for an opponent, a word every SEEK_SAY_S."""
        since = self._seeking_since
        if since is None or self.game_id:
            return
        now = time.monotonic()
        if now >= self._seek_word_at:
            self._seek_word_at += SEEK_SAY_S
            self.say(f"Still seeking an opponent ({int(now - since)} s)...")

    def _watch_connection(self) -> None:
        """Warned once when lichess cannot be reached for a while in a game: lichess then
        counts him as gone (his opponent may claim the win), and his clock runs there."""
        if self._lost_at is None or "gone" in self._told or self.status in ENDED or not self.game_id:
            return
        if time.monotonic() - self._lost_at >= GONE_WARN_S:
            self._told.add("gone")
            text = (f"No connection to lichess for {GONE_WARN_S} s: your clock runs there, and if this "
                    "lasts lichess counts you as gone and your opponent may claim the win. Check the network.")
            self.say(text)
            if self.speak:
                self.speak("No connection to lichess.")

    # ----- the keyboard

    def keyboard(self, text: str) -> str | None:
        word = text.strip().lower()
        if word in ("quit", "exit", "q"):
            return "quit"
        if not self.game_id:
            if word:
                self.say("No game yet.")
            return None
        try:
            if word == "draw":
                self.api.draw(self.game_id, True)
                self.say("Draw offered (or accepted).")
            elif word == "takeback":
                self.api.takeback(self.game_id, True)
                self.say("Take-back asked (or accepted).")
            elif word == "resign":
                self.api.resign(self.game_id)
            elif word == "abort":
                self.api.abort(self.game_id)
            elif word:
                self.say("At the keyboard: draw, takeback, resign, abort, quit (moves are made on the board).")
        except LichessError as e:
            self.say(str(e))
        return None


def _words(err) -> str:
    """lichess's error (its JSON body or our LichessError) as words: "Invalid time control"
    from {"error": {"global": ["Invalid time control"]}}."""
    text = str(err)
    try:
        import json

        body = json.loads(text[text.index("{"):]) if "{" in text else None
    except ValueError:
        body = None
    if isinstance(body, dict):
        e = body.get("error", body)
        if isinstance(e, dict):
            parts = [str(x) for v in e.values() for x in (v if isinstance(v, list) else [v])]
            if parts:
                text = "; ".join(parts)
        elif isinstance(e, str):
            text = e
    if "Invalid time control" in text:
        text += " (the Board API takes rapid and slower games: minutes x 60 + 40 x increment of 480 s at least)"
    return text



class _Heard(LinkSink):
    """What the board's link tells the game, in the game's loop."""

    def __init__(self, game: OnlineGame):
        self.game = game

    def event(self, ev) -> None:
        self.game._event(ev)

    def line(self, m) -> None:
        self.game._line(m)

    def connected(self) -> None:
        self.game._expected = None  # sent again once the board is heard

    def disconnected(self) -> None:
        self.game._disconnected()
