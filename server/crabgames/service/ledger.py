"""The freshness ledger (docs/security.md): the newest state issued for each sealed game, kept
in Redis and shared by every server of a deployment, so that an older sealed state is refused
(ABORTED, STALE_STATE) by any of them and rollback stops working.

Sealing makes a state genuine but not current: a player holding a sealed state could send an
older one again and try another move from it (in Kraby, to see the next draw before choosing;
in CRAB RAGE!, to change a hardcore fan commitment after the reveal). With the ledger, a server
takes a sealed state only if it is its game's newest one, and records each new one with an
atomic compare-and-set (a Lua script), so two servers never both move on from the same state.

One key per game instance, bounded in size, with a TTL refreshed by every move:

    crabgames:ledger:v1:<32 hex>  ->  "<version>:<32 hex>"

The key holds a hash of the instance id, the value the newest version and an HMAC of that
full state keyed by the instance id. The instance id is secret inside the seal, so neither
reveals anything about a game to whoever reads the store (see docs/security.md for what writing
to it allows). A game whose key expired, or was never recorded, is refused like a stale one.

A move retried from the same state with the same result (an answer lost on the way) is taken
again: the ledger already holds the state it produces, and the caller learns nothing new.

Every Redis call is bounded by TIMEOUT_SECONDS; a store that does not answer, or answers with an
error, makes the call UNAVAILABLE (LEDGER_UNAVAILABLE), never INTERNAL, and for COOL_OFF_SECONDS
afterwards calls are refused at once instead of each waiting for the timeout.
"""

from __future__ import annotations

import hmac
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from hashlib import sha256
from typing import ParamSpec, TypeVar, cast

import redis
from google.rpc import code_pb2
from redis.backoff import NoBackoff
from redis.retry import Retry

from crabgames.core.errors import RulesError, StaleState
from crabgames.v1 import game_pb2

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

URL_VAR = "CRABGAMES_LEDGER_URL"
TTL_VAR = "CRABGAMES_LEDGER_TTL_SECONDS"
DEFAULT_TTL_SECONDS = 7 * 24 * 3600  # a game with no move for a week is abandoned
MIN_TTL_SECONDS, MAX_TTL_SECONDS = 60, 366 * 24 * 3600
TIMEOUT_SECONDS = 0.25  # connecting, and each command: a few ms on a healthy network
COOL_OFF_SECONDS = 1.0
MAX_CONNECTIONS = 64  # per server process; more calls at once than this are UNAVAILABLE
KEY_PREFIX = "crabgames:ledger:v1:"

# KEYS[1] the game's key; ARGV[1] the record of the state moved from, ARGV[2] the record of the
# state moved to, ARGV[3] the TTL in ms. Moves on only from the newest state, or takes the same
# move again (its result is already the newest); else returns the newest record (nil: none).
ADVANCE = """
local newest = redis.call('GET', KEYS[1])
if newest == ARGV[1] or newest == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return newest
"""


class LedgerUnavailable(RulesError):
    """The freshness ledger did not answer: sealed states cannot be checked, so they are
    refused (fail closed) until it does."""

    reason = "LEDGER_UNAVAILABLE"
    status_code = code_pb2.UNAVAILABLE


class Ledger:
    """The newest state issued for each sealed game instance, in Redis."""

    def __init__(self, client: redis.Redis, ttl_seconds: int = DEFAULT_TTL_SECONDS) -> None:
        self.client = client
        self.ttl_ms = ttl_seconds * 1000
        self.advance_script = client.register_script(ADVANCE)
        self.down_until = 0.0  # monotonic time until which the store counts as down
        self.lock = threading.Lock()

    @classmethod
    def connect(cls, url: str, ttl_seconds: int = DEFAULT_TTL_SECONDS) -> Ledger:
        """A ledger on the Redis at `url` (redis://, rediss:// or unix://); nothing is sent
        until the first call, so a server starts before its store does."""
        client = redis.Redis.from_url(
            url,
            socket_timeout=TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS,
            # One quick retry replaces a pooled connection the store closed; no back-off, so a
            # call waits at most twice the timeout.
            retry=Retry(NoBackoff(), 1),
            max_connections=MAX_CONNECTIONS,
            health_check_interval=0,
        )
        return cls(client, ttl_seconds)

    @classmethod
    def from_env(cls, sealing: bool, environ: Mapping[str, str] = os.environ) -> Ledger | None:
        """The ledger configured by CRABGAMES_LEDGER_URL (and CRABGAMES_LEDGER_TTL_SECONDS), or
        None when unset. It keeps sealed games fresh, so it needs sealing on: a bad setting
        stops the server at start."""
        url = environ.get(URL_VAR, "").strip()
        if not url:
            return None
        if not sealing:
            raise ValueError(f"{URL_VAR} needs sealing on (CRABGAMES_SEAL_KEYS)")
        ttl = ttl_setting(environ.get(TTL_VAR, "").strip())
        try:
            ledger = cls.connect(url, ttl)
        except ValueError as error:
            raise ValueError(f"{URL_VAR}: {error}") from None
        log.info("freshness ledger at %s, games expire after %d s idle", redacted(url), ttl)
        return ledger

    def close(self) -> None:
        self.client.close()

    # ----- the three things a server asks -----

    def issue(self, instance: bytes, state: game_pb2.GameState) -> None:
        """Record the first state of a new game (NewGame, Replay)."""
        if not self.call(self.client.set, key(instance), record(instance, state), px=self.ttl_ms):
            raise LedgerUnavailable("the freshness ledger did not record the new game")

    def check(self, instance: bytes, state: game_pb2.GameState) -> None:
        """STALE_STATE unless `state` is the newest state of its game."""
        # Bytes: the client does not decode responses (redis types both kinds of client).
        newest = cast("bytes | None", self.call(self.client.get, key(instance)))
        if newest != record(instance, state).encode():
            raise stale(state, newest)

    def advance(self, instance: bytes, old: game_pb2.GameState, new: game_pb2.GameState) -> None:
        """Record `new`, played from `old`, as its game's newest state; STALE_STATE (and
        nothing recorded) unless `old` was the newest, or `new` already is."""
        keys = [key(instance)]
        args: list[str | int] = [record(instance, old), record(instance, new), self.ttl_ms]
        answer = self.call(self.advance_script, keys=keys, args=args)
        if answer != 1:
            raise stale(old, answer)

    def call(self, command: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A Redis command, bounded in time; any failure of the store is UNAVAILABLE."""
        if time.monotonic() < self.down_until:
            raise LedgerUnavailable("the freshness ledger is unreachable: retry shortly")
        try:
            return command(*args, **kwargs)
        except (redis.RedisError, OSError) as error:
            with self.lock:
                self.down_until = time.monotonic() + COOL_OFF_SECONDS
            log.warning("freshness ledger: %s: %s", type(error).__name__, error)
            raise LedgerUnavailable("the freshness ledger is unreachable: retry shortly") from None


def key(instance: bytes) -> str:
    return KEY_PREFIX + sha256(b"crabgames ledger key\0" + instance).hexdigest()[:32]


def record(instance: bytes, state: game_pb2.GameState) -> str:
    """The ledger's record of a full state: its version and an HMAC of it keyed by its game's
    instance id (the same on every server, whatever key sealed it)."""
    mac = hmac.new(instance, state.SerializeToString(), sha256).hexdigest()[:32]
    return f"{state.version}:{mac}"


def stale(state: game_pb2.GameState, newest: bytes | None) -> StaleState:
    if newest is None:
        return StaleState(
            "this game is not in the freshness ledger: it expired after a long time without a"
            " move, or was not started on this deployment"
        )
    version = newest.partition(b":")[0].decode("ascii", "replace")
    return StaleState(
        f"this state (version {state.version}) is not its game's newest one (version"
        f" {version}): send the latest state"
    )


def ttl_setting(text: str) -> int:
    if not text:
        return DEFAULT_TTL_SECONDS
    try:
        ttl = int(text)
    except ValueError:
        raise ValueError(f"{TTL_VAR}: {text[:20]!r} is not a number of seconds") from None
    if not MIN_TTL_SECONDS <= ttl <= MAX_TTL_SECONDS:
        raise ValueError(f"{TTL_VAR}: must be {MIN_TTL_SECONDS} to {MAX_TTL_SECONDS} seconds")
    return ttl


def redacted(url: str) -> str:
    """The URL without its password, for the log."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    return f"{scheme}{sep}{'***@' if at else ''}{host}" if sep else "(unparsed URL)"
