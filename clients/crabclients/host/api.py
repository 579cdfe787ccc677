"""The host's HTTP API (JSON, and Server-Sent Events for the streams), as docs/clients.md "The
game host" describes it. Every refusal is JSON `{code, message, field}` (errors.py).

    GET  /api/health                        {"ok", "store", "streams", "tables"?}
    GET  /api/games                         the service's games, the bots
    POST /api/tables                        a new table: its seats' keys and links
    GET  /api/tables/{table}                the spectator's message
    GET  /api/tables/{table}/events         the spectator's stream (SSE)
    POST /api/tables/{table}/records        the table saved as a record
    GET  /api/seats/{key}                   the seat's message
    GET  /api/seats/{key}/events            the seat's stream (SSE)
    POST /api/seats/{key}/moves             a move of the seat
    GET  /api/records/{record}              the record as the service's Replay request
    GET  /api/records/{record}/steps        its steps, ?as=spectator|host|<seat>[&key=<seat key>]
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from crabclients.bots import BOTS
from crabclients.host.bodies import move_request, read_json, table_request
from crabclients.host.errors import HostError, bad_request
from crabclients.host.limits import Rate, Settings, Streams
from crabclients.host.records import Records
from crabclients.host.store import Snapshot
from crabclients.host.tables import Host, SeatKey, decider
from crabclients.host.views import EventStream, JsonObject, Views, seats_json, to_json
from crabgames.v1 import game_pb2

log = logging.getLogger("crabgames.host")
MAX_VERSION_DIGITS = 19


@dataclass(frozen=True)
class Links:
    """The links handed out: the page's URL with the credential in its fragment (which a
    browser sends to no server, so it stays out of logs and Referer headers), and the host's
    own URL there too when the page is served from another origin."""

    page: str  # the player page's URL
    api: str  # the host's URL as browsers reach it

    def link(self, **values: str) -> str:
        if origin(self.page) != origin(self.api):
            values["host"] = self.api
        return f"{self.page.split('#')[0]}#{urlencode(values)}"


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def client_host(request: Request) -> str:
    return request.client.host if request.client else ""


class Api:
    def __init__(self, host: Host, links: Links) -> None:
        settings: Settings = host.settings
        self.host = host
        self.links = links
        self.views = Views(host)
        self.records = Records(host)
        self.new_tables = Rate(settings.tables_per_minute, "new tables")
        self.stream_opens = Rate(settings.stream_opens_per_minute, "streams opened")
        self.streams = Streams(settings.streams, settings.streams_per_address)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/health", self.health),
            Route("/api/games", self.games),
            Route("/api/tables", self.create, methods=["POST"]),
            Route("/api/tables/{table}", self.table),
            Route("/api/tables/{table}/events", self.table_events),
            Route("/api/tables/{table}/records", self.save_record, methods=["POST"]),
            Route("/api/seats/{key}", self.seat),
            Route("/api/seats/{key}/events", self.seat_events),
            Route("/api/seats/{key}/moves", self.move, methods=["POST"]),
            Route("/api/records/{record}", self.record),
            Route("/api/records/{record}/steps", self.steps),
        ]

    # ----- the service's games -----

    async def health(self, request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "store": self.host.store.name, "streams": self.streams.count}
        )

    async def games(self, request: Request) -> Response:
        games = [to_json(info) for info in self.host.games.values()]
        return JSONResponse({"games": games, "bots": list(BOTS), "bot": self.host.settings.bot})

    # ----- tables -----

    async def create(self, request: Request) -> Response:
        wanted = table_request(await read_json(request), self.host.games, self.host.settings.bot)
        self.new_tables.take(client_host(request))
        snapshot, keys = await self.host.create(wanted)
        table = snapshot.meta.id
        seats = seats_json(snapshot.meta)
        for seat, key in zip(seats, keys, strict=True):
            human = not snapshot.meta.bots[key.seat]
            seat["key"] = str(key) if human else None
            seat["link"] = self.links.link(seat=str(key)) if human else None
        created = {
            "table": table,
            "game": snapshot.meta.game,
            "players": snapshot.meta.players,
            "version": snapshot.version,
            "api": self.links.api,
            "spectator": {"link": self.links.link(watch=table)},
            "seats": seats,
        }
        return JSONResponse(created, status_code=201)

    async def table(self, request: Request) -> Response:
        snapshot = await self.host.table(request.path_params["table"])
        return await self.message(request, snapshot, None)

    async def seat(self, request: Request) -> Response:
        key = SeatKey.parse(request.path_params["key"])
        return await self.message(request, await self.host.seat(key), key.seat)

    async def message(self, request: Request, snapshot: Snapshot, seat: int | None) -> Response:
        since = await self.since(request, snapshot.meta.id)
        message, _ = await self.views.message(snapshot, seat, since)
        self.host.kick(snapshot.meta.id)
        return JSONResponse(message)

    async def since(self, request: Request, table: str) -> int:
        """The log index after the version a page already has: `Last-Event-ID` (sent by a
        reconnecting EventSource) or `?since=`; 0 (everything) without either."""
        text = request.headers.get("last-event-id") or request.query_params.get("since") or ""
        if not text:
            return 0
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_VERSION_DIGITS:
            raise bad_request("since", "since (or Last-Event-ID) is a table version")
        return await self.views.entries_after(table, int(text))

    async def move(self, request: Request) -> Response:
        key = SeatKey.parse(request.path_params["key"])
        version, move = move_request(await read_json(request))
        moved = await self.host.move(key, version, move)
        return JSONResponse(self.moved(moved, key.seat))

    def moved(self, snapshot: Snapshot, seat: int) -> JsonObject:
        state = game_pb2.GameState.FromString(snapshot.state)
        return {
            "table": snapshot.meta.id,
            "seat": seat,
            "version": snapshot.version,
            "status": "playing" if decider(state) is not None else "finished",
            "next": to_json(state.next),
        }

    # ----- streams -----

    async def table_events(self, request: Request) -> Response:
        snapshot = await self.host.table(request.path_params["table"])
        return await self.stream(request, snapshot, None)

    async def seat_events(self, request: Request) -> Response:
        key = SeatKey.parse(request.path_params["key"])
        return await self.stream(request, await self.host.seat(key), key.seat)

    async def stream(self, request: Request, snapshot: Snapshot, seat: int | None) -> Response:
        """A stream for one page, within the bounds on streams (open, and opened a minute)."""
        since = await self.since(request, snapshot.meta.id)
        self.stream_opens.take(client_host(request))
        address = self.streams.enter(client_host(request))
        return EventStream(
            self.views, snapshot.meta.id, seat, since, lambda: self.streams.leave(address)
        )

    # ----- records -----

    async def save_record(self, request: Request) -> Response:
        saved = await self.records.save(request.path_params["table"])
        return JSONResponse(saved, status_code=201)

    async def record(self, request: Request) -> Response:
        return JSONResponse(await self.records.replay(request.path_params["record"]))

    async def steps(self, request: Request) -> Response:
        viewer = request.query_params.get("as", "spectator")
        key = request.query_params.get("key", "")
        data = await self.records.steps(request.path_params["record"], viewer, key)
        return Response(data, media_type="application/json")


# ----- errors -----


async def refusal(request: Request, error: Exception) -> Response:
    assert isinstance(error, HostError)
    headers = {"retry-after": str(max(1, round(error.retry_after)))} if error.retry_after else {}
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def http_refusal(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = HTTP_CODES.get(error.status_code, "bad_request")
    body = {"code": code, "message": str(error.detail), "field": ""}
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def failure(request: Request, error: Exception) -> Response:
    """A bug (logged with its traceback by Starlette): JSON too."""
    body = {"code": "internal", "message": "the host failed; this is a bug", "field": ""}
    return JSONResponse(body, status_code=500)


def application(api: Api, cors_origins: tuple[str, ...] = (), web_root: str = "") -> Starlette:
    """The ASGI application: the API, the page's files at / when `web_root` is given, CORS
    for `cors_origins` only."""
    routes: list[BaseRoute] = api.routes()
    if web_root:
        routes.append(Mount("/", StaticFiles(directory=web_root, html=True, check_dir=False)))
    middleware = []
    if cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["content-type", "last-event-id"],
            )
        )
    handlers: dict[Any, Any] = {
        HostError: refusal,
        HTTPException: http_refusal,
        Exception: failure,
    }
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)
