"""The game host's tables: a client of the rules service ("a service calling ApplyMove"), with
the project's own Python client.

The host holds every table's newest state (sealed when the service seals) and the service's
player tokens; the people at a table hold only their seat's key, a secret the host made, and
get views. A move is applied with the mover's token and `expected_version`, then stored by a
compare-and-set on the table's version (store.py), so a stale move, a move from another seat
and a move that loses a race are all refused, and nothing is ever half-applied. Bots sit in
the chairs the table gives them (crabclients.bots); the host plays their moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from google.protobuf.message import Message

from crabclients.bots import BOTS
from crabclients.client import GAME_OVER, PLAYER, RulesClient, RulesServiceError
from crabclients.host.errors import CONFLICT, FORBIDDEN, NOT_FOUND, HostError, refused
from crabclients.host.limits import BOT_MOVES_AT_ONCE, KEY_BYTES, MAX_MOVES, RULES_THREADS, Settings
from crabclients.host.store import Entry, Snapshot, Store, TableMeta
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

log = logging.getLogger("crabgames.host")
T = TypeVar("T")


@dataclass(frozen=True)
class SeatRequest:
    name: str  # "" when not named
    bot: str  # a key of crabclients.bots.BOTS, "" for a person


@dataclass(frozen=True)
class TableRequest:
    game: str
    players: int
    options: Message
    seats: tuple[SeatRequest, ...]


@dataclass(frozen=True)
class SeatKey:
    """A seat's credential, `<table>.<seat>.<secret>`: the only thing a seat's link carries."""

    table: str
    seat: int
    secret: str

    def __str__(self) -> str:
        return f"{self.table}.{self.seat}.{self.secret}"

    @classmethod
    def parse(cls, text: str) -> SeatKey:
        table, _, rest = text.partition(".")
        seat, _, secret = rest.partition(".")
        if not (table and secret and seat.isascii() and seat.isdigit() and len(seat) <= 2):
            raise HostError(FORBIDDEN, "bad_key", "this is not a seat's key", "key")
        return cls(table, int(seat), secret)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def no_table(table: str) -> HostError:
    return HostError(NOT_FOUND, "no_table", "no such table (it may have expired)", "table")


def game_over() -> HostError:
    return HostError(CONFLICT, "game_over", "the game is over", "move", {"reason": "GAME_OVER"})


def decider(state: game_pb2.GameState) -> int | None:
    """The seat that must decide now, or None (the game is over)."""
    return state.next.player if state.next.kind == PLAYER else None


def answer_of(
    public: Sequence[game_pb2.Event],
    seats: Sequence[api.SeatEvents],
    outcome: game_pb2.Outcome,
) -> bytes:
    """What a log entry keeps of a service's answer: the events each viewer may see."""
    return api.ApplyMoveResponse(
        public_events=public, seat_events=seats, outcome=outcome
    ).SerializeToString()


class TableLocks:
    """One lock per table in this process, dropped when nobody holds or waits for it: two
    requests of one table do not both call the service for the same version."""

    def __init__(self) -> None:
        self.held: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def __call__(self, table: str) -> AsyncIterator[None]:
        lock, users = self.held.get(table, (asyncio.Lock(), 0))
        self.held[table] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.held[table]
            if users == 1:
                del self.held[table]
            else:
                self.held[table] = (lock, users - 1)


class Host:
    """Creates tables, applies moves (people's and bots'), through the rules service."""

    def __init__(
        self,
        client: RulesClient,
        store: Store,
        settings: Settings,
        games: Sequence[api.GameInfo],
    ) -> None:
        self.client = client
        self.store = store
        self.settings = settings
        self.games = {info.id: info for info in games}
        self.executor = ThreadPoolExecutor(RULES_THREADS, "crabgames-host-rules")
        self.lock = TableLocks()
        self.bot_turns = asyncio.Semaphore(BOT_MOVES_AT_ONCE)
        self.driving: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A call of the rules service on the host's threads (its client is synchronous); a
        refusal becomes the host's HostError, with the service's reason and rule."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, partial(function, *args, **kwargs))
        except RulesServiceError as error:
            raise refused(error) from None

    # ----- tables -----

    async def create(self, request: TableRequest) -> tuple[Snapshot, list[SeatKey]]:
        """A new table: the game started by the service from a seed only the host knows (the
        record needs it; it is revealed with the record once the game is over)."""
        seed = secrets.randbits(63) | 1  # never 0, which would let the service choose
        started = await self.call(
            self.client.new_game, request.game, request.players, seed, request.options
        )
        table = secrets.token_urlsafe(KEY_BYTES)
        keys = [
            SeatKey(table, seat, secrets.token_urlsafe(KEY_BYTES))
            for seat in range(request.players)
        ]
        new_game = api.NewGameRequest(num_players=request.players, seed=seed)
        getattr(new_game, request.game).CopyFrom(request.options)
        meta = TableMeta(
            id=table,
            game=request.game,
            players=request.players,
            new_game=new_game.SerializeToString(),
            names=tuple(seat.name for seat in request.seats),
            bots=tuple(seat.bot for seat in request.seats),
            key_hashes=tuple(digest(key.secret) for key in keys),
            tokens=tuple(started.player_tokens),
        )
        state = started.state
        answer = answer_of(started.public_events, started.seat_events, started.outcome)
        entry = Entry(state.version, None, b"", answer)
        await self.store.create(meta, state.SerializeToString(), state.version, entry)
        self.kick(table)  # a bot may have the first move
        return Snapshot(meta, state.SerializeToString(), state.version, 1, 0), keys

    async def table(self, table: str) -> Snapshot:
        snapshot = await self.store.load(table)
        if snapshot is None:
            raise no_table(table)
        return snapshot

    async def seat(self, key: SeatKey) -> Snapshot:
        """The table of a seat's key, once the key is checked."""
        snapshot = await self.table(key.table)
        hashes = snapshot.meta.key_hashes
        if key.seat >= len(hashes) or not hmac.compare_digest(hashes[key.seat], digest(key.secret)):
            raise HostError(FORBIDDEN, "bad_key", "this key opens no seat of this table", "key")
        return snapshot

    def token(self, meta: TableMeta, seat: int | None) -> str:
        """The service's player token of a seat (empty when it does not seal)."""
        return meta.tokens[seat] if meta.tokens and seat is not None else ""

    # ----- moves -----

    async def move(self, key: SeatKey, version: int, move: game_pb2.Move) -> Snapshot:
        """A person's move from a seat's key, decided at `version` of the table."""
        async with self.lock(key.table):
            snapshot = await self.seat(key)
            if snapshot.meta.bots[key.seat]:
                raise HostError(FORBIDDEN, "bot_seat", "a bot plays this seat", "key")
            if decider(game_pb2.GameState.FromString(snapshot.state)) is None:
                raise game_over()
            if version != snapshot.version:
                raise HostError(
                    CONFLICT,
                    "stale_version",
                    f"the table is at version {snapshot.version}; this move was decided at"
                    f" version {version}",
                    "version",
                    {"reason": "STALE_STATE", "rule": "", "version": snapshot.version},
                )
            moved = await self.apply(snapshot, key.seat, move)
        self.kick(key.table)
        return moved

    async def apply(self, snapshot: Snapshot, seat: int, move: game_pb2.Move) -> Snapshot:
        """Apply `seat`'s move to the table as `snapshot` read it: through the service (the
        seat's token, `expected_version`), then into the store (compare-and-set)."""
        state = game_pb2.GameState.FromString(snapshot.state)
        self.check_turn(snapshot, state, seat, move)
        move.player = seat
        meta = snapshot.meta
        wanted = api.EventSelection(spectator=True, seats=range(meta.players))
        answer = await self.call(
            self.client.apply_move,
            state,
            move,
            expected_version=snapshot.version,
            player_token=self.token(meta, seat),
            events=wanted,
        )
        after = answer.state
        answer.ClearField("state")
        entry = Entry(after.version, seat, move.SerializeToString(), answer.SerializeToString())
        new_state = after.SerializeToString()
        if not await self.store.advance(meta.id, snapshot.version, new_state, after.version, entry):
            raise HostError(
                CONFLICT,
                "stale_version",
                "the table moved on while this move was applied; decide again",
                "version",
                {"reason": "STALE_STATE", "rule": ""},
            )
        return Snapshot(meta, new_state, after.version, snapshot.entries + 1, snapshot.records)

    def check_turn(
        self, snapshot: Snapshot, state: game_pb2.GameState, seat: int, move: game_pb2.Move
    ) -> None:
        """Refused before the service is asked: a finished game, another seat's turn, a move
        naming another seat, a table at its bound of moves."""
        if state.next.kind == GAME_OVER:
            raise game_over()
        if decider(state) != seat or (move.HasField("player") and move.player != seat):
            raise HostError(
                FORBIDDEN,
                "not_your_turn",
                f"seat {decider(state)} decides now, not seat {seat}",
                "move",
                {"reason": "", "rule": ""},
            )
        if snapshot.entries > MAX_MOVES:
            raise HostError(
                CONFLICT,
                "too_many_moves",
                f"a table holds at most {MAX_MOVES} moves (what a record replays)",
                "move",
            )

    # ----- bots -----

    def kick(self, table: str) -> None:
        """Let the bots of `table` play while one of them decides (one driver per table in
        this process; another host process racing it loses at the compare-and-set)."""
        if table in self.driving:
            return
        self.driving.add(table)
        task = asyncio.create_task(self.drive(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def drive(self, table: str) -> None:
        try:
            while await self.bot_move(table):
                pass
        except HostError as error:
            log.warning("a bot of table %s stopped: %s", table[:6], error)
        except Exception:  # a bug: logged, the table waits for the next kick
            log.exception("a bot of table %s failed", table[:6])
        finally:
            self.driving.discard(table)

    async def bot_move(self, table: str) -> bool:
        """One bot move, if a bot decides now; False when none does."""
        snapshot = await self.store.load(table)
        if snapshot is None:
            return False
        state = game_pb2.GameState.FromString(snapshot.state)
        seat = decider(state)
        if seat is None or not snapshot.meta.bots[seat] or snapshot.entries > MAX_MOVES:
            return False
        await asyncio.sleep(self.settings.bot_pause_seconds)
        async with self.bot_turns:
            token = self.token(snapshot.meta, seat)
            view = await self.call(self.client.view, state, seat, token)
            bot = BOTS[snapshot.meta.bots[seat]](secrets.randbits(62))
            move = await self.call(bot.choose, self.client, view)
        async with self.lock(table):
            current = await self.store.load(table)
            if current is None or current.version != snapshot.version:
                return True  # someone moved meanwhile: look again
            await self.apply(current, seat, move)
        return True
