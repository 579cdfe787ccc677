"""RPCs registered only by the benchmark's server, never by the production server.

- `Noop`: carries the same state bytes through the same server and does nothing else (it parses
  the request, as every RPC must, and answers with the state): the floor gRPC itself sets.
- `ApplyMoveStream`: a bidirectional-streaming ApplyMove prototype, to learn whether a stream of
  moves beats unary calls before adding one to the contract.
"""

from __future__ import annotations

import grpc

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.service.servicer import RulesServicer
from crabgames.v1 import rules_service_pb2 as api

SERVICE = "crabgames.bench.v1.Bench"
NOOP = f"/{SERVICE}/Noop"
APPLY_MOVE_STREAM = f"/{SERVICE}/ApplyMoveStream"


class _StreamContext:
    """Errors inside the stream prototype end the stream (no rich details: a prototype)."""

    def __init__(self, context) -> None:
        self.context = context

    def abort_with_status(self, status):
        self.context.abort_with_status(status)


def bench_handlers() -> list[grpc.GenericRpcHandler]:
    servicer = RulesServicer(Engine(all_games()))

    def noop(request: api.ApplyMoveRequest, _context) -> api.ApplyMoveResponse:
        return api.ApplyMoveResponse(state=request.state)

    def apply_move_stream(requests, context):
        wrapped = _StreamContext(context)
        for request in requests:
            yield servicer.ApplyMove(request, wrapped)

    handlers = {
        "Noop": grpc.unary_unary_rpc_method_handler(
            noop,
            request_deserializer=api.ApplyMoveRequest.FromString,
            response_serializer=api.ApplyMoveResponse.SerializeToString,
        ),
        "ApplyMoveStream": grpc.stream_stream_rpc_method_handler(
            apply_move_stream,
            request_deserializer=api.ApplyMoveRequest.FromString,
            response_serializer=api.ApplyMoveResponse.SerializeToString,
        ),
    }
    return [grpc.method_handlers_generic_handler(SERVICE, handlers)]
