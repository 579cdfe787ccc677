"""The search bot's position estimates (Game.estimate): strategy, but each must say what its
docstring says, or the search would chase the wrong thing."""

from __future__ import annotations

import math
import random

from crabgames.core.agents import Table
from crabgames.games.crab_bucket import strategy as bucket
from crabgames.games.crab_bucket.rules import points, requirement_met, top_colors
from crabgames.games.crab_bucket.state import NO_MISSION
from crabgames.games.crab_bucket.strategy import MAX_TEAM_POINTS
from crabgames.games.kraby import strategy as kraby
from crabgames.games.kraby.data import NO_FIGURE, ORANGE
from crabgames.games.kraby.rules import score_species
from crabgames.v1 import kraby_pb2


def positions(engine, game_id: str, players: int, seed: int, every: int = 5):
    table = Table.new(engine, game_id, players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not table.is_over():
        if step % every == 0:
            yield table
        table.play(rng.choice(table.legal_move_ids()))
        step += 1


def test_kraby_estimates_follow_the_lead_over_the_best_rival(engine):
    seen_a_lead = False
    for table in positions(engine, "kraby", 3, seed=12):
        state = table.match.state
        chances = engine.games["kraby"].estimate(state)
        assert all(0 < c < 1 for c in chances)
        values = kraby.fisher_values(state)
        leads = [v - max(w for j, w in enumerate(values) if j != i) for i, v in enumerate(values)]
        for a in range(3):
            for b in range(3):
                assert (leads[a] > leads[b]) == (chances[a] > chances[b])
        seen_a_lead |= max(leads) > 0
    assert seen_a_lead


def a_group_of_four_orange(engine, players: int):
    """A fresh game with four orange crabs in a row on the board (3 points, the rulebook's
    table) and no other crab: the estimate reads the board, not how it came."""
    table = Table.new(engine, "kraby", players, seed=14)
    state = table.game.clone(table.match.state)
    for row in range(11):
        cells = range(row * 11, row * 11 + 11)
        for first in cells[:-3]:
            if all(state.cells[c] == kraby_pb2.KRABY_CELL_EMPTY for c in range(first, first + 4)):
                for c in range(first, first + 4):
                    state.cells[c] = kraby_pb2.KRABY_CELL_ORANGE
                return state
    raise AssertionError("no four empty cells in a row")


def test_kraby_a_free_hold_is_worth_half_the_best_species_still_to_be_had(engine):
    state = a_group_of_four_orange(engine, 2)
    points = {s.color: s.points for s in score_species(state.cells)}
    assert points[ORANGE] == 3 and sum(points.values()) == 3
    # The empty ship's best hold (x3) with orange: 0.5 * 3 * 3 for each fisher.
    assert kraby.option_value(kraby.standing_of(state), 0) == kraby.OPTION_DISCOUNT * 3 * 3
    assert kraby.estimated_chances(state) == [0.5, 0.5]
    # Orange at x2 on the first ship: 6 points, and nothing left worth a hold for that fisher.
    state.ships[0] = (NO_FIGURE, ORANGE, NO_FIGURE)
    assert kraby.option_value(kraby.standing_of(state), 0) == 0
    assert kraby.fisher_values(state) == [6, 4.5]
    chances = kraby.estimated_chances(state)
    assert abs(chances[0] / (1 - chances[0]) - math.exp(1.5 / kraby.SCALE)) < 1e-9
    assert abs(sum(chances) - 1) < 1e-12  # two fishers: one or the other wins


def test_kraby_only_the_best_rival_counts(engine):
    """Three fishers at 6, 4.5 and 4.5: the leader's chance is its lead of 1.5 over either; a
    trailing fisher's is its gap of 1.5 to the leader, whatever the third has."""
    state = a_group_of_four_orange(engine, 3)
    state.ships[0] = (NO_FIGURE, ORANGE, NO_FIGURE)
    assert kraby.fisher_values(state) == [6, 4.5, 4.5]
    chances = kraby.estimated_chances(state)
    assert chances[0] == kraby.winning_chance(1.5, 0) and chances[1] == chances[2]
    assert chances[1] == kraby.winning_chance(0, 1.5) and chances[0] + chances[1] == 1


def test_crab_bucket_estimates_the_points_and_the_share_of_the_mission_in_place(engine):
    found_partial = False
    for seed in (21, 22, 23):
        for table in positions(engine, "crab_bucket", 3, seed=seed, every=1):
            state = table.match.state
            estimated = bucket.estimated_points(state)
            if state.current == NO_MISSION:
                assert estimated == points(state)
                continue
            mission = state.options.missions[state.current]
            met = [requirement_met(r, top_colors(state)) for r in mission.requirements]
            assert estimated == points(state) + mission.level * sum(met) / len(met)
            found_partial |= 0 < sum(met) < len(met)
            share = engine.games["crab_bucket"].estimate(state)
            assert share == [min(1.0, estimated / MAX_TEAM_POINTS)] * 3
    assert found_partial
