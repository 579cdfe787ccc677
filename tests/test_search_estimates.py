"""The search bot's position estimates (Game.estimate): strategy, but each must say what its
docstring says, or the search would chase the wrong thing."""

from __future__ import annotations

import random

from crabgames.core.agents import Table
from crabgames.games.crab_bucket import strategy as bucket
from crabgames.games.crab_bucket.game import MAX_TEAM_POINTS
from crabgames.games.crab_bucket.rules import points, requirement_met, top_colors
from crabgames.games.crab_bucket.state import NO_MISSION
from crabgames.games.kraby import strategy as kraby
from crabgames.games.kraby.rules import score_fishers, score_species


def positions(engine, game_id: str, players: int, seed: int, every: int = 5):
    table = Table.new(engine, game_id, players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not table.is_over():
        if step % every == 0:
            yield table
        table.play(rng.choice(table.legal_move_ids()))
        step += 1


def test_kraby_estimates_are_shares_that_follow_the_scores_now(engine):
    seen_a_lead = False
    for table in positions(engine, "kraby", 3, seed=12):
        state = table.match.state
        shares = engine.games["kraby"].estimate(state)
        assert abs(sum(shares) - 1) < 1e-9 and all(0 < s <= 1 for s in shares)
        totals = [f.total for f in score_fishers(state.ships, score_species(state.cells))]
        for a in range(3):
            for b in range(3):
                assert (totals[a] > totals[b]) == (shares[a] > shares[b])
        seen_a_lead |= len(set(totals)) > 1
    assert seen_a_lead


def test_kraby_a_lead_of_one_scale_is_e_times_the_odds(engine):
    for table in positions(engine, "kraby", 2, seed=13):
        state = table.match.state
        totals = [f.total for f in score_fishers(state.ships, score_species(state.cells))]
        if totals[0] - totals[1] == kraby.SCALE:
            shares = kraby.estimated_shares(state)
            assert abs(shares[0] / shares[1] - 2.718281828) < 1e-6
            return
    raise AssertionError("no position with a lead of exactly SCALE points: pick another seed")


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
