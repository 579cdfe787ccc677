"""R3: muscle and rage limits (docs/rules/crab_rage.md, "### R3: muscle and rage limits"), as
the invariant checker (the plug-in's invariant_violations) names a position breaking them: rage
is never negative (a cost is paid only with rage the manager has) and muscle is a die face, 1
to 6; and in play, a Smash larger than the muscle left stopping at 1 and a cost paid with all
the rage a manager has. Each action's own stop at 1 or 6 is in its file (test_action_smash.py,
test_action_rage.py, test_r11_billboards_on_entering.py)."""

from __future__ import annotations

from crabgames.games.crab_rage.data import Action
from tests.crab_rage.helpers import (
    BB,
    BLACK,
    BLUE,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    four_managers,
    muscles,
    offered,
    play,
    problems,
    smash,
    smashing,
)


def test_rage_is_never_negative_a_cost_can_only_be_paid_with_rage_the_player_has_r3():
    state = four_managers()
    state.players[BLACK].rage = 0
    assert problems(state) == []
    state.players[BLACK].rage = -1
    assert problems(state) == ["Black: negative rage"]


def test_muscle_is_a_die_face_always_1_to_6_r3():
    state = four_managers()
    state.players[YELLOW].crabs[2].muscle = 6
    state.players[BLACK].crabs[1].muscle = 1
    assert problems(state) == []
    state.players[YELLOW].crabs[2].muscle = 7  # an increase that did not stop at 6
    assert problems(state) == ["Yellow crab 2: muscle 7 (R3)"]
    state.players[YELLOW].crabs[2].muscle = 6
    state.players[BLACK].crabs[1].muscle = 0  # a decrease that did not stop at 1
    assert problems(state) == ["Black crab 1: muscle 0 (R3)"]


def test_a_smash_larger_than_the_muscle_left_stops_the_rival_at_1_r3():
    state = smashing(rage=10)  # Yellow's crab 2 at muscle 6
    play(state, smash(9))
    assert muscles(state, YELLOW)[2] == 1


def test_a_cost_is_paid_with_all_the_rage_a_manager_has_but_not_with_less_r3():
    state = action_phase(4, (MM, PC, BB), rage=2)
    act(state, Action.MOVE, 0, arena=0)  # Move costs 2
    assert state.players[BLUE].rage == 0
    assert not offered(action_phase(4, (MM, PC, BB), rage=1), Action.MOVE)
