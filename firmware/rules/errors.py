# Errors of the rule checker. All subclass ValueError, as python-chess's do.


class InvalidFenError(ValueError):
    """A FEN (or Chess960 number) that does not describe a playable position."""


class InvalidMoveError(ValueError):
    """A move string that cannot be parsed (not UCI, bad square, bad piece)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""
