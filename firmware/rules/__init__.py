# The rule checker: positions, legal moves, notation and game end by the FIDE Laws.
# Import the modules you need (position, game, san, ...); nothing is imported here so
# that a device that needs only part of the checker does not pay RAM for the rest.
