"""Swap (docs/rules/crab_rage.md, "#### Swap", with R9): action card; arena only, cost 2; the crab
and a rival crab in a different arena trade places, both under the Movement Rules."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    INDEPENDENT,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    ally,
    decision,
    form,
    muscles,
    offered,
    play,
    put,
    where,
)


def test_swap_trades_places_across_arenas_and_both_crabs_follow_movement_rules():
    state = action_phase(4, (MM, AOTF, BB), card=Action.SWAP, rage=2)
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 3)
    put(state, BLACK, 1, 2, 4)
    put(state, GREEN, 1, 2, 5)
    ally(state, 2, BLACK, GREEN)
    act(state, Action.SWAP, 0, target=(BLACK, 1))
    # Blue's crab enters Barnacle Brawl first (active player), where Green is.
    assert decision(state) == (BLUE, "choose_alliance")
    assert GAME.legal_moves(state) == [INDEPENDENT, form(GREEN)]  # Black's leaving freed Green
    play(state, form(GREEN))
    assert muscles(state, BLUE)[0] == 1  # Barnacle Brawl -1
    assert decision(state) == (BLACK, "choose_alliance")  # then Black's crab enters Mega Muscle
    play(state, INDEPENDENT)
    assert muscles(state, BLACK)[1] == 5  # Mega Muscle +1
    assert where(state, BLUE)[0] == 2 and where(state, BLACK)[1] == 0
    assert decision(state) == (BLUE, "choose_style_bonus_arena")


def test_swap_targets_only_rival_crabs_in_another_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.SWAP)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 1)  # an own crab in another arena is no target
    put(state, YELLOW, 0, 0)  # a rival in the same arena is no target
    put(state, GREEN, 0, 1)
    put(state, BLACK, 0, 2)
    targets = [m.target for m in offered(state, Action.SWAP) if m.crab == 0]
    assert targets == [(GREEN, 0), (BLACK, 0)]
