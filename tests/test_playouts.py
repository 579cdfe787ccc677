"""Server-side playouts (docs/performance.md): every served game, reproducible from the seed, the
same games a client would play move by move, bounded in count and work."""

from __future__ import annotations

import importlib

import grpc
import pytest

from crabgames.core.game import CHANCE, NOBODY
from crabgames.core.playouts import MAX_PLAYOUTS, playouts, run_playouts
from crabgames.core.prng import GAMMA, Prng, mix
from crabgames.games import all_games
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.playthrough import play_random

SERVED = [game.facts.id for game in all_games()]


def first_case(game_id: str):
    return importlib.import_module(f"tests.cases.{game_id}").CASES[0]


def mid_game(engine, game_id: str, seed: int = 7) -> game_pb2.GameState:
    num_players, options = first_case(game_id)
    record = play_random(engine, game_id, num_players, options, seed)
    return record.states[len(record.states) // 2]


def reference_playout(engine, state: game_pb2.GameState, prng: Prng) -> game_pb2.Outcome:
    """The same playout driven move by move through the public Engine API (explicit chance)."""
    current = game_pb2.GameState()
    current.CopyFrom(state)
    current.chance_mode = game_pb2.CHANCE_MODE_EXPLICIT
    outcome = engine.encode_outcome(engine.decode(current))
    while current.next.kind != NOBODY:
        moves, _ = engine.legal_moves(current)
        if current.next.kind == CHANCE:
            match = engine.decode(current)
            weights = [w for _, w in match.game.chance_outcomes(match.state)]
            move = moves[prng.pick_weighted(weights)]
        else:
            move = moves[prng.below(len(moves))]
        current, _, outcome = engine.apply_move(current, move)
    return outcome


@pytest.mark.parametrize("game_id", SERVED)
def test_playouts_from_mid_game_play_every_game_to_the_end(engine, game_id):
    state = mid_game(engine, game_id)
    stats = playouts(engine, state, 20, seed=5)
    assert stats.games == 20 and not stats.truncated and stats.decisions > 0
    assert len(stats.mean_scores()) == len(stats.win_rates()) == state.num_players
    assert all(0.0 <= rate <= 1.0 for rate in stats.win_rates())


@pytest.mark.parametrize("game_id", SERVED)
def test_each_playout_is_the_game_a_client_would_play_move_by_move(engine, game_id):
    state = mid_game(engine, game_id, seed=3)
    seed = 99
    stats = playouts(engine, state, 3, seed=seed)
    scores = [0.0] * state.num_players
    wins = [0] * state.num_players
    for index in range(3):
        outcome = reference_playout(engine, state, Prng(mix(seed + (index + 1) * GAMMA)))
        for result in outcome.players:
            scores[result.player] += result.score
        for winner in outcome.winners:
            wins[winner] += 1
    assert stats.mean_scores() == [s / 3 for s in scores]
    assert stats.win_rates() == [w / 3 for w in wins]


def test_the_same_seed_gives_the_same_playouts_and_another_seed_other_ones(engine):
    state = mid_game(engine, "kraby")
    first = playouts(engine, state, 30, seed=11)
    assert playouts(engine, state, 30, seed=11) == first
    assert playouts(engine, state, 30, seed=12).score_sums != first.score_sums


def test_the_work_bound_truncates_to_whole_games_equal_to_a_smaller_call(engine):
    state = mid_game(engine, "kraby")
    match = engine.decode(state)
    truncated = run_playouts(match, 50, seed=4, max_decisions=200)
    assert truncated.truncated and 0 < truncated.games < 50
    assert truncated.decisions == 200
    whole = run_playouts(engine.decode(state), truncated.games, seed=4, max_decisions=10_000)
    assert not whole.truncated
    assert whole.score_sums == truncated.score_sums and whole.wins == truncated.wins


def test_playouts_leave_the_callers_state_alone(engine):
    state = mid_game(engine, "kraby")
    before = state.SerializeToString(deterministic=True)
    playouts(engine, state, 5, seed=1)
    assert state.SerializeToString(deterministic=True) == before


def test_a_finished_game_plays_out_to_its_own_outcome(engine):
    num_players, options = first_case("kraby")
    record = play_random(engine, "kraby", num_players, options, seed=2)
    stats = playouts(engine, record.states[-1], 4, seed=1)
    assert stats.games == 4 and stats.decisions == 0
    expected = [r.score for r in sorted(record.outcome.players, key=lambda r: r.player)]
    assert stats.mean_scores() == expected


@pytest.mark.parametrize("count", [0, -1, MAX_PLAYOUTS + 1])
def test_a_count_outside_the_bound_is_invalid_argument_over_grpc(stub, engine, count):
    state = mid_game(engine, "kraby")
    with pytest.raises(grpc.RpcError) as caught:
        stub.Playouts(api.PlayoutsRequest(state=state, count=count))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "count" in caught.value.details()


def test_a_malformed_state_is_invalid_argument_over_grpc(stub, engine):
    state = mid_game(engine, "kraby")
    state.num_players = 9
    with pytest.raises(grpc.RpcError) as caught:
        stub.Playouts(api.PlayoutsRequest(state=state, count=3))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("game_id", SERVED)
def test_playouts_over_grpc_report_every_seat_and_the_seed(stub, engine, game_id):
    state = mid_game(engine, game_id)
    response = stub.Playouts(api.PlayoutsRequest(state=state, count=10))
    assert response.games == 10 and not response.truncated and response.seed != 0
    assert [p.player for p in response.players] == list(range(state.num_players))
    again = stub.Playouts(api.PlayoutsRequest(state=state, count=10, seed=response.seed))
    assert again == response
