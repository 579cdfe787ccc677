"""R11: billboards on entering (docs/rules/crab_rage.md, "### R11: billboards on entering" and
the rulebook's "### Billboards"): Mega Muscle +1 and Barnacle Brawl -1 (never below 1) to one
entering crab the entering manager picks; Pressure Cooker 1 rage, a build event that may mutate
(R4); Attack of the Fans 1 fan from the entering manager's supply."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import BillboardCrab, Destination, MutationCrab
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    MM,
    PC,
    act,
    action_phase,
    chance,
    decision,
    muscles,
    play,
    put,
)


def test_mega_muscle_gives_plus_1_to_one_crab_the_entering_manager_picks():
    state = action_phase(4, (MM, PC, BB), card=Action.RUSH, rage=3)
    put(state, BLUE, 0, 1, 3)
    put(state, BLUE, 2, 1, 3)
    act(state, Action.RUSH, 2)
    play(state, Destination(arena=0))
    play(state, Destination(arena=0))
    assert decision(state) == (BLUE, "choose_billboard_crab")
    play(state, BillboardCrab(crab=2))
    assert muscles(state, BLUE) == [3, 2, 4]


def test_barnacle_brawl_gives_minus_1_but_never_below_1():
    state = action_phase(4, (MM, PC, BB))
    act(state, Action.MOVE, 0, arena=2)
    assert muscles(state, BLUE)[0] == 1


def test_pressure_cooker_builds_1_rage_and_can_trigger_mutation():
    state = action_phase(4, (MM, PC, BB), rage=8)
    act(state, Action.MOVE, 0, arena=1)
    assert state.players[BLUE].rage == 7
    assert decision(state) == (BLUE, "choose_mutation_crab")
    play(state, MutationCrab(crab=1))
    chance(state, 6)
    assert muscles(state, BLUE) == [1, 6, 3]


def test_attack_of_the_fans_adds_a_fan_from_the_entering_managers_supply():
    state = action_phase(4, (MM, AOTF, BB))
    state.used_actions.append(Action.MOVE)
    act(state, Action.MOVE, 0, arena=1)
    assert state.arenas[1].fans[BLUE] == 1


def test_barnacle_brawl_takes_1_muscle_off_the_entering_crab_and_builds_no_rage():
    state = action_phase(4, (MM, PC, BB))
    rage = state.players[BLUE].rage
    act(state, Action.MOVE, 2, arena=2)  # Blue's crab 2, muscle 3, into Barnacle Brawl
    assert muscles(state, BLUE) == [1, 2, 2]
    assert state.players[BLUE].rage == rage - 2  # the Move's cost only
