"""Server start-up: the rules service, health, reflection, limits and graceful shutdown."""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Sequence
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.service.limits import MAX_CONCURRENT_RPCS, add_rules_service
from crabgames.service.ledger import Ledger
from crabgames.service.sealing import Sealer
from crabgames.service.servicer import RulesServicer
from crabgames.v1 import rules_service_pb2

log = logging.getLogger(__name__)

SERVICE_NAME = rules_service_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # a full state is a few KB; anything near this is abuse


@dataclass
class Running:
    server: grpc.Server
    port: int
    health: health.HealthServicer

    def stop(self, grace: float = 5.0) -> None:
        """Graceful stop: health goes NOT_SERVING, in-flight calls get `grace` seconds."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()


def serve(
    address: str = "127.0.0.1:50051",
    threads: int = 8,
    reuse_port: bool = False,
    handlers: Sequence[grpc.GenericRpcHandler] = (),
    interceptors: Sequence[grpc.ServerInterceptor] = (),
) -> Running:
    """Start the server. `reuse_port` lets several worker processes share the port (--workers);
    off, binding a port already in use fails instead of silently sharing it. `handlers` and
    `interceptors` are for tests and the benchmark (its no-op RPC), never the production server."""
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        *connection_age_options(),
    ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=threads),
        handlers=list(handlers) or None,
        interceptors=list(interceptors) or None,
        options=options,
        maximum_concurrent_rpcs=MAX_CONCURRENT_RPCS,
    )
    # Every handler guarded (limits.py); states sealed when CRABGAMES_SEAL_KEYS is set.
    sealer = Sealer.from_env()
    ledger = Ledger.from_env(sealing=sealer is not None)  # CRABGAMES_LEDGER_URL (ledger.py)
    add_rules_service(RulesServicer(Engine(all_games()), sealer, ledger), server)
    if sealer is not None:
        log.info(
            "sealing states with key %s (%d keys accepted)", sealer.primary.key_id, len(sealer.keys)
        )
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(address)
    if not port:
        raise OSError(f"cannot listen on {address}")
    server.start()
    return Running(server, port, health_servicer)


def connection_age_options() -> list[tuple[str, int]]:
    """CRABGAMES_MAX_CONNECTION_AGE_SECONDS (unset or 0: no limit): close each client connection
    after that long (GOAWAY, then a 10 s grace for calls in flight), so clients reconnect and a
    round_robin client spreads over servers added since (docs/deploy.md)."""
    seconds = float(os.environ.get("CRABGAMES_MAX_CONNECTION_AGE_SECONDS", "0") or 0)
    if seconds <= 0:
        return []
    return [
        ("grpc.max_connection_age_ms", int(seconds * 1000)),
        ("grpc.max_connection_age_grace_ms", 10_000),
    ]


def run_until_signalled(running: Running, grace: float, announce=lambda: None) -> None:
    """Serve until SIGTERM or SIGINT, then stop gracefully. The handlers are in place before
    `announce` says the server is up, so a signal sent right after it is never lost; the stop
    runs outside the handler, once, however many signals arrive."""
    requested = threading.Event()

    def on_signal(signum, _frame):
        if not requested.is_set():
            log.info("signal %s: shutting down gracefully", signum)
        requested.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    announce()
    while not requested.wait(0.5):
        pass
    running.stop(grace)
