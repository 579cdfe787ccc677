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

New games cannot push games in play out of the store (issue 27: one anonymous caller making
470 NewGame/s filled it until Redis evicted games in play, which then ended for good). Three
bounds, each covering what the one before leaves open:

- A new game's first record lives UNMOVED_TTL_SECONDS; its first move promotes it to the full
  TTL. With `maxmemory-policy volatile-ttl`, Redis, when full, evicts the keys nearest their
  expiry first: unmoved games before any game in play (unless one is within an hour of expiring
  anyway). Cheap, but Redis only samples keys, so it is a preference, not a guarantee.
- The games not yet moved are counted, per deployment, in one sorted set (UNMOVED_KEY, by the
  store's clock): past max_unmoved, a new game drops the oldest unmoved one (it ends as if
  expired; its host starts another). The store's memory for games that never moved is bounded
  whatever the number of callers, so a store sized for the games in play plus this bound never
  evicts a game in play. Dropping the oldest rather than refusing the new one means a flood
  cannot stop all new games for an hour; a host's game is lost only if a flood of bounded size
  passes before its first move.
- Each server process gives every caller address (an IPv6 one by its /64) a token bucket of
  new games (NewGame, Replay) a minute: one caller no longer churns the unmoved games of
  everyone else, and is refused RESOURCE_EXHAUSTED (RATE_LIMITED) with the wait in the error.

Every Redis call is bounded by TIMEOUT_SECONDS; a store that does not answer, or answers with an
error, makes the call UNAVAILABLE (LEDGER_UNAVAILABLE), never INTERNAL, and for COOL_OFF_SECONDS
afterwards calls are refused at once instead of each waiting for the timeout.
"""

from __future__ import annotations

import hmac
import logging
import math
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
from crabgames.service.peers import PeerRate
from crabgames.v1 import game_pb2

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

URL_VAR = "CRABGAMES_LEDGER_URL"
TTL_VAR = "CRABGAMES_LEDGER_TTL_SECONDS"
DEFAULT_TTL_SECONDS = 7 * 24 * 3600  # a game with no move for a week is abandoned
MIN_TTL_SECONDS, MAX_TTL_SECONDS = 60, 366 * 24 * 3600
# A new game waits this long for its first move (its players join meanwhile), at most the TTL;
# one not moved by then is cheap to start again.
UNMOVED_TTL_SECONDS = 3600
MAX_UNMOVED_VAR = "CRABGAMES_LEDGER_MAX_UNMOVED_GAMES"
DEFAULT_MAX_UNMOVED = 100_000  # per deployment: about 38 MB of the store (docs/security.md)
MIN_MAX_UNMOVED, MAX_MAX_UNMOVED = 100, 10_000_000
RATE_VAR = "CRABGAMES_LEDGER_NEW_GAMES_PER_MINUTE"
# Per caller address and server process (0: no limit): a busy host or bot farm behind one address
# starts games by the second; the hard bound on a flood is DEFAULT_MAX_UNMOVED.
DEFAULT_NEW_GAMES_PER_MINUTE = 1200
MAX_NEW_GAMES_PER_MINUTE = 1_000_000
TIMEOUT_SECONDS = 0.25  # connecting, and each command: a few ms on a healthy network
COOL_OFF_SECONDS = 1.0
MAX_CONNECTIONS = 64  # per server process; more calls at once than this are UNAVAILABLE
KEY_PREFIX = "crabgames:ledger:v1:"
# The games not yet moved, each game's key scored by the store's time it was issued, in
# microseconds (exact in a double; milliseconds would tie, and ties go by key, not by age). No
# TTL: volatile-ttl never evicts it, and the ISSUE script keeps it at most max_unmoved long.
UNMOVED_KEY = KEY_PREFIX + "unmoved"

# KEYS[1] the new game's key, KEYS[2] UNMOVED_KEY; ARGV[1] the first state's record, ARGV[2] the
# unmoved TTL in ms, ARGV[3] max_unmoved. Forgets the unmoved games that expired, records the new
# one, and drops the oldest unmoved games (their keys, not declared: one Redis primary, no
# Cluster) beyond max_unmoved. The store's clock, shared by every server, orders them.
ISSUE = """
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]) * 1000)
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now, KEYS[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local dropped = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #dropped, 2 do
    redis.call('DEL', dropped[i])
  end
end
return 1
"""

# KEYS[1] the game's key, KEYS[2] UNMOVED_KEY; ARGV[1] the record of the state moved from,
# ARGV[2] the record of the state moved to, ARGV[3] the TTL in ms. Moves on only from the newest
# state, or takes the same move again (its result is already the newest); else returns the
# newest record (nil: none). A move gives the game the full TTL and takes it out of the unmoved
# games (a no-op after its first move).
ADVANCE = """
local newest = redis.call('GET', KEYS[1])
if newest == ARGV[1] or newest == ARGV[2] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('ZREM', KEYS[2], KEYS[1])
  return 1
end
return newest
"""


class LedgerUnavailable(RulesError):
    """The freshness ledger did not answer: sealed states cannot be checked, so they are
    refused (fail closed) until it does."""

    reason = "LEDGER_UNAVAILABLE"
    status_code = code_pb2.UNAVAILABLE


class RateLimited(RulesError):
    """Too many new games from one caller address lately: the store they fill is shared by
    every game in play. ErrorInfo's `retry_after_ms` says when the next one is taken."""

    reason = "RATE_LIMITED"
    status_code = code_pb2.RESOURCE_EXHAUSTED

    def __init__(self, wait_seconds: float) -> None:
        super().__init__(
            f"too many new games from your address: the next in {math.ceil(wait_seconds)} s"
        )
        self.wait_ms = math.ceil(wait_seconds * 1000)

    @property
    def metadata(self) -> dict[str, str]:
        return {"retry_after_ms": str(self.wait_ms)}


class Ledger:
    """The newest state issued for each sealed game instance, in Redis, and the bounds on new
    games that keep the games in play there."""

    def __init__(
        self,
        client: redis.Redis,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        max_unmoved: int = DEFAULT_MAX_UNMOVED,
        new_games_per_minute: int = DEFAULT_NEW_GAMES_PER_MINUTE,
    ) -> None:
        self.client = client
        self.ttl_ms = ttl_seconds * 1000
        self.unmoved_ttl_ms = min(UNMOVED_TTL_SECONDS, ttl_seconds) * 1000
        self.max_unmoved = max_unmoved
        self.new_games = PeerRate(new_games_per_minute) if new_games_per_minute else None
        self.issue_script = client.register_script(ISSUE)
        self.advance_script = client.register_script(ADVANCE)
        self.down_until = 0.0  # monotonic time until which the store counts as down
        self.lock = threading.Lock()

    @classmethod
    def connect(
        cls,
        url: str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        max_unmoved: int = DEFAULT_MAX_UNMOVED,
        new_games_per_minute: int = DEFAULT_NEW_GAMES_PER_MINUTE,
    ) -> Ledger:
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
        return cls(client, ttl_seconds, max_unmoved, new_games_per_minute)

    @classmethod
    def from_env(cls, sealing: bool, environ: Mapping[str, str] = os.environ) -> Ledger | None:
        """The ledger configured by CRABGAMES_LEDGER_URL (and the other CRABGAMES_LEDGER_*
        settings), or None when unset. It keeps sealed games fresh, so it needs sealing on: a
        bad setting stops the server at start."""
        url = environ.get(URL_VAR, "").strip()
        if not url:
            return None
        if not sealing:
            raise ValueError(f"{URL_VAR} needs sealing on (CRABGAMES_SEAL_KEYS)")
        ttl, unmoved, rate = settings(environ)
        try:
            ledger = cls.connect(url, ttl, unmoved, rate)
        except ValueError as error:
            raise ValueError(f"{URL_VAR}: {error}") from None
        log.info(
            "freshness ledger at %s: games expire after %d s idle, at most %d games not yet"
            " moved, %s new games a minute per caller address",
            redacted(url),
            ttl,
            unmoved,
            rate or "unlimited",
        )
        return ledger

    def close(self) -> None:
        self.client.close()

    # ----- the things a server asks -----

    def admit(self, peer: str) -> None:
        """RATE_LIMITED when the caller at `peer` (gRPC's peer string) started too many games
        lately; asked before a new game (NewGame, Replay) costs anything."""
        if self.new_games is not None and (wait := self.new_games.take(peer)):
            raise RateLimited(wait)

    def issue(self, instance: bytes, state: game_pb2.GameState) -> None:
        """Record the first state of a new game (NewGame, Replay), among the unmoved games: with
        the short TTL, and dropping the oldest unmoved games beyond max_unmoved."""
        keys = [key(instance), UNMOVED_KEY]
        args: list[str | int] = [record(instance, state), self.unmoved_ttl_ms, self.max_unmoved]
        if self.call(self.issue_script, keys=keys, args=args) != 1:
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
        keys = [key(instance), UNMOVED_KEY]
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
            " move (or before its first), was dropped for newer games not yet moved, or was not"
            " started on this deployment"
        )
    version = newest.partition(b":")[0].decode("ascii", "replace")
    return StaleState(
        f"this state (version {state.version}) is not its game's newest one (version"
        f" {version}): send the latest state"
    )


def settings(environ: Mapping[str, str] = os.environ) -> tuple[int, int, int]:
    """The TTL, the most games not yet moved and the new games a minute per caller address
    (0: no limit), from the environment: ValueError naming the setting when one is bad."""
    return (
        setting(environ, TTL_VAR, DEFAULT_TTL_SECONDS, MIN_TTL_SECONDS, MAX_TTL_SECONDS),
        setting(environ, MAX_UNMOVED_VAR, DEFAULT_MAX_UNMOVED, MIN_MAX_UNMOVED, MAX_MAX_UNMOVED),
        setting(environ, RATE_VAR, DEFAULT_NEW_GAMES_PER_MINUTE, 0, MAX_NEW_GAMES_PER_MINUTE),
    )


def setting(environ: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """A whole-number setting from the environment, `default` when unset."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name}: {text[:20]!r} is not a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"{name}: must be {low} to {high}")
    return value


def redacted(url: str) -> str:
    """The URL without its password, for the log."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    return f"{scheme}{sep}{'***@' if at else ''}{host}" if sep else "(unparsed URL)"
