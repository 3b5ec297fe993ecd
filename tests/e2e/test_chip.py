"""The firmware on the chip, as a maker flashes it: the board's own UF2 (MicroPython
v1.28.0 with the firmware frozen in, python -m host_tools uf2) on an emulated Raspberry Pi
Pico that runs it as the real RP2040 does (../shared/rp2emu, wired like hardware/), played
with pieces and levers through its control channel as people play (host_tools/tracegen.py),
and its lines checked (a blank Pico given the UF2 alone: tests/e2e/test_uf2.py): a whole game to mate, a promotion
and a flag, power cuts (an upgrade with a game in progress: tests/e2e/test_update.py), MicroPython's
prompt for mpremote (`repl`), speech without the audio module. Skipped, with the reason, where the emulator,
node or the toolchain is missing (a user's machine; `./run test` installs them). Figures:
bench/chip.py."""
import os
import random

import chess
import pytest

from host_tools import build, emulator, tracegen, uf2

HOME, WHY = emulator.locate()
SHIPPED = uf2.shipped()
pytestmark = [pytest.mark.skipif(HOME is None, reason=WHY or "no emulated Pico"),
              pytest.mark.skipif(SHIPPED is None, reason="no UF2 in dist/ (python -m host_tools uf2)")]

CACHE = build.ROOT / "build" / "chip"
BASE_PORT = 7900


def _port():
    # One emulator per xdist worker, each on its own control port.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return BASE_PORT + 2 * int(worker[2:] or 0)


@pytest.fixture(scope="session")
def board_uf2():
    """The UF2 the repository ships (dist/): the one a maker copies. tests/e2e/test_uf2.py
    fails when it is not this tree's firmware."""
    return SHIPPED


@pytest.fixture(scope="session")
def image(board_uf2):
    # A Pico that was given the UF2 and started once (made once per UF2; several workers
    # wait for the one that makes it).
    return emulator.uf2_image(CACHE, _port() + 1, board_uf2)


@pytest.fixture
def pico(image, tmp_path):
    with emulator.Pico(tmp_path / "emu", _port()).start(flash=image) as p:
        p.hello()
        yield p


def _events(p, game, after=0):
    """The board's event lines of a game, by kind: [(seq, kind, words)]."""
    out = []
    for ln in p.lines():
        w = ln["s"].split()
        if ln["t"] >= after and w and w[0].startswith("@%d:" % game):
            out.append((int(w[0].split(":")[1]), w[1], w[2:]))
    return out


def _new_game(p, fen=None, tc=None):
    board = chess.Board(fen) if fen else chess.Board()
    occ = "".join("1" if board.piece_at(sq) else "0" for sq in chess.SQUARES)
    p.occupy(occ)
    t = p.now()
    words = ["new"] + ([f"tc={tc}"] if tc else []) + ([f"fen={fen.replace(' ', '%20')}"] if fen else [])
    p.send(" ".join(words))
    game = int(p.line("ok new", after=t)["s"].split()[2])
    return board, game


def _play(p, board, moves, seed, start_at=None):
    """The moves played by hand (lifts, placements, slides, bounce, presses), from
    start_at (emulated ms); returns the time the last action happens."""
    trace = tracegen.trace_game(board, moves, random.Random(seed))
    base = start_at if start_at is not None else p.now() + 300
    return emulator.schedule(p, emulator.actions(trace), base)


def _sans_to_moves(board, sans):
    moves = []
    b = board.copy()
    for san in sans:
        moves.append(b.parse_san(san))
        b.push(moves[-1])
    return moves


def _want(board, moves):
    want = []
    b = board.copy()
    for m in moves:
        want.append((m.uci(), b.san(m)))
        b.push(m)
    return want


# Morphy - Duke of Brunswick and Count Isouard, Paris 1858: captures, checks, a long
# castling, a sacrifice and a mate on the 17th move.
OPERA = ("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 "
         "Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#").split()


def test_a_whole_game_to_mate_on_the_chip(pico):
    board, game = _new_game(pico)
    moves = _sans_to_moves(board, OPERA)
    pico.send("start")  # White's clock runs: every move is completed with a press
    end = _play(pico, board, moves, seed=1)
    pico.line("result", after=end - 5000)
    ev = _events(pico, game)
    assert [(w[1], w[2]) for _, k, w in ev if k == "move"] == _want(board, moves)
    # Every move but the mate (which ends the game, 6.2.1.1) completed by its press, the
    # mate by itself: a clock time for each.
    assert [int(w[0]) for _, k, w in ev if k == "clk"] == list(range(1, len(moves) + 1))
    assert ev[-1][1] == "result" and ev[-1][2] == ["1-0", "checkmate"]
    assert [s for s, _, _ in ev] == list(range(1, len(ev) + 1))  # no gap, no repeat


def test_a_promotion_and_a_flag_on_the_chip(pico):
    board, game = _new_game(pico, fen="7k/1P6/8/8/8/8/6K1/8 w - - 0 1", tc="8+0")
    pico.send("start")
    end = _play(pico, board, [chess.Move.from_uci("b7b8q")], seed=2)
    # Black does not move: his 8 seconds run out.
    flag = pico.line("flag b", after=end)
    pico.line("result", after=flag["t"])
    ev = _events(pico, game)
    assert ("move", ["1", "b7b8q", "b8=Q+"]) in [(k, w) for _, k, w in ev]
    assert ev[-1][1] == "result" and ev[-1][2] == ["1-0", "time_forfeit"]
    assert flag["t"] - end < 8000 + 500


def test_a_power_cut_on_the_chip_loses_nothing(pico):
    board, game = _new_game(pico)
    pico.send("start")
    moves = [chess.Move.from_uci(u) for u in ("e2e4", "c7c5", "g1f3", "d7d6", "d2d4")]
    end = _play(pico, board, moves, seed=3)
    pico.line("move 5 d2d4", after=0)
    before = [ln["s"] for ln in pico.lines() if ln["s"].startswith(f"@{game}:")]
    t = pico.now()
    pico.reset()  # the power goes and comes back
    hello = pico.hello(after=t)["s"]
    assert f"game={game}" in hello
    rec = pico.line("recovered", after=t)["s"]
    assert f"game={game}" in rec and "ply=5" in rec
    pico.wait(300)
    asked = pico.now()
    pico.send(f"resend {game}:1")
    done = pico.line(f"ok resend {game}:", after=asked)
    again = [ln["s"] for ln in pico.lines() if asked < ln["t"] <= done["t"]
             and ln["s"].startswith(f"@{game}:")]
    # Every event the host saw comes back identical; after them only the recovery's own.
    assert again[:len(before)] == before


def _game_lines(p, game, after=0):
    """The game's event lines the host has seen, each once, in order of seq (a resend
    repeats them)."""
    seen = {}
    for ln in p.lines():
        if ln["t"] >= after and ln["s"].startswith(f"@{game}:"):
            seen.setdefault(int(ln["s"].split()[0].split(":")[1]), ln["s"])
    return [seen[k] for k in sorted(seen)]


def _resend(p, game):
    asked = p.now()
    p.send(f"resend {game}:1")
    done = p.line(f"ok resend {game}:", after=asked)
    return [ln["s"] for ln in p.lines() if asked < ln["t"] <= done["t"] and ln["s"].startswith(f"@{game}:")]


def test_power_cuts_at_random_instants_on_the_chip_lose_nothing(pico):
    # The power goes at a random instant around each move (while it is being recognised,
    # committed to flash, sent, or just after): whatever the host saw comes back identical
    # after the reset, and a move that did not reach the flash is recognised again from
    # the pieces, so the game ends up whole. The arbiter resumes the paused clock; a press
    # the cut swallowed is made again.
    rng = random.Random(21)
    board, game = _new_game(pico)
    pico.send("start")
    sans = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6".split()
    b = board.copy()
    for ply, san in enumerate(sans, 1):
        m = b.parse_san(san)
        mover = "white" if b.turn == chess.WHITE else "black"
        start = pico.now() + 200
        trace = tracegen.trace_game(b.copy(), [m], random.Random(ply))
        acts = emulator.actions(trace)
        end = emulator.schedule(pico, acts, start)
        b.push(m)
        press = max(start + t for t, a in acts if a["kind"] == "press")
        if ply % 2 == 0:
            cut = press + rng.randint(-30, 60)  # the press, the commit, the lines
            pico.wait_until(cut)
            seen = _game_lines(pico, game)
            t = pico.now()
            pico.reset()
            assert f"game={game}" in pico.hello(after=t)["s"]
            pico.line("recovered", after=t)
            pico.wait(1500)  # the pieces are read: a move lost with the power is made again
            again = _resend(pico, game)
            assert again[:len(seen)] == seen, "the host had seen what the board lost"
            pico.send("resume")
            pico.wait(300)
            lines = _game_lines(pico, game)
            if not any(" clk %d " % ply in s for s in lines):
                pico.act([{"kind": "press", "btn": mover}, {"dt": 90, "kind": "release", "btn": mover}])
                pico.line(" clk %d " % ply, after=pico.now() - 1)
        else:
            pico.wait_until(end + 300)
    pico.wait(500)
    final = _resend(pico, game)
    moves = [s.split()[3:5] for s in final if s.split()[1] == "move"]
    want = []
    b = board.copy()
    for san in sans:
        m = b.parse_san(san)
        want.append([m.uci(), b.san(m)])
        b.push(m)
    assert moves == want
    assert sorted({int(s.split()[2]) for s in final if s.split()[1] == "clk"}) == list(range(1, len(sans) + 1))
    assert [int(s.split()[0].split(":")[1]) for s in final] == list(range(1, len(final) + 1))


def _mpremote(p, code):
    """mpremote at the board's prompt: (status, output)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "mpremote", "connect", p.tty, "exec", code],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def test_the_board_gives_its_prompt_to_mpremote(pico):
    pico.send("start")
    t = pico.now()
    pico.send("repl")  # refused while a clock runs
    assert pico.line("err not-now", after=t)["s"].startswith("err not-now")
    pico.send("pause")
    t = pico.now()
    pico.send("repl")
    pico.line("ok repl", after=t)
    pico.line("not started", after=t)  # MicroPython's prompt, the application not run
    rc, out = _mpremote(pico, "import sys; print(sys.implementation.name)")
    assert rc == 0 and "micropython" in out, out
    # The next reset starts the application again.
    t = pico.now()
    pico.reset()
    assert "hello" in pico.hello(after=t)["s"]
    # A board that answers nothing: the menu button held while it powers up.
    pico.act([{"dt": 0, "kind": "press", "btn": "menu"}])
    t = pico.now()
    pico.reset()
    assert "menu button" in pico.line("not started", after=t)["s"]
    pico.act([{"dt": 0, "kind": "release", "btn": "menu"}])
    rc, out = _mpremote(pico, "print(1 + 1)")
    assert rc == 0 and "2" in out, out


def test_an_old_copy_of_the_firmware_on_the_filesystem_never_shadows_the_uf2s(pico):
    # MicroPython's sys.path puts the filesystem ("") before the frozen modules: a
    # `firmware` package left there (files put on by hand, an old deploy) would be the one
    # imported, unless main.py puts the frozen modules first. This one cannot even import.
    shipped = uf2.record(SHIPPED)["version"]
    t = pico.now()
    pico.send("repl")
    pico.line("not started", after=t)
    rc, out = _mpremote(pico, "import os\nos.mkdir('firmware')\n"
                              "f = open('firmware/__init__.py', 'w')\n"
                              "f.write('raise ImportError(\"the old copy on the filesystem\")\\n')\n"
                              "f.close()\nprint(os.listdir('firmware'))")
    assert rc == 0 and "__init__.py" in out, out
    t = pico.now()
    pico.reset()
    assert "fw=%s " % shipped in pico.hello(after=t)["s"]
    assert not [ln for ln in pico.lines() if ln["t"] >= t and ("old copy" in ln["s"] or "Traceback" in ln["s"])]
    # The copy is still there (the application ran beside it, not instead of it).
    t = pico.now()
    pico.send("repl")
    pico.line("not started", after=t)
    rc, out = _mpremote(pico, "import os\nprint(os.listdir('firmware'))")
    assert rc == 0 and "__init__.py" in out, out


def test_speech_on_a_chip_without_the_voice_and_the_menu(pico):
    # The real rp2 port looks for the voice's bridge on I2C (0x4D, absent here): the setting
    # is kept, a warning says so, and the board plays on. The menu opens and closes on its
    # button, and the presets read on the chip.
    t = pico.now()
    pico.send("access speech=it volume=10")
    assert pico.line("access ", after=t)["s"].endswith("speech=it volume=10 ears=- white=left")
    assert "audio%20module" in pico.line("warning", after=t)["s"]
    pico.line("ok access", after=t)
    for _ in range(2):  # open (the presets, before the start), close
        pico.act([{"dt": 0, "kind": "press", "btn": "menu"}, {"dt": 120, "kind": "release", "btn": "menu"}])
        pico.wait(400)
    t = pico.now()
    pico.send("preset list")
    assert pico.line("preset 1 ", after=t)["s"].endswith("40/5400+30:1800+30")
    pico.line("ok preset list", after=t)
    board, game = _new_game(pico, tc="60+0")
    pico.send("start")
    end = _play(pico, board, [chess.Move.from_uci("e2e4")], seed=1)
    assert pico.line(" move 1 e2e4", after=end - 5000)["s"].startswith("@%d:" % game)
    assert not [ln for ln in pico.lines() if "err internal" in ln["s"] or "Traceback" in ln["s"]]
