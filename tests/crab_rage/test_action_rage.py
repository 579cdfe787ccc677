"""The Rage card (docs/rules/crab_rage.md, "#### Rage", with R7 and R8): cost 1 plus X, X at
least 1; the crab's muscle rises by X, up to 6; it works from backstage too."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Act, Pass
from tests.crab_rage.helpers import AOTF, BB, BLUE, PC, act, action_phase, muscles, offered, play


def test_rage_raises_muscle_by_x_up_to_6_and_a_backstage_style_fan_rides_on_the_crab():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE)
    xs = sorted(
        m.amount
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.RAGE and m.crab == 2
    )
    assert xs == [1, 2, 3]  # muscle 3 can rise to 6 at most (R8)
    act(state, Action.RAGE, 2, amount=2)
    assert muscles(state, BLUE)[2] == 5
    assert state.players[BLUE].crabs[2].riding_fans == 1
    assert state.players[BLUE].supply == 31
    for _ in range(3):
        play(state, Pass())
    act(state, Action.MOVE, 2, arena=2)  # the first arena it enters gets the riding fan
    assert state.arenas[2].fans[BLUE] == 2  # the riding fan + the first Move's style bonus


def test_the_rage_card_costs_1_plus_x():
    state = action_phase(4, (AOTF, PC, BB), card=Action.RAGE, rage=1)
    assert not offered(state, Action.RAGE)  # X is at least 1 (R8)
    state.players[BLUE].rage = 2
    assert [m.amount for m in offered(state, Action.RAGE) if m.crab == 0] == [1]
    act(state, Action.RAGE, 0, amount=1)
    assert state.players[BLUE].rage == 0
    assert muscles(state, BLUE)[0] == 2
