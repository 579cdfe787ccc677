"""Every bound of the game host, each declared once (docs/clients.md "The game host" lists them
with the attack each answers), and the counters that enforce them per caller address.

As the rules service does (docs/security.md "Every caller is hostile"): a bound is checked
before the work or the memory it bounds is spent, and nothing one address can fill is shared
with everyone."""

from __future__ import annotations

import ipaddress
from collections import Counter
from dataclasses import dataclass

from crabclients.host.errors import TOO_MANY, HostError
from crabgames.service.limits import MAX_REPLAY_MOVES
from crabgames.service.peers import PeerRate

KIB = 1024

# ----- requests -----
BODY_BYTES = 16 * KIB  # a request body (413 beyond, unread); the largest is a table's options
BODY_SECONDS = 5.0  # the body arrives within this (408), as the service's REQUEST_SECONDS
JSON_DEPTH = 16  # nested objects and arrays, counted in the raw bytes before json.loads
OPTIONS_BYTES = 8 * KIB  # a table's options, as protobuf
NAME_CHARS = 32  # a seat's name

# ----- tables -----
# A table's moves: a record must replay through the service's Replay (its bound).
MAX_MOVES = MAX_REPLAY_MOVES
LOG_BYTES = 1024 * KIB  # events kept per table; beyond, a move's events are not kept (its move is)
RECORDS_PER_TABLE = 16  # records saved of one table
KEY_BYTES = 18  # random bytes of a table id and of a seat's secret (144 bits each)

# ----- streams -----
HEARTBEAT_SECONDS = 15.0  # a comment line on an idle stream (proxies keep it, dead peers show)
STREAM_SECONDS = 3600.0  # a stream then ends; EventSource reconnects with Last-Event-ID
RETRY_MS = 2000  # the reconnection delay a stream asks of EventSource

# ----- work -----
RULES_THREADS = 8  # threads calling the rules service (its client is synchronous)
BOT_MOVES_AT_ONCE = 4  # bots choosing at once, across tables (the look-ahead bot is costly)
STEPS_AT_ONCE = 2  # replays being stepped through the service at once (429 beyond)
STEPS_CACHE_BYTES = 16 * 1024 * KIB  # computed replay steps kept, as JSON bytes
VIEWS_CACHED = 512  # views kept (a table's version seen by a seat or a spectator)

# ----- connections (crabgames.service.http bounds heads, their time and connections) -----
CONNECTIONS = 2048
CONNECTIONS_PER_ADDRESS = 64


@dataclass(frozen=True)
class Settings:
    """What the operator may change (flags of `crabgames-host`, docs/clients.md)."""

    table_ttl_seconds: int = 24 * 3600  # an idle table is forgotten after this
    record_ttl_seconds: int = 30 * 24 * 3600  # a saved record is kept this long
    tables_per_minute: int = 10  # new tables per caller address, in bursts of as many
    memory_tables: int = 256  # tables the in-process store holds (503 beyond)
    streams: int = 1024  # open event streams
    streams_per_address: int = 16  # open event streams of one caller address
    stream_opens_per_minute: int = 120  # streams one caller address may open a minute
    bot: str = "lookahead"  # the bot in an empty chair when the table does not name one
    bot_pause_seconds: float = 0.5  # before each bot move, so that people can follow


def peer_of(host: str) -> str:
    """The caller's address as the service's PeerRate reads it (an IPv6 address counts as its
    /64)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    return f"ipv6:[{address}]:0" if address.version == 6 else f"ipv4:{address}:0"


class Rate:
    """At most `per_minute` actions a minute per caller address, in bursts of as many (the
    service's PeerRate: a bounded table of addresses)."""

    def __init__(self, per_minute: int, what: str) -> None:
        self.rate = PeerRate(per_minute) if per_minute else None
        self.what = what

    def take(self, host: str) -> None:
        wait = self.rate.take(peer_of(host)) if self.rate is not None else 0.0
        if wait:
            message = f"too many {self.what} from your address; try again in {wait:.0f} s"
            raise HostError(TOO_MANY, "rate_limited", message, retry_after=wait)


class Streams:
    """Open event streams: at most `total`, and `per_address` from one caller address."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.open: Counter[str] = Counter()
        self.count = 0

    def enter(self, host: str) -> str:
        """Count a stream of `host` (refused beyond the bounds); the key to leave with."""
        address = peer_of(host)
        if self.count >= self.total:
            why = "the host has no room for another stream; try again later"
            raise HostError(TOO_MANY, "too_many_streams", why, retry_after=5)
        if self.open[address] >= self.per_address:
            why = f"your address has {self.per_address} streams open already; close a page"
            raise HostError(TOO_MANY, "too_many_streams", why, retry_after=5)
        self.open[address] += 1
        self.count += 1
        return address

    def leave(self, address: str) -> None:
        self.count -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
