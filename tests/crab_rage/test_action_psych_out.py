"""Psych Out (docs/rules/crab_rage.md, "#### Psych Out"): action card; arena only, cost 2; the
crab and one rival crab in its arena exchange their muscle."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Action
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    GREEN,
    PC,
    YELLOW,
    act,
    action_phase,
    muscles,
    offered,
    put,
)


def test_psych_out_switches_muscle_with_a_rival_crab_in_the_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT)
    put(state, BLUE, 0, 0, 1)
    put(state, GREEN, 2, 0, 6)
    act(state, Action.PSYCH_OUT, 0, target=(GREEN, 2))
    assert muscles(state, BLUE)[0] == 6 and muscles(state, GREEN)[2] == 1


def test_psych_out_costs_2_rage():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT, rage=1)
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 0, 0)
    assert not offered(state, Action.PSYCH_OUT)
    state.players[BLUE].rage = 2
    act(state, Action.PSYCH_OUT, 0, target=(YELLOW, 0))
    assert state.players[BLUE].rage == 0


def test_psych_out_targets_only_rival_crabs_in_the_crabs_arena():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT)
    put(state, BLUE, 0, 0, 1)
    put(state, BLUE, 1, 0, 5)  # an own crab is never a rival
    put(state, YELLOW, 0, 0, 6)
    put(state, GREEN, 0, 1, 3)  # a rival in another arena
    targets = [m.target for m in offered(state, Action.PSYCH_OUT) if m.crab == 0]
    assert targets == [(YELLOW, 0)]
    act(state, Action.PSYCH_OUT, 0, target=(YELLOW, 0))
    assert (muscles(state, BLUE)[0], muscles(state, YELLOW)[0]) == (6, 1)
