# The device's side of the serial protocol: answers, errors, resends (docs/protocol.md).
from firmware.version import VERSION
from firmware.board.recognizer import SETTLE_MS
from firmware.app.device import Device
from firmware.rules.squares import WHITE, BLACK
from tests.firmware.fakehal import FakeHal, fresh_device, run, set_square, speak_first
from tests.firmware.support import tmp

MICROPYTHON_HEAP = "384K"  # the whole application, all of its code on this 64-bit heap (the chip keeps it frozen in flash)
PRESETS = tmp("test-device-presets.json")
CONFIG = tmp("test-device-config.json")


def _device():
    return fresh_device("test-device")  # every test starts from the default settings


def _ask(dev, hal, text, ms=50):
    hal.send(text)
    while hal.inbox:
        run(dev, hal, 10)
    run(dev, hal, ms)
    return [l for l in hal.lines() if not l.startswith("clock ")]


def test_the_board_never_speaks_first():
    # A DGT program may have the port open before the board starts, and reads strictly:
    # nothing goes out until the host has spoken, however long (a game set up, a clock
    # line, a power line would all be due). Then hello is answered with the game, and
    # the game's events are there to be asked for.
    dev, hal = fresh_device("test-device", speak=False)
    run(dev, hal, 65000)
    assert hal.lines() == []
    assert _ask(dev, hal, "hello\n") == ["hello proto=1 fw=" + VERSION + " board=sim game=1 seq=1"]
    assert _ask(dev, hal, "resend 1\n")[0].startswith("@1:1 game tc=300+2 fen=")


def test_errors_name_the_problem_and_change_nothing():
    dev, hal = _device()
    hal.lines()
    before = (dev.record.log.game_id, dev.record.log.count, dev.game.fen(), dev.games.control)
    cases = (
        ("frobnicate\n", "err unknown-command frobnicate"),
        ("new tc=300+\n", "err bad-argument"),
        ("new fen=rnbqkbnr/8/8\n", "err bad-argument"),
        ("new chess960=960\n", "err bad-argument"),
        ("new tc=300 fen=x chess960=3\n", "err bad-argument"),
        ("new colour=red\n", "err bad-argument"),
        ("set time w 12x\n", "err bad-argument"),
        ("set time q 100\n", "err bad-argument"),
        ("resend 99\n", "err bad-argument"),
        ("resend 7:1\n", "err not-now"),
        ("resign\n", "err bad-argument"),
        ("config settle=900\n", "err bad-argument"),
        ("config autopenalty=maybe settle=100\n", "err bad-argument"),
        ("pause\n", "err not-now"),
        ("\x01\x02garbage\n", "err garbage"),
        ("x" * 500 + "\n", "err line-too-long"),
        ("caf\xc3\xa9\n", "err garbage"),
    )
    for text, want in cases:
        got = _ask(dev, hal, text)
        assert len(got) == 1 and got[0].startswith(want), (text, got)
    assert (dev.record.log.game_id, dev.record.log.count, dev.game.fen(), dev.games.control) == before
    assert dev.recognizer.settle_ms == SETTLE_MS and not dev.match.auto_penalties


def test_new_game_start_pause_corrections_and_result():
    dev, hal = _device()
    hal.lines()
    got = _ask(dev, hal, "new tc=40/5400+30:1800+30 white=Anna%20Rudolf black=Bea chess960=518\n")
    assert got[0].startswith("@2:1 game tc=40/5400+30:1800+30 fen=") and "white=Anna%20Rudolf" in got[0]
    assert got[-1] == "ok new 2"
    assert _ask(dev, hal, "start\n") == ["@2:2 start", "ok start"]
    assert _ask(dev, hal, "start\n")[0].startswith("err not-now")
    assert _ask(dev, hal, "set time w 1000\n")[0].startswith("err not-now")  # only in pause
    assert _ask(dev, hal, "pause\n") == ["@2:3 pause", "ok pause"]
    assert _ask(dev, hal, "set time b 600000\n") == ["@2:4 set time b 600000", "ok set time"]
    assert _ask(dev, hal, "set moves w 39\n") == ["@2:5 set moves w 39", "ok set moves"]
    assert _ask(dev, hal, "resume\n") == ["@2:6 resume", "ok resume"]
    assert _ask(dev, hal, "penalty illegal w\n") == ["@2:7 illegal w 1", "@2:8 penalty b 120000", "ok penalty illegal"]
    assert _ask(dev, hal, "resign b\n") == ["@2:9 result 1-0 resignation", "ok resign"]
    assert _ask(dev, hal, "resign w\n")[0].startswith("err not-now")


def test_resend_gives_the_same_lines_again():
    dev, hal = _device()
    hal.lines()
    first = _ask(dev, hal, "resend 1\n")
    _ask(dev, hal, "start\n")
    _ask(dev, hal, "pause\n")
    _ask(dev, hal, "resume\n")
    got = _ask(dev, hal, "resend 1\n")
    assert got[0] == first[0]
    assert got[1:4] == ["@1:2 start", "@1:3 pause", "@1:4 resume"]
    assert got[-1] == "ok resend 1:4"
    assert _ask(dev, hal, "resend 1:5\n") == ["ok resend 1:4"]  # nothing new: still ok


def test_a_move_made_on_the_board_reaches_the_host():
    dev, hal = _device()
    _ask(dev, hal, "start\n")
    hal.occ[1] &= ~(1 << 4)  # e2 empty
    run(dev, hal, 100)
    hal.occ[3] |= 1 << 4  # e4 occupied
    run(dev, hal, 100)
    hal.queue.append(("press", WHITE, None, hal.t))
    run(dev, hal, 50)
    lines = [l for l in hal.lines() if l.startswith("@")]
    assert lines[0] == "@1:3 move 1 e2e4 e4"
    assert lines[1].startswith("@1:4 clk 1 ")
    assert hal.faces and hal.leds == {"white": False, "black": True}
    # The square LEDs show the move; a knocked piece lights where it belongs until it is back.
    assert hal.lit[12] == 1 and hal.lit[28] == 2 and sum(1 for k in hal.lit if k) == 2
    hal.occ[6] &= ~(1 << 1)  # b7 knocked off its square
    run(dev, hal, 2000)
    assert any(l.startswith("board differs missing=b7") for l in hal.lines())
    assert hal.lit[49] == 3 and hal.lit[12] == 0
    hal.occ[6] |= 1 << 1
    run(dev, hal, 500)
    assert "board sync" in hal.lines()
    assert hal.lit[12] == 1 and hal.lit[28] == 2 and hal.lit[49] == 0


def test_random_bytes_never_break_the_device():
    dev, hal = _device()
    hal.lines()
    seed = [99]

    def rnd():
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
        return (seed[0] >> 8) & 0xFF

    fen = dev.game.fen()
    for _ in range(20):
        hal.send(bytes(rnd() for _ in range(200)))
        run(dev, hal, 100)
    hal.send("\nhello\n")
    run(dev, hal, 50)
    lines = hal.lines()
    assert lines[-1].startswith("hello proto=1") or any(l.startswith("hello proto=1") for l in lines)
    assert dev.game.fen() == fen and dev.record.log.count == 1


def test_selftest_finds_stuck_and_dead_squares_and_buttons():
    dev, hal = _device()
    hal.occ[:] = bytes(8)
    hal.occ[2] = 1 << 5  # f3 reads occupied on an empty board: stuck
    run(dev, hal, 50)
    hal.lines()
    assert _ask(dev, hal, "selftest start\n") == ["ok selftest start"]
    assert [(s, d) for _, s, d in hal.motors] == [(WHITE, 100), (BLACK, 100)]  # both buzz
    assert [f for _, f in hal.tones] == [2000]
    for sq in range(64):  # a piece swept over every square but h8 (dead)
        if sq != 63:
            hal.occ[sq >> 3] |= 1 << (sq & 7)
            run(dev, hal, 10)
            if sq != 21:
                hal.occ[sq >> 3] &= ~(1 << (sq & 7)) & 0xFF
    hal.queue.append(("press", BLACK, None, hal.t))
    hal.queue.append(("button", "plus", True, hal.t))
    run(dev, hal, 500)
    got = _ask(dev, hal, "selftest report\n")
    # (swept square by square, 10 ms each: every square crossed but h8 and the stuck f3 is
    # measured, each read all the way across)
    assert got == ["selftest stuck=f3 dead=h8 buttons=black,plus measured=62 weak=-", "ok selftest report"]
    assert hal.motors[-1][2] == 0 and hal.tones[-1][1] == 0  # the buzz ended
    assert _ask(dev, hal, "selftest stop\n") == ["ok selftest stop"]
    assert _ask(dev, hal, "selftest report\n")[0].startswith("err not-now")


def test_selftest_maps_how_far_across_its_square_each_switch_reads():
    # A piece slid steadily along rank 4, a square a second: each square reads it 850 ms of
    # the second it takes to cross it (85 %), but d4's only 500 ms (a dead switch of its
    # three, or a magnet off its place); then along file b, where b4 reads 900 ms.
    dev, hal = _device()
    hal.occ[:] = bytes(8)
    run(dev, hal, 50)
    _ask(dev, hal, "selftest start\n")

    def slide(squares, reads):
        for sq, ms in zip(squares, reads):
            run(dev, hal, (1000 - ms) // 2)
            hal.occ[sq >> 3] |= 1 << (sq & 7)
            run(dev, hal, ms)
            hal.occ[sq >> 3] &= ~(1 << (sq & 7)) & 0xFF
            run(dev, hal, (1000 - ms) - (1000 - ms) // 2)
    slide([24 + f for f in range(8)], [850, 850, 850, 500, 850, 850, 850, 850])
    slide([8 * r + 1 for r in range(8) if r != 3], [850, 850, 850, 850, 850, 850, 850])
    got = _ask(dev, hal, "selftest map\n")
    assert got[-1] == "ok selftest map" and len(got) == 9

    def shares(line):
        return [w.split("=")[1] for w in line.split()[3:]]
    rank4 = [int(v) for v in shares(got[3])]  # (to a scan's tick)
    assert all(abs(v - want) <= 2 for v, want in zip(rank4, [85, 85, 85, 50, 85, 85, 85, 85])), got[3]
    assert shares(got[0])[0] == "-" and abs(int(shares(got[0])[1]) - 85) <= 2 and set(shares(got[0])[2:]) == {"-"}
    assert _ask(dev, hal, "selftest report\n")[0].endswith(" measured=15 weak=d4")


def test_power_and_the_low_battery_sign():
    dev, hal = _device()
    hal.power_state = (3400, False, True, 5)
    run(dev, hal, 31000)
    lines = hal.lines()
    assert "power 3400 battery low" in lines
    assert hal.faces[-1][0].endswith(" L")
    assert dev.controls.battery == "5%"  # the level the arbiter's menu shows (C.02)


def test_the_clock_menu_from_the_buttons():
    dev, hal = _device()
    _ask(dev, hal, "start\n")
    run(dev, hal, 1000)
    hal.queue.append(("button", "menu", True, hal.t))
    run(dev, hal, 50)
    assert "@1:3 pause" in hal.lines()
    assert hal.faces[-1] == ("W MIN", "4:58")
    for name in ["minus", "ok"] + ["ok"] * 7:  # White one minute less, the rest as it was
        hal.queue.append(("button", name, True, hal.t))
        run(dev, hal, 20)
    assert hal.faces[-1] == ("BATTERY", "USB")  # C.02: the battery's level
    hal.queue.append(("button", "ok", True, hal.t))
    run(dev, hal, 20)
    assert hal.faces[-1] == ("UPDATE", "NO")  # left at NO: no restart
    for name in ["ok"]:
        hal.queue.append(("button", name, True, hal.t))
        run(dev, hal, 20)
    lines = hal.lines()
    assert "@1:4 set time w 238000" in lines
    hal.queue.append(("button", "menu-long", True, hal.t))
    run(dev, hal, 50)
    assert "@1:5 resume" in hal.lines()


def test_the_presets_by_command_and_on_the_menu():
    dev, hal = _device()
    hal.lines()
    got = _ask(dev, hal, "preset list\n")
    assert got[0] == "preset 1 FIDE%20standard%2090/40+30 40/5400+30:1800+30" and got[-1] == "ok preset list"
    assert _ask(dev, hal, "new preset=7\n")[-1].startswith("ok new")
    assert dev.games.control == "300+3"
    assert _ask(dev, hal, "new preset=99\n")[0].startswith("err")
    assert dev.games.control == "300+3"
    hal.queue.append(("button", "menu", True, hal.t))  # before the start: the presets
    run(dev, hal, 50)
    assert dev.controls.menu is not None
    assert hal.faces[-1][0].startswith("P1 ")
    hal.queue.append(("button", "menu", True, hal.t))  # closed, nothing changed
    run(dev, hal, 50)
    assert dev.controls.menu is None and dev.games.control == "300+3"


def test_signals_for_a_blind_player():
    dev, hal = _device()
    hal.lines()
    got = _ask(dev, hal, "access blind=w thresholds=290\n")
    assert got == ["access blind=left visual=- buzzer=off code=tactileclock intensity=80,100 thresholds=290 "
                   "speech=off volume=20 ears=- white=left",
                   "ok access"]
    assert _ask(dev, hal, "access blind=x\n")[0].startswith("err bad-argument")
    before = hal.t
    _ask(dev, hal, "start\n")  # the clock starts within these steps
    started = hal.t
    hal.motors.clear()
    run(dev, hal, 11000)  # White's time passes 4:50: the first threshold's pattern, one long pulse
    assert [(s, d) for _, s, d in hal.motors] == [(WHITE, 80), (WHITE, 0)]
    on, off = hal.motors[0][0], hal.motors[1][0]
    assert 740 <= off - on <= 760  # the long pulse
    assert before + 10000 <= on <= started + 10020  # when 10 s of his time were gone
    # Asking for one's time with the ask key, as the faces give it: test_levers.py.


def test_a_deaf_player_sees_the_signals_on_his_own_light():
    dev, hal = _device()
    _ask(dev, hal, "access visual=b\n")
    _ask(dev, hal, "start\n")
    leds = []
    hal.led = lambda name, on: leds.append((hal.t, name, on))
    hal.signals.clear()
    _ask(dev, hal, "pause\n", ms=3000)  # the arbiter is called: l s s l on Black's light
    black = [(t, on) for t, side, on in hal.signals if side == BLACK]
    flashes = [b[0] - a[0] for a, b in zip(black[::2], black[1::2]) if a[1] and not b[1]]
    assert flashes == [750, 250, 250, 750]  # every pulse whole: the light is his alone
    assert not any(side == WHITE for _, side, _ in hal.signals)  # White's light is not his
    assert not any(on for _, name, on in leds)  # the running-side LEDs keep their meaning



def test_settings_survive_a_restart_and_a_bad_file_gives_defaults():
    dev, hal = _device()
    hal.lines()
    assert _ask(dev, hal, "config freeze=off autopenalty=on settle=60\n") == ["ok config"]
    assert _ask(dev, hal, "config orientation=turned\n") == ["ok config"]
    dev = hal = None  # the power goes off: only what is on flash is left
    hal2 = FakeHal()
    dev2 = Device(hal2, presets_path=PRESETS)  # the power went off and on
    assert dev2.games.freeze is False and dev2.match.auto_penalties and dev2.recognizer.settle_ms == 60
    assert dev2.recognizer.orientation is True and dev2.clock.freeze_on_flag is False
    with open(CONFIG, "w") as f:
        f.write('{"settle": "9000"}')
    dev2 = hal2 = None
    hal3 = FakeHal()
    dev3 = Device(hal3, presets_path=PRESETS)
    run(dev3, hal3, 50)
    speak_first(dev3, hal3)
    assert any(l.startswith("warning settings%20unreadable") for l in hal3.lines())
    assert dev3.recognizer.settle_ms == SETTLE_MS and not dev3.match.auto_penalties


def test_scans_taken_late_meet_the_press_at_its_own_time():
    # A HAL that scans on time (firmware/hal/scanner.py): a step that comes late finds
    # several scans and a press waiting; the press is handled between the scans it came
    # between, so a move placed before the press is completed by it.
    from firmware.app.device import Device
    from tests.firmware.fakehal import FakeHal, run, set_square
    from firmware.rules.squares import WHITE

    class TimedHal(FakeHal):
        def __init__(self):
            FakeHal.__init__(self)
            self.pending = []

        def take_scan(self, out):
            if not self.pending:
                return None
            t, occ = self.pending.pop(0)
            out[:] = occ
            return t

    hal = TimedHal()
    dev = Device(hal, presets_path=tmp("test-timed-presets.json"))
    hal.pending.append((0, bytes(hal.occ)))
    run(dev, hal, 50)
    hal.send("start\n")
    run(dev, hal, 50)
    board = bytearray(hal.occ)
    t = hal.t
    set_square(board, "e2", False)
    hal.pending.append((t + 10, bytes(board)))
    hal.pending.append((t + 40, bytes(board)))
    set_square(board, "e4", True)
    for k in range(5):
        hal.pending.append((t + 70 + 10 * k, bytes(board)))
    hal.queue.append(("press", WHITE, None, t + 95))  # after e4 was placed, mid-settle
    # The opponent's hand already on the board after the press (scans after it).
    set_square(board, "e7", False)
    for k in range(3):
        hal.pending.append((t + 130 + 10 * k, bytes(board)))
    hal.t = t + 160
    dev.scan_step(hal.t)
    lines = hal.lines()
    moves = [l for l in lines if " move " in l]
    assert moves and moves[0].endswith("move 1 e2e4 e4"), lines
    assert any(" clk 1 " in l for l in lines), lines
    assert not any(l.startswith("illegal-press") for l in lines), lines


def test_memory_tells_the_heap_and_its_largest_block():
    import gc
    import sys

    dev, hal = fresh_device("memory")
    run(dev, hal, 50)
    hal.lines()
    got = _ask(dev, hal, "memory\n")
    assert len(got) == 1 and got[0].startswith("ok memory ")
    figures = dict(w.split("=") for w in got[0].split()[2:])
    free, used, largest = int(figures["free"]), int(figures["used"]), int(figures["largest"])
    if sys.implementation.name != "micropython":
        assert (free, used, largest) == (-1, -1, -1)
        return
    assert used > 0 and 0 < largest <= free and largest % 16 == 0
    # It is a block the heap can really give; one block more than it cannot be had
    # while the heap stays as it is (the fragments the device holds are kept).
    gc.collect()
    b = bytearray(largest)
    assert len(b) == largest


def test_a_mating_promotion_is_recorded_without_a_press():
    # 1. c8=Q# with no press after it (the game ended: 6.2.1.1): the board takes the
    # promotion after its hold, and the record has the move, its clock and the result.
    dev, hal = _device()
    hal.occ[:] = bytes(8)
    for sq in ("a8", "c7", "b6"):
        set_square(hal.occ, sq, True)
    run(dev, hal, 100)
    _ask(dev, hal, "new fen=k7/2P5/1K6/8/8/8/8/8%20w%20-%20-%200%201\n")
    _ask(dev, hal, "start\n")
    hal.lines()
    set_square(hal.occ, "c7", False)
    run(dev, hal, 300)
    set_square(hal.occ, "c8", True)
    run(dev, hal, 2000)
    lines = [l for l in hal.lines() if l.startswith("@")]
    assert lines[0].endswith(" move 1 c7c8q c8=Q#")
    assert " clk 1 " in lines[1] and lines[-1].endswith(" result 1-0 checkmate"), lines


def _move(dev, hal, frm, to):
    """A piece carried from frm to to, as the board sees it, and time to settle."""
    set_square(hal.occ, frm, False)
    run(dev, hal, 300)
    set_square(hal.occ, to, True)
    run(dev, hal, 600)


def _key(dev, hal, name, ms=100):
    hal.queue.append(("button", name, True, hal.t))
    run(dev, hal, ms)


def test_a_deaf_player_reads_every_event_on_his_own_face():
    # White is deaf (access visual=w): every event shows on his face as text while his
    # clock stands, beside his running time as a sign (never over it: 6.3, C.02), for a
    # few seconds; a draw offer stays until he answers. Black's face shows his clock.
    dev, hal = _device()
    _ask(dev, hal, "access visual=w\n")
    _ask(dev, hal, "start\n")  # White's clock runs
    white = lambda: hal.faces[-1][0]
    _ask(dev, hal, "pause\n")
    assert white() == "PAUSE" and not hal.faces[-1][1].startswith("PAUSE")
    run(dev, hal, 4000)
    _ask(dev, hal, "resume\n")
    assert white().startswith("4:5") and white().endswith("~GO")  # his time runs, the sign beside it
    run(dev, hal, 4100)
    assert "~" not in white()  # a few seconds, then gone
    _ask(dev, hal, "penalty illegal b\n")  # Black's illegal move: a minute to White (blitz)
    assert white().endswith("~+1")
    hal.queue.append(("press", WHITE, None, hal.t))  # White presses without a move: 7.5.3
    run(dev, hal, 100)
    assert white().endswith("~IL") and "illegal-press w 1" in hal.lines()
    _move(dev, hal, "e2", "e4")
    hal.queue.append(("press", WHITE, None, hal.t))
    run(dev, hal, 100)
    hal.queue.append(("press", BLACK, None, hal.t))  # Black's press without a move
    run(dev, hal, 100)
    assert white() == "OPP ILL"  # White's clock stands: the whole face says it
    _key(dev, hal, "draw-black")  # Black offers a draw from his key
    assert white() == "DRAW?" and "draw-offer b" in hal.lines()
    run(dev, hal, 8000)
    assert white() == "DRAW?"  # until White answers
    _move(dev, hal, "e7", "e5")
    hal.queue.append(("press", BLACK, None, hal.t))
    run(dev, hal, 100)
    assert white().endswith("~DR")  # beside his running time now
    _move(dev, hal, "g1", "f3")
    hal.queue.append(("press", WHITE, None, hal.t))  # he moved on: declined (9.1.2.3)
    run(dev, hal, 100)
    assert "draw-offer b declined" in hal.lines() and "DR" not in white()
    _ask(dev, hal, "message TIME%20UP\n")
    assert white() == "TIME UP"  # the arbiter's message, White's clock standing
    assert [l for l in _ask(dev, hal, "message too-long-text\n") if l.startswith("err bad-argument")]
    _key(dev, hal, "draw-black")
    _key(dev, hal, "draw-white")  # White agrees: the game is drawn by agreement (5.2.3)
    assert dev.match.outcome is not None and dev.match.outcome.result() == "1/2-1/2"
    # The light flashed with each of them (the patterns: firmware/access/patterns.py).
    assert len([1 for _, side, on in hal.signals if side == WHITE and on]) >= 10
