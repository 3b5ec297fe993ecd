# The clock's time formats.
from firmware.clock.display import format_time


def test_formats():
    assert format_time(5383000) == "1:29:43"
    assert format_time(3600000) == "1:00:00"
    assert format_time(3599999) == "59:59"
    assert format_time(277000) == "4:37"
    assert format_time(20000) == "0:20"
    assert format_time(19999) == "19.9"
    assert format_time(9050) == "9.0"
    assert format_time(0) == "0.0"
    assert format_time(-5) == "0.0"
    assert format_time(19999, tenths_below=0) == "0:19"

