"""A clone is the same position, and shares the pieces a move replaces (copy-on-write): playing
on a clone must never change the state it was taken from."""

from __future__ import annotations

import random

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import BLUE, YELLOW
from crabgames.games.kraby.state import DEAL, DRAW, GAME_OVER, KrabyState
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import position


def step(state: KrabyState, rng: random.Random) -> None:
    """One decision on `state`: a random legal move, or a random chance outcome."""
    if state.step in (DEAL, DRAW):
        GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
    else:
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))


def test_playing_a_clone_to_the_end_never_changes_the_original():
    for num_players, seed in [(2, 1), (3, 2), (4, 3)]:
        rng = random.Random(seed)
        state = rules.initial_state(num_players, (pb.KRABY_COLOR_PINK, 0))
        while state.step != GAME_OVER:
            before = GAME.codec.state_bytes(state), state.row_blocked[:], state.col_blocked[:]
            clone = GAME.clone(state)
            while clone.step != GAME_OVER:
                step(clone, rng)
            assert (GAME.codec.state_bytes(state), state.row_blocked, state.col_blocked) == before
            step(state, rng)


def test_a_clone_is_the_same_position():
    state = position(2, {(3, 3): BLUE})
    state.excluded_color = YELLOW
    clone = GAME.clone(state)
    assert GAME.codec.state_bytes(clone) == GAME.codec.state_bytes(state)
    assert clone.excluded_color == YELLOW and clone.num_players == 2
    assert (clone.row_blocked, clone.col_blocked) == (state.row_blocked, state.col_blocked)
