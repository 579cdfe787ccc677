"""Resource limits (docs/security.md): message size, Replay's record length, deadlines honoured
by long loops, undecodable requests refused before any work."""

from __future__ import annotations

import time

import grpc
import pytest

from crabgames.service.edge import SERVICE
from crabgames.service.limits import (
    MAX_REPLAY_MOVES,
    MAX_REQUEST_BYTES,
    REQUEST_BYTES,
    Interrupted,
    Undecodable,
    check_time,
    safe_deserializer,
)
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.fuzzing import CASES, ENGINE, raw_call, recorded
from tests.test_server import details


class FakeContext:
    def __init__(self, active: bool = True, remaining: float | None = None) -> None:
        self.active, self.remaining = active, remaining

    def is_active(self) -> bool:
        return self.active

    def time_remaining(self) -> float | None:
        return self.remaining


def replay_request(moves: list[game_pb2.Move]) -> api.ReplayRequest:
    game_id, players, options = CASES[0]
    request = api.ReplayRequest(new_game=api.NewGameRequest(num_players=players, seed=1))
    getattr(request.new_game, game_id).CopyFrom(options)
    request.moves.extend(moves)
    return request


def test_a_replay_longer_than_any_game_is_refused_before_any_work(stub):
    move = recorded(0, 1).moves[0]
    request = replay_request([move] * (MAX_REPLAY_MOVES + 1))
    with pytest.raises(grpc.RpcError) as caught:
        stub.Replay(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details(caught.value)["BadRequest"].field_violations[0].field == "moves"


def test_a_whole_recorded_game_fits_in_a_replay(stub):
    record = recorded(0, 1)
    assert len(record.moves) * 5 < MAX_REPLAY_MOVES
    assert stub.Replay(replay_request(record.moves), timeout=10).ok


def test_replay_stops_when_the_deadline_has_passed():
    record = recorded(0, 1)
    game_id, players, options = CASES[0]
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 10:
            check_time(FakeContext(remaining=-0.1))

    with pytest.raises(Interrupted) as caught:
        ENGINE.replay(game_id, options, players, 1, record.chance_mode, record.moves, check)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED and len(calls) == 11


def test_a_cancelled_call_stops_too():
    with pytest.raises(Interrupted) as caught:
        check_time(FakeContext(active=False))
    assert caught.value.code == grpc.StatusCode.CANCELLED
    check_time(FakeContext(remaining=3.0))  # time left: no error
    check_time(FakeContext(remaining=None))  # no deadline: no error


def test_a_request_larger_than_any_method_needs_is_refused_by_grpc(channel):
    data = api.GetViewRequest(state=game_pb2.GameState(sealed=b"x" * (MAX_REQUEST_BYTES + 10)))
    code = raw_call(channel, "GetView", data.SerializeToString())
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_every_method_has_a_request_bound_and_the_largest_is_grpcs_limit():
    assert set(REQUEST_BYTES) == {method.name for method in SERVICE.methods}
    assert max(REQUEST_BYTES.values()) == MAX_REQUEST_BYTES


@pytest.mark.parametrize(
    "method", sorted(m for m, bound in REQUEST_BYTES.items() if bound < MAX_REQUEST_BYTES)
)
def test_a_request_over_its_methods_bound_is_refused_before_it_is_parsed(channel, method):
    """Bytes that would not even parse, one byte over the method's bound: refused for their
    size (had they been parsed, they would be INVALID_ARGUMENT)."""
    data = b"\xff" * (REQUEST_BYTES[method] + 1)
    if method == "ApplyMoves":
        call = channel.stream_stream(f"/crabgames.v1.RulesService/{method}")
        with pytest.raises(grpc.RpcError) as caught:
            list(call(iter([data]), timeout=10))
    else:
        call = channel.unary_unary(f"/crabgames.v1.RulesService/{method}")
        with pytest.raises(grpc.RpcError) as caught:
            call(data, timeout=10)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details(caught.value)["ErrorInfo"].reason == "REQUEST_TOO_LARGE"
    assert str(REQUEST_BYTES[method]) in caught.value.details()


def test_a_request_just_under_its_bound_is_parsed_and_refused_quickly(channel):
    state = recorded(0, 1).states[5]
    request = api.LegalMovesRequest(state=state)
    request.state.next.decision = "x" * (REQUEST_BYTES["LegalMoves"] - 2000)
    start = time.monotonic()
    assert raw_call(channel, "LegalMoves", request.SerializeToString()) == (
        grpc.StatusCode.INVALID_ARGUMENT
    )
    assert time.monotonic() - start < 10


@pytest.mark.parametrize(
    "data",
    [b"\xff", b"\x0a\x05\x01", b"\x0a" * 5000, b"\x0a\x80\x80\x80\x80\x10"],
    ids=["bad tag", "cut field", "deep nesting", "huge length"],
)
def test_bytes_that_do_not_parse_stand_in_as_undecodable(data):
    parsed = safe_deserializer(api.ApplyMoveRequest)(data)
    assert isinstance(parsed, Undecodable) and parsed.type_name == "crabgames.v1.ApplyMoveRequest"


def test_an_undecodable_request_names_the_request_and_the_type(channel):
    call = channel.unary_unary(
        "/crabgames.v1.RulesService/ApplyMove",
        request_serializer=lambda raw: raw,
        response_deserializer=lambda raw: raw,
    )
    with pytest.raises(grpc.RpcError) as caught:
        call(b"\x0a" * 5000, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = details(caught.value)
    assert found["ErrorInfo"].reason == "MALFORMED_REQUEST"
    violation = found["BadRequest"].field_violations[0]
    assert violation.field == "request" and "ApplyMoveRequest" in violation.description
