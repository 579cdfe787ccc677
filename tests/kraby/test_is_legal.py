"""A move checked alone (`is_legal`) is legal exactly when the legal moves list it, at random
points of whole games with two, three and four fishers (the rule files check both for their own
rule: K5's tiles, A Player's Turn's figure)."""

from __future__ import annotations

import random

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    PINK,
)
from crabgames.games.kraby.state import DEAL, DRAW, GAME_OVER
from tests.kraby.helpers import assert_checked_alone_as_listed


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_checked_alone_and_listed_agree_through_whole_games(num_players):
    rng = random.Random(num_players)
    state = rules.initial_state(num_players, (PINK, 0))
    while state.step != GAME_OVER:
        if state.step in (DEAL, DRAW):
            GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
            continue
        if rng.random() < 0.2:
            assert_checked_alone_as_listed(state)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
