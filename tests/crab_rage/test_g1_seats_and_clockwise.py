"""G1: seats and clockwise (docs/rules/general.md, "### G1: seats and clockwise"), for CRAB RAGE!:
seats 0 to N-1 sit clockwise, so "clockwise" and "the next manager" always mean the next higher
seat, and after the last seat comes seat 0."""

from __future__ import annotations

from crabgames.games.crab_rage.moves import Pass
from crabgames.games.crab_rage.state import turn_order
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    MM,
    PC,
    YELLOW,
    action_phase,
    decision,
    play,
)


def test_the_next_manager_is_the_next_higher_seat_and_after_the_last_comes_seat_0():
    state = action_phase(4, (MM, AOTF, PC), microphone=BLACK)
    assert decision(state) == (BLACK, "choose_action")
    play(state, Pass())
    assert decision(state) == (BLUE, "choose_action")
    play(state, Pass())
    assert decision(state) == (YELLOW, "choose_action")


def test_turn_order_runs_clockwise_from_any_seat_for_every_player_count():
    for n in (3, 4, 5):
        state = action_phase(n, (MM, AOTF, PC, BB)[: max(3, n - 1)])
        for start in range(n):
            assert turn_order(state, start) == tuple((start + i) % n for i in range(n))
