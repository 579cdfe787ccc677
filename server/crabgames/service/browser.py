"""The rules service for browsers: the Connect protocol (JSON and binary) and gRPC-Web over
HTTP/1.1, on the same event loop, through the same edge (edge.py) and servicer as gRPC.

The protocols are the Connect project's Python runtime (`connectrpc`, its ASGI application
generated from the protos: `rules_service_connect.py`) on uvicorn. What is ours is glue:

- The codecs hand the edge what gRPC's deserializers hand it (limits.py: a request that does not
  parse becomes `Undecodable`, a lone leading state stays bytes), and take the wire bytes the
  edge answers with, so binary answers are the gRPC answers byte for byte and JSON is their
  canonical JSON.
- `RulesOverHttp` runs each unary method through the edge as gRPC's interceptor does
  (Edge.unary), and ApplyMoves is the edge's stream: admission (MAX_CALLS, long calls), the
  work budgets, the deadline (Connect-Timeout-Ms or grpc-timeout), the answer limit, the
  metrics and the access log are the gRPC side's, and a refusal carries the same
  google.rpc.Status (its details become the Connect error's details, or gRPC-Web's
  grpc-status-details-bin).
- `RequestTime` bounds the time to send the request body (edge.REQUEST_SECONDS), as the gRPC
  edge does; connectrpc bounds its size (MAX_MESSAGE_BYTES), uvicorn the connections.
- CORS (Starlette's middleware) for configured origins only; the page's own origin needs none.

ApplyMoves is bidirectional: a browser can make neither a Connect nor a gRPC-Web call with a
request stream (fetch has no full-duplex body), and uvicorn speaks HTTP/1.1 only, so over HTTP
the stream is half-duplex: a client sends its requests and reads the answers after, each
answered as it is applied (connectrpc's Connect and gRPC-Web streaming; buf curl and Connect
clients over HTTP/1.1 do this). Browsers call ApplyMove.
"""

from __future__ import annotations

import asyncio
import os  # the web page (WithPage)
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path  # the web page (WithPage)
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.request import RequestContext
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import status_pb2
from protobuf.wkt import Any as AnyDetail
from starlette.exceptions import HTTPException  # the web page (WithPage)
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import PlainTextResponse  # the web page (WithPage)
from starlette.staticfiles import StaticFiles  # the web page (WithPage)
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

from crabgames.core.errors import bad_request
from crabgames.service import edge as edge_limits
from crabgames.service import http
from crabgames.service.admission import EOF
from crabgames.service.calls import Aborted, Refused, answer
from crabgames.service.edge import SERVICE, Edge, request_deserializer
from crabgames.service.limits import (
    JSON_BYTES_PER_WIRE_BYTE,
    MAX_REQUEST_BYTES,
    REQUEST_BYTES,
    json_deserializer,
)
from crabgames.service.server import START_TIMEOUT_SECONDS, Running
from crabgames.service.status import status_for
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1.rules_service_connect import RulesServiceASGIApplication

DEFAULT_HTTP_ADDRESS = "127.0.0.1:8080"
# Open connections (and calls: uvicorn counts both) before new ones get 503: the edge's
# MAX_CALLS bounds the rules calls among them.
MAX_CONNECTIONS = 2048
# Connections one address may hold open: the rest of MAX_CONNECTIONS stays for everyone else.
# (A browser opens at most 6 per origin; an office behind one address, a few dozen browsers.)
CONNECTIONS_PER_PEER = 64
# What a browser's Connect and gRPC-Web clients send and must be allowed to read (CORS).
ALLOWED_HEADERS = [
    "Content-Type",
    "Connect-Protocol-Version",
    "Connect-Timeout-Ms",
    "Connect-Accept-Encoding",
    "Connect-Content-Encoding",
    "Grpc-Timeout",
    "Grpc-Accept-Encoding",
    "X-Grpc-Web",
    "X-User-Agent",
]
EXPOSED_HEADERS = [
    "Grpc-Status",
    "Grpc-Message",
    "Grpc-Status-Details-Bin",
    "Content-Encoding",
    "Connect-Content-Encoding",
]


# ----- codecs: the edge's requests and answers -----


class Answer:
    """An answer as the edge gives it (wire bytes) and the message type they encode."""

    __slots__ = ("data", "message_class")

    def __init__(self, data: bytes, message_class: type[Message]) -> None:
        self.data = data
        self.message_class = message_class


class BinaryCodec:
    """`application/proto`: requests read by gRPC's deserializers, answers sent as they are
    (JsonCodec reads its requests by its own deserializers the same way)."""

    def __init__(self, deserializers: dict[type[Message], Callable[[bytes], object]]) -> None:
        self.deserializers = deserializers

    def name(self) -> str:
        return "proto"

    def encode(self, message: Answer | Message) -> bytes:
        return message.data if isinstance(message, Answer) else message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> object:
        return self.deserializers[message_class](bytes(data))


class JsonCodec(BinaryCodec):
    """`application/json`: protobuf's canonical JSON (google.protobuf.json_format), bounded
    before it is parsed (limits.json_deserializer) and parsed by the edge once the call is
    admitted, off the event loop."""

    def __init__(
        self, message_limit: int, deserializers: dict[type[Message], Callable[[bytes], object]]
    ) -> None:
        super().__init__(deserializers)
        self.message_limit = message_limit

    def name(self) -> str:
        return "json"

    def encode(self, message: Answer | Message) -> bytes:
        if isinstance(message, Answer):
            message = message.message_class.FromString(message.data)
        data = json_format.MessageToJson(message, indent=None).encode()
        try:
            return answer(data, self.message_limit)  # JSON is larger than the wire bytes
        except Refused as error:
            raise connect_error(status_for(error)) from None


def codecs(edge: Edge) -> list[BinaryCodec]:
    """The two codecs, the binary one reading each request as add_rules_service's
    deserializers do, the JSON one bounding each by the same method's bound."""
    binary: dict[type[Message], Callable[[bytes], object]] = {}
    json: dict[type[Message], Callable[[bytes], object]] = {}
    for method in SERVICE.methods:
        request_class = getattr(api, method.input_type.name)
        binary[request_class] = request_deserializer(edge, method.name)
        json[request_class] = json_deserializer(request_class, REQUEST_BYTES[method.name])
    return [BinaryCodec(binary), JsonCodec(edge.message_limit, json)]


# ----- statuses -----


def connect_code(code: grpc.StatusCode) -> Code:
    return Code.CANCELED if code is grpc.StatusCode.CANCELLED else Code[code.name]


def connect_error(status: grpc.Status) -> ConnectError:
    """The Connect error for a gRPC status with rich details (status.py): the same code,
    message and google.rpc details (its details become the Connect error's details, or
    gRPC-Web's grpc-status-details-bin)."""
    details = []
    for key, value in status.trailing_metadata or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            rich = status_pb2.Status.FromString(value)
            details = [
                ErrorDetail(AnyDetail(type_url=d.type_url, value=d.value)) for d in rich.details
            ]
    return ConnectError(connect_code(status.code), status.details or "", details)


# ----- calls: the edge around each method -----


class HttpCall:
    """An HTTP call as the edge reads it (edge.Transport): its request (a unary call's, which
    connectrpc has read and the codec made) or its stream's, and its time remaining."""

    __slots__ = ("requests", "ctx")

    def __init__(
        self, requests: AsyncIterator[object] | object, ctx: RequestContext[Any, Any]
    ) -> None:
        self.requests = requests  # a unary call's request, or a stream's iterator
        self.ctx = ctx

    async def read(self) -> object:
        if isinstance(self.requests, AsyncIterator):
            return await anext(self.requests, EOF)
        request, self.requests = self.requests, EOF
        return request

    def time_remaining(self) -> float | None:
        remaining = self.ctx.timeout_ms
        return None if remaining is None else remaining / 1000


def caller(ctx: RequestContext[Any, Any]) -> str:
    """The caller as gRPC would name it ("ipv4:10.0.0.1:5678"), for the limits and the log."""
    address = ctx.client_address or ""
    return f"ipv6:{address}" if address.count(":") > 1 else f"ipv4:{address}"


class RulesOverHttp:
    """The generated RulesService protocol, the edge on the browser protocols: each unary
    method its work (Edge.runner) run through Edge.unary, as EdgeInterceptor runs gRPC's
    handlers (the request's arrival is RequestTime's to time: connectrpc reads it before the
    method); ApplyMoves Edge.stream. Each request is what the codec made of it: a request
    message, or limits.Received, Deferred, TooLarge or Undecodable."""

    def __init__(self, edge: Edge) -> None:
        self.edge = edge
        self.runners = {
            m.name: edge.runner(m.name) for m in SERVICE.methods if not m.client_streaming
        }
        self.outputs: dict[str, type[Message]] = {
            m.name: getattr(api, m.output_type.name) for m in SERVICE.methods
        }

    async def unary(self, request: object, ctx: RequestContext[Any, Any]) -> Answer:
        name = ctx.method.name
        try:
            body = await self.edge.unary(
                name, self.runners[name], HttpCall(request, ctx), caller(ctx)
            )
        except Aborted as error:
            raise connect_error(error.status) from None
        return Answer(body, self.outputs[name])

    # The generated protocol's unary methods, each `unary` (which reads its name from `ctx`).
    list_games = new_game = legal_moves = apply_move = get_view = replay = unary
    sample_state = score_crab_rage_season = playouts = suggest_move = unary

    async def apply_moves(
        self, requests: AsyncIterator[object], ctx: RequestContext[Any, Any]
    ) -> AsyncIterator[Answer]:
        """The edge's stream, each answer yielded as it comes (and sent before the next request
        is read); its refusal ends the stream."""
        answers = self.edge.stream(HttpCall(requests, ctx), caller(ctx))
        try:
            async for body in answers:
                yield Answer(body, api.ApplyMovesResponse)
        except Aborted as error:
            raise connect_error(error.status) from None
        finally:
            await answers.aclose()


# ----- the ASGI application -----


class RequestTime:
    """ASGI middleware: the request body must arrive within edge.REQUEST_SECONDS of the call's
    start, or the call ends DEADLINE_EXCEEDED (REQUEST_TIMEOUT) as on gRPC. A stream's requests
    are the edge's to time (STREAM_IDLE_SECONDS each)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].endswith("/ApplyMoves"):
            await self.app(scope, receive, send)
            return
        seconds = edge_limits.REQUEST_SECONDS
        deadline = asyncio.get_running_loop().time() + seconds
        arrived = False

        async def timed_receive() -> AsgiMessage:
            nonlocal arrived
            if arrived:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                why = f"the request did not arrive within {seconds:g} s"
                refused = Refused(grpc.StatusCode.DEADLINE_EXCEEDED, "REQUEST_TIMEOUT", why)
                raise connect_error(status_for(refused)) from None
            arrived = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, timed_receive, send)


# Bodies of 5-byte-framed messages (gRPC-Web, Connect streams), and the headers that announce
# their compression.
ENVELOPED = (b"application/grpc-web", b"application/connect+")
ENCODING_HEADERS = (b"grpc-encoding", b"connect-content-encoding")


class Frames:
    """Reads the frame headers (a flags byte and a 4-byte length) of a framed body as it
    arrives, skipping each message, to see whether one says it is compressed."""

    __slots__ = ("skip", "head")

    def __init__(self) -> None:
        self.skip = 0
        self.head = bytearray()

    def compressed(self, data: bytes) -> bool:
        at = 0
        while at < len(data):
            if self.skip:
                taken = min(self.skip, len(data) - at)
                self.skip, at = self.skip - taken, at + taken
                continue
            wanted = 5 - len(self.head)
            self.head += data[at : at + wanted]
            at += wanted
            if len(self.head) == 5:
                if self.head[0] & 1:
                    return True
                self.skip = int.from_bytes(self.head[1:5], "big")
                self.head.clear()
        return False


class AnnouncedCompression:
    """ASGI middleware: a framed message flagged compressed in a request that announces no
    compression is INVALID_ARGUMENT (connectrpc would answer INTERNAL, which no request gets)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", ())) if scope["type"] == "http" else {}
        framed = headers.get(b"content-type", b"").startswith(ENVELOPED)
        if not framed or any(headers.get(h, b"identity") != b"identity" for h in ENCODING_HEADERS):
            await self.app(scope, receive, send)
            return
        frames = Frames()

        async def checked_receive() -> AsgiMessage:
            message = await receive()
            if message["type"] == "http.request" and frames.compressed(message.get("body", b"")):
                why = "a message is flagged compressed, but the request names no compression"
                raise connect_error(status_for(bad_request("request", why)))
            return message

        await self.app(scope, checked_receive, send)


# ----- the web page (clients/web, issue 17): its built bundle at /, same origin, no CORS -----

# `make web` builds it here; CRABGAMES_WEB_ROOT serves another folder.
WEB_ROOT = Path(
    os.environ.get("CRABGAMES_WEB_ROOT")
    or Path(__file__).resolve().parents[3] / "clients" / "web" / "dist"
)
NOT_BUILT = b"The web page is not built: run `make web` (it needs Node.js and npm).\n"


class WithPage:
    """ASGI: GET and HEAD outside the service's path are the page's static files (Starlette's
    StaticFiles, index.html at /); everything else goes to the rules service."""

    def __init__(self, app: ASGIApp, root: Path) -> None:
        self.app = app
        self.root = root
        self.page = StaticFiles(directory=root, html=True, check_dir=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or scope["path"].startswith(f"/{SERVICE.full_name}/")
        ):
            await self.app(scope, receive, send)
        elif not self.root.is_dir():
            await PlainTextResponse(NOT_BUILT, status_code=404)(scope, receive, send)
        else:
            try:
                response = await self.page.get_response(self.page.get_path(scope), scope)
            except HTTPException as error:  # not found (StaticFiles raises, no app catches it)
                response = PlainTextResponse(error.detail, status_code=error.status_code)
            await response(scope, receive, send)


# ----- end of the web page -----


def application(edge: Edge, origins: Sequence[str] = ()) -> ASGIApp:
    """The ASGI application: the rules service over Connect and gRPC-Web, CORS for `origins`
    (exact origins such as https://play.example.com; none: same-origin pages only)."""
    rules = RulesServiceASGIApplication(
        RulesOverHttp(edge),  # type: ignore[arg-type]
        # The largest JSON request of any method; each method's own bound is the codecs'.
        read_max_bytes=MAX_REQUEST_BYTES * JSON_BYTES_PER_WIRE_BYTE,
        codecs=codecs(edge),
    )
    app: ASGIApp = WithPage(AnnouncedCompression(RequestTime(rules)), WEB_ROOT)
    if origins:
        app = CORSMiddleware(
            app,
            allow_origins=list(origins),
            allow_methods=["POST", "GET"],
            allow_headers=ALLOWED_HEADERS,
            expose_headers=EXPOSED_HEADERS,
            max_age=7200,
        )
    return app


def parse_origins(text: str) -> list[str]:
    """Origins from a comma-separated list (--cors-origins, CRABGAMES_CORS_ORIGINS)."""
    origins = [origin.strip().rstrip("/") for origin in text.split(",") if origin.strip()]
    for origin in origins:
        if origin == "*" or "://" not in origin:
            raise ValueError(f"CORS origin {origin!r}: give each origin as scheme://host[:port]")
    return origins


# ----- serving -----


def serve_http(
    running: Running,
    address: str = DEFAULT_HTTP_ADDRESS,
    origins: Sequence[str] = (),
    grace: int = 5,
) -> http.Served:
    """Serve the browser protocols on `address` beside a running gRPC server
    (server.serve's Running), through its edge, on its loop (so the edge's counters and the
    engine stay on one thread); stopped with it, first (Running.stop)."""
    app = application(running.edge, origins)
    start = http.serve(address, app, MAX_CONNECTIONS, CONNECTIONS_PER_PEER, grace)
    starting = asyncio.run_coroutine_threadsafe(start, running.loop)
    try:
        running.http = starting.result(START_TIMEOUT_SECONDS)
    except TimeoutError:
        starting.cancel()
        raise OSError(f"the HTTP server could not start on {address}") from None
    return running.http
