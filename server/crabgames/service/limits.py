"""Limits at the service edge (docs/security.md): requests that do not parse become
INVALID_ARGUMENT, repeated fields a client could inflate are capped, and long loops stop when
the call's deadline passes or the client goes away. The deserializers here are the rules
service's own (edge.py registers them): the generated code would let a request that fails to
deserialize end as INTERNAL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from mypy_extensions import mypyc_attr

from crabgames.core import wire
from crabgames.core.errors import RulesError, bad_request
from crabgames.v1 import rules_service_pb2 as api

# The longest random games in the conformance suite take under 200 decisions; a record ten
# times longer is not a game. Replay's work is bounded by this (and by the end of the game).
MAX_REPLAY_MOVES = 2000
KIB = 1024
# A request holding a state or a view: the largest valid state is the largest Crab Bucket deck's
# options (about 71 KB; more than 96 KiB is refused by the game) and the game's own part.
STATE_REQUEST_BYTES = 160 * KIB
# The largest request each method can legitimately need, in wire bytes: a larger one is refused
# (RESOURCE_EXHAUSTED, REQUEST_TOO_LARGE) before a byte of it is parsed, so that what a request
# can make the server build is bounded by what that method needs, not by the message limit.
REQUEST_BYTES: dict[str, int] = {
    "ListGames": 1 * KIB,  # an empty request
    "NewGame": 128 * KIB,  # options, the largest deck's included
    "LegalMoves": STATE_REQUEST_BYTES,
    "ApplyMove": STATE_REQUEST_BYTES,
    "ApplyMoves": STATE_REQUEST_BYTES,  # each request on the stream
    "GetView": STATE_REQUEST_BYTES,
    "SampleState": STATE_REQUEST_BYTES,  # a view
    "Playouts": STATE_REQUEST_BYTES,
    "SuggestMove": STATE_REQUEST_BYTES,
    "Replay": 256 * KIB,  # a NewGame request and MAX_REPLAY_MOVES moves of a few bytes each
    "ScoreCrabRageSeason": 16 * KIB,  # at most five outcomes (R20)
}
# gRPC's own receive limit (it bounds a compressed message's inflated size too): the largest
# request of any method.
MAX_REQUEST_BYTES = max(REQUEST_BYTES.values())
# Connect's JSON is larger than the wire bytes it stands for (the largest deck: 315 KB of JSON for
# 71 KB), and what a JSON body builds is counted before it is parsed: each object or array ("{" or
# "[") may stand for as few as this many wire bytes of the method's bound (the largest deck's
# NewGame has 5,203 of them, its bound 8,192), so a body of empty objects is refused unread.
JSON_BYTES_PER_WIRE_BYTE = 8
WIRE_BYTES_PER_JSON_CONTAINER = 16
# Calls in flight, request and idle timeouts, calls per peer: edge.py.


@mypyc_attr(native_class=False)  # an error, as core/errors.py's are
class Interrupted(RulesError):
    """The call's deadline passed or the client cancelled it while the server was working."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.status_code = code.value[0]
        self.reason = code.name


@mypyc_attr(native_class=False)  # an error, as core/errors.py's are
class ShortOf(RulesError):
    """The server ran short of memory or threads for a call: the call may be fine, and may be
    tried again shortly (RESOURCE_EXHAUSTED, never UNKNOWN or INTERNAL)."""

    reason = "BUSY"
    status_code = grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]

    def __init__(self, what: str) -> None:
        super().__init__(f"the server is short of {what} right now: retry shortly")


def short_of(error: BaseException) -> ShortOf | None:
    """The ShortOf for a failure to allocate memory or start a thread, or None."""
    if isinstance(error, MemoryError):
        return ShortOf("memory")
    if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
        return ShortOf("threads")
    return None


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


class TooLarge:
    """Stands in for a request larger than its method needs, refused before it is parsed."""

    __slots__ = ("type_name", "why")

    def __init__(self, type_name: str, why: str) -> None:
        self.type_name = type_name
        self.why = why


def too_large(message_class: type[Message], data: bytes, limit: int) -> TooLarge | None:
    """A TooLarge when `data` is over `limit` bytes."""
    if len(data) <= limit:
        return None
    name = message_class.DESCRIPTOR.full_name
    return TooLarge(name, f"{len(data)} bytes; a {name} is at most {limit}")


def parsed(message_class: type[Message], data: bytes) -> Message | Undecodable | TooLarge:
    """The request parsed, or what stands in for it when it does not parse."""
    name = message_class.DESCRIPTOR.full_name
    try:
        return message_class.FromString(data)
    except MemoryError:  # no memory left for it: the server is full, the request may be fine
        return TooLarge(name, "no memory to parse it now")
    except Exception as error:  # DecodeError, recursion limit, bad UTF-8, ...
        return Undecodable(name, str(error) or type(error).__name__)


def safe_deserializer(
    message_class: type[Message], limit: int = MAX_REQUEST_BYTES
) -> Callable[[bytes], Message | Undecodable | TooLarge]:
    def deserialize(data: bytes) -> Message | Undecodable | TooLarge:
        return too_large(message_class, data, limit) or parsed(message_class, data)

    return deserialize


class Deferred:
    """A Connect JSON request, its size and the objects it would build bounded already, whose
    parsing is left to the edge: after the call is admitted, off the event loop."""

    __slots__ = ("data", "message_class")

    def __init__(self, data: bytes, message_class: type[Message]) -> None:
        self.data = data
        self.message_class = message_class

    def parse(self) -> Message | Undecodable | TooLarge:
        """protobuf's canonical JSON. A field the schema does not know is refused, as a
        misspelled one would otherwise be silently dropped."""
        message = self.message_class()
        try:
            json_format.Parse(self.data, message, ignore_unknown_fields=False)
        except MemoryError:
            return TooLarge(message.DESCRIPTOR.full_name, "no memory to parse it now")
        except Exception as error:  # ParseError, bad UTF-8, nesting too deep, ...
            return Undecodable(message.DESCRIPTOR.full_name, str(error) or repr(error))
        return message


def json_deserializer(
    message_class: type[Message], limit: int = MAX_REQUEST_BYTES
) -> Callable[[bytes], Deferred | TooLarge]:
    """A Connect JSON request bounded on the wire: at most JSON_BYTES_PER_WIRE_BYTE times the
    method's bound, and at most one object or array per WIRE_BYTES_PER_JSON_CONTAINER bytes of
    it (counted in the raw bytes, an overestimate: braces inside strings count too)."""
    json_limit = limit * JSON_BYTES_PER_WIRE_BYTE
    most_containers = limit // WIRE_BYTES_PER_JSON_CONTAINER

    def deserialize(data: bytes) -> Deferred | TooLarge:
        larger = too_large(message_class, data, json_limit)
        if larger is not None:
            return larger
        containers = data.count(b"{") + data.count(b"[")
        if containers > most_containers:
            name = message_class.DESCRIPTOR.full_name
            why = f"{containers} JSON objects and arrays; a {name} has at most {most_containers}"
            return TooLarge(name, why)
        return Deferred(data, message_class)

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


def state_left_as_bytes(
    message_class: type[Message], limit: int = MAX_REQUEST_BYTES
) -> Callable[[bytes], Message | Received | Undecodable | TooLarge]:
    """A deserializer for a request whose first field is its state: a Received when the state
    is the first field on the wire (as every protobuf library writes fields in number order)
    and appears only once; otherwise the request parsed whole, as `safe_deserializer` does."""
    state_field = message_class.DESCRIPTOR.fields_by_name["state"].number

    def deserialize(data: bytes) -> Message | Received | Undecodable | TooLarge:
        larger = too_large(message_class, data, limit)
        if larger is not None:
            return larger
        split = wire.leading_field(data, state_field)
        if split is not None:
            state, rest = split
            request = parsed(message_class, rest)
            # A second state field would be merged into the first by protobuf, changing what
            # the state says: only a lone state stays bytes. (A rest that does not parse is
            # parsed whole below, to name the error as usual.)
            if isinstance(request, Message) and not request.HasField("state"):
                return Received(request, state)
        return parsed(message_class, data)

    return deserialize


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


def check_replay(request: api.ReplayRequest) -> None:
    if len(request.moves) > MAX_REPLAY_MOVES:
        raise bad_request(
            "moves", f"{len(request.moves)} moves; a record holds at most {MAX_REPLAY_MOVES}"
        )
