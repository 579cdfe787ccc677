"""R6: the microphone and turn order (docs/rules/crab_rage.md, "### R6: the microphone and turn
order"): the first round's microphone holder is drawn by chance unless the `microphone` option
names a seat (the draw: test_g2_chance_events.py), and "in turn order" begins with whoever holds
the microphone and runs clockwise: the Action Phase, and the manager who picks an opponent among
three tied units (R15), who is first in turn order."""

from __future__ import annotations

from crabgames.games.crab_rage.moves import Pass
from crabgames.games.crab_rage.state import Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    action_phase,
    decision,
    play,
    put,
    run,
)


def test_the_action_phase_begins_with_the_microphone_holder_and_goes_clockwise():
    for holder in range(4):
        state = action_phase(4, (MM, AOTF, PC), microphone=holder)
        assert decision(state) == (holder, "choose_action")
        play(state, Pass())
        assert decision(state) == ((holder + 1) % 4, "choose_action")


def test_the_first_tied_manager_in_turn_order_counts_from_the_microphone_holder():
    # Blue, Yellow and Black tie with 3 muscle each in arena A; Green holds the microphone, so
    # Black (seat 3) comes first in turn order and picks the opponent, not Blue (seat 0).
    state = action_phase(4, (MM, AOTF, PC), microphone=GREEN)
    for seat in (BLUE, YELLOW, BLACK):
        put(state, seat, 2, 0)  # each team's crab 2, muscle 3
    run(state, Task(Step.RUMBLE, arena=0))
    assert decision(state) == (BLACK, "choose_rumble_opponent")
