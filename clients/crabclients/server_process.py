"""Run a rules server for a client that was not given an address: in this process, on a free
loopback port (the calls still go through gRPC)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def server_address(address: str | None) -> Iterator[str]:
    """`address` itself when given; otherwise start a server on 127.0.0.1 and yield its address."""
    if address:
        yield address
        return
    from crabgames.service.server import serve  # only needed when we run the server ourselves

    running = serve("127.0.0.1:0", threads=4)
    try:
        yield f"127.0.0.1:{running.port}"
    finally:
        running.stop(0)
