"""G2: a draw picks one item from the unseen multiset, weights = counts. Each billboard is dealt
from the billboards left (R5), each once, and each action card turned face up in the Referee
Phase from the cards not yet revealed, each once: every outcome weighs 1. Issue 14."""

from __future__ import annotations

from dataclasses import replace

from crabgames.core.game import CHANCE
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Step


def test_billboards_and_action_cards_are_drawn_each_with_weight_1():
    for players in (3, 4, 5):
        state = initial_state(players, replace(default_options(players), microphone=0))
        kinds = []
        while GAME.next_decision(state).kind == CHANCE:
            kind = state.pending[-1].kind
            outcomes = list(GAME.chance_outcomes(state))
            if kind in (Step.DEAL_BILLBOARD, Step.FLIP_ACTION):
                kinds.append(kind)
                assert outcomes and all(weight == 1 for _, weight in outcomes), (kind, outcomes)
                assert len({value for value, _ in outcomes}) == len(outcomes)
            GAME.apply_chance(state, outcomes[-1][0])
        assert Step.DEAL_BILLBOARD in kinds and Step.FLIP_ACTION in kinds, players
