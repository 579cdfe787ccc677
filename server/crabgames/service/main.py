"""`crabgames-server` / `python -m crabgames.service`: flags, or CRABGAMES_* environment.

Every setting is a flag whose help names its environment variable. A few settings are read
where they are used (sealing.py, ledger.py, server.py, browser.py) from the environment: their
flags set that variable before anything is served, so each keeps one reader.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
from dataclasses import dataclass

import crabgames
from crabgames import compiled
from crabgames.service import ledger, sealing
from crabgames.service.addresses import ADDRESS_VAR, DEFAULT_ADDRESS, HTTP_ADDRESS_VAR
from crabgames.service.metrics import MetricsPortError, observed_address
from crabgames.service.server import (
    Observing,
    run_until_signalled,
    serve,
)
from crabgames.service.tls import DEFAULT_RELOAD_SECONDS, TlsFiles, read
from crabgames.service.workers import start_workers, supervise

log = logging.getLogger("crabgames")


@dataclass(frozen=True)
class Knob:
    """How a user changes one address: the flag, its environment variable, make run's name
    (if make run sets it)."""

    flag: str
    env: str
    make: str = ""

    def __str__(self) -> str:
        make = f"; make run {self.make}=host:port" if self.make else ""
        return f"{self.flag} (env {self.env}{make})"


GRPC_KNOB = Knob("--address", ADDRESS_VAR, "ADDRESS")
HTTP_KNOB = Knob("--http-address", HTTP_ADDRESS_VAR, "HTTP_ADDRESS")
HEALTH_KNOB = Knob("--health-address", "CRABGAMES_HEALTH_ADDRESS")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(
        prog="crabgames-server",
        description="The crab games rules service (gRPC). Every flag can be set by the"
        " environment variable its help names.",
        epilog=f"The rules run {crabgames.BUILD}. They run compiled when make compiled has"
        f" built them from this very source; env {compiled.PURE_VARIABLE}=1 runs the pure"
        " source all the same (read when Python imports the rules, so it has no flag).",
    )
    parser.add_argument(
        "--address",
        default=env(GRPC_KNOB.env, DEFAULT_ADDRESS),
        help=f"host:port to listen on (env {GRPC_KNOB.env}, which the clients read too;"
        f" default {DEFAULT_ADDRESS})",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=int(env("CRABGAMES_THREADS", "1")),
        help="processes per server process for the long calls, Playouts, Replay and"
        " SuggestMove (so they never hold the event loop's GIL); every other call runs on the"
        " process's event loop (env CRABGAMES_THREADS; default 1: one core for the event loop, one"
        " for long calls; about one per core beyond the first)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=int(env("CRABGAMES_WORKERS", "1")),
        help="server processes sharing the port with SO_REUSEPORT, each serving every game"
        " (env CRABGAMES_WORKERS; default 1; about one per core)",
    )
    parser.add_argument(
        "--log-level",
        default=env("CRABGAMES_LOG_LEVEL", "INFO"),
        help="DEBUG, INFO, WARNING or ERROR (env CRABGAMES_LOG_LEVEL; default INFO)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=float(env("CRABGAMES_GRACE_SECONDS", "5")),
        help="seconds in-flight calls get on SIGTERM (env CRABGAMES_GRACE_SECONDS; default 5)",
    )
    add_production_args(parser)
    add_passed_settings(parser)
    add_http_args(parser)
    return parser.parse_args(argv)


# ----- settings read from the environment where they are used -----


@dataclass(frozen=True)
class Passed:
    """A flag whose value is handed on in the environment variable its module reads."""

    flag: str
    env: str
    help: str
    default: str


PASSED = (
    Passed(
        "--seal-keys",
        sealing.ENV_VAR,
        "seal states: comma-separated id:base64key, 16, 24 or 32 bytes each; the first seals,"
        " every one opens (docs/security.md); other users see a flag in `ps`: prefer the"
        " environment",
        "off",
    ),
    Passed(
        "--ledger-url",
        ledger.URL_VAR,
        "the freshness ledger of sealed games, redis://host:port/db (rediss:// for TLS,"
        " unix:///path); needs sealing (docs/security.md)",
        "off",
    ),
    Passed(
        "--ledger-ttl-seconds",
        ledger.TTL_VAR,
        "how long the ledger remembers a game with no move",
        f"{ledger.DEFAULT_TTL_SECONDS}, a week",
    ),
    Passed(
        "--ledger-max-unmoved-games",
        ledger.MAX_UNMOVED_VAR,
        "new games the ledger keeps waiting for their first move, across the deployment; the"
        " oldest is forgotten beyond",
        str(ledger.DEFAULT_MAX_UNMOVED),
    ),
    Passed(
        "--ledger-new-games-per-minute",
        ledger.RATE_VAR,
        "new sealed games a caller address may start a minute on each server process; 0: no limit",
        str(ledger.DEFAULT_NEW_GAMES_PER_MINUTE),
    ),
    Passed(
        "--max-connection-age-seconds",
        "CRABGAMES_MAX_CONNECTION_AGE_SECONDS",
        "close each client connection after this long (GOAWAY, then 10 s for calls in"
        " flight), so clients reconnect and spread over servers added since",
        "0: never",
    ),
    Passed(
        "--web-root",
        "CRABGAMES_WEB_ROOT",
        "the folder of the web page served at / of the HTTP side",
        "clients/web/dist, which make web builds",
    ),
)


def add_passed_settings(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("sealing, the freshness ledger, connections, the web page")
    for setting in PASSED:
        described = f"{setting.help} (env {setting.env}; default {setting.default})"
        group.add_argument(setting.flag, default=None, help=described)


def pass_settings(args: argparse.Namespace) -> None:
    """The flags given, in the environment that sealing.py, ledger.py, server.py and
    browser.py read (before they read it; forked workers inherit it)."""
    for setting in PASSED:
        value = getattr(args, setting.flag.removeprefix("--").replace("-", "_"))
        if value is not None:
            os.environ[setting.env] = value


# ----- HTTP: Connect and gRPC-Web (service/browser.py, docs/deploy.md) -----
OFF = ("", "off", "none", "no", "0")


def add_http_args(parser: argparse.ArgumentParser) -> None:
    env = os.environ.get
    parser.add_argument(
        "--http-address",
        default=env(HTTP_KNOB.env, ""),
        help="serve the rules service over HTTP as well, Connect (JSON and binary) and gRPC-Web"
        " for browsers, on host:port, e.g. 127.0.0.1:8080 (what make run does); off to leave"
        f" out (env {HTTP_KNOB.env}; default off)",
    )
    parser.add_argument(
        "--http-fallback",
        action="store_true",
        default=env("CRABGAMES_HTTP_FALLBACK", "") in ("1", "true", "yes"),
        help="when the HTTP address is taken, serve HTTP on a free port of the same host and"
        " say where, instead of stopping (make run does; env CRABGAMES_HTTP_FALLBACK=1;"
        " default off)",
    )
    parser.add_argument(
        "--cors-origins",
        default=env("CRABGAMES_CORS_ORIGINS", ""),
        help="comma-separated origins whose pages may call the HTTP side, e.g."
        " https://play.example.com (env CRABGAMES_CORS_ORIGINS; default none: same-origin only)",
    )


def http_options(args: argparse.Namespace) -> tuple[str | None, list[str]]:
    """The HTTP address (None: off) and CORS origins, checked before anything starts. A taken
    address stops the server naming the knob, or with --http-fallback moves to a free port."""
    from crabgames.service.browser import parse_origins

    address = None if args.http_address.strip().lower() in OFF else args.http_address
    try:
        origins = parse_origins(args.cors_origins)
    except ValueError as error:
        raise SystemExit(f"crabgames-server: {error}") from None
    if address is not None and args.workers > 1:
        raise SystemExit("crabgames-server: --http-address is served with --workers 1 only")
    if address is not None and port_taken(address):
        if not args.http_fallback:
            raise SystemExit(cannot_listen(address, "address already in use", HTTP_KNOB))
        log.warning(
            "%s is taken: serving HTTP on a free port instead (choose one with %s)",
            address,
            HTTP_KNOB,
        )
        address = f"{address.rpartition(':')[0]}:0"
    return address, origins


# ----- end of HTTP -----


def add_production_args(parser: argparse.ArgumentParser) -> None:
    """TLS, metrics and the access log (docs/deploy.md)."""
    env = os.environ.get
    tls = parser.add_argument_group("TLS (off unless a certificate and key are given)")
    tls.add_argument(
        "--tls-cert",
        default=env("CRABGAMES_TLS_CERT", ""),
        help="PEM certificate chain of the server (env CRABGAMES_TLS_CERT)",
    )
    tls.add_argument(
        "--tls-key",
        default=env("CRABGAMES_TLS_KEY", ""),
        help="its PEM key (env CRABGAMES_TLS_KEY)",
    )
    tls.add_argument(
        "--tls-client-ca",
        default=env("CRABGAMES_TLS_CLIENT_CA", ""),
        help="mutual TLS: PEM CA certificates; clients must present a certificate one of them"
        " signed (env CRABGAMES_TLS_CLIENT_CA)",
    )
    tls.add_argument(
        "--tls-reload-seconds",
        type=float,
        default=float(env("CRABGAMES_TLS_RELOAD_SECONDS", "") or DEFAULT_RELOAD_SECONDS),
        help="look for changed certificate files this often; 0: only on SIGHUP, which always"
        f" reloads (env CRABGAMES_TLS_RELOAD_SECONDS; default {DEFAULT_RELOAD_SECONDS:g})",
    )
    parser.add_argument(
        "--metrics-address",
        default=env("CRABGAMES_METRICS_ADDRESS", ""),
        help="serve Prometheus metrics over HTTP on host:port, e.g. 127.0.0.1:9464; with"
        " --workers N, worker i on port+i (env CRABGAMES_METRICS_ADDRESS; default off)",
    )
    parser.add_argument(
        "--health-address",
        default=env(HEALTH_KNOB.env, ""),
        help="serve the health service alone, in plaintext, on host:port as well: for"
        f" Kubernetes' gRPC probes, which cannot speak TLS (env {HEALTH_KNOB.env};"
        " default off)",
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        default=env("CRABGAMES_ACCESS_LOG", "") in ("1", "true", "yes"),
        help="a JSON line per call on standard error (env CRABGAMES_ACCESS_LOG=1; default off)",
    )


def observing(args: argparse.Namespace) -> Observing:
    """The production options, and the sealing keys and ledger settings, checked before any
    worker starts: a bad setting is one line here, not a worker that dies at once."""
    try:
        tls = TlsFiles.from_paths(
            args.tls_cert, args.tls_key, args.tls_client_ca, args.tls_reload_seconds
        )
        if tls is not None:
            read(tls)  # the files load (ValueError or OSError)
        if args.metrics_address:
            observed_address(args.metrics_address, 0)  # a malformed address fails here, once
        sealing.Sealer.from_env()
        ledger.settings()
    except (OSError, ValueError) as error:
        raise SystemExit(f"crabgames-server: {error}") from None
    health = args.health_address or None
    return Observing(tls, args.metrics_address or None, args.access_log, health)


def port_taken(address: str) -> bool:
    """Whether another process listens on `address` already: checked before gRPC binds, so a
    second `make run` gets one clear line rather than gRPC's own bind error as well."""
    host, _, port = address.rpartition(":")
    if not port.isdigit() or int(port) == 0:
        return False
    try:
        socket.create_server((host.strip("[]") or "0.0.0.0", int(port))).close()
    except OSError as error:
        return error.errno == errno.EADDRINUSE
    return False


def cannot_listen(address: str, error: BaseException | str, knob: Knob) -> str:
    """One line for a port that cannot be bound, naming the knob that moves it."""
    first = str(error).split(";")[0]
    return (
        f"crabgames-server: cannot listen on {address} ({first}): is another server running"
        f" there? Choose another address with {knob}"
    )


def check_ports(args: argparse.Namespace) -> None:
    """Each address this process listens on, free: a taken one names its own flag."""
    for address, knob in ((args.address, GRPC_KNOB), (args.health_address, HEALTH_KNOB)):
        if address and port_taken(address):
            raise SystemExit(cannot_listen(address, "address already in use", knob))


def metrics_port(address: str | None) -> int:
    """The metrics port asked for (0: none, or any free one)."""
    port = (address or "").rpartition(":")[2]
    return int(port) if port.isdigit() else 0


def metrics_line(host: str, ports: list[int]) -> str:
    where = ", ".join(f"http://{host}:{port}/metrics" for port in ports)
    return f"crabgames-server metrics on {where}"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.workers < 1:
        raise SystemExit("--workers must be at least 1")
    pass_settings(args)
    host = args.address.rsplit(":", 1)[0]
    check_ports(args)
    production = observing(args)
    http_address, origins = http_options(args)
    metrics_host = (args.metrics_address or ":").rsplit(":", 1)[0] or "127.0.0.1"
    if args.workers > 1:  # fork before any gRPC object exists
        try:
            workers, port, _reserved = start_workers(
                args.address, args.workers, args.threads, args.grace, observing=production
            )
        except (OSError, RuntimeError) as error:
            raise SystemExit(cannot_listen(args.address, error, GRPC_KNOB)) from None

        def announce_workers() -> None:
            # The one listening line, on stdout where tests and tools read it (not logged too).
            print(f"crabgames-server listening on {host}:{port}", flush=True)
            first = metrics_port(production.metrics_address)
            if first:  # port 0: each worker picks one and logs it
                ports = [first + i for i in range(args.workers)]
                print(metrics_line(metrics_host, ports), flush=True)
            log.info("%d worker processes", args.workers)

        raise SystemExit(supervise(workers, announce_workers))
    try:
        running = serve(args.address, args.threads, observing=production)
    except (MetricsPortError, ValueError) as error:  # the metrics port, a key or ledger URL
        raise SystemExit(f"crabgames-server: {error}") from None
    except (OSError, RuntimeError) as error:  # grpc.aio raises RuntimeError("Failed to bind")
        raise SystemExit(cannot_listen(args.address, error, GRPC_KNOB)) from None

    lines = [f"crabgames-server listening on {host}:{running.port}"]
    if http_address is not None:  # HTTP: service/browser.py
        from crabgames.service.browser import serve_http

        try:
            http = serve_http(running, http_address, origins, int(args.grace))
        except OSError as error:
            running.stop(0)
            raise SystemExit(cannot_listen(http_address, error, HTTP_KNOB)) from None
        http_host = http_address.rsplit(":", 1)[0]
        lines.append(f"crabgames-server HTTP on http://{http_host}:{http.port}")
    if running.metrics_port is not None:
        lines.append(metrics_line(metrics_host, [running.metrics_port]))

    def announce() -> None:
        # The listening line first, on stdout where tests and tools read it (not logged too),
        # then where HTTP and metrics are served.
        for line in lines:
            print(line, flush=True)

    run_until_signalled(running, args.grace, announce)


if __name__ == "__main__":
    main()
