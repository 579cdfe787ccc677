"""Limits at the service edge (docs/security.md): requests that do not parse become
INVALID_ARGUMENT, repeated fields a client could inflate are capped, and long loops stop when
the call's deadline passes or the client goes away.

The rules service is registered through `add_rules_service`, which wraps every method handler:
the generated code would let a request that fails to deserialize end as INTERNAL.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import grpc

from crabgames.core.errors import RulesError, bad_request
from crabgames.service.status import status_for
from crabgames.v1 import rules_service_pb2 as api

SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]

# The longest random games in the conformance suite take under 200 decisions; a record ten
# times longer is not a game. Replay's work is bounded by this (and by the end of the game).
MAX_REPLAY_MOVES = 2000
# Message size: MAX_MESSAGE_BYTES in server.py, enforced by gRPC (RESOURCE_EXHAUSTED).
# Calls in flight per server process beyond this are refused at once (RESOURCE_EXHAUSTED) rather
# than queued without bound (each may hold a 4 MiB request).
MAX_CONCURRENT_RPCS = 256


class Interrupted(RulesError):
    """The call's deadline passed or the client cancelled it while the server was working."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.status_code = code.value[0]
        self.reason = code.name


class Undecodable:
    """Stands in for a request whose bytes do not parse, so the handler can refuse it."""

    __slots__ = ("type_name", "error")

    def __init__(self, type_name: str, error: str) -> None:
        self.type_name = type_name
        self.error = error


def safe_deserializer(message_class) -> Callable[[bytes], object]:
    def deserialize(data: bytes):
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

    def __init__(self, request, state: bytes) -> None:
        self.request = request
        self.state = state


STATE_TAG = 0x0A  # field 1 (`state` in LegalMovesRequest and ApplyMoveRequest), length-delimited


def state_left_as_bytes(message_class) -> Callable[[bytes], object]:
    """A deserializer for a request whose field 1 is its state: a Received when the state is
    the first field on the wire (as every protobuf library writes fields in number order) and
    appears only once; otherwise the request parsed whole, as `safe_deserializer` does."""
    parse_whole = safe_deserializer(message_class)

    def deserialize(data: bytes):
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


def guarded(behavior):
    """Refuse undecodable requests and calls already out of time before doing any work. A
    Received request reaches the behavior as the request and its state's bytes."""

    @functools.wraps(behavior)
    def handle(request, context):
        if isinstance(request, Undecodable):
            why = f"does not parse as {request.type_name}: {request.error}"
            context.abort_with_status(status_for(bad_request("request", why)))
        try:
            check_time(context)
        except Interrupted as error:
            context.abort(error.code, error.message)
        if type(request) is Received:
            return behavior(request.request, context, request.state)
        return behavior(request, context)

    return handle


def guarded_stream(behavior):
    """`guarded` for a bidirectional stream: each request is checked as it arrives."""

    def checked(requests, context):
        for request in requests:
            guarded(lambda r, _context: None)(request, context)  # aborts on a bad request
            yield request

    @functools.wraps(behavior)
    def handle(request_iterator, context):
        return behavior(checked(request_iterator, context), context)

    return handle


def check_time(context) -> None:
    """Raise Interrupted when the client is gone or the call's deadline has passed."""
    if not context.is_active():
        raise Interrupted(grpc.StatusCode.CANCELLED, "the call was cancelled")
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        raise Interrupted(grpc.StatusCode.DEADLINE_EXCEEDED, "the call's deadline passed")


def time_check(context) -> Callable[[], None]:
    """A callback for the engine's long loops (Replay)."""
    return functools.partial(check_time, context)


def check_replay(request: api.ReplayRequest) -> None:
    if len(request.moves) > MAX_REPLAY_MOVES:
        raise bad_request(
            "moves", f"{len(request.moves)} moves; a record holds at most {MAX_REPLAY_MOVES}"
        )


def serialize(response) -> bytes:
    """A response message serialized; a response the servicer already serialized, as is."""
    return response if type(response) is bytes else response.SerializeToString()


# The calls a game makes most, whose requests lead with the state. A sealing server opens and
# checks every state, so it parses them whole.
STATE_AS_BYTES = ("LegalMoves", "ApplyMove")


def add_rules_service(servicer, server: grpc.Server) -> None:
    """Register the rules service with every handler guarded (instead of the generated
    add_RulesServiceServicer_to_server)."""
    handlers = {}
    for method in SERVICE.methods:
        request_class = getattr(api, method.input_type.name)
        deserializer = safe_deserializer(request_class)
        if method.name in STATE_AS_BYTES and servicer.sealer is None:
            deserializer = state_left_as_bytes(request_class)
        if method.client_streaming and method.server_streaming:
            handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                guarded_stream(getattr(servicer, method.name)),
                request_deserializer=safe_deserializer(request_class),
                response_serializer=serialize,
            )
            continue
        handlers[method.name] = grpc.unary_unary_rpc_method_handler(
            guarded(getattr(servicer, method.name)),
            request_deserializer=deserializer,
            response_serializer=serialize,
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )
