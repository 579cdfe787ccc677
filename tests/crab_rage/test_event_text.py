"""Hot events keep the values their sentence reads, and words.py builds it only when it is read
(playouts never read it): the sentence must not change however late it is read."""

from __future__ import annotations

import random

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Team
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.words import text


def test_an_event_reads_the_same_at_the_end_of_the_game_as_when_it_happened():
    deferred = 0
    for seed in range(9):
        rng = random.Random(seed)
        players = 3 + seed % 3
        teams = tuple(rng.sample(list(Team), players))
        state = initial_state(players, default_options(players, teams))
        happened = []  # (event, its text read at once)
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                values = [v for v, _ in GAME.chance_outcomes(state)]
                events = GAME.apply_chance(state, rng.choice(values))
            else:
                events = GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            happened += [(event, text(event)) for event in events]
        for event, read in happened:
            assert text(event) == read, event
            assert isinstance(read, str) and read
        deferred += len(happened)
    assert deferred > 1000  # the deferred sentences were exercised
