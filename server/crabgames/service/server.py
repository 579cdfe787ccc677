"""Server start-up: the rules service, health, reflection (v1 and v1alpha), limits, TLS
(tls.py), metrics and the access log (metrics.py), and graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType

import grpc
import uvloop
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

import crabgames
from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.service import reflection
from crabgames.service.addresses import DEFAULT_ADDRESS
from crabgames.service.edge import SERVICE, Edge, EdgeInterceptor, add_rules_service
from crabgames.service.http import Served
from crabgames.service.ledger import Ledger
from crabgames.service.limits import MAX_REQUEST_BYTES
from crabgames.service.metrics import (
    Observer,
    ServerCollector,
    enable_access_log,
    new_registry,
    serve_metrics,
)
from crabgames.service.sealing import Sealer
from crabgames.service.servicer import RulesServicer
from crabgames.service.tls import ServerTls, TlsFiles

log = logging.getLogger(__name__)

# Answers (the largest valid one is under 256 KiB); requests are bounded per method, far below.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
# HTTP/2 streams (calls) one connection may have open at once: one connection cannot take all
# of a process's MAX_CALLS (edge.py).
MAX_STREAMS_PER_CONNECTION = 100
START_TIMEOUT_SECONDS = 30.0
# Clients ping idle connections every 60 s (crabclients.client.KEEPALIVE_OPTIONS) so that a
# connection a middlebox dropped is noticed; the server accepts pings that often (its default,
# 5 minutes, answers faster pings with GOAWAY "too_many_pings").
KEEPALIVE_OPTIONS = [
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_recv_ping_interval_without_data_ms", 30_000),
    ("grpc.http2.min_ping_interval_without_data_ms", 30_000),
]


@dataclass
class Running:
    """A server serving on its own thread's asyncio loop (grpc.aio), so that callers of
    `serve` (the command line, tests, the benchmark) stay synchronous."""

    server: grpc.aio.Server
    port: int
    health: health.aio.HealthServicer
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    edge: Edge
    tls: ServerTls | None = None
    metrics: Served | None = None
    health_server: grpc.aio.Server | None = None  # the plaintext health port, if any
    health_port: int | None = None
    http: Served | None = None  # the browser protocols (browser.serve_http), if served

    @property
    def metrics_port(self) -> int | None:
        return None if self.metrics is None else self.metrics.port

    def reload_tls(self) -> None:
        """Read the TLS files again before the next handshake (what SIGHUP does; tls.py logs
        the reload's result). Without TLS there is nothing to read again: said rather than
        silently ignored."""
        if self.tls is None:
            log.info("SIGHUP: no TLS certificate to read again (the server runs without TLS)")
        else:
            self.tls.request_reload()

    def stop(self, grace: float = 5.0) -> None:
        """Graceful stop: the HTTP side first, then health goes NOT_SERVING; in-flight calls
        get `grace` seconds."""
        if not self.thread.is_alive():
            return
        stopping = asyncio.run_coroutine_threadsafe(self._stop(grace), self.loop)
        stopping.result(timeout=grace + 30)
        self.thread.join(timeout=30)
        self.edge.close()

    async def _stop(self, grace: float) -> None:
        # The edge refuses new calls and the calls in flight get `grace` seconds, waited for
        # here: grpc.aio's own stop(grace) holds the event loop while a call works on a thread.
        if self.http is not None:  # uvicorn gives its calls in flight the grace it was given
            try:
                await self.http.stop()
            except Exception:  # pragma: no cover - a server that did not stop cleanly
                log.exception("the HTTP server did not stop cleanly")
        await self.health.enter_graceful_shutdown()
        self.edge.stopping = True
        deadline = time.monotonic() + grace
        while self.edge.calls and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await self.server.stop(0)
        if self.health_server is not None:
            await self.health_server.stop(0)
        if self.metrics is not None:
            await self.metrics.stop()
        self.loop.call_soon(self.loop.stop)


def serve(
    address: str = DEFAULT_ADDRESS,
    threads: int = 1,
    reuse_port: bool = False,
    handlers: Sequence[grpc.GenericRpcHandler] = (),
    interceptors: Sequence[grpc.aio.ServerInterceptor] = (),
    *,
    observing: Observing | None = None,
) -> Running:
    """Start the server on a thread of its own. `threads` run the long calls (Playouts,
    Replay; edge.py); every other call runs on the server's event loop. `reuse_port` lets
    several worker processes share the port (--workers); off, binding a port already in use
    fails instead of silently sharing it. `handlers` and `interceptors` are for tests and the
    benchmark (its no-op RPC), never the production server. `observing`: the production
    options (TLS, metrics, the access log, the plaintext health port)."""
    # uvloop (libuv) runs the asyncio loop: measured with cachegrind, a no-op call costs 292k
    # instructions on it against 502k on the standard loop (357k on gRPC's threaded server).
    loop = uvloop.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="grpc-aio", daemon=True)
    thread.start()
    build = start(address, threads, reuse_port, handlers, interceptors, loop, thread, observing)
    try:
        return asyncio.run_coroutine_threadsafe(build, loop).result(START_TIMEOUT_SECONDS)
    except BaseException:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        raise


async def start(
    address: str,
    threads: int,
    reuse_port: bool,
    handlers: Sequence[grpc.GenericRpcHandler],
    interceptors: Sequence[grpc.aio.ServerInterceptor],
    loop: asyncio.AbstractEventLoop,
    thread: threading.Thread,
    observing: Observing | None = None,
) -> Running:
    observing = observing or Observing()
    options = [
        # Each method's own bound is the edge's (limits.REQUEST_BYTES), before parsing.
        ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        *KEEPALIVE_OPTIONS,
        *connection_age_options(),
    ]
    # States sealed when CRABGAMES_SEAL_KEYS is set.
    sealer = Sealer.from_env()
    ledger = Ledger.from_env(sealing=sealer is not None)  # CRABGAMES_LEDGER_URL (ledger.py)
    engine = Engine(all_games())
    tls = ServerTls(observing.tls) if observing.tls is not None else None
    registry = new_registry() if observing.metrics_address else None
    observer = None
    if registry is not None or observing.access_log:
        observer = Observer(engine, registry, observing.access_log)
        if observing.access_log:
            enable_access_log()
    edge = Edge(RulesServicer(engine, sealer, ledger), threads, MAX_MESSAGE_BYTES, observer)
    server = grpc.aio.server(
        handlers=list(handlers) or None,
        # The edge's last: it answers the rules calls from its own table of handlers.
        interceptors=[*interceptors, EdgeInterceptor(edge)],
        options=options,
    )
    add_rules_service(edge, server)
    log.info("the rules run %s", crabgames.BUILD)  # crabgames.compiled
    if sealer is not None:
        log.info(
            "sealing states with key %s (%d keys accepted)", sealer.primary.key_id, len(sealer.keys)
        )
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE.full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable((SERVICE.full_name, health.SERVICE_NAME), server)
    if tls is not None:
        port = server.add_secure_port(address, tls.credentials())
    else:
        port = server.add_insecure_port(address)
    if not port:
        raise OSError(f"cannot listen on {address}")
    metrics = None
    if registry is not None and observing.metrics_address:
        registry.register(ServerCollector(edge, engine, tls))
        metrics = await serve_metrics(observing.metrics_address, registry)
    health_server, health_port = None, None
    if observing.health_address:
        health_server, health_port = health_only(
            observing.health_address, health_servicer, reuse_port
        )
        await health_server.start()
    await server.start()
    return Running(
        server, port, health_servicer, loop, thread, edge, tls, metrics, health_server, health_port
    )


def health_only(
    address: str, servicer: health.aio.HealthServicer, reuse_port: bool
) -> tuple[grpc.aio.Server, int]:
    """A plaintext port serving only the health service, for probes that cannot speak TLS
    (Kubernetes' gRPC probes): it answers what the TLS port's health answers, and nothing else
    (no rules, no reflection), so it gives nothing away."""
    server = grpc.aio.server(options=[("grpc.so_reuseport", 1 if reuse_port else 0)])
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port(address)
    if not port:
        raise OSError(f"cannot listen on {address} (the health port)")
    return server, port


@dataclass(frozen=True)
class Observing:
    """The production options of `serve`."""

    tls: TlsFiles | None = None  # serve over TLS (tls.py)
    metrics_address: str | None = None  # serve Prometheus metrics on that host:port
    access_log: bool = False  # a JSON line per call on the `crabgames.access` logger
    health_address: str | None = None  # the health service alone, plaintext (`health_only`)


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


def run_until_signalled(
    running: Running, grace: float, announce: Callable[[], None] = lambda: None
) -> None:
    """Serve until SIGTERM or SIGINT, then stop gracefully. The handlers are in place before
    `announce` says the server is up, so a signal sent right after it is never lost; the stop
    runs outside the handler, once, however many signals arrive."""
    requested = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if not requested.is_set():
            log.info("signal %s: shutting down gracefully", signum)
        requested.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, lambda _signum, _frame: running.reload_tls())
    announce()
    while not requested.wait(0.5):
        pass
    running.stop(grace)
