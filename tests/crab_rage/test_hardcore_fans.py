"""Hardcore Fans at the End of Game (R17, G4, rules note 11): a commitment stays secret while
another player is still to commit after it, however few hardcore fans that player holds. Issue
14."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import HardcoreFans
from crabgames.games.crab_rage.state import Phase, Step, Task
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    decision,
    play,
    run,
)


def test_a_commitment_followed_by_one_from_a_manager_holding_a_single_hardcore_fan_is_secret():
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN)
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.action_cards = [5, 6, 7, 8]
    for player in state.players:
        player.passed = True
    for seat, fans, hardcore in ((GREEN, 5, 3), (PURPLE, 4, 1)):
        state.arenas[0].fans[seat] = fans
        state.players[seat].hardcore = hardcore
        state.players[seat].supply -= fans + hardcore
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    assert decision(state) == (GREEN, "commit_hardcore_fans")
    # Purple, with 1 hardcore fan, still commits after Green: Green's amount is hidden (G4).
    assert sorted(GAME.decision_hidden_from(state)) == [BLUE, YELLOW, BLACK, PURPLE]
    play(state, HardcoreFans(amount=2))
    assert decision(state) == (PURPLE, "commit_hardcore_fans")
    assert GAME.decision_hidden_from(state) == []  # the last one: revealed at once
    play(state, HardcoreFans(amount=1))
    assert (state.arenas[0].fans[GREEN], state.arenas[0].fans[PURPLE]) == (7, 5)
    assert (state.players[GREEN].hardcore, state.players[PURPLE].hardcore) == (1, 0)
