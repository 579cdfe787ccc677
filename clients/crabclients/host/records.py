"""Records: any table, running or finished, saved as the service's `Replay` request (options,
seed, moves), and its steps (the views after each move) for a replay viewer.

The seed tells every hidden draw of the game and the moves tell every secret choice, so a
record's `Replay` request, and its steps as the host saw them (every seat's view), are given
only once its game is over (or its table is gone). Before that, a record's steps are given as
a spectator saw them, or as one seat saw them to the holder of that seat's key.

Steps are computed by playing the record again through the service (NewGame, then ApplyMove and
GetView for each move, with player tokens when it seals): at most STEPS_AT_ONCE at a time (429
beyond), the answers kept in a bounded cache.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from crabclients.client import GAME_OVER, RulesClient
from crabclients.host.errors import CONFLICT, FORBIDDEN, NOT_FOUND, TOO_MANY, HostError
from crabclients.host.limits import KEY_BYTES, STEPS_AT_ONCE, STEPS_CACHE_BYTES
from crabclients.host.store import b64, unb64
from crabclients.host.tables import Host, SeatKey
from crabclients.host.views import JsonObject, seats_json, to_json
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

HOST, SPECTATOR = "host", "spectator"


@dataclass(frozen=True)
class Record:
    """A saved record: its table, the NewGame request (seed included) and the moves."""

    id: str
    table: str
    seats: list[JsonObject]
    new_game: bytes
    moves: list[bytes]
    version: int
    finished: bool

    def dumps(self) -> bytes:
        fields = {**self.__dict__, "new_game": b64(self.new_game)}
        fields["moves"] = [b64(move) for move in self.moves]
        return json.dumps(fields).encode()

    @classmethod
    def loads(cls, data: bytes) -> Record:
        raw = json.loads(data)
        raw["new_game"] = unb64(raw["new_game"])
        raw["moves"] = [unb64(move) for move in raw["moves"]]
        return cls(**raw)

    def request(self) -> api.ReplayRequest:
        moves = [game_pb2.Move.FromString(move) for move in self.moves]
        return api.ReplayRequest(new_game=api.NewGameRequest.FromString(self.new_game), moves=moves)

    def summary(self) -> JsonObject:
        game = api.NewGameRequest.FromString(self.new_game).WhichOneof("options")
        return {
            "record": self.id,
            "table": self.table,
            "game": game,
            "players": len(self.seats),
            "seats": self.seats,
            "moves": len(self.moves),
            "version": self.version,
            "finished": self.finished,
        }


def no_record() -> HostError:
    return HostError(NOT_FOUND, "no_record", "no such record (it may have expired)", "record")


def secret_until_the_end() -> HostError:
    return HostError(
        FORBIDDEN,
        "secret_until_the_end",
        "this record's game is still running: its seed and moves, and its steps as the host saw"
        " them or as another seat saw them, are given once it is over",
        "record",
    )


class Records:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.stepping = asyncio.Semaphore(STEPS_AT_ONCE)
        self.cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    async def save(self, table: str) -> JsonObject:
        """The table as it is now, saved as a record."""
        snapshot = await self.host.table(table)
        entries = await self.host.store.log(table, 0)
        moves = [entry.move for entry in entries[1:] if entry.version <= snapshot.version]
        state = game_pb2.GameState.FromString(snapshot.state)
        record = Record(
            id=secrets.token_urlsafe(KEY_BYTES),
            table=table,
            seats=seats_json(snapshot.meta),
            new_game=snapshot.meta.new_game,
            moves=moves,
            version=snapshot.version,
            finished=state.next.kind == GAME_OVER,
        )
        if not await self.host.store.save_record(table, record.id, record.dumps()):
            raise HostError(
                CONFLICT,
                "too_many_records",
                "this table has saved as many records as it may",
                "table",
            )
        return record.summary()

    async def load(self, record: str) -> Record:
        data = await self.host.store.record(record)
        if data is None:
            raise no_record()
        return Record.loads(data)

    async def over(self, record: Record) -> bool:
        """True when the record's game is over, or its table is gone (expired)."""
        if record.finished:
            return True
        snapshot = await self.host.store.load(record.table)
        if snapshot is None:
            return True
        return game_pb2.GameState.FromString(snapshot.state).next.kind == GAME_OVER

    async def replay(self, record_id: str) -> JsonObject:
        """The record as the service's Replay request, once its game is over."""
        record = await self.load(record_id)
        if not await self.over(record):
            raise secret_until_the_end()
        return {**record.summary(), "replay": to_json(record.request())}

    async def steps(self, record_id: str, viewer: str, key: str) -> bytes:
        """The record's steps as `viewer` saw them (JSON bytes): "spectator", "host" or a
        seat's number; a running game's seat steps need that seat's `key`."""
        record = await self.load(record_id)
        seat = self.viewer_seat(record, viewer)
        if viewer != SPECTATOR and not await self.over(record):
            await self.check_key(record, seat, key)
        cached = self.cache.get((record.id, viewer))
        if cached is not None:
            return cached
        if self.stepping.locked():
            raise HostError(
                TOO_MANY,
                "busy",
                "the host is replaying other records; try again in a moment",
                retry_after=2,
            )
        async with self.stepping:
            steps = await self.host.call(play_steps, self.host.client, record, viewer, seat)
        data = json.dumps(
            {**record.summary(), "as": viewer, "steps": steps}, separators=(",", ":")
        ).encode()
        self.keep((record.id, viewer), data)
        return data

    def viewer_seat(self, record: Record, viewer: str) -> int | None:
        if viewer in (HOST, SPECTATOR):
            return None
        if not (viewer.isascii() and viewer.isdigit()) or int(viewer) >= len(record.seats):
            raise HostError(
                400,
                "bad_request",
                f"`as` is {HOST}, {SPECTATOR} or a seat from 0 to {len(record.seats) - 1}",
                "as",
            )
        return int(viewer)

    async def check_key(self, record: Record, seat: int | None, key: str) -> None:
        """While the game runs, a seat's steps go to the holder of its key only."""
        if seat is None:
            raise secret_until_the_end()
        parsed = SeatKey.parse(key)
        if parsed.table != record.table or parsed.seat != seat:
            raise secret_until_the_end()
        await self.host.seat(parsed)

    def keep(self, key: tuple[str, str], data: bytes) -> None:
        self.cache[key] = data
        while sum(len(kept) for kept in self.cache.values()) > STEPS_CACHE_BYTES:
            self.cache.popitem(last=False)


def play_steps(
    client: RulesClient, record: Record, viewer: str, seat: int | None
) -> list[JsonObject]:
    """The record played again through the service (on one of the host's threads): the view
    (or, for the host, every view) after the set-up and after each move."""
    request = api.NewGameRequest.FromString(record.new_game)
    game = request.WhichOneof("options") or ""
    started = client.new_game(game, request.num_players, request.seed, getattr(request, game))
    tokens = list(started.player_tokens)
    state = started.state
    steps = [step(client, state, tokens, viewer, seat, None, None, started)]
    for index, raw in enumerate(record.moves, 1):
        move = game_pb2.Move.FromString(raw)
        mover = state.next.player
        token = tokens[mover] if tokens else ""
        answer = client.apply_move(state, move, expected_version=state.version, player_token=token)
        state = answer.state
        steps.append(step(client, state, tokens, viewer, seat, index, move, answer))
    return steps


def step(
    client: RulesClient,
    state: game_pb2.GameState,
    tokens: list[str],
    viewer: str,
    seat: int | None,
    index: int | None,
    move: game_pb2.Move | None,
    answer: api.ApplyMoveResponse | api.NewGameResponse,
) -> JsonObject:
    """One step: the views, the events and (to the host, and to the seat that made it) the
    move."""
    token = tokens[seat] if tokens and seat is not None else ""
    shown: JsonObject = {
        "step": index or 0,
        "version": state.version,
        "view": to_json(client.view(state, seat, token)),
    }
    if viewer == HOST:
        shown["seats"] = [
            to_json(client.view(state, other, tokens[other] if tokens else ""))
            for other in range(state.num_players)
        ]
    if move is not None and (viewer == HOST or (seat is not None and move.player == seat)):
        shown["move"] = to_json(move)
    shown["events"] = [to_json(event) for event in step_events(answer, viewer, seat)]
    return shown


def step_events(
    answer: api.ApplyMoveResponse | api.NewGameResponse, viewer: str, seat: int | None
) -> list[Any]:
    """The host's events (the spectator's when the service seals and gives none), a seat's
    own, or the spectator's."""
    if viewer == HOST:
        return list(answer.events) or list(answer.public_events)
    for events in answer.seat_events:
        if seat is not None and events.player == seat:
            return list(events.events)
    return list(answer.public_events)
