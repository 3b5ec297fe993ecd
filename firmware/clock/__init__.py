# The dual chess clock: time controls (timecontrol), the clock (clock), what it shows
# (display) and the stored presets (presets).
