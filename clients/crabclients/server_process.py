"""Run a rules server for a client that was not given an address: in this process, on a free
loopback port (the calls still go through gRPC)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from crabgames.service.addresses import ADDRESS_VAR

# The help of an --address flag whose absence starts a server here.
ADDRESS_HELP = f"a running server's host:port (env {ADDRESS_VAR}; without either: start one here)"


@contextlib.contextmanager
def server_address(address: str | None) -> Iterator[str]:
    """`address` itself when given, else CRABGAMES_ADDRESS when set; otherwise start a server
    on 127.0.0.1 and yield its address."""
    address = address or os.environ.get(ADDRESS_VAR, "").strip()
    if address:
        yield address
        return
    from crabgames.service.server import serve  # only needed when we run the server ourselves

    running = serve("127.0.0.1:0", threads=4)
    try:
        yield f"127.0.0.1:{running.port}"
    finally:
        running.stop(0)
