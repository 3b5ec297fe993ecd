# Signals a blind player can feel and a deaf player can see: patterns (patterns.py), numbers
# by vibration (numbercode.py), and their non-blocking player (player.py).
