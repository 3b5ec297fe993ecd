# The simulated board: MicroPython code that runs the real firmware (firmware/) in the
# `micropython` unix port on a simulated HAL. Never deployed to a Pico.
