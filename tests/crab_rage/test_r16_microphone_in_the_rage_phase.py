"""R16: the microphone in the Rage Phase (docs/rules/crab_rage.md, "### R16: the microphone in
the Rage Phase" and the rulebook's "### Rage Phase"): every manager builds 3 rage (4 with 3
players, R1), then the manager with the most rage takes the microphone; a tie is rolled off among
all the tied, and ties roll again."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.state import Step, Task
from tests.crab_rage.helpers import BB, GREEN, MM, PC, action_phase, chance, decision, run


def test_rage_phase_builds_3_each_and_4_with_3_players_and_gives_the_microphone_to_most_rage():
    for n, build in ((3, 4), (4, 3)):
        billboards = (MM, PC, BB)
        state = action_phase(n, billboards)
        for seat, player in enumerate(state.players):
            player.rage = seat  # at most 2 + 4: no mutation
        run(state, Task(Step.RAGE_PHASE))
        assert [p.rage for p in state.players] == [s + build for s in range(n)]
        assert state.microphone == n - 1


def test_microphone_tie_is_rolled_off_among_the_tied_and_ties_roll_again():
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (0, 2, 2, 1), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 4, 4, 2, 5)
    assert state.microphone == GREEN


def test_a_three_way_tie_for_the_microphone_is_rolled_off_among_all_three():
    # R16: every tied player rolls; the tied highest roll again.
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (2, 2, 2, 1), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 4, 6, 6)  # Blue, Yellow, Green: Yellow and Green tie on 6
    assert decision(state) == (-1, "microphone_die")
    chance(state, 2, 5)  # Yellow, Green
    assert state.microphone == GREEN
    assert GAME.next_decision(state).name != "microphone_die"


def test_a_three_way_tie_for_the_microphone_rolled_equal_by_all_three_is_rolled_again():
    """R16: all the tied roll; when all three roll the same, all three roll again."""
    state = action_phase(4, (MM, PC, BB))
    for player, rage in zip(state.players, (0, 2, 2, 2), strict=True):
        player.rage = rage
    run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (-1, "microphone_die")
    chance(state, 3, 3, 3)
    assert decision(state) == (-1, "microphone_die")
    chance(state, 1, 5, 2)
    assert state.microphone == GREEN
