"""Move (docs/rules/crab_rage.md, "#### Move", with R7): cost 2; the crab, in an arena or
backstage, moves to any other arena and keeps its muscle."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Act
from crabgames.games.crab_rage.state import BACKSTAGE
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    PC,
    YELLOW,
    act,
    action_phase,
    decision,
    muscles,
    put,
    where,
)


def test_move_sends_a_backstage_crab_to_an_arena_for_2_rage_keeping_its_muscle():
    state = action_phase(4, (AOTF, PC, BB))
    act(state, Action.MOVE, 2, arena=0)
    assert where(state, BLUE) == [BACKSTAGE, BACKSTAGE, 0]
    assert muscles(state, BLUE) == [1, 2, 3]
    assert state.players[BLUE].rage == 4
    # Attack of the Fans (+1) and the style bonus for the first Move of the round (+1).
    assert state.arenas[0].fans[BLUE] == 2
    assert decision(state) == (YELLOW, "choose_action")


def test_move_goes_to_any_other_arena_only():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 1)
    moves = [
        m
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.MOVE and m.crab == 0
    ]
    assert sorted(m.arena for m in moves) == [0, 2]
