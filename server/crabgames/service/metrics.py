"""Metrics in the Prometheus format on their own HTTP port, and an access log line per call
(docs/deploy.md).

The asyncio edge (edge.py) reports each rules call when it ends: its method, its game, its
status code, how long it took and who called. From these:

- `crabgames_rpc_calls_total{method, game, code}`: calls ended, by status code;
- `crabgames_rpc_duration_seconds{method, game}`: a latency histogram (an ApplyMoves stream is
  one call, from its start to its end);
- read when scraped, so that calls pay nothing for them: `crabgames_rpc_in_flight` (and
  `crabgames_long_calls_in_flight`, Playouts and Replay), `crabgames_cache_bytes{cache}` and
  `crabgames_cache_entries{cache}` for the engine's decoded states (`decoded_states`), the
  games' tables of encoded pieces (`remembered`, wire.Remembered) and of options (`options`),
  and with TLS the certificate's expiry and the reloads;
- the process's CPU, memory and open files (prometheus_client's process collector).

The game label is one of the served game ids, or `none` (ListGames, a request that did not
parse): it is looked up in a fixed table, never copied from a request, so no caller can add
label values. Health and reflection are not counted.

Each process has its own registry and port. With --workers N, worker i serves its metrics on
the given port + i (each is a scrape target of its own; docs/deploy.md), instead of
prometheus_client's multiprocess mode: that would put every sample of every call through a
memory-mapped file and lock, and cannot read the in-flight calls and cache sizes at scrape time.

The access log (logger `crabgames.access`, off unless asked for) writes one JSON object a line:
time, method, game, code, duration in milliseconds, the peer, and for a stream its message
count. Never a state, move, view or token.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, Protocol, TextIO

import grpc
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import make_asgi_app
from prometheus_client.registry import Collector

from crabgames.core import wire
from crabgames.core.engine import Engine
from crabgames.core.wire import Remembered
from crabgames.service import http
from crabgames.service.calls import Aborted
from crabgames.service.edge import Edge
from crabgames.service.limits import Received
from crabgames.service.tls import ServerTls
from crabgames.v1 import game_pb2

access_log = logging.getLogger("crabgames.access")

NO_GAME = "none"
# From 50 us (a LegalMoves on a state the engine remembers) to the 5 s work budget of a long
# call and beyond.
BUCKETS = (
    0.00005,
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    float("inf"),
)
RULES_VERSION_FIELD = game_pb2.GameState.RULES_VERSION_FIELD_NUMBER


class Table(Protocol):
    """A table of the games' whose size the metrics read: wire.Remembered, OptionsTable."""

    used: int  # the bytes it keeps (estimated)

    def __len__(self) -> int: ...


class Games:
    """The game label of a request, from a fixed table of the served games."""

    def __init__(self, engine: Engine) -> None:
        facts = [game.facts for game in engine.games.values()]
        self.ids = {f.id: f.id for f in facts}
        self.by_version = {f.rules_version: f.id for f in facts}
        self.by_version_bytes = {f.rules_version.encode(): f.id for f in facts}

    def of_state_bytes(self, data: bytes) -> str:
        """A state's game from its leading rules_version field (every writer puts its fields
        in number order, and rules_version is the first), without parsing the state."""
        split = wire.leading_field(data, RULES_VERSION_FIELD)
        return NO_GAME if split is None else self.by_version_bytes.get(split[0], NO_GAME)

    def of_state(self, state: game_pb2.GameState) -> str:
        # By rules_version, which a sealed state keeps in the clear beside its seal.
        return self.by_version.get(state.rules_version, NO_GAME)

    def of_request(self, method: str, request: Any) -> str:
        """The game a call is about, or NO_GAME. `request` is what the method's deserializer
        made (a request message of the method's type, limits.Received or limits.Undecodable),
        or None when none was read."""
        kind = type(request)
        if kind is Received:
            return self.of_state_bytes(request.state)
        if request is None or not hasattr(request, "DESCRIPTOR"):
            return NO_GAME  # never read, or did not parse (limits.Undecodable)
        if method in ("NewGame", "Replay"):
            new_game = request.new_game if method == "Replay" else request
            return self.ids.get(new_game.WhichOneof("options") or "", NO_GAME)
        if method == "SampleState" or (
            method == "SuggestMove" and request.WhichOneof("position") == "view"
        ):
            return self.by_version.get(request.view.rules_version, NO_GAME)
        if method == "ScoreCrabRageSeason":
            return self.ids.get("crab_rage", NO_GAME)
        if method == "ListGames":
            return NO_GAME
        if method == "ApplyMoves":
            request = request.request
        return self.of_state(request.state)  # LegalMoves, ApplyMove(s), GetView, Playouts, ...


def code_of(error: BaseException | None) -> grpc.StatusCode:
    """The status a call ended with: OK, the code it was refused with, CANCELLED when the
    caller went away, UNKNOWN for anything else (a bug)."""
    if error is None:
        return grpc.StatusCode.OK
    if isinstance(error, Aborted):
        return error.status.code
    if isinstance(error, asyncio.CancelledError):
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN


class Observer:
    """What the edge reports each call to: the metrics of this process and the access log."""

    def __init__(
        self, engine: Engine, registry: CollectorRegistry | None, access: bool = False
    ) -> None:
        self.games = Games(engine)
        self.access = access
        self.registry = registry
        self.children: dict[tuple[str, str, grpc.StatusCode], tuple[Counter, Histogram]] = {}
        if registry is not None:
            self.calls = Counter(
                "crabgames_rpc_calls",
                "Rules calls ended, by method, game and status code.",
                ("method", "game", "code"),
                registry=registry,
            )
            self.duration = Histogram(
                "crabgames_rpc_duration_seconds",
                "Time from a rules call's start to its end, by method and game.",
                ("method", "game"),
                buckets=BUCKETS,
                registry=registry,
            )

    def finish(
        self,
        method: str,
        request: Any,
        started: float,
        error: BaseException | None,
        peer: str,
        messages: int = 1,
    ) -> None:
        """Record one call from `peer` that began at `started` (time.perf_counter())."""
        seconds = time.perf_counter() - started
        game = self.games.of_request(method, request)
        code = code_of(error)
        if self.registry is not None:
            children = self.children.get((method, game, code))
            if children is None:
                children = self.new_children(method, game, code)
            children[0].inc()
            children[1].observe(seconds)
        if self.access:
            self.log(method, game, code, seconds, peer, messages)

    def new_children(
        self, method: str, game: str, code: grpc.StatusCode
    ) -> tuple[Counter, Histogram]:
        # The label lookups cost more than the samples: each combination is looked up once.
        children = (
            self.calls.labels(method, game, code.name),
            self.duration.labels(method, game),
        )
        self.children[(method, game, code)] = children
        return children

    def log(
        self,
        method: str,
        game: str,
        code: grpc.StatusCode,
        seconds: float,
        peer: str,
        messages: int,
    ) -> None:
        line: dict[str, object] = {
            "time": round(time.time(), 3),
            "method": method,
            "game": game,
            "code": code.name,
            "duration_ms": round(seconds * 1000, 3),
            "peer": peer,
        }
        if method == "ApplyMoves":
            line["messages"] = messages
        access_log.info(json.dumps(line, separators=(",", ":")))


def enable_access_log(stream: TextIO | None = None) -> None:
    """Send the access log, JSON lines alone (no level or logger name before them), to
    `stream` (standard error by default), whatever the level of the other logs."""
    if any(getattr(h, "crabgames_access", False) for h in access_log.handlers):
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.crabgames_access = True  # type: ignore[attr-defined]
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False


class ServerCollector(Collector):
    """Samples read when scraped: calls in flight, cache sizes, the TLS certificate."""

    def __init__(self, edge: Edge, engine: Engine, tls: ServerTls | None = None) -> None:
        self.edge = edge
        self.engine = engine
        self.tls = tls

    def collect(self) -> Iterator[Metric]:
        yield gauge("crabgames_rpc_in_flight", "Rules calls in flight.", self.edge.calls)
        yield gauge(
            "crabgames_long_calls_in_flight",
            "Long calls (Playouts, Replay) running or waiting for a thread.",
            self.edge.long_calls,
        )
        sizes = GaugeMetricFamily(
            "crabgames_cache_bytes", "Bytes kept by each of the engine's caches.", labels=["cache"]
        )
        entries = GaugeMetricFamily(
            "crabgames_cache_entries", "Entries of each of the engine's caches.", labels=["cache"]
        )
        for name, used, count in self.caches():
            sizes.add_metric([name], used)
            entries.add_metric([name], count)
        yield sizes
        yield entries
        if self.tls is not None:
            yield gauge(
                "crabgames_tls_certificate_expiry_timestamp_seconds",
                "When the server's TLS certificate in use expires (Unix time).",
                self.tls.loaded.not_after,
            )
            reloads = CounterMetricFamily(
                "crabgames_tls_reloads",
                "TLS certificates taken (ok) or refused (failed) since the start.",
                labels=["result"],
            )
            reloads.add_metric(["ok"], self.tls.reloads)
            reloads.add_metric(["failed"], self.tls.failed_reloads)
            yield reloads

    def caches(self) -> Iterable[tuple[str, int, int]]:
        decoded = self.engine.decoded
        yield "decoded_states", decoded.bytes, len(decoded.entries)
        # A copy of Remembered.tables: the loop's thread may add one.
        kinds: list[tuple[str, list[Table]]] = [
            ("remembered", list(Remembered.tables)),
            ("options", list(options_tables())),
        ]
        for name, tables in kinds:
            yield name, sum(table.used for table in tables), sum(map(len, tables))


def options_tables() -> Iterator[Table]:
    """The games' module-level tables of options (crab_bucket's OptionsTable), found by type
    name so that the games need not register them."""
    for name, module in list(sys.modules.items()):
        if name.startswith("crabgames.games.") and module is not None:
            for value in list(vars(module).values()):
                if type(value).__name__ == "OptionsTable":
                    yield value


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


class MetricsPortError(OSError):
    """The metrics address cannot be listened on (said apart from the gRPC port's errors)."""


# Connections to the metrics port (a scraper keeps one or two): 503 beyond, and at most
# METRICS_CONNECTIONS_PER_PEER from one address, so that idle callers cannot lock a scraper out.
METRICS_CONNECTIONS = 64
METRICS_CONNECTIONS_PER_PEER = 16


async def serve_metrics(address: str, registry: CollectorRegistry) -> http.Served:
    """The HTTP server of one process's metrics (GET /metrics, or any path), on the server's
    event loop with the bounds of every HTTP port (http.py): no thread per connection, so idle
    connections cost no thread and never starve the process of threads."""
    host, _, port = address.rpartition(":")
    app = make_asgi_app(registry)
    where = f"{host or '127.0.0.1'}:{port}"
    try:
        return await http.serve(where, app, METRICS_CONNECTIONS, METRICS_CONNECTIONS_PER_PEER)
    except OSError as error:
        raise MetricsPortError(f"cannot serve metrics on {address}: {error}") from None


def new_registry(collectors: Iterable[Collector] = ()) -> CollectorRegistry:
    """A registry of this server's own (tests and the benchmark run several servers in one
    process, and prometheus_client's global one would count them together)."""
    # The `_created` series would double what every scrape carries, for no question asked.
    disable_created_metrics()
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    for collector in collectors:
        registry.register(collector)
    return registry


def observed_address(address: str, worker: int) -> str:
    """Worker `worker`'s metrics address: the given port plus the worker's index (port 0 stays
    0: each worker picks a free port of its own)."""
    host, _, port = address.rpartition(":")
    number = int(port)
    return f"{host}:{number + worker if number else 0}"
