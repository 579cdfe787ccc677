"""What a seat or a spectator is shown: a message holding its View (protobuf's JSON), the
events it may see since the last message, and the table's version; and the Server-Sent Events
stream that pushes one at every change of the table (one stream per open page).

A seat sees its own events (the service's `seat_events`) where the service gives them (with
sealing on, of its own moves and the set-up only) and the spectator's (`public_events`)
otherwise; a spectator sees the spectator's. Nothing else of the table leaves the host.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncGenerator, Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from crabclients.host.errors import HostError
from crabclients.host.limits import HEARTBEAT_SECONDS, RETRY_MS, STREAM_SECONDS, VIEWS_CACHED
from crabclients.host.store import Entry, Snapshot, TableMeta
from crabclients.host.tables import Host, decider, no_table
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

log = logging.getLogger("crabgames.host")
JsonObject = dict[str, Any]


def to_json(message: Message) -> JsonObject:
    """protobuf's JSON (lowerCamelCase names, 64-bit integers as strings, defaults left out),
    as the page's Connect client reads it."""
    return json_format.MessageToDict(message)


def seats_json(meta: TableMeta) -> list[JsonObject]:
    return [
        {"seat": seat, "name": meta.names[seat] or None, "bot": meta.bots[seat] or None}
        for seat in range(meta.players)
    ]


def visible(entry: Entry, seat: int | None) -> list[game_pb2.Event]:
    """The events of one change that `seat` (None: a spectator) may see."""
    if not entry.answer:
        return []  # not kept: the table's log was full
    answer = api.ApplyMoveResponse.FromString(entry.answer)
    for events in answer.seat_events:
        if seat is not None and events.player == seat:
            return list(events.events)
    return list(answer.public_events)


def frame(kind: str, data: JsonObject, ident: int | None = None) -> bytes:
    """One Server-Sent Event: `id` (the table's version), `event` and one line of JSON."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\ndata: {text}\n\n".encode()


class Views:
    """Messages for seats and spectators; views fetched from the service once per table
    version and viewer, however many pages show them."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.cache: OrderedDict[tuple[str, int, int | None], JsonObject] = OrderedDict()

    async def view(self, snapshot: Snapshot, seat: int | None) -> JsonObject:
        key = (snapshot.meta.id, snapshot.version, seat)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        state = game_pb2.GameState.FromString(snapshot.state)
        token = self.host.token(snapshot.meta, seat)
        view = to_json(await self.host.call(self.host.client.view, state, seat, token))
        self.cache[key] = view
        while len(self.cache) > VIEWS_CACHED:
            self.cache.popitem(last=False)
        return view

    async def message(
        self, snapshot: Snapshot, seat: int | None, since: int
    ) -> tuple[JsonObject, int]:
        """What `seat` (None: a spectator) is shown of the table: its view, the events of the
        log entries from index `since`; and the index to go on from."""
        view = await self.view(snapshot, seat)
        entries = await self.host.store.log(snapshot.meta.id, since)
        entries = [entry for entry in entries if entry.version <= snapshot.version]
        state = game_pb2.GameState.FromString(snapshot.state)
        message = {
            "table": snapshot.meta.id,
            "game": snapshot.meta.game,
            "seat": seat,
            "version": snapshot.version,
            "status": "playing" if decider(state) is not None else "finished",
            "decides": seat is not None and decider(state) == seat,
            "seats": seats_json(snapshot.meta),
            "view": view,
            "events": [
                {
                    "version": entry.version,
                    "seat": entry.seat,
                    "events": [to_json(event) for event in visible(entry, seat)],
                }
                for entry in entries
            ],
        }
        return message, since + len(entries)

    async def entries_after(self, table: str, version: int | None) -> int:
        """The index of the first log entry after `version` (a Last-Event-ID): 0 for None."""
        if version is None:
            return 0
        entries = await self.host.store.log(table, 0)
        return sum(1 for entry in entries if entry.version <= version)


class EventStream(StreamingResponse):
    """`text/event-stream` for one page: a `table` event at once and at every change, a comment
    line every HEARTBEAT_SECONDS, `gone` when the table expires, `error` when the service
    cannot answer; it ends after STREAM_SECONDS (EventSource then reconnects, sending the last
    id it got). `release` is called when it ends, however it ends."""

    def __init__(
        self,
        views: Views,
        table: str,
        seat: int | None,
        since: int,
        release: Callable[[], None],
    ) -> None:
        self.views = views
        self.table = table
        self.seat = seat
        self.since = since
        self.release = release
        self.chunks = self.generate()
        headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
        super().__init__(self.chunks, media_type="text/event-stream", headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Stream until the stream ends or the page goes away (its connection closes)."""
        try:
            writer = asyncio.ensure_future(self.stream_response(send))
            closed = asyncio.ensure_future(self.listen_for_disconnect(receive))
            await asyncio.wait({writer, closed}, return_when=asyncio.FIRST_COMPLETED)
            for task in (writer, closed):
                task.cancel()
            for result in await asyncio.gather(writer, closed, return_exceptions=True):
                if isinstance(result, Exception) and not isinstance(result, OSError):
                    log.error("an event stream failed", exc_info=result)
        finally:
            await self.chunks.aclose()
            self.release()

    async def generate(self) -> AsyncGenerator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        host = self.views.host
        host.kick(self.table)  # a bot due to move whose driver was lost moves now
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        sent = -1
        with host.store.changes.watch(self.table) as changed:
            while loop.time() < ends:
                changed.clear()
                try:
                    snapshot = await host.store.load(self.table)
                    if snapshot is None:
                        yield frame("gone", no_table(self.table).body())
                        return
                    if snapshot.version != sent:
                        message, self.since = await self.views.message(
                            snapshot, self.seat, self.since
                        )
                        yield frame("table", message, snapshot.version)
                        sent = snapshot.version
                except HostError as error:
                    if error.code != "stale_version":  # (the table moved on: read it again)
                        yield frame("error", error.body())
                        return
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(HEARTBEAT_SECONDS):
                        await changed.wait()
                if not changed.is_set():
                    yield b": keep-alive\n\n"
