"""Done when: random full games of both modes for every player count run to the end through the
server, and the outcome reports win/loss (Quick) or points and title (Wild Crab)."""

from __future__ import annotations

import random

import pytest

from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

QUICK = pb.CRAB_BUCKET_MODE_QUICK
WILD_CRAB = pb.CRAB_BUCKET_MODE_WILD_CRAB


def play_through(stub, players: int, mode: int, seed: int) -> game_pb2.Outcome:
    rng = random.Random(seed)
    request = api.NewGameRequest(
        num_players=players, seed=seed, crab_bucket=pb.CrabBucketOptions(mode=mode)
    )
    state = stub.NewGame(request).state
    outcome = None
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        moves = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves
        response = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=rng.choice(moves)))
        state, outcome = response.state, response.outcome
    return outcome


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", [QUICK, WILD_CRAB])
def test_a_random_game_runs_to_the_end_through_the_server(stub, players, mode):
    outcome = play_through(stub, players, mode, seed=100 + players)
    detail = outcome.crab_bucket
    assert len(outcome.players) == players
    assert detail.mode == mode and detail.end_reason
    if mode == QUICK:
        assert list(outcome.winners) == (list(range(players)) if detail.won else [])
        assert "the team" in outcome.summary
    else:
        assert list(outcome.winners) == list(range(players))
        assert detail.title or detail.points == 5
        assert f"{detail.points} points" in outcome.summary
