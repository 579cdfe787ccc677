"""Go Clam (docs/rules/crab_rage.md, "#### Go Clam", with R7): cost 3; the crab's muscle is set
to 5, then it moves to any other arena."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import StyleBonus
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    PC,
    act,
    action_phase,
    decision,
    muscles,
    play,
    put,
)


def test_go_clam_sets_muscle_5_then_moves_and_the_style_bonus_arena_is_chosen():
    state = action_phase(4, (AOTF, PC, BB), rage=4)
    put(state, BLUE, 0, 2, 2)
    act(state, Action.GO_CLAM, 0, arena=1)
    assert state.players[BLUE].rage == 1 + 1  # 4 - 3, +1 from Pressure Cooker
    assert muscles(state, BLUE)[0] == 5
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    play(state, StyleBonus(arena=2))
    assert state.arenas[2].fans[BLUE] == 1


def test_go_clam_sets_muscle_6_down_to_5():
    """Go Clam: "Set the muscle of your chosen crab to 5" (R3 keeps muscle on a die face, 1..6):
    set, not raised to at least 5, so a crab at 6 goes down to 5, a change of -1. Arena A's
    Attack of the Fans leaves muscle alone."""
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 1, 6)
    events = act(state, Action.GO_CLAM, 0, arena=0)
    assert muscles(state, BLUE)[0] == 5
    set_to = [e for e in events if e.kind == "muscle"]
    assert [(e.crab, e.change, e.result) for e in set_to] == [((BLUE, 0), -1, 5)]
