# The hardware layer: the only part of the firmware that may touch pins (rp2) - or pretend
# to (sim). Both give the device the same small interface:
#   now() -> ticks ms; diff(a, b) -> ticks_diff
#   scan(out8) -> out8               the reed matrix, 8 bytes, rank 1 first
#   inputs() -> [(kind, a, b, t)]    ("press", side, None, t) and ("button", name, down, t),
#                                    t the tick the button's interrupt took
#   connect(board, press, button)    where feed(now) hands both, merged in time order
#                                    (firmware/hal/base.py)
#   read() -> bytes or None          what the host sent (USB serial), never blocking
#   write(bytes)                     to the host
#   display(white_text, black_text)  the clock's two faces (firmware/hal/face.py)
#   led(name, on)                    "white", "black": the running-side indicators
#   signal(side, on)                 a side's SIGNAL light on its face (a deaf player's)
#   motor(side, duty_percent)        a player's vibration motor (0 = off)
#   buzzer(freq)                     the buzzer (0 = off)
#   squares(kinds64)                 the LEDs under the squares, if the board has them (0 off,
#                                    1 the last move's from-square, 2 its to-square, 3 put
#                                    this right)
#   power() -> (mV, usb, low, %)     the cells' voltage and charge left (None, None without
#                                    a battery), USB power, the low-battery sign
#   feed_watchdog()                  the loop is alive
