# The pin map of the board: the one place that says which Pico GPIO does what. The rp2 HAL
# reads it, and so does the circuit in hardware/ (a test checks they agree pin by pin).
#
# GPIO budget (the Pico has 26 on its header: GP0-GP22, GP26-GP28):
#   reed matrix   11  rows through a 74HC138 decoder (3 address lines: only one row is
#                     ever driven, low), 8 column inputs with pull-ups, read in one go
#   clock buttons  2
#   menu buttons   4  plus, minus, ok, menu
#   I2C            2  the two clock faces (an HT16K33 each, 0x70 and 0x71: firmware/hal/face.py)
#   motors         2  one vibration motor per player (PWM through a transistor)
#   buzzer         1  PWM
#   side LEDs      2  which clock runs, seen from 10 m
#   square LEDs    1  optional WS2812 chain, one per square (move and "put it here" hints)
#   battery        1  the cells' voltage through a 1:2 divider (ADC2)
#   total         26  of 26. Driving 8 rows directly would need 30.
# Inside the Pico: GP24 senses VBUS (USB power); GP29 reads VSYS / 3 (the boost's output,
# not the cells: unused).

ROW_SELECT = (0, 1, 2)  # 74HC138 A0, A1, A2; Y0..Y7 drive rank 1..8 low
COLUMNS = (3, 4, 5, 6, 7, 8, 9, 10)  # file a..h, consecutive: one register read
CLOCK_WHITE = 11
CLOCK_BLACK = 12
BUTTON_PLUS = 13
BUTTON_MINUS = 14
BUTTON_OK = 15
BUTTON_MENU = 16
MOTOR_WHITE = 17  # PWM slice 0
BUZZER = 18  # PWM slice 1
LED_WHITE = 19
I2C_SDA = 20  # I2C0
I2C_SCL = 21
MOTOR_BLACK = 22  # PWM slice 3: motors and buzzer on different slices (frequencies)
LED_BLACK = 26
SQUARE_LEDS = 27
BATTERY_ADC = 28  # ADC2: the cells through 100k/100k (firmware/hal/battery.py)
VBUS_SENSE = 24

I2C_ID = 0
DISPLAY_WHITE = 0x70
DISPLAY_BLACK = 0x71
# Or each face on two ready-made quad 14-segment backpacks (firmware/hal/backpack.py), the
# left one first, at addresses clear of the face boards' (A1; A0+A1; A2; A0+A2 soldered):
# the HAL takes whichever answers (firmware/hal/rp2.py: find_face).
BACKPACKS_WHITE = (0x72, 0x73)
BACKPACKS_BLACK = (0x74, 0x75)
# A blind player's ask key (appendix D: he asks for his time without touching his lever)
# and each player's draw key (9.1.2: a draw offer a deaf or blind opponent can see or
# feel): on each face, keys the face's HT16K33 scans, between COM1 (KS0) and ROW3 (K1),
# ROW4 (K2), each through a diode - no GPIO is free. A press sets its bit of the key RAM's
# first byte. On backpacks, the same wiring to the left backpack's HT16K33.
ASK_KEYS = (("ask-white", DISPLAY_WHITE), ("ask-black", DISPLAY_BLACK))
ASK_KEY_COM = 1  # KS0
ASK_KEY_ROW = 3  # K1
ASK_KEY_BIT = 0
DRAW_KEYS = (("draw-white", DISPLAY_WHITE), ("draw-black", DISPLAY_BLACK))
DRAW_KEY_ROW = 4  # K2
DRAW_KEY_BIT = 1

# The optional audio module (a DFPlayer Mini, the board's own voice) has no GPIO: it hangs
# on the same I2C bus through an SC16IS750 UART bridge, its A0 and A1 to GND.
AUDIO_BRIDGE = 0x4D

BUTTONS = (
    ("white", CLOCK_WHITE),
    ("black", CLOCK_BLACK),
    ("plus", BUTTON_PLUS),
    ("minus", BUTTON_MINUS),
    ("ok", BUTTON_OK),
    ("menu", BUTTON_MENU),
)


def header_pins():
    """Every header GPIO the board uses, by name (for the circuit and its checks)."""
    out = {"ROW_A%d" % i: p for i, p in enumerate(ROW_SELECT)}
    out.update({"COL_%s" % "abcdefgh"[i]: p for i, p in enumerate(COLUMNS)})
    out.update({"CLOCK_WHITE": CLOCK_WHITE, "CLOCK_BLACK": CLOCK_BLACK, "BUTTON_PLUS": BUTTON_PLUS,
                "BUTTON_MINUS": BUTTON_MINUS, "BUTTON_OK": BUTTON_OK, "BUTTON_MENU": BUTTON_MENU,
                "MOTOR_WHITE": MOTOR_WHITE, "MOTOR_BLACK": MOTOR_BLACK, "BUZZER": BUZZER,
                "LED_WHITE": LED_WHITE, "LED_BLACK": LED_BLACK, "I2C_SDA": I2C_SDA,
                "I2C_SCL": I2C_SCL, "SQUARE_LEDS": SQUARE_LEDS,
                "BATTERY_ADC": BATTERY_ADC})
    return out
