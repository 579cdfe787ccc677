"""HTTP/1.1 serving with the bounds every HTTP port of the server needs (the browser protocols,
browser.py, and the metrics, metrics.py): uvicorn with httptools on the server's event loop,
plus what httptools and uvicorn lack (docs/security.md).

- A request's head (request line and headers) is at most MAX_HEAD_BYTES (431 beyond, and the
  connection closed: httptools would grow a URL or a header without limit, on the event loop).
- The head is complete within HEAD_SECONDS of the connection's start or of the request's first
  byte, or the connection is closed (uvicorn sets no deadline on a head that never ends).
- One address holds at most `per_peer` connections; the rest are closed at once, so one caller
  cannot take the port's whole `limit_concurrency` (uvicorn's 503 beyond it).
"""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from typing import ClassVar
from weakref import WeakKeyDictionary

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from crabgames.service.admission import one_less

# What a browser sends is well under 8 KiB (nginx's large_client_header_buffers: 4 x 8 KiB).
MAX_HEAD_BYTES = 16 * 1024
# As nginx's client_header_timeout, shorter.
HEAD_SECONDS = 10.0
# An idle keep-alive connection is closed after this long.
KEEP_ALIVE_SECONDS = 30


class HeadTooLarge(Exception):
    """Raised from the parser's callbacks to stop reading a head over MAX_HEAD_BYTES."""


class BoundedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request head bounded in size and in time, and the
    connections per peer address bounded (`per_peer`, set by `protocol`)."""

    per_peer: ClassVar[int] = 256
    peers: ClassVar[WeakKeyDictionary[ServerState, Counter[str]]] = WeakKeyDictionary()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.in_head = True  # from a request's first byte until its headers are complete
        self.head_bytes = 0  # bytes read while in a head (a partial one stays in the parser)
        self.head_size = 0
        self.head_too_large = False
        self.head_timer: asyncio.TimerHandle | None = None
        self.address = self.client[0] if self.client else ""
        counts = self.peers.setdefault(self.server_state, Counter())
        self.counted = counts[self.address] < self.per_peer
        if not self.counted:
            transport.close()
            return
        counts[self.address] += 1
        self.start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_head_timer()
        if self.counted:
            one_less(self.peers[self.server_state], self.address)
            self.counted = False
        super().connection_lost(exc)

    def start_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(HEAD_SECONDS, self.transport.close)

    def stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def data_received(self, data: bytes) -> None:
        """Bytes counted while a head is read (httptools keeps a partial URL or header value
        inside the parser, beyond any callback): a head still unfinished past MAX_HEAD_BYTES
        ends the connection with 431. A read is at most 64 KiB, so that is all it can add."""
        if self.in_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.in_head and self.head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
            self.head_too_large = True
            self.send_400_response("")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_size = 0  # the head's exact size, from the parser's callbacks
        self.start_head_timer()

    def on_url(self, url: bytes) -> None:
        self.head_size += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.head_size += len(name) + len(value) + 4  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """A head that arrived whole in one read is measured here, exactly."""
        self.in_head = False
        self.stop_head_timer()
        if self.head_size > MAX_HEAD_BYTES:
            self.head_too_large = True
            raise HeadTooLarge  # the parser stops; uvicorn answers with send_400_response
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.in_head, self.head_bytes = True, 0  # the next request's head

    def send_400_response(self, msg: str) -> None:
        if not self.head_too_large:
            super().send_400_response(msg)
            return
        why = f"the request line and headers are over {MAX_HEAD_BYTES} bytes".encode()
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(why), why)
        )
        self.transport.close()


def protocol(per_peer: int) -> type[BoundedHttp]:
    """BoundedHttp with its own number of connections per peer address."""
    return type("BoundedHttp", (BoundedHttp,), {"per_peer": per_peer})


def config(app: ASGIApp, connections: int, per_peer: int, grace: float = 5) -> uvicorn.Config:
    """uvicorn's configuration for one of the server's HTTP ports, on the running loop: at most
    `connections` open (503 beyond), `per_peer` of them from one address."""
    return uvicorn.Config(
        app,
        loop="none",
        http=protocol(per_peer),
        lifespan="off",
        log_config=None,
        access_log=False,  # the edge's access log covers the rules calls (--access-log)
        limit_concurrency=connections,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=int(grace),
        server_header=False,
    )


def bind(address: str, reuse: int = socket.SO_REUSEADDR) -> socket.socket:
    """A socket bound to host:port (port 0: a free one), for uvicorn to listen on (or, with
    SO_REUSEPORT, reserving the port --workers share: workers.start_workers)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, reuse, 1)
    try:
        sock.bind((host, int(port)))
    except (OSError, ValueError) as error:
        sock.close()
        raise OSError(f"cannot listen on {address}: {error}") from None
    sock.set_inheritable(True)
    return sock


class Served:
    """One of the server's HTTP ports, served by uvicorn on the server's event loop."""

    def __init__(self, server: uvicorn.Server, serving: asyncio.Future[None], port: int) -> None:
        self.server = server
        self.serving = serving  # server.serve()
        self.port = port

    async def stop(self) -> None:
        """Stop accepting, give calls in flight the configured grace, close the connections."""
        self.server.should_exit = True
        await self.serving


async def serve(
    address: str, app: ASGIApp, connections: int, per_peer: int, grace: float = 5
) -> Served:
    """`app` served on `address` (port 0: a free one) with `config`'s bounds, on the running
    loop, once it listens; OSError when it cannot."""
    sock = bind(address)
    server = uvicorn.Server(config(app, connections, per_peer, grace))
    serving = asyncio.ensure_future(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if serving.done():
                raise OSError(f"cannot listen on {address}: the HTTP server did not start")
            await asyncio.sleep(0.01)
    except BaseException:  # cancelled too: a start that took too long
        server.should_exit = True
        sock.close()
        raise
    return Served(server, serving, sock.getsockname()[1])
