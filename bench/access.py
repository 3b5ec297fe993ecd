"""A whole game of two blind players asking at every moment (#34), on the real firmware:
Kasparov-Topalov 1999 at 40/5400+30:1800+30, both players' ask keys touched before
moving (once, or three times), with the press that completes a move, and on the
opponent's turn - the game and its asks of tests/firmware/blindgame.py, through the
simulator's HAL in virtual time. Reported per player: the answers asked for, those felt
whole (every pulse at its tick), those also apart from their neighbours by the
separation, those cut short, those lost (asked and never begun), and the seconds from a
touch to the last pulse of its answer (median and the longest); and the illegal presses
and penalties (there must be none). The light (a deaf player's) is held against the motor
switch by switch.

    python bench/access.py [--code tactileclock|taptic]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.access.player import SEPARATION_MS  # noqa: E402
from firmware.rules.squares import WHITE, BLACK  # noqa: E402
from tests.firmware import blindgame  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--code", default="tactileclock", choices=("tactileclock", "taptic"))
    a = ap.parse_args()
    t0 = time.perf_counter()
    # Taptic's answers are longer (59 is five longs and nine shorts): its players wait longer.
    wait = blindgame.ANSWER_MS if a.code == "tactileclock" else 2 * blindgame.ANSWER_MS
    said, light, motor, answers, touches, dev = blindgame.play(
        access=b"access blind=wb visual=wb code=" + a.code.encode() + b"\n", answer_ms=wait)
    wall = time.perf_counter() - t0
    print(f"Kasparov-Topalov, {dev.game.ply} plies at {blindgame.CONTROL.decode()}, code {a.code}, "
          f"separation {SEPARATION_MS} ms, players waiting {wait / 1000:g} s an answer ({wall:.1f} s to run)")
    asked = {WHITE: [], BLACK: []}
    for k in range(0, len(touches), 2):
        asked[WHITE if touches[k + 1] == 0 else BLACK].append(touches[k])
    for side, name in ((WHITE, "White"), (BLACK, "Black")):
        judged = blindgame.judge(motor[side], answers, side)
        whole = sum(1 for w, _, _ in judged if w)
        apart = sum(1 for w, s, _ in judged if w and s)
        player = dev.events.signals.players[side]
        lost = len(asked[side]) - len(judged)
        # The k-th touch's answer is the k-th answer (none was stopped in this game).
        waits = [(end - touch) / 1000 for touch, (_, _, end) in zip(asked[side], judged)]
        print(f"{name}: {len(asked[side])} asked, {whole} whole, {apart} whole and apart, {player.cuts} cut, "
              f"{lost} lost; touch -> last pulse median {statistics.median(waits):.1f} s, "
              f"longest {max(waits):.1f} s; light as motor: {light[side].differed == 0} "
              f"({light[side].switches} switches)")
    print(f"illegal presses or penalties: {said.get('illegal', 0)}; stopped: {said.get('ask stop', 0)}")


if __name__ == "__main__":
    main()
