"""R3: muscle and rage limits (docs/rules/crab_rage.md, "### R3: muscle and rage limits"), as
the invariant checker (the plug-in's invariant_violations) names a position breaking them: rage
is never negative (a cost is paid only with rage the manager has) and muscle is a die face, 1
to 6. Each action's own stop at 1 or 6 is in its file (test_action_smash.py,
test_action_rage.py, test_r11_billboards_on_entering.py)."""

from __future__ import annotations

from tests.crab_rage.helpers import BLACK, YELLOW, four_managers, problems


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
