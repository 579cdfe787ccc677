"""LegalMoves and ApplyMove leave a request's state as the bytes received (limits.Received), so
a state the server produced lately is found without parsing it; every answer must still be the
one the request parsed whole would get."""

from __future__ import annotations

import grpc
import pytest

from crabgames.service.limits import Received, state_left_as_bytes
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.fuzzing import recorded
from tests.test_server import details


def raw_stub(channel: grpc.Channel, method: str):
    return channel.unary_unary(
        f"/crabgames.v1.RulesService/{method}",
        request_serializer=lambda raw: raw,
        response_deserializer=lambda raw: raw,
    )


# Field 1000, a varint no request defines: before the state, it keeps the state from leading.
UNKNOWN_FIELD = b"\xc0\x3e\x01"


def _framed(number: int, payload: bytes) -> bytes:
    """A length-delimited field."""
    length, out = len(payload), bytearray([number << 3 | 2])
    while length > 0x7F:
        out.append(length & 0x7F | 0x80)
        length >>= 7
    out.append(length)
    return bytes(out) + payload


def a_state_and_move() -> tuple[game_pb2.GameState, game_pb2.Move]:
    record = recorded(0, 1)
    return record.states[4], record.moves[4]


@pytest.mark.parametrize("message_class", [api.LegalMovesRequest, api.ApplyMoveRequest])
def test_a_request_that_leads_with_its_state_keeps_the_state_as_bytes(message_class):
    state, move = a_state_and_move()
    request = message_class(state=state)
    if message_class is api.ApplyMoveRequest:
        request.move.CopyFrom(move)
        request.validate_only = True
    else:
        request.with_mask = True
    received = state_left_as_bytes(message_class)(request.SerializeToString())
    assert type(received) is Received
    assert received.state == state.SerializeToString()
    request.ClearField("state")
    assert received.request == request


def test_a_state_that_does_not_lead_is_parsed_whole():
    state, move = a_state_and_move()
    data = _framed(2, move.SerializeToString()) + _framed(1, state.SerializeToString())
    parsed = state_left_as_bytes(api.ApplyMoveRequest)(data)
    assert type(parsed) is api.ApplyMoveRequest
    assert parsed == api.ApplyMoveRequest(state=state, move=move)


def test_a_state_given_twice_is_parsed_whole_and_merged():
    state, _ = a_state_and_move()
    later = game_pb2.GameState(version=state.version + 7)
    data = _framed(1, state.SerializeToString()) + _framed(1, later.SerializeToString())
    parsed = state_left_as_bytes(api.LegalMovesRequest)(data)
    assert type(parsed) is api.LegalMovesRequest
    assert parsed.state.version == state.version + 7


def test_a_state_given_twice_gets_the_merged_states_answer_from_the_server(channel):
    """The first copy alone is a state the server remembers; the answer must still be the
    merged state's (a later version), as protobuf parses the request."""
    state, move = a_state_and_move()
    apply = raw_stub(channel, "ApplyMove")
    plain = api.ApplyMoveRequest(state=state, move=move).SerializeToString()
    first_alone = api.ApplyMoveResponse.FromString(apply(plain))  # now remembered by its bytes
    later = game_pb2.GameState(version=state.version + 7)
    twice = plain + _framed(1, later.SerializeToString())
    merged = api.ApplyMoveRequest.FromString(twice)
    answer = api.ApplyMoveResponse.FromString(apply(twice))
    assert answer == api.ApplyMoveResponse.FromString(apply(merged.SerializeToString()))
    assert answer.state.version == first_alone.state.version + 7


def test_a_state_that_does_not_parse_is_refused_as_a_malformed_state(channel):
    _, move = a_state_and_move()
    data = _framed(1, b"\xff\xff\xff") + _framed(2, move.SerializeToString())
    for method in ("ApplyMove", "LegalMoves"):
        with pytest.raises(grpc.RpcError) as caught:
            raw_stub(channel, method)(data, timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        found = details(caught.value)
        assert found["ErrorInfo"].reason == "MALFORMED_STATE"
        violation = found["BadRequest"].field_violations[0]
        assert violation.field == "state" and "GameState" in violation.description


def test_the_state_as_bytes_gets_the_same_answers_as_the_state_parsed(channel):
    record = recorded(1, 3)
    legal, apply = raw_stub(channel, "LegalMoves"), raw_stub(channel, "ApplyMove")
    for state, move in list(zip(record.states, record.moves, strict=False))[:12]:
        # The state second on the wire is parsed whole; first, it stays bytes.
        bytes_first = _framed(1, state.SerializeToString())
        assert legal(bytes_first) == legal(UNKNOWN_FIELD + bytes_first)
        move_field = _framed(2, move.SerializeToString())
        assert apply(bytes_first + move_field) == apply(move_field + bytes_first)


@pytest.mark.parametrize("leading", [True, False], ids=["state as bytes", "state parsed"])
def test_a_state_carrying_a_seal_is_refused_by_a_server_that_does_not_seal(channel, leading):
    state, move = a_state_and_move()
    state.sealed = b"a seal"
    state_field = _framed(1, state.SerializeToString())
    for method, rest in (("LegalMoves", b""), ("ApplyMove", _framed(2, move.SerializeToString()))):
        data = state_field + rest if leading else UNKNOWN_FIELD + rest + state_field
        with pytest.raises(grpc.RpcError) as caught:
            raw_stub(channel, method)(data, timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert details(caught.value)["BadRequest"].field_violations[0].field == "state.sealed"
