"""R4: mutation (docs/rules/crab_rage.md, "### R4: mutation" and the rulebook's "### Mutation"):
once per build event, a manager left with more than 6 rage picks one of their crabs and rolls
it, and the die sets its muscle; the rage stays where it is. Paying rage, building to exactly 6
and the 3-player game's starting 8 rage never mutate."""

from __future__ import annotations

from crabgames.games.crab_rage.moves import MutationCrab
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Step, Task
from crabgames.games.crab_rage.words import text
from tests.crab_rage.helpers import (
    BB,
    MM,
    PC,
    YELLOW,
    action_phase,
    chance,
    decision,
    muscles,
    play,
    run,
)


def test_three_player_setup_with_8_rage_does_not_mutate():
    state = initial_state(3, default_options(3))
    assert all(t.kind != Step.MUTATION_CHOICE for t in state.pending)


def test_yellow_rage_builds_to_7_and_mutates_the_chosen_crab_with_a_roll_of_3():
    state = action_phase(4, (MM, PC, BB))
    state.players[YELLOW].rage = 6
    events = run(state, Task(Step.BUILD_RAGE, YELLOW, 1, values=[1]))  # Pressure Cooker in B
    assert [text(e) for e in events] == ["Yellow builds 1 rage (Pressure Cooker), now 7"]
    assert decision(state) == (YELLOW, "choose_mutation_crab")
    play(state, MutationCrab(crab=0))  # the lowest die (muscle 1)
    assert [text(e) for e in chance(state, 3)] == ["Yellow crab 0 mutates: rolls 3 (+2 muscle)"]
    assert muscles(state, YELLOW) == [3, 2, 3]
    assert state.players[YELLOW].rage == 7  # rage remains on the ladder


def test_spending_rage_and_building_to_exactly_6_never_mutate():
    state = action_phase(4, (MM, PC, BB))
    state.players[YELLOW].rage = 4
    run(state, Task(Step.BUILD_RAGE, YELLOW, values=[2]))
    assert state.pending == []
