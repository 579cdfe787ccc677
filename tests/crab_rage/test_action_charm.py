"""Charm (docs/rules/crab_rage.md, "#### Charm", with rules note 7): action card; arena only,
cost 2; 1 fan from the supply into the crab's arena, and with an empty supply still legal,
placing nothing."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from tests.crab_rage.helpers import AOTF, BB, BLUE, PC, act, action_phase, kinds, offered, put


def test_charm_adds_a_fan_from_the_supply_to_the_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM)
    put(state, BLUE, 0, 1)
    state.used_actions.append(Action.CHARM)  # someone already took the style bonus
    act(state, Action.CHARM, 0)
    assert state.arenas[1].fans[BLUE] == 1 and state.players[BLUE].supply == 31


def test_charm_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.CHARM, rage=1)
    put(state, BLUE, 0, 0)
    assert not offered(state, Action.CHARM)
    state.players[BLUE].rage = 2
    act(state, Action.CHARM, 0)
    assert state.players[BLUE].rage == 0


def test_charm_with_an_empty_supply_places_nothing_and_tells_no_fans():
    """Rules note 7: Charm is legal with an empty supply and places nothing."""
    state = action_phase(4, (PC, BB, AOTF), card=Action.CHARM)
    put(state, BLUE, 0, 0)
    state.players[BLUE].supply = 0
    state.arenas[1].fans[BLUE] = 32
    events = act(state, Action.CHARM, 0)
    assert state.arenas[0].fans[BLUE] == 0
    assert "fans" not in kinds(events)
    assert GAME.next_decision(state).name == "choose_action"
