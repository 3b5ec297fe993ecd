# The move recogniser's one outlet (firmware/board/recognizer.py): where what it
# recognises and sees on the board goes.


class GameSink:
    """This one plays the moves on a rules Game and lets the reports go; the device gives
    its own (firmware/app/events.py) with the same methods."""

    def __init__(self, game):
        self.game = game

    # What the players did: the game follows.
    def make_move(self, m, now):
        """m, a legal move of the side to move, was made on the board."""
        self.game.push(m)

    def take_back(self, ply, now):
        """The board is back at the position after ply plies: the moves after it go."""
        while self.game.ply > ply:
            self.game.pop()

    def new_game(self, fen, chess960, now):
        """The start position was set up: a new game from fen (None: the normal start)."""
        self.game.reset(fen, chess960)

    def expected_made(self, now):
        """The move the host expected (the recogniser's expect) was just made on the
        board by itself, not completed by a press: its player's press is due."""

    # What the board shows: reports.
    def promotion(self, piece, square):
        """A pawn waits on square; piece is the promotion the buttons chose so far."""

    def touched(self, square):
        """A piece of the side to move was lifted and put back (art. 4.3)."""

    def attempt(self, frm, to):
        """An illegal move stands on the board (from, to; either may be None)."""

    def illegal_completed(self, side, attempt):
        """side pressed the clock with the illegal attempt on the board (7.5.1); the clock
        counts the press as one without a legal move."""

    def differs(self, missing, fixes):
        """The board is not the game's position: the squares missing a piece, and the
        (from, to) moves that would put it right."""

    def sync(self):
        """The board is the game's position again."""
