"""Loopback sockets for bench/attack.py: attackers' source addresses, a relay that gives a gRPC
channel one, raw HTTP/2 calls (headers only, a gzip bomb, a withheld end of stream) and raw
HTTP/1.1 requests and answers (an endless line, trickled headers, a body that never comes).

Attackers connect from 127.0.K.P (K: the attack, P: the peer, from 2), never from 127.0.0.1,
where the well-behaved clients are: a server that limits each peer must tell them apart, as it
would real attackers. Everything here talks to 127.0.0.0/8 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import socket
import time
from collections.abc import Iterable

import h2.config
import h2.connection
import h2.events
import h2.exceptions

HOST = "127.0.0.1"  # the server and the well-behaved clients: loopback only
SERVICE = "/crabgames.v1.RulesService/"
READ_BYTES = 65536
MAX_HEADER_BYTES = 64 * 1024  # an answer's head read by the attackers (a refusal is small)
MAX_BODY_BYTES = 1024 * 1024  # an answer's body read by the attackers


def attacker_address(kind: int, peer: int) -> str:
    """The loopback address of peer `peer` of attack number `kind` (never 127.0.0.1)."""
    return f"127.0.{1 + kind % 255}.{2 + peer % 253}"


async def connect(port: int, source: str, timeout: float = 10.0):
    """A TCP connection to the server's `port` from the loopback address `source`."""
    return await asyncio.wait_for(
        asyncio.open_connection(HOST, port, local_addr=(source, 0)), timeout
    )


def close(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        writer.close()


def time_left(stop_at: float) -> float:
    return max(0.0, stop_at - time.monotonic())


# ----- a relay: gRPC's client cannot bind its source address -----


class Relay:
    """Listens on 127.0.0.1 (an ephemeral port, in the attacker's process) and carries each
    connection on to the server from `source`, so a grpc.aio channel to the relay reaches the
    server as peer `source`."""

    def __init__(self, server_port: int, source: str) -> None:
        self.server_port, self.source = server_port, source
        self.listener: asyncio.base_events.Server | None = None
        self.port = 0

    async def start(self) -> int:
        self.listener = await asyncio.start_server(self.accept, HOST, 0)
        self.port = self.listener.sockets[0].getsockname()[1]
        return self.port

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await connect(self.server_port, self.source)
        except (OSError, TimeoutError):
            close(writer)
            return
        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        except asyncio.CancelledError:  # the attacker's loop ends: no traceback for it
            close(writer)
            close(up_writer)

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of stream or an error; then close the other side (gRPC never half-closes
    TCP, so either side's end ends the connection)."""
    try:
        while data := await reader.read(READ_BYTES):
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        close(writer)


# ----- raw HTTP/2: calls the grpc client library would never make -----


def grpc_code_name(value: int) -> str:
    import grpc

    return next((c.name for c in grpc.StatusCode if c.value[0] == value), f"status {value}")


def grpc_frame(message: bytes, compressed: bool = False) -> bytes:
    """One length-prefixed message (gRPC, gRPC-Web, Connect streaming envelope)."""
    return bytes([1 if compressed else 0]) + len(message).to_bytes(4, "big") + message


def gzip_bomb(size: int) -> bytes:
    """`size` bytes of `0a 00` (field 1, empty, again and again: a repeated field gets one
    sub-message each), gzip-compressed: about a thousandth of the size."""
    return gzip.compress(b"\x0a\x00" * (size // 2), compresslevel=9)


class H2Connection:
    """A raw HTTP/2 connection from an attacker's address: calls opened with any headers and
    body, each one's outcome (its grpc-status, RST_STREAM, GOAWAY or a closed connection)."""

    def __init__(self, port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.port, self.reader, self.writer = port, reader, writer
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.outcomes: dict[int, asyncio.Future[str]] = {}
        self.closed: str | None = None
        self.changed = asyncio.Event()  # a stream ended or settings came: room may have freed
        self.conn.initiate_connection()
        self.flush()
        self.task = asyncio.ensure_future(self.read())

    @classmethod
    async def open(cls, port: int, source: str) -> H2Connection:
        reader, writer = await connect(port, source)
        return cls(port, reader, writer)

    def flush(self) -> None:
        if data := self.conn.data_to_send():
            self.writer.write(data)

    def has_room(self) -> bool:
        settings = self.conn.remote_settings
        return self.conn.open_outbound_streams < settings.max_concurrent_streams

    def start(
        self, method: str, extra: Iterable[tuple[str, str]] = (), body: bytes = b"", end=False
    ) -> int:
        """Open a call: headers, then `body` (if any); half-closed only when `end`. Raises
        h2's TooManyStreamsError over the server's max_concurrent_streams."""
        stream = self.conn.get_next_available_stream_id()
        headers = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", SERVICE + method),
            (":authority", f"{HOST}:{self.port}"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
            *extra,
        ]
        self.conn.send_headers(stream, headers, end_stream=end and not body)
        if body:
            self.conn.send_data(stream, body, end_stream=end)
        self.outcomes[stream] = asyncio.get_running_loop().create_future()
        self.flush()
        return stream

    async def outcome(self, stream: int, stop_at: float) -> str:
        """How the call ended, or "still open at the end" at stop_at."""
        future = self.outcomes[stream]
        try:
            return await asyncio.wait_for(asyncio.shield(future), time_left(stop_at) or 0.001)
        except TimeoutError:
            return "still open at the end"
        finally:
            if future.done():
                self.outcomes.pop(stream, None)

    async def read(self) -> None:
        try:
            while data := await self.reader.read(READ_BYTES):
                for event in self.conn.receive_data(data):
                    self.handle(event)
                self.flush()  # settings and ping acknowledgements, window updates
            self.end_all("connection closed")
        except (OSError, h2.exceptions.ProtocolError) as error:
            self.end_all(f"connection error {type(error).__name__}")

    def handle(self, event: h2.events.Event) -> None:
        if isinstance(event, h2.events.ResponseReceived | h2.events.TrailersReceived):
            status = dict(event.headers).get(b"grpc-status")
            if status is not None:
                self.end(event.stream_id, grpc_code_name(int(status)))
        elif isinstance(event, h2.events.DataReceived):
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            self.end(event.stream_id, f"RST_STREAM {event.error_code!s}")
        elif isinstance(event, h2.events.StreamEnded):
            self.end(event.stream_id, "ended without grpc-status")
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.end_all(f"GOAWAY {event.error_code!s}")
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            self.changed.set()

    def end(self, stream: int, outcome: str) -> None:
        future = self.outcomes.get(stream)
        if future is not None and not future.done():
            future.set_result(outcome)
        self.changed.set()

    def end_all(self, outcome: str) -> None:
        self.closed = self.closed or outcome
        for stream in list(self.outcomes):
            self.end(stream, outcome)

    def close(self) -> None:
        self.task.cancel()
        close(self.writer)


# ----- raw HTTP/1.1: requests uvicorn and the metrics server must bound -----


class Answer:
    """An HTTP answer as an attacker reads it: the status and what it says, in gRPC's names."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def code(self) -> str:
        """The call's status: grpc-status (gRPC-Web, in the headers or the trailer frame),
        the Connect error's code, OK, or the HTTP status when it says nothing else."""
        if "grpc-status" in self.headers:
            return grpc_code_name(int(self.headers["grpc-status"]))
        kind = self.headers.get("content-type", "")
        if kind.startswith("application/grpc-web"):
            return grpc_web_trailer_code(self.body) or f"HTTP {self.status}, no grpc-status"
        if kind.startswith("application/connect+"):
            return connect_stream_code(self.body) or f"HTTP {self.status}, no end of stream"
        if self.status == 200:
            return "OK"
        return connect_error_code(self.body) or f"HTTP {self.status}"


def connect_code_name(code: str) -> str:
    return "CANCELLED" if code == "canceled" else code.upper()


def connect_error_code(body: bytes) -> str | None:
    try:
        code = json.loads(body).get("code")
    except (ValueError, AttributeError):
        return None
    return connect_code_name(code) if isinstance(code, str) else None


def envelopes(body: bytes) -> Iterable[tuple[int, bytes]]:
    """The (flags, message) length-prefixed envelopes of a streaming body."""
    offset = 0
    while offset + 5 <= len(body):
        flags, length = body[offset], int.from_bytes(body[offset + 1 : offset + 5], "big")
        yield flags, body[offset + 5 : offset + 5 + length]
        offset += 5 + length


def grpc_web_trailer_code(body: bytes) -> str | None:
    for flags, message in envelopes(body):
        if flags & 0x80:
            for line in message.decode("latin-1").split("\r\n"):
                name, _, value = line.partition(":")
                if name.strip().lower() == "grpc-status":
                    return grpc_code_name(int(value.strip()))
    return None


def connect_stream_code(body: bytes) -> str | None:
    for flags, message in envelopes(body):
        if flags & 0x02:
            try:
                error = json.loads(message).get("error")
            except (ValueError, AttributeError):
                return "end of stream does not parse"
            return connect_code_name(error.get("code", "unknown")) if error else "OK"
    return None


async def read_answer(reader: asyncio.StreamReader, timeout: float) -> Answer | str:
    """One HTTP/1.1 answer (bounded in size and time), or what happened instead."""
    try:
        return await asyncio.wait_for(read_answer_unbounded(reader), timeout)
    except TimeoutError:
        return "no answer in time"
    except asyncio.IncompleteReadError as error:
        return "connection closed" if not error.partial else "answer cut short"
    except asyncio.LimitOverrunError:
        return "answer head too large"
    except ConnectionError:
        return "connection reset"
    except (OSError, ValueError) as error:
        return f"bad answer {type(error).__name__}"


async def read_answer_unbounded(reader: asyncio.StreamReader) -> Answer:
    head = await reader.readuntil(b"\r\n\r\n")
    if len(head) > MAX_HEADER_BYTES:
        raise ValueError("head too large")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = await read_chunked(reader)
    else:
        length = int(headers.get("content-length", "0"))
        body = await reader.readexactly(min(length, MAX_BODY_BYTES))
    return Answer(status, headers, body)


async def read_chunked(reader: asyncio.StreamReader) -> bytes:
    body = bytearray()
    while len(body) <= MAX_BODY_BYTES:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")  # no trailers are sent to us
            return bytes(body)
        body += await reader.readexactly(size)
        await reader.readexactly(2)
    raise ValueError("body too large")


def http_request(
    method: str, path: str, headers: dict[str, str], body: bytes = b"", length: int | None = None
) -> bytes:
    """An HTTP/1.1 request's bytes; `length` declares a Content-Length other than the body's."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if method == "POST" and "Transfer-Encoding" not in headers:
        lines.append(f"Content-Length: {len(body) if length is None else length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def raise_open_files() -> None:
    """Thousands of attacking sockets: the soft limit on open files raised to the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    """A free loopback port (the metrics server and redis-server are told theirs)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])
