# Time control strings: PGN TimeControl syntax and the documented extensions.
from firmware.clock.timecontrol import (parse, TimeControlError, FISCHER, US_DELAY, BRONSTEIN,
                                        BYOYOMI, CANADIAN, HOURGLASS, UPCOUNT, STANDARD, RAPID, BLITZ)
from tests.firmware.support import raises


def test_pgn_forms():
    tc = parse("40/5400+30:1800+30")
    assert len(tc.periods) == 2
    p1, p2 = tc.periods
    assert (p1.moves, p1.base_ms, p1.method, p1.extra_ms) == (40, 5400000, FISCHER, 30000)
    assert (p2.moves, p2.base_ms, p2.method, p2.extra_ms) == (0, 1800000, FISCHER, 30000)
    tc = parse("300+2")
    assert (tc.periods[0].base_ms, tc.periods[0].extra_ms) == (300000, 2000)
    assert parse("300").periods[0].extra_ms == 0
    assert parse("*180").method == HOURGLASS
    assert parse("-").method == UPCOUNT and parse("up").method == UPCOUNT


def test_extensions():
    assert parse("900d5").periods[0].method == US_DELAY
    assert parse("600b5").periods[0].method == BRONSTEIN
    p = parse("3600y5x30").periods[0]
    assert (p.method, p.base_ms, p.count, p.overtime_ms) == (BYOYOMI, 3600000, 5, 30000)
    p = parse("3600c25/600").periods[0]
    assert (p.method, p.count, p.overtime_ms) == (CANADIAN, 25, 600000)


def test_text_round_trip():
    for text in ("40/5400+30:1800+30", "300+2", "300", "900d5", "600b5", "3600y5x30",
                 "3600c25/600", "*180", "up", "40/7200:20/3600:1800", "0+5"):
        assert parse(text).text() == text


def test_bad_strings_say_what_is_wrong():
    cases = (
        ("", "empty"),
        ("abc", "whole number"),
        ("300+", "increment must be a whole number"),
        ("300+x", "increment must be a whole number"),
        ("0/300", "move count must be at least 1"),
        ("40/", "time must be a whole number"),
        ("3600y5", "byo-yomi is written"),
        ("3600c25", "Canadian byo-yomi is written"),
        ("3600y0x30", "at least one period"),
        ("3600y5x30:600", "byo-yomi can only be the last period"),
        ("?", "unknown"),
        ("*0", "hourglass needs some time"),
        ("0", "no time and no increment"),
        ("99999999", "too large"),
        ("300+2:", "whole number"),
        (300, "a string"),
    )
    for text, reason in cases:
        e = raises(TimeControlError, parse, text)
        assert reason in str(e), (text, str(e))
        assert isinstance(e, ValueError)


def test_classification_by_base_plus_60_increments():
    # FIDE A.1, B.1: blitz <= 10 min, rapid more than 10 and less than 60, else standard.
    assert parse("40/5400+30:1800+30").classification() == STANDARD
    assert parse("5400+30").classification() == STANDARD
    assert parse("3600").classification() == STANDARD
    assert parse("3599").classification() == RAPID
    assert parse("900+10").classification() == RAPID  # 15 + 10 = 25 min
    assert parse("1500+10").classification() == RAPID
    assert parse("600").classification() == BLITZ
    assert parse("600+1").classification() == RAPID  # 11 min
    assert parse("180+2").classification() == BLITZ
    assert parse("300+3").classification() == BLITZ  # 5 + 3 = 8 min
    assert parse("2700+15").classification() == STANDARD  # 45 + 15 = 60 min
