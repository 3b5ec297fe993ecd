# The simulator's entry inside micropython:
#   micropython simulator/main.py [--trace FILE] [--realtime] [--speed N]
#                                        [--outputs FILE] [--tail MS] [--journal FILE]
#                                        [--board FILE] [--watchdog FILE]
#                                        [--fault hang:N or raise:N] [--follow]
# Runs the real device application on the sim HAL. In virtual time (the default) it plays
# the trace as fast as it can, then --tail ms more, and exits; with --realtime it runs in
# real time (sped up --speed times) until killed. --host-first reads the host's commands
# to the end of the input before the trace starts (the replay tool's way); --wait-host
# waits for the host's first line; --follow plays the trace as a file that grows, each
# line when it is read (a person at the board: host_tools/hands.py).
import sys

sys.path.append(".")

from simulator.hal import SimHal  # noqa: E402
from firmware.app.device import Device  # noqa: E402


def _fault(dev, spec):
    # A fault for the watchdog tests, "hang:N" or "raise:N": after N scans the scan task
    # never returns, or raises, which ends the task (a bug in the firmware).
    kind, n = spec.split(":")
    hang, n = kind == "hang", int(n)
    scan = dev.scan_step

    def step(now):
        if dev.progress[0] >= n:
            while hang:
                pass
            raise RuntimeError("injected fault")
        scan(now)

    dev.scan_step = step


def main(argv):
    opts = {"--trace": None, "--outputs": None, "--speed": "1", "--tail": "3000",
            "--presets": "/tmp/chessboard-sim-presets.json", "--board-id": "sim",
            "--journal": None, "--fault": None, "--board": None, "--watchdog": None}
    realtime = False
    host_first = False
    wait_host = False
    follow = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--realtime":
            realtime = True
        elif a == "--host-first":
            host_first = True
        elif a == "--wait-host":
            wait_host = True
        elif a == "--follow":
            follow = True
        elif a in opts and i + 1 < len(argv):
            opts[a] = argv[i + 1]
            i += 1
        else:
            print("err usage: unknown option %s" % a)
            return 2
        i += 1
    hal = SimHal(opts["--trace"], virtual=not realtime, speed=int(opts["--speed"]),
                 outputs=opts["--outputs"], board=opts["--board"], watchdog=opts["--watchdog"],
                 follow=follow)
    journal = None
    if opts["--journal"]:
        # The flash's sectors as a file (NOR flash's rules), the games counter beside it.
        from firmware.app.journal import Journal
        from firmware.hal.filesectors import FileSectors

        journal = Journal(FileSectors(opts["--journal"]), opts["--journal"] + ".games")
    dev = Device(hal, presets_path=opts["--presets"], board_id=opts["--board-id"], journal=journal)
    if opts["--fault"]:
        _fault(dev, opts["--fault"])
    tail = int(opts["--tail"])
    if wait_host:
        # A fast game must not be over before a host listens: the first line it sends
        # (a relay's hello) starts the board's time.
        line = sys.stdin.buffer.readline()
        if line:
            dev.receive(line)
    if host_first:
        # Replays: the host's commands (a new game, ...) come first, to the end of input.
        while True:
            data = sys.stdin.buffer.read(64)
            if not data:
                break
            dev.receive(data)
    if realtime:
        from firmware.app.main import run_loop

        run_loop(dev, hal)
        return 0
    end = None
    while True:
        now = hal.now()
        dev.step(now)
        if hal.trace_done:
            if end is None:
                end = now + tail
            elif now >= end:
                break
        hal.advance(hal.scan_ms)
    if wait_host:
        # The game is over, but a host may still ask for what it missed: answer until it
        # has been quiet for two seconds of real time.
        from time import sleep_ms, ticks_ms, ticks_diff

        quiet = ticks_ms()
        while ticks_diff(ticks_ms(), quiet) < 2000:
            data = hal.read()
            if data:
                dev.receive(data)
                quiet = ticks_ms()
            hal.advance(hal.scan_ms)
            sleep_ms(10)
    hal.close()
    return 0


sys.exit(main(sys.argv[1:]))
