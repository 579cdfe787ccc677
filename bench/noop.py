"""The RPC registered only by the benchmark's server, never by the production server.

`Noop` carries the same state bytes through the same server and does nothing else (it parses the
request, as every RPC must, and answers with the state): the floor gRPC itself sets. It runs on
the server's event loop as the rules calls of bounded work do (service/edge.py). (The streaming
ApplyMoves began here as a prototype, and joined the contract once it measured faster.)
"""

from __future__ import annotations

import grpc

from crabgames.v1 import rules_service_pb2 as api

SERVICE = "crabgames.bench.v1.Bench"
NOOP = f"/{SERVICE}/Noop"


def bench_handlers() -> list[grpc.GenericRpcHandler]:
    async def noop(request: api.ApplyMoveRequest, _context: object) -> api.ApplyMoveResponse:
        return api.ApplyMoveResponse(state=request.state)

    handlers = {
        "Noop": grpc.unary_unary_rpc_method_handler(
            noop,
            request_deserializer=api.ApplyMoveRequest.FromString,
            response_serializer=api.ApplyMoveResponse.SerializeToString,
        ),
    }
    return [grpc.method_handlers_generic_handler(SERVICE, handlers)]
