"""`crabgames-host` / `python -m crabclients.host`: the reference game host, beside a rules
service. Every setting is a flag whose help names its environment variable.

    crabgames-host --address 127.0.0.1:8090 --rules 127.0.0.1:50051
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import urlsplit

import uvicorn

from crabclients.bots import BOTS
from crabclients.client import RulesClient, RulesServiceError, default_address
from crabclients.host.api import Api, Links, application
from crabclients.host.limits import CONNECTIONS, CONNECTIONS_PER_ADDRESS, Settings
from crabclients.host.store import open_store
from crabclients.host.tables import Host
from crabgames.service import http
from crabgames.service.addresses import ADDRESS_VAR

log = logging.getLogger("crabgames.host")

ENV_PREFIX = "CRABGAMES_HOST_"
DEFAULT_ADDRESS = "127.0.0.1:8090"
RULES_WAIT_SECONDS = 30.0  # the rules service may start beside the host (make run)
START_SECONDS = 10.0

# The operator's settings (limits.Settings), each a flag --name-with-dashes and an environment
# variable CRABGAMES_HOST_NAME_IN_CAPITALS.
HELP = {
    "table_ttl_seconds": "a table with no move for this long is forgotten (its log too)",
    "record_ttl_seconds": "a saved record is kept this long",
    "tables_per_minute": "new tables a caller address may create a minute, in bursts of as"
    " many (0: no limit; behind a proxy limit per client there)",
    "memory_tables": "tables the in-process store holds at most (without --redis-url)",
    "streams": "event streams open at once",
    "streams_per_address": "event streams one caller address may hold open",
    "stream_opens_per_minute": "event streams a caller address may open a minute",
    "bot": f"the bot in an empty chair: {', '.join(BOTS)}",
    "bot_pause_seconds": "a pause before each bot move, so that people can follow",
}
MINIMUM = {
    "table_ttl_seconds": 60,
    "record_ttl_seconds": 60,
    "memory_tables": 1,
    "streams": 1,
    "streams_per_address": 1,
    "stream_opens_per_minute": 0,
    "tables_per_minute": 0,
    "bot_pause_seconds": 0,
}


@dataclass(frozen=True)
class HostConfig:
    """Everything `serve` needs."""

    address: str = DEFAULT_ADDRESS
    rules: str = ""  # the rules service's address; "" for CRABGAMES_ADDRESS or its default
    redis_url: str = ""  # "" for the in-process store
    public_url: str = ""  # "" for http://<address>
    page_url: str = ""  # "" for <public_url>/
    web_root: str = ""
    cors_origins: tuple[str, ...] = ()
    settings: Settings = field(default_factory=Settings)
    rules_wait_seconds: float = RULES_WAIT_SECONDS

    def links(self, port: int) -> Links:
        host = self.address.rpartition(":")[0] or "127.0.0.1"
        public = (self.public_url or f"http://{host}:{port}").rstrip("/")
        return Links(self.page_url or f"{public}/", public)


def env_name(name: str) -> str:
    return ENV_PREFIX + name.upper()


def setting_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("limits and bots")
    for setting in dataclasses.fields(Settings):
        default = os.environ.get(env_name(setting.name), str(setting.default))
        group.add_argument(
            "--" + setting.name.replace("_", "-"),
            default=default,
            help=f"{HELP[setting.name]} (env {env_name(setting.name)}; default {setting.default})",
        )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(
        prog="crabgames-host",
        description="The reference game host: tables for people and bots, played through a"
        " crab games rules service (docs/clients.md, 'The game host'). Every flag can be set"
        " by the environment variable its help names.",
    )
    parser.add_argument(
        "--address",
        default=env(env_name("address"), DEFAULT_ADDRESS),
        help=f"host:port the host's HTTP API listens on (env {env_name('address')}; default"
        f" {DEFAULT_ADDRESS})",
    )
    parser.add_argument(
        "--rules",
        default=default_address(),
        help=f"the rules service's gRPC host:port (env {ADDRESS_VAR}, the service's own"
        " setting; default 127.0.0.1:50051); TLS as every client: CRABGAMES_TLS_CA and"
        " the other CRABGAMES_TLS_* (docs/clients.md)",
    )
    parser.add_argument(
        "--rules-wait-seconds",
        type=float,
        default=float(env(env_name("rules_wait_seconds"), str(RULES_WAIT_SECONDS))),
        help="how long to wait at start for the rules service to answer (env"
        f" {env_name('rules_wait_seconds')}; default {RULES_WAIT_SECONDS:g})",
    )
    parser.add_argument(
        "--redis-url",
        default=env(env_name("redis_url"), ""),
        help="keep tables in this Redis, redis://host:port/db (rediss:// for TLS, unix:///path),"
        " shared by every host process pointed at it (env"
        f" {env_name('redis_url')}; default: in this process's memory)",
    )
    parser.add_argument(
        "--public-url",
        default=env(env_name("public_url"), ""),
        help="the host's URL as browsers reach it, for the links it hands out (env"
        f" {env_name('public_url')}; default http://<address>)",
    )
    parser.add_argument(
        "--page-url",
        default=env(env_name("page_url"), ""),
        help="the player page the links open, with the seat's key in their #fragment (env"
        f" {env_name('page_url')}; default <public-url>/)",
    )
    parser.add_argument(
        "--web-root",
        default=env(env_name("web_root"), ""),
        help=f"serve the page's files from this folder at / (env {env_name('web_root')};"
        " default: none, the API only)",
    )
    parser.add_argument(
        "--cors-origins",
        default=env(env_name("cors_origins"), ""),
        help="comma-separated origins of pages on other origins allowed to call the API (env"
        f" {env_name('cors_origins')}; default none)",
    )
    parser.add_argument(
        "--log-level",
        default=env("CRABGAMES_LOG_LEVEL", "INFO"),
        help="DEBUG, INFO, WARNING or ERROR (env CRABGAMES_LOG_LEVEL; default INFO)",
    )
    setting_args(parser)
    args = parser.parse_args(argv)
    args.settings = settings_of(parser, args)
    return args


def settings_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The Settings the flags give, each checked (a bad one stops the host, naming its flag)."""
    values: dict[str, object] = {}
    for setting in dataclasses.fields(Settings):
        text, flag = getattr(args, setting.name), "--" + setting.name.replace("_", "-")
        kind = type(getattr(Settings(), setting.name))
        try:
            value = kind(text)
        except ValueError:
            parser.error(f"{flag} must be a {kind.__name__}, not {text!r}")
        if setting.name in MINIMUM and value < MINIMUM[setting.name]:
            parser.error(f"{flag} must be at least {MINIMUM[setting.name]}")
        values[setting.name] = value
    if values["bot"] not in BOTS:
        parser.error(f"--bot must be one of {', '.join(BOTS)}")
    return Settings(**values)  # type: ignore[arg-type]


def config_of(args: argparse.Namespace) -> HostConfig:
    origins = tuple(origin.strip() for origin in args.cors_origins.split(",") if origin.strip())
    return HostConfig(
        args.address,
        args.rules,
        args.redis_url,
        args.public_url,
        args.page_url,
        args.web_root,
        origins,
        args.settings,
        args.rules_wait_seconds,
    )


# ----- serving -----


class Serving:
    """The host serving on a socket, on the running loop: the API, its store, its client."""

    def __init__(self, config: HostConfig, client: RulesClient, sock: socket.socket) -> None:
        self.config = config
        self.client = client
        self.sock = sock
        self.port: int = sock.getsockname()[1]
        self.store = open_store(config.redis_url, config.settings)
        self.host = Host(client, self.store, config.settings, client.list_games())
        self.api = Api(self.host, config.links(self.port))
        app = application(self.api, config.cors_origins, config.web_root)
        self.server = uvicorn.Server(http.config(app, CONNECTIONS, CONNECTIONS_PER_ADDRESS))

    async def serve(self, started: Callable[[], None] = lambda: None) -> None:
        """Serve until told to stop (SIGINT, SIGTERM or `should_exit`); `started` is called
        once the host accepts connections."""
        await self.store.start()
        try:
            serving = asyncio.ensure_future(self.server.serve(sockets=[self.sock]))
            while not (self.server.started or serving.done()):
                await asyncio.sleep(0.01)
            if self.server.started:
                started()
            await serving
        finally:
            await self.host.close()
            await self.store.close()
            self.client.close()


def connect(config: HostConfig) -> RulesClient:
    """The rules service's client: waits for the service, or says why it cannot reach it."""
    return RulesClient.connect(config.rules or None, timeout=config.rules_wait_seconds)


@dataclass
class Running:
    """A host serving on a thread of its own (tests, embedding); `stop` ends it."""

    serving: Serving
    loop: asyncio.AbstractEventLoop
    done: Future[None]
    thread: threading.Thread

    @property
    def port(self) -> int:
        return self.serving.port

    def stop(self, timeout: float = 15.0) -> None:
        self.serving.server.should_exit = True
        try:
            self.done.result(timeout=timeout)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout)


def start(config: HostConfig) -> Running:
    """Serve `config` on a new thread; returns once the host listens (its port: `.port`)."""
    serving = Serving(config, connect(config), http.bind(config.address))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="crabgames-host", daemon=True)
    thread.start()
    done = asyncio.run_coroutine_threadsafe(serving.serve(), loop)
    wait_started(serving, done.done)
    return Running(serving, loop, done, thread)


def wait_started(serving: Serving, failed: Callable[[], bool]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not serving.server.started:
        if failed() or time.monotonic() > deadline:
            serving.server.should_exit = True
            raise OSError(f"the host could not start on {serving.config.address}")
        time.sleep(0.01)


def without_password(url: str) -> str:
    """A store's URL as it may be shown: its credentials left out."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    config = config_of(args)
    try:
        serving = Serving(config, connect(config), http.bind(config.address))
    except (OSError, RulesServiceError) as error:
        print(f"crabgames-host: {error}", file=sys.stderr)
        return 1
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, stopped)
    asyncio.run(serving.serve(partial(say_where, serving)))
    return 0


def stopped(signum: int, frame: object) -> None:
    """SIGINT and SIGTERM end the host with status 0: uvicorn stops serving first (its own
    handlers, which raise the signal again once it has stopped, reaching this one)."""
    raise SystemExit(0)


def say_where(serving: Serving) -> None:
    config = serving.config
    host = config.address.rpartition(":")[0]
    store = without_password(config.redis_url) if config.redis_url else "memory"
    print(
        f"crabgames-host listening on http://{host}:{serving.port} (rules service"
        f" {config.rules or default_address()}, store {store}, links {serving.api.links.page})",
        flush=True,
    )
