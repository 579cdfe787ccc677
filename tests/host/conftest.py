"""Game hosts for the tests, each a real client of a real rules server on loopback: with the
in-process store, and with a real redis-server started here on a free loopback port (the tests
fail without it, as the ledger's do)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator

import pytest

from crabclients.host.limits import Settings
from crabclients.host.main import HostConfig, Running, start
from tests.test_ledger import redis_server

# No pause before bot moves, no limit on new tables (the bound tests set their own).
FAST = Settings(bot_pause_seconds=0, tables_per_minute=0, bot="random")


@contextlib.contextmanager
def running_host(
    rules: str, redis_url: str = "", config: dict | None = None, **settings: object
) -> Iterator[Running]:
    """A host of the rules service at `rules`: `config` sets HostConfig's fields, `settings`
    the limits (conftest's FAST otherwise)."""
    config = HostConfig(
        address="127.0.0.1:0",
        rules=rules,
        redis_url=redis_url,
        settings=dataclasses.replace(FAST, **settings),  # type: ignore[arg-type]
        **(config or {}),
    )
    running = start(config)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="module", params=["memory", "redis"])
def host(request, server_address) -> Iterator[Running]:
    """A host of the session's rules server (no sealing), keeping its tables in memory or in
    Redis."""
    url = request.getfixturevalue("redis_url") if request.param == "redis" else ""
    with running_host(server_address, url) as running:
        yield running
