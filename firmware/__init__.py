# The board's firmware: pure logic packages (rules, ...) and the hardware layer (hal).
