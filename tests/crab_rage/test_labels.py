"""The engine builds each encoded move once, keyed by the deciding seat and the game's
`move_cache_key`: two legal moves with the same key must have the same label (and id)."""

from __future__ import annotations

import random
from dataclasses import replace

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Signature, Team
from crabgames.games.crab_rage.setup import default_options, initial_state


def test_equal_move_cache_keys_mean_equal_labels_and_ids():
    seen: dict = {}
    for seed in range(12):
        rng = random.Random(seed)
        players = 3 + seed % 3
        teams = tuple(rng.sample(list(Team), players))  # names differ from game to game
        options = default_options(players, teams)
        signatures = tuple(rng.choice(list(Signature)) for _ in range(players))
        state = initial_state(players, replace(options, signatures=signatures))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                values = [v for v, _ in GAME.chance_outcomes(state)]
                GAME.apply_chance(state, rng.choice(values))
                continue
            moves = GAME.legal_moves(state)
            for move in moves:
                key = (decision.player, GAME.move_cache_key(state, move))
                found = (GAME.move_label(state, move), GAME.move_id(state, move))
                assert seen.setdefault(key, found) == found, key
            GAME.apply_move(state, rng.choice(moves))
    assert len(seen) > 1000
