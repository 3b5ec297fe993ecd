# The device application: event log, protocol, the device loop.
