"""Callers told apart by their address, and a bounded budget for each: the one notion of "a
caller" that every per-caller limit uses (the edge's open calls and refused requests, the
ledger's new games, the game host's actions). The address is the connection's: behind a proxy
every caller has the proxy's, so limit per caller there instead."""

from __future__ import annotations

import functools
import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import unquote

MAX_PEERS = 10_000  # caller addresses a budget keeps (about 2.4 MB)
MAX_PEER_CHARS = 64  # of a peer that is no IP address (a unix socket's path), as its table key


@functools.lru_cache(maxsize=4096)  # every call asks; a server meets its callers again and again
def peer_address(peer: str) -> str:
    """The caller's address without its port, from gRPC's peer ("ipv4:10.0.0.1:5678",
    "ipv6:[2001:db8::1]:5678", "%5B...%5D" in older gRPC) or the HTTP side's
    ("ipv6:2001:db8::1:5678", browser.py). An IPv6 address counts as its /64, which one host
    usually holds whole; an IPv4-mapped one as its IPv4 address. Anything else (a unix socket)
    is one caller. An address given again is itself."""
    rest = unquote(peer.partition(":")[2])
    bracketed = rest.startswith("[")
    host = rest[1:].partition("]")[0] if bracketed else (rest.rpartition(":")[0] or rest)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return peer[:MAX_PEER_CHARS]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network((address, 64), strict=False))
    return str(address)


class PeerRate:
    """A token bucket for each caller address: at most `per_minute` in a minute, in bursts of
    `burst` (as many as `per_minute` unless given). In this process only: a deployment of N
    processes takes up to N times as many from one address. The MAX_PEERS addresses seen most
    lately are kept; one seen longer ago has its bucket full again, or nearly."""

    def __init__(
        self,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        burst: int | None = None,
    ) -> None:
        self.capacity = float(per_minute if burst is None else burst)
        self.per_second = per_minute / 60
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self.lock = threading.Lock()

    def take(self, peer: str) -> float:
        """0 when `peer` may act now (counted), else the seconds until it may."""
        return self.tokens_then(peer, take=True)

    def wait(self, peer: str) -> float:
        """The seconds until `peer` may act (0: now), counting nothing."""
        if peer_address(peer) not in self.buckets:  # the usual answer, without the lock
            return 0.0
        return self.tokens_then(peer, take=False)

    def tokens_then(self, peer: str, take: bool) -> float:
        address = peer_address(peer)
        with self.lock:
            now = self.clock()
            tokens, then = self.buckets.pop(address, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - then) * self.per_second)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.per_second
            self.buckets[address] = (tokens - 1 if wait == 0 and take else tokens, now)
            if len(self.buckets) > MAX_PEERS:
                self.buckets.popitem(last=False)
        return wait
