# The physical board: occupancy helpers (occupancy), the move recogniser (recognizer) and
# the suggestions that put a disturbed board right (fix).
