"""`crabgames-server` / `python -m crabgames.service`: flags, or CRABGAMES_* environment."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
from typing import TYPE_CHECKING

from crabgames.service.metrics import MetricsPortError, observed_address
from crabgames.service.server import Observing, Running, run_until_signalled, serve
from crabgames.service.tls import DEFAULT_RELOAD_SECONDS, TlsFiles, check
from crabgames.service.workers import start_workers, supervise

if TYPE_CHECKING:  # imported when serving HTTP only
    from crabgames.service.browser import Serving


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(description="The crab games rules service (gRPC).")
    parser.add_argument(
        "--address",
        default=env("CRABGAMES_ADDRESS", "127.0.0.1:50051"),
        help="host:port to listen on (env CRABGAMES_ADDRESS; default 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=int(env("CRABGAMES_THREADS", "2")),
        help="threads per process for the long calls, Playouts and Replay; every other call"
        " runs on the process's event loop (env CRABGAMES_THREADS; default 2)",
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
    add_http_args(parser)
    return parser.parse_args(argv)


# ----- HTTP: Connect and gRPC-Web (service/browser.py, docs/deploy.md) -----
OFF = ("", "off", "none", "no", "0")


def add_http_args(parser: argparse.ArgumentParser) -> None:
    env = os.environ.get
    parser.add_argument(
        "--http-address",
        default=env("CRABGAMES_HTTP_ADDRESS", ""),
        help="serve the rules service over HTTP as well, Connect (JSON and binary) and gRPC-Web"
        " for browsers, on host:port, e.g. 127.0.0.1:8080 (what make run does); off to leave"
        " out (env CRABGAMES_HTTP_ADDRESS; default off)",
    )
    parser.add_argument(
        "--cors-origins",
        default=env("CRABGAMES_CORS_ORIGINS", ""),
        help="comma-separated origins whose pages may call the HTTP side, e.g."
        " https://play.example.com (env CRABGAMES_CORS_ORIGINS; default none: same-origin only)",
    )


def http_options(args: argparse.Namespace) -> tuple[str | None, list[str]]:
    """The HTTP address (None: off) and CORS origins, checked before anything starts."""
    from crabgames.service.browser import parse_origins

    address = None if args.http_address.strip().lower() in OFF else args.http_address
    try:
        origins = parse_origins(args.cors_origins)
    except ValueError as error:
        raise SystemExit(f"crabgames-server: {error}") from None
    if address is not None and args.workers > 1:
        raise SystemExit("crabgames-server: --http-address is served with --workers 1 only")
    if address is not None and port_taken(address):
        raise SystemExit(cannot_listen(address, OSError("address already in use")))
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
        default=env("CRABGAMES_HEALTH_ADDRESS", ""),
        help="serve the health service alone, in plaintext, on host:port as well: for"
        " Kubernetes' gRPC probes, which cannot speak TLS (env CRABGAMES_HEALTH_ADDRESS;"
        " default off)",
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        default=env("CRABGAMES_ACCESS_LOG", "") in ("1", "true", "yes"),
        help="a JSON line per call on standard error (env CRABGAMES_ACCESS_LOG=1; default off)",
    )


def observing(args: argparse.Namespace) -> Observing:
    """The production options, checked before any worker starts."""
    try:
        tls = TlsFiles.from_paths(
            args.tls_cert, args.tls_key, args.tls_client_ca, args.tls_reload_seconds
        )
        if tls is not None:
            check(tls)
        if args.metrics_address:
            observed_address(args.metrics_address, 0)  # a malformed address fails here, once
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


def cannot_listen(address: str, error: BaseException) -> str:
    """One line for a port that cannot be bound, instead of a traceback."""
    first = str(error).split(";")[0]
    return (
        f"crabgames-server: cannot listen on {address} ({first}): is another server running"
        " there? Choose another with --address or CRABGAMES_ADDRESS"
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.workers < 1:
        raise SystemExit("--workers must be at least 1")
    host = args.address.rsplit(":", 1)[0]
    if port_taken(args.address):
        raise SystemExit(cannot_listen(args.address, OSError("address already in use")))
    production = observing(args)
    http_address, origins = http_options(args)
    if args.workers > 1:  # fork before any gRPC object exists
        try:
            workers, port, _reserved = start_workers(
                args.address, args.workers, args.threads, args.grace, observing=production
            )
        except (OSError, RuntimeError) as error:
            raise SystemExit(cannot_listen(args.address, error)) from None

        def announce_workers() -> None:
            # The one listening line, on stdout where tests and tools read it (not logged too).
            print(f"crabgames-server listening on {host}:{port}", flush=True)
            logging.getLogger("crabgames").info("%d worker processes", args.workers)

        raise SystemExit(supervise(workers, announce_workers))
    try:
        running = serve(
            args.address,
            args.threads,
            tls=production.tls,
            metrics_address=production.metrics_address,
            access_log=production.access_log,
            health_address=production.health_address,
        )
    except MetricsPortError as error:
        raise SystemExit(f"crabgames-server: {error}") from None
    except (OSError, RuntimeError) as error:  # grpc.aio raises RuntimeError("Failed to bind")
        raise SystemExit(cannot_listen(args.address, error)) from None

    serving: Running | Serving = running
    http_listening = ""  # with HTTP, the second listening line
    if http_address is not None:  # HTTP: service/browser.py
        from crabgames.service.browser import Serving, serve_http

        try:
            http = serve_http(running, http_address, origins, int(args.grace))
        except OSError as error:
            running.stop(0)
            raise SystemExit(cannot_listen(http_address, error)) from None
        serving = Serving(running, http)
        http_host = http_address.rsplit(":", 1)[0]
        http_listening = f"crabgames-server HTTP on http://{http_host}:{http.port}"

    def announce() -> None:
        # The one listening line, on stdout where tests and tools read it (not logged too).
        print(f"crabgames-server listening on {host}:{running.port}", flush=True)
        if http_listening:  # HTTP: the second line
            print(http_listening, flush=True)

    run_until_signalled(serving, args.grace, announce)


if __name__ == "__main__":
    main()
