# A whole game of two blind players asking at every moment (#34; the game and its asks:
# tests/firmware/blindgame.py), through the real firmware: every answer whole, none lost,
# each apart from its neighbours by the separation, no touch a press (no illegal press, no
# penalty, with the automatic penalties on), and a deaf player's light the same as the
# motor. Runs in both interpreters.
from firmware.rules.squares import WHITE, BLACK
from tests.firmware import blindgame

# The whole application (64-bit objects) and the game's records (210 answers' pulses and
# both motors' timelines, some 50 KB of the test's own, in 1 KB blocks).
MICROPYTHON_HEAP = "640K"


def test_a_whole_game_of_blind_players_asking_at_every_moment():
    said, light, motor, answers, touches, dev = blindgame.play()
    # Every move made, none lost; no touch a press: no illegal press, no penalty (with the
    # automatic penalties on), the game still going after 44. Qa7.
    assert dev.game.ply == len(blindgame.GAME) and dev.match.outcome is None
    assert "illegal" not in said and dev.match.illegal == [0, 0]
    assert dev.clock.period == [1, 1]  # both in the second period: 40 moves made
    # Every touch asked, every ask answered: none lost, none stopped.
    n = len(touches) // 2
    assert n >= 120 and said.get("ask time", 0) + said.get("ask opponent", 0) + said.get("ask move", 0) == n
    assert said["ask time"] and said["ask opponent"] and said["ask move"] and "ask stop" not in said
    assert len(answers) == n
    for side in (WHITE, BLACK):
        # The deaf player's light gives the same as the blind player's motor.
        assert light[side].switches > 0 and light[side].differed == 0
        judged = blindgame.judge(motor[side], answers, side)
        assert judged and all(whole and apart for whole, apart, _ in judged), side
        assert dev.events.signals.players[side].cuts == 0
