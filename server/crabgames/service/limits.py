"""Limits at the service edge (docs/security.md): requests that do not parse become
INVALID_ARGUMENT, repeated fields a client could inflate are capped, and long loops stop when
the call's deadline passes or the client goes away. The deserializers here are the rules
service's own (edge.py registers them): the generated code would let a request that fails to
deserialize end as INTERNAL.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol

import grpc
from google.protobuf.message import Message

from crabgames.core.errors import RulesError, bad_request
from crabgames.v1 import rules_service_pb2 as api

# The longest random games in the conformance suite take under 200 decisions; a record ten
# times longer is not a game. Replay's work is bounded by this (and by the end of the game).
MAX_REPLAY_MOVES = 2000
# Message size: MAX_MESSAGE_BYTES in server.py, enforced by gRPC (RESOURCE_EXHAUSTED); calls in
# flight, request and idle timeouts: edge.py.


class Interrupted(RulesError):
    """The call's deadline passed or the client cancelled it while the server was working."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.status_code = code.value[0]
        self.reason = code.name


class CallTime(Protocol):
    """What the long loops read of a call: whether its caller is still there and its time left
    (edge.CallContext; a grpc servicer context has the same two methods)."""

    def time_remaining(self) -> float | None: ...

    def is_active(self) -> bool: ...


class Undecodable:
    """Stands in for a request whose bytes do not parse, so the handler can refuse it."""

    __slots__ = ("type_name", "error")

    def __init__(self, type_name: str, error: str) -> None:
        self.type_name = type_name
        self.error = error


def safe_deserializer(message_class: type[Message]) -> Callable[[bytes], Message | Undecodable]:
    def deserialize(data: bytes) -> Message | Undecodable:
        try:
            return message_class.FromString(data)
        except Exception as error:  # DecodeError, recursion limit, bad UTF-8, ...
            return Undecodable(
                message_class.DESCRIPTOR.full_name, str(error) or type(error).__name__
            )

    return deserialize


class Received:
    """A request whose `state` was left as the bytes received: `request` holds every other
    field. The engine finds a state it produced lately by these bytes, so a client sending back
    the state it was given costs no parsing of the state, nor serializing it again to look it
    up (docs/performance.md)."""

    __slots__ = ("request", "state")

    def __init__(self, request: Message, state: bytes) -> None:
        self.request = request
        self.state = state


STATE_TAG = 0x0A  # field 1 (`state` in LegalMovesRequest and ApplyMoveRequest), length-delimited


def state_left_as_bytes(
    message_class: type[Message],
) -> Callable[[bytes], Message | Received | Undecodable]:
    """A deserializer for a request whose field 1 is its state: a Received when the state is
    the first field on the wire (as every protobuf library writes fields in number order) and
    appears only once; otherwise the request parsed whole, as `safe_deserializer` does."""
    parse_whole = safe_deserializer(message_class)

    def deserialize(data: bytes) -> Message | Received | Undecodable:
        split = split_state(data)
        if split is not None:
            state, rest = split
            try:
                request = message_class.FromString(rest)
            except Exception:  # parsed whole below, to name the error as usual
                request = None
            # A second state field would be merged into the first by protobuf, changing what
            # the state says: only a lone state stays bytes.
            if request is not None and not request.HasField("state"):
                return Received(request, state)
        return parse_whole(data)

    return deserialize


def split_state(data: bytes) -> tuple[bytes, bytes] | None:
    """The leading state field's bytes and the rest of the request, or None when the request
    does not start with a whole state field."""
    if not data or data[0] != STATE_TAG:
        return None
    length = shift = 0
    for i in range(1, min(len(data), 6)):  # a length below 2**32 takes at most 5 bytes
        byte = data[i]
        length |= (byte & 0x7F) << shift
        if byte < 0x80:
            end = i + 1 + length
            return (data[i + 1 : end], data[end:]) if end <= len(data) else None
        shift += 7
    return None


def check_time(context: CallTime) -> None:
    """Raise Interrupted when the client is gone or the call's deadline has passed."""
    if not context.is_active():
        raise Interrupted(grpc.StatusCode.CANCELLED, "the call was cancelled")
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        raise Interrupted(grpc.StatusCode.DEADLINE_EXCEEDED, "the call's deadline passed")


def time_is_up(context: CallTime) -> bool:
    """Whether the client is gone or the call's deadline (or work budget) has passed."""
    remaining = context.time_remaining()
    return not context.is_active() or (remaining is not None and remaining <= 0)


def time_check(context: CallTime) -> Callable[[], None]:
    """A callback for the engine's long loops (Replay)."""
    return functools.partial(check_time, context)


def check_replay(request: api.ReplayRequest) -> None:
    if len(request.moves) > MAX_REPLAY_MOVES:
        raise bad_request(
            "moves", f"{len(request.moves)} moves; a record holds at most {MAX_REPLAY_MOVES}"
        )
