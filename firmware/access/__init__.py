# Signals a blind player can feel and a deaf player can see: patterns (patterns.py), numbers
# by vibration (numbercode.py), and their non-blocking player (player.py); the settings
# (settings.py), which belong to the seats, the clock's two halves (seats.py); the clock's
# access menu and practice (menu.py); the board's own voice (voice.py, phrases.py).
