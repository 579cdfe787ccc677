"""R21: fans are conserved (docs/rules/crab_rage.md, "### R21: fans are conserved"), as the
invariant checker (the plug-in's invariant_violations) names a position breaking it: supply +
fans in arenas + hardcore fans (+ a fan riding on a crab) = 32 per manager, none negative; and
in play, a manager whose supply is empty places no fan."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Action
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    PC,
    YELLOW,
    act,
    action_phase,
    four_managers,
    problems,
    put,
)


def test_fan_tokens_are_conserved_supply_fans_in_arenas_and_hardcore_fans_make_32_r21():
    state = four_managers()
    state.players[GREEN].supply -= 1  # a token gone from the supply to nowhere
    assert problems(state) == ["Green: fans add up to 31, not 32 (R21)"]
    state = four_managers()
    state.arenas[2].fans[BLACK] = 1  # a fan in an arena, not taken from the supply
    assert problems(state) == ["Black: fans add up to 33, not 32 (R21)"]
    state = four_managers()
    state.players[YELLOW].hardcore = 2  # hardcore fans from nowhere
    assert problems(state) == ["Yellow: fans add up to 34, not 32 (R21)"]
    state.players[YELLOW].supply = 30
    assert problems(state) == []
    state.players[YELLOW].crabs[0].riding_fans = 1  # a riding fan is one of the 32 too
    assert problems(state) == ["Yellow: fans add up to 33, not 32 (R21)"]
    state.players[YELLOW].supply = 29
    assert problems(state) == []


def test_no_manager_holds_a_negative_number_of_fans_even_when_they_add_up_to_32_r21():
    state = four_managers()
    state.players[GREEN].supply, state.players[GREEN].hardcore = -1, 33
    assert problems(state) == ["Green: fans add up to 32, not 32 (R21)"]
    state = four_managers()
    state.players[BLACK].supply, state.players[BLACK].hardcore = 33, -1
    assert problems(state) == ["Black: fans add up to 32, not 32 (R21)"]


def test_a_manager_whose_supply_is_empty_places_no_fan_and_keeps_32_in_all_r21():
    # Blue's 32 fans are all hardcore: the Charm and its style bonus have no fan to place.
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    put(state, BLUE, 0, 0)
    state.players[BLUE].hardcore, state.players[BLUE].supply = 32, 0
    act(state, Action.CHARM, 0)
    assert state.players[BLUE].supply == 0
    assert state.arenas[0].fans[BLUE] == 0
    assert problems(state) == []
