"""The DGT e-board protocol on the chip (issue 16): the board's UF2 (the firmware frozen
into MicroPython v1.28.0) on the emulated RP2040 (../shared/rp2emu), a DGT host attached over its USB serial in update-board mode, a game
played with pieces and levers as people move them (host_tools/tracegen.py), and:

- the last physical change of the pieces -> the field update it gives (median, 95%,
  worst), in emulated time. The host stamps each update when it has read it, by asking
  the emulator its time: a figure includes the pty's and that question's delay;
- the moves the host finds from the updates alone, against the game played.

    python bench/chip_dgt.py [--plies 60] [--seed 8]

The unix port's figures of the same are bench/dgt.py's.
"""
import argparse
import random
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import chess  # noqa: E402
import serial  # noqa: E402

from firmware.app import dgt as D  # noqa: E402
from host_tools import emulator, tracegen, uf2  # noqa: E402
from tests.dgt_host import placement  # noqa: E402


class Reader(threading.Thread):
    """Reads the DGT messages off the line; stamps each field update with the emulator's
    time (a control connection of its own)."""

    def __init__(self, tty, port):
        super().__init__(daemon=True)
        # Reads return what has come at once (a read that waited for more would stamp late).
        self.line = serial.Serial(tty, 115200, timeout=0.001)
        self.ctl = emulator.Pico.__new__(emulator.Pico)  # only its control channel
        import socket

        self.ctl._sock = socket.create_connection(("127.0.0.1", port))
        self.ctl._file = self.ctl._sock.makefile("r")
        self.ctl._n = 0
        self.updates = []  # (t, field, piece)
        self.dump = bytes(64)  # the board dump asked at the start
        self.stop = False
        self.buf = b""

    def run(self):
        while not self.stop:
            data = self.line.read(self.line.in_waiting or 1)
            if not data:
                continue
            t = self.ctl.req(op="time")["t"]
            self.buf += data
            while len(self.buf) >= 3 and self.buf[0] & 0x80:
                n = self.buf[1] << 7 | self.buf[2]
                if len(self.buf) < n:
                    break
                msg, self.buf = self.buf[:n], self.buf[n:]
                if msg[0] == D.FIELD_UPDATE:
                    self.updates.append((t, msg[3], msg[4]))
                elif msg[0] == D.BOARD_DUMP:
                    self.dump = msg[3:67]
            if self.buf and not self.buf[0] & 0x80:
                self.buf = self.buf[1:]  # not a message's start (the line's text before the switch)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--port", type=int, default=7841)
    a = ap.parse_args()
    home, why = emulator.locate()
    if home is None:
        sys.exit(why)
    seed = a.seed
    while True:
        board, moves = tracegen.random_game(seed, max_plies=a.plies)
        if not board.chess960 and len(moves) >= a.plies // 2:
            break
        seed += 1
    trace = tracegen.trace_game(board, moves, random.Random(seed))
    acts = emulator.actions(trace)
    image = emulator.uf2_image(ROOT / "build" / "chip", a.port, uf2.current())  # the board's UF2
    work = Path(tempfile.mkdtemp(prefix="chip-dgt-"))
    with emulator.Pico(work, a.port).start(flash=image, extra=("--displays",)) as pico:
        pico.hello()
        pico.occupy(emulator.occupancy(trace))
        pico.send("new")
        t_new = pico.line(" game ", after=0)["t"]
        reader = Reader(pico.tty, a.port)
        reader.start()
        reader.line.write(bytes((D.RESET, D.SEND_UPDATE_BRD, D.SEND_BRD)))
        base = t_new + 3000
        end = emulator.schedule(pico, acts, base)
        pico.wait_until(end + 1500)
        reader.stop = True
        reader.join()
        reader.line.close()
    changes = sorted(base + t for t, act in acts if act["kind"] in ("lift", "place"))
    lat = []
    for t, _, _ in reader.updates:
        last = max((c for c in changes if c <= t), default=None)
        if last is not None:
            lat.append(t - last)
    # The moves a host finds from the updates alone: the pieces after all of them.
    shown = bytearray(reader.dump)
    b = board.copy()
    for m in moves:
        b.push(m)
    for _, f, p in reader.updates:
        shown[f] = p
    lat.sort()
    print(f"a game of {len(moves)} plies (seed {seed}) on the emulated chip, a DGT host in update-board mode")
    print(f"{len(reader.updates)} field updates")
    if lat:
        print(f"last physical change -> its field update: median {statistics.median(lat):.0f} ms, "
              f"95% within {lat[int(len(lat) * 0.95) - 1]:.0f} ms, worst {lat[-1]:.0f} ms (emulated time)")
    same = placement(shown) == b.board_fen()
    print(f"the position from the updates alone is the game's: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
