"""ApplyMoves: one stream applies a sequence of moves, answering each as ApplyMove would; a
refused move ends the stream with ApplyMove's status."""

from __future__ import annotations

import queue
import random

import grpc
import pytest

from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api


def new_state(stub, seed: int) -> game_pb2.GameState:
    request = api.NewGameRequest(num_players=2, seed=seed, kraby=kraby_pb2.KrabyOptions())
    return stub.NewGame(request).state


def test_a_whole_game_over_one_stream_is_the_game_unary_calls_play(stub):
    rng_stream, rng_unary = random.Random(5), random.Random(5)
    outbox: queue.SimpleQueue = queue.SimpleQueue()
    responses = stub.ApplyMoves(iter(outbox.get, None), timeout=60)
    streamed = unary = new_state(stub, seed=8)
    moves = 0
    while streamed.next.kind != game_pb2.DECIDER_KIND_NONE:
        legal = stub.LegalMoves(api.LegalMovesRequest(state=streamed)).moves
        move = rng_stream.choice(legal)
        outbox.put(api.ApplyMovesRequest(request=api.ApplyMoveRequest(state=streamed, move=move)))
        answer = next(responses).response
        expected = stub.ApplyMove(
            api.ApplyMoveRequest(
                state=unary,
                move=rng_unary.choice(stub.LegalMoves(api.LegalMovesRequest(state=unary)).moves),
            )
        )
        assert answer == expected
        streamed = unary = answer.state
        moves += 1
    outbox.put(None)
    assert list(responses) == []
    assert moves > 50 and answer.outcome.winners


def test_an_illegal_move_ends_the_stream_with_its_rule(stub):
    state = new_state(stub, seed=3)
    legal = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves
    wrong = game_pb2.Move()
    wrong.CopyFrom(legal[0])
    wrong.player = 1 - wrong.player  # G3: not this player's decision
    requests = [
        api.ApplyMovesRequest(request=api.ApplyMoveRequest(state=state, move=legal[0])),
        api.ApplyMovesRequest(request=api.ApplyMoveRequest(state=state, move=wrong)),
        api.ApplyMovesRequest(request=api.ApplyMoveRequest(state=state, move=legal[1])),
    ]
    responses = stub.ApplyMoves(iter(requests), timeout=10)
    assert next(responses).response.state.version > state.version
    with pytest.raises(grpc.RpcError) as caught:
        next(responses)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_bytes_that_do_not_parse_end_the_stream_as_invalid_argument(channel):
    raw = channel.stream_stream(
        "/crabgames.v1.RulesService/ApplyMoves",
        request_serializer=lambda data: data,
        response_deserializer=api.ApplyMovesResponse.FromString,
    )
    with pytest.raises(grpc.RpcError) as caught:
        list(raw(iter([b"\xff\xff\xff"]), timeout=10))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
