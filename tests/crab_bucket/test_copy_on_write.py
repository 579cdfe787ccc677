"""A clone shares its piles, hands and mission piles with the original (they are tuples, replaced
when they change): playing on the clone must never change the original, whatever the move."""

from __future__ import annotations

import random

from crabgames.games.crab_bucket import GAME
from crabgames.games.crab_bucket.moves import UseAbility
from tests.cases.crab_bucket import CASES


def test_playing_every_kind_of_move_on_a_clone_leaves_the_original_as_it_was():
    used = set()
    for seed, (num_players, options_msg) in enumerate(CASES * 2):
        rng = random.Random(seed)
        state = GAME.initial_state(
            num_players, GAME.codec.decode_options(options_msg, num_players, "")
        )
        while GAME.outcome(state) is None:
            before = GAME.codec.state_bytes(state)
            outcomes = GAME.chance_outcomes(state)
            if outcomes:
                values = [value for value, _ in outcomes]
                weights = [weight for _, weight in outcomes]
                value = rng.choices(values, weights)[0]
                GAME.apply_chance(GAME.clone(state), value)
                assert GAME.codec.state_bytes(state) == before
                GAME.apply_chance(state, value)
                continue
            moves = list(GAME.legal_moves(state))
            for move in moves:  # every legal move, each on its own clone
                GAME.apply_move(GAME.clone(state), move)
                assert GAME.codec.state_bytes(state) == before, move
                if isinstance(move, UseAbility):
                    used.add(state.options.missions[move.mission].ability)
            GAME.apply_move(state, rng.choice(moves))
    assert len(used) == 9  # every ability's effect was played on a clone
