"""Property test: random press schedules through the firmware clock and through an
independent reference model (tests/clock_reference.py) give the same times after every
move and the same flag, to the millisecond."""
import random

import pytest

from firmware.clock.clock import ChessClock
from firmware.rules.squares import WHITE, BLACK
from tests import clock_reference
from tests.firmware.support import FakeTicks

CPYTHON_ONLY = "pytest's parametrize and the host's reference model"  # (its tests are not run again in micropython)

CONTROLS = ("60", "60+1", "30d3", "30b3", "3/20+1:2/10+2:15+3", "4/30:10", "*30",
            "20y3x5", "5/40d2:20+1", "2/5b2")


@pytest.mark.parametrize("control", CONTROLS)
def test_random_schedules_match_the_reference(control):
    rng = random.Random(control)
    for trial in range(150):
        scale = rng.choice((500, 3000, 9000))
        thinking = [rng.randint(1, scale) for _ in range(rng.randint(1, 60))]
        want, want_flag = clock_reference.play(control, thinking)
        ticks = FakeTicks(rng.randrange(FakeTicks.PERIOD))
        clock = ChessClock(control, diff=ticks.diff, add=ticks.add, freeze_on_flag=True)
        clock.start(ticks.now())
        got = []
        flag = None
        for k, d in enumerate(thinking):
            side = WHITE if k % 2 == 0 else BLACK
            begin = ticks.now()
            ticks.advance(d)
            if not clock.press(side, ticks.now()):
                i = side >> 4
                assert clock.flags[i] == 1
                flag = (i, ticks.diff(clock.flag_ticks[i], begin))
                break
            got.append((clock.time_left(WHITE, ticks.now()), clock.time_left(BLACK, ticks.now())))
        assert got == want, (control, thinking)
        assert flag == want_flag, (control, thinking)
