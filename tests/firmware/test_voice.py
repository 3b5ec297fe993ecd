# The board's own voice (#13: a blind player gets the spoken time from the board alone):
# the phrases it says, the DFPlayer's frames, the SC16IS750 bridge it talks through, and
# whole exchanges on the simulated board - a blind player's hold answered aloud, moves
# announced, one phrase after the module says the last has finished. Both interpreters.
from firmware.access import phrases
from firmware.access.voice import GAP_MS, TRACK_MS, Voice
from firmware.app.device import Device
from firmware.board.occupancy import START
from firmware.rules.squares import WHITE
from firmware.hal.dfplayer import DFPlayer, frame
from firmware.hal.sc16is750 import UartBridge
from simulator.dfplayer import SimAudioModule
from simulator.hal import SimHal
from tests.firmware.support import occ_hex as _hex, tmp
from tests.firmware.test_levers import _after

TRACE = tmp("test-voice.trace")
PRESETS = tmp("test-voice-presets.json")
MICROPYTHON_HEAP = "384K"  # the whole application


def _words(tracks):
    """Tracks back to their words (numbers as ints)."""
    out = []
    for t in tracks:
        out.append(t - 1 if t <= phrases.NUMBERS else phrases.WORDS[t - phrases.NUMBERS - 1])
    return out


def test_the_phrases_of_times_moves_and_counts():
    assert _words(phrases.time("w", 277999, [])) == ["white", 4, "minutes", 37, "seconds"]
    # A count of one is its own phrase ("un'ora", "una mossa": number and noun agree).
    assert _words(phrases.time("b", 5383000, [])) == ["black", "one_hour", 29, "minutes", 43, "seconds"]
    assert _words(phrases.time("b", 7260000, [])) == ["black", 2, "hours", "one_minute", 0, "seconds"]
    assert _words(phrases.time("w", 1000, [])) == ["white", "one_second"]
    assert _words(phrases.time("w", -40, [])) == ["white", 0, "seconds"]  # a fallen flag
    assert _words(phrases.moves("w", 2, 38, [])) == ["white", 2, "moves", 38, "moves", "to_control"]
    assert _words(phrases.moves("w", 39, 1, [])) == ["white", 39, "moves", "one_move", "to_control"]
    assert _words(phrases.moves("b", 1, None, [])) == ["black", "one_move"]
    assert _words(phrases.moves("b", 120, None, [])) == ["black", "100", 20, "moves"]
    assert _words(phrases.moves("b", 300, None, [])) == ["black", "300", "moves"]
    # Moves, as appendix D wants them heard: a promotion and an en passant capture name
    # the pawn's square.
    m = lambda san, uci, ep=False: _words(phrases.move("w", san, uci, ep, []))
    assert m("e4", "e2e4") == ["white", "P", "e", 4]
    assert m("Nf3", "g1f3") == ["white", "N", "f", 3]
    assert m("Nbxd2+", "b1d2") == ["white", "N", "b", "takes", "d", 2, "check"]
    assert m("R1a3", "a1a3") == ["white", "R", 1, "a", 3]
    assert m("exd5", "e4d5") == ["white", "P", "e", "takes", "d", 5]
    assert m("exd6", "e5d6", True) == ["white", "P", "e", 5, "takes", "d", 6, "ep"]
    assert m("e8=Q+", "e7e8q") == ["white", "P", "e", 7, "to", "e", 8, "Q", "check"]
    assert m("dxc8=N#", "d7c8n") == ["white", "P", "d", 7, "takes", "c", 8, "N", "mate"]
    assert m("O-O", "e1g1") == ["white", "short"]
    assert m("O-O-O+", "e1c1") == ["white", "long", "check"]
    # Every track the firmware can ask for is on the card (host_tools/audiocard.py makes
    # tracks 1..TRACKS) and a folder holds at most 255.
    assert phrases.TRACKS <= 255
    assert phrases.folder("en") == 1 and phrases.folder("it") == 2 and phrases.folder("fide") == 3


def test_the_dfplayer_frames():
    # The module's documented "play track 1" frame, checksum and all.
    assert bytes(frame(0x03, 1, bytearray(10))) == bytes.fromhex("7EFF06030000 01FEF7EF".replace(" ", ""))
    sent = []

    class Line:
        def __init__(self):
            self.rx = b""

        def write(self, b):
            sent.append(bytes(b))
            return len(b)

        def readinto(self, buf):
            n = min(len(buf), len(self.rx))
            buf[:n] = self.rx[:n]
            self.rx = self.rx[n:]
            return n

    line = Line()
    p = DFPlayer(line)
    p.play(2, 141)
    p.volume(45)  # above the module's 30: 30
    assert sent[0][3:7] == bytes((0x0F, 0, 2, 141)) and sent[1][5:7] == bytes((0, 30))
    assert not p.poll()
    line.rx = b"\x00\x13" + bytes(frame(0x3D, 7, bytearray(10)))[:6]  # noise, half a frame
    assert not p.poll()
    line.rx = bytes(frame(0x3D, 7, bytearray(10)))[6:]
    assert p.poll()  # a track finished
    line.rx = bytes(frame(0x40, 6, bytearray(10)))
    assert p.poll()  # an error (a track missing from the card): it will not play
    line.rx = bytes(frame(0x3F, 2, bytearray(10)))
    assert not p.poll()  # the card came online: nothing finished


class FakeBridgeBus:
    """The I2C bus with an SC16IS750 at 0x4D, register by register (reg << 3)."""

    def __init__(self, present=True):
        self.present = present
        self.regs = {}
        self.lcr_log = []
        self.sent = b""
        self.rx = b""

    def writeto_mem(self, addr, mem, buf):
        if not self.present or addr != 0x4D:
            raise OSError(19)  # ENODEV: nothing acknowledged
        reg = mem >> 3
        if reg == 0 and not self.regs.get(3, 0) & 0x80:
            self.sent += bytes(buf)  # THR: into the transmit FIFO
        else:
            key = ("DL%d" % reg) if self.regs.get(3, 0) & 0x80 and reg in (0, 1) else reg
            self.regs[key] = buf[0]
            if reg == 3:
                self.lcr_log.append(buf[0])

    def readfrom_mem_into(self, addr, mem, buf):
        if not self.present or addr != 0x4D:
            raise OSError(19)
        reg = mem >> 3
        if reg == 8:
            buf[0] = 64  # TXLVL: the FIFO is empty
        elif reg == 9:
            buf[0] = len(self.rx)
        elif reg == 0:
            n = len(buf)
            buf[:n] = self.rx[:n]
            self.rx = self.rx[n:]


def test_the_uart_bridge_on_the_i2c_bus():
    bus = FakeBridgeBus()
    u = UartBridge(bus, 0x4D)
    # 9600 baud from the 14.7456 MHz crystal: divisor 96; then 8N1 and the FIFOs on.
    assert bus.regs["DL0"] == 96 and bus.regs["DL1"] == 0
    assert bus.lcr_log == [0x80, 0x03] and bus.regs[2] == 0x07
    p = DFPlayer(u)
    p.play(1, 5)
    assert bus.sent == bytes(frame(0x0F, 0x0105, bytearray(10)))
    bus.rx = bytes(frame(0x3D, 5, bytearray(10))) * 2
    assert u.any() == 20
    assert p.poll()  # the first frame (and part of the second: 16 bytes a read)
    assert p.poll() and bus.rx == b""  # the module's second "finished", read whole
    assert not p.poll()
    try:
        UartBridge(FakeBridgeBus(present=False), 0x4D)
        assert False, "no module: OSError"
    except OSError:
        pass


def test_the_voice_plays_one_phrase_after_the_module_has_finished_the_last():
    t = [0]
    said = []
    module = SimAudioModule(lambda: t[0], lambda a, b: a - b, lambda f, k: said.append((t[0], f, k)),
                            track_ms=lambda f, k: 300 if k != 3 else 10 ** 6)
    v = Voice(DFPlayer(module), "it", 25, lambda a, b: a - b)
    v.time("w", 277000)  # bianco, 4 minuti, 37 secondi
    v.flag("b")
    while t[0] < 8000:
        v.step(t[0])
        t[0] += 10
    words = _words([k for _, _, k in said])
    assert words == ["white", 4, "minutes", 37, "seconds", "black", "flag"]
    assert all(f == 2 for _, f, _ in said)  # Italian: folder 02
    starts = [s for s, _, _ in said]
    # Each phrase after the last one's end (300 ms) and a breath: never over it.
    assert all(300 + GAP_MS <= b - a <= 300 + GAP_MS + 30 for a, b in zip(starts, starts[1:]))
    assert module.errors == 0 and not v.busy and module.volume == 25  # set with the first phrase
    # A phrase whose end never comes (a lost frame) holds the voice TRACK_MS at most.
    said.clear()
    v.say([3, 4])
    while t[0] < 20000:
        v.step(t[0])
        t[0] += 10
    assert [k for _, _, k in said] == [3, 4] and said[1][0] - said[0][0] <= TRACK_MS + GAP_MS + 30


def _board(trace_lines, until, access=b"access blind=w speech=en\n", audio=True):
    with open(TRACE, "w") as f:
        f.write("0 occ %s\n" % _hex(START))
        for line in trace_lines:
            f.write(line + "\n")
    hal = SimHal(TRACE, virtual=True)
    if not audio:
        hal.audio = lambda: None  # a board without the module
    said = []
    hal._record = lambda text: said.append((hal.now(), text)) if text.startswith("say ") else None
    out = []
    hal.write = lambda data: None if data.startswith(b"clock ") else out.append(bytes(data))
    hal.read = lambda: None
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(b"access speech=off\n")  # every test starts silent
    dev.receive(access)
    while hal.now() < until:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    lines = [l for l in b"".join(out).decode().split("\n") if l]
    tracks = [int(text.split()[2]) for _, text in said]
    folders = set(int(text.split()[1]) for _, text in said)
    return lines, _words(tracks), folders, dev


def test_a_blind_players_ask_is_answered_aloud_and_every_move_announced():
    e4 = _after(START, "e2", "e4")
    e5 = _after(e4, "e7", "e5")
    lines, words, folders, dev = _board([
        "100 press black", "1000 button ask-white down", "1060 button ask-white up",  # his time, aloud
        "9000 occ %s" % _hex(e4), "9300 press white",
        "10000 occ %s" % _hex(e5), "10300 press black"], 16000)
    assert "access blind=left visual=- buzzer=off code=tactileclock intensity=80,100 " \
           "thresholds=600,300,60,10 speech=en volume=20 ears=- white=left" in lines
    assert "ask w time" in lines
    assert not [l for l in lines if l.startswith("warning")]
    # His time as the answer began (1.6 s after the start, his touch settled; 300+2): 4:58.
    assert words == ["white", 4, "minutes", 58, "seconds",
                     "white", "P", "e", 4, "black", "P", "e", 5]
    assert folders == {1}


def test_speech_in_italian_and_without_a_module():
    lines, words, folders, dev = _board(["100 press black", "1000 button ask-white down", "1060 button ask-white up"],
                                        9000, access=b"access blind=w speech=it volume=12\n")
    assert folders == {2} and words[:3] == ["white", 4, "minutes"]
    assert dev.hal.audio_module.volume == 12
    dev.receive(b"access volume=25\n")  # a new volume reaches the module at the next word
    dev.events.signals.moved(WHITE, "e4", "e2e4", False)
    dev.events.signals.voice().step(dev.hal.now() + 10000)
    assert dev.hal.audio_module.volume == 25
    lines, words, folders, dev = _board(["100 press black", "1000 button ask-white down", "1060 button ask-white up"],
                                        9000, audio=False)
    # Set, but no module answers: said once, and the answer is still felt on the motor.
    assert [l for l in lines if l.startswith("warning ") and "audio%20module" in l]
    assert "ask w time" in lines and words == []
    assert dev.config.access_settings["speech"] == "en"
    bad = _board([], 100, access=b"access speech=fr\n")[0]
    assert [l for l in bad if l.startswith("err bad-argument")]


def test_each_players_answers_go_into_his_own_ear_at_his_own_volume():
    # #34 item 3: with ears on, White's ask is answered from the card's left-channel
    # folder (White's headphones), Black's from the right, each at the player's volume;
    # the moves go to both ears, at the louder volume.
    e4 = _after(START, "e2", "e4")
    trace = ["100 press black", "1000 button ask-white down", "1060 button ask-white up",
             "9000 occ %s" % _hex(e4), "9300 press white",
             "10000 button ask-black down", "10060 button ask-black up"]
    with open(TRACE, "w") as f:
        f.write("0 occ %s\n" % _hex(START))
        for line in trace:
            f.write(line + "\n")
    hal = SimHal(TRACE, virtual=True)
    played = []  # (folder, track, the module's volume then)
    hal._record = lambda text: played.append((int(text.split()[1]), int(text.split()[2]),
                                              hal.audio_module.volume)) if text.startswith("say ") else None
    hal.write = lambda data: None
    hal.read = lambda: None
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(b"access speech=off\n")
    dev.receive(b"access blind=wb speech=en ears=on volume=12,24\n")
    while hal.now() < 22000:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    by_folder = {}
    for folder, track, loud in played:
        by_folder.setdefault(folder, []).append((track, loud))
    assert set(by_folder) == {1, 11, 21}  # both ears, White's alone, Black's alone
    assert _words([t for t, _ in by_folder[11]])[:3] == ["white", 4, "minutes"]  # his own time
    assert all(loud == 12 for _, loud in by_folder[11]) and all(loud == 24 for _, loud in by_folder[21])
    assert _words([t for t, _ in by_folder[21]])[0] == "black"
    assert _words([t for t, _ in by_folder[1]]) == ["white", "P", "e", 4]  # 1. e4, into both ears
    assert all(loud == 24 for _, loud in by_folder[1])
    assert dev.config.access_settings["volume"] == [12, 24] and dev.config.access_settings["ears"]


def test_a_move_to_carry_out_is_announced_when_it_is_shown_and_not_again_when_made():
    # The move of the player who is not at this board (the sighted player's, on the blind
    # player's board of a pair; an engine's, an online opponent's) is said as it is shown
    # (appendix D.2.1), in the board's language; made on the board, it is not said twice.
    e4 = _after(START, "e2", "e4")
    with open(TRACE, "w") as f:
        f.write("0 occ %s\n" % _hex(START))
        f.write("3000 occ %s\n" % _hex(e4))
    hal = SimHal(TRACE, virtual=True)
    said = []
    hal._record = lambda text: said.append(int(text.split()[2])) if text.startswith("say ") else None
    hal.write = lambda data: None
    hal.read = lambda: None
    dev = Device(hal, presets_path=PRESETS)
    dev.receive(b"access speech=off\n")
    dev.receive(b"access blind=b speech=fide\n")
    dev.receive(b"expect e2e4\n")
    while hal.now() < 8000:
        dev.step(hal.now())
        hal.advance(hal.scan_ms)
    assert _words(said) == ["white", "P", "e", 4]  # once: "Weiß, Bauer Eva vier"
    assert dev.game.ply == 1
