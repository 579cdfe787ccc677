"""Hot events keep the values their sentence reads and build it only when `text` is read
(playouts never read it): the sentence must not change however late it is read."""

from __future__ import annotations

import random

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Team
from crabgames.games.crab_rage.setup import default_options, initial_state


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
            happened += [(event, event.text) for event in events]
        for event, text in happened:
            assert event.text == text, event
            assert isinstance(text, str) and text
        deferred += sum(not isinstance(event.words, str) for event, _ in happened)
    assert deferred > 1000  # the deferred sentences were exercised
