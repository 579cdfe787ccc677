"""Helpers for CRAB RAGE! tests: build states directly, play moves, resolve chance explicitly."""

from __future__ import annotations

import random

from crabgames.core.game import CHANCE, NOBODY, PLAYER
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Move, State


def random_game(num_players: int, seed: int, check=None, max_steps: int = 20000) -> State:
    """Play a whole game with random decisions and random chance outcomes."""
    rng = random.Random(seed)
    state = initial_state(num_players, default_options(num_players))
    for _ in range(max_steps):
        decision = GAME.next_decision(state)
        if decision.kind == NOBODY:
            return state
        if decision.kind == CHANCE:
            values = [v for v, _ in GAME.chance_outcomes(state)]
            GAME.apply_chance(state, rng.choice(values))
        else:
            moves = GAME.legal_moves(state)
            assert moves, decision
            GAME.apply_move(state, rng.choice(moves))
        if check:
            check(state)
    raise AssertionError("the game did not end")


def play(state: State, move: Move) -> list:
    assert GAME.is_legal(state, move), (move, GAME.legal_moves(state))
    return GAME.apply_move(state, move)


def chance(state: State, *values: int) -> list:
    events = []
    for value in values:
        decision = GAME.next_decision(state)
        assert decision.kind == CHANCE, decision
        events += GAME.apply_chance(state, value)
    return events


def decider(state: State) -> tuple[int, int, str]:
    d = GAME.next_decision(state)
    return d.kind, d.player, d.name


__all__ = ["PLAYER", "advance"]
