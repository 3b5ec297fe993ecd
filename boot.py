# Runs first at power-up. Nothing else must happen before the application: the USB serial
# stays MicroPython's own (the host talks to the application over it), and the filesystem
# stays writable by the firmware (presets, settings, the game journal).
