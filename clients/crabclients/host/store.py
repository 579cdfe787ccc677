"""Where the host keeps its tables and saved records: a Redis store (shared by every host
process pointed at it, each table expiring when idle) or this process's memory (bounded in
tables, each expiring alike), so that the host serves with nothing else installed.

A table is its meta (fixed at creation: the game, the seats, the secret seed and the service's
player tokens), its newest state with its version, and its log: one entry per applied move (the
move and the events each viewer may see). `advance` is the only way a table changes: a
compare-and-set on the version, which writes the new state and appends the log entry together
or not at all, so two hosts (or two requests) moving from one version never both succeed and
nothing is ever half-applied.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import struct
import time
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from crabclients.host.errors import UNAVAILABLE, HostError
from crabclients.host.limits import LOG_BYTES, RECORDS_PER_TABLE, Settings

log = logging.getLogger("crabgames.host")

PREFIX = "crabhost:v1:"
CHANNEL = PREFIX + "changes"  # Redis pub/sub: the id of each table that changed
STORE_SECONDS = 1.0  # connect and reply timeout of each store command
STORE_CONNECTIONS = 64


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: str) -> bytes:
    return base64.b64decode(text.encode())


@dataclass(frozen=True)
class TableMeta:
    """What a table is, fixed when it is created."""

    id: str
    game: str
    players: int
    new_game: bytes  # the NewGameRequest, its seed included: secret until the game ends
    names: tuple[str, ...]  # "" when a seat was not named
    bots: tuple[str, ...]  # the bot playing each seat, "" for a person
    key_hashes: tuple[str, ...]  # SHA-256 (hex) of each seat's secret
    tokens: tuple[str, ...]  # the service's player tokens; empty when it does not seal

    def dumps(self) -> bytes:
        fields = {**self.__dict__, "new_game": b64(self.new_game)}
        return json.dumps(fields).encode()

    @classmethod
    def loads(cls, data: bytes) -> TableMeta:
        raw = json.loads(data)
        lists = {name: tuple(raw[name]) for name in ("names", "bots", "key_hashes", "tokens")}
        return cls(raw["id"], raw["game"], raw["players"], unb64(raw["new_game"]), **lists)


# A log entry as stored: version, seat (-1: none), the move's length; the move; the answer,
# compressed (event texts repeat: a Kraby game's log is about 5 times smaller).
ENTRY_HEAD = struct.Struct(">QiI")


@dataclass(frozen=True)
class Entry:
    """One change of a table: the set-up (no seat, no move) or one applied move."""

    version: int  # the table's version after it
    seat: int | None  # who moved
    move: bytes  # the Move as applied (empty for the set-up)
    answer: bytes  # ApplyMoveResponse without its state: the events; empty once not kept

    def dumps(self) -> bytes:
        seat = -1 if self.seat is None else self.seat
        answer = zlib.compress(self.answer) if self.answer else b""
        return ENTRY_HEAD.pack(self.version, seat, len(self.move)) + self.move + answer

    @classmethod
    def loads(cls, data: bytes) -> Entry:
        version, seat, length = ENTRY_HEAD.unpack_from(data)
        move = data[ENTRY_HEAD.size : ENTRY_HEAD.size + length]
        rest = data[ENTRY_HEAD.size + length :]
        answer = zlib.decompress(rest) if rest else b""
        return cls(version, None if seat < 0 else seat, move, answer)

    def without_events(self) -> Entry:
        return Entry(self.version, self.seat, self.move, b"")


@dataclass(frozen=True)
class Snapshot:
    """A table as read at one moment."""

    meta: TableMeta
    state: bytes
    version: int
    entries: int  # log entries: the set-up and one per move
    records: int  # records saved of it


class Changes:
    """Wakes the event streams of a table when it changes (in this process; the Redis store
    also hears other processes' changes)."""

    def __init__(self) -> None:
        self.watchers: dict[str, set[asyncio.Event]] = {}

    @contextlib.contextmanager
    def watch(self, table: str) -> Any:
        event = asyncio.Event()
        self.watchers.setdefault(table, set()).add(event)
        try:
            yield event
        finally:
            watching = self.watchers.get(table, set())
            watching.discard(event)
            if not watching:
                self.watchers.pop(table, None)

    def wake(self, table: str) -> None:
        for event in self.watchers.get(table, ()):
            event.set()


class Store(Protocol):
    changes: Changes
    name: str

    async def start(self) -> None: ...
    async def close(self) -> None: ...
    async def create(self, meta: TableMeta, state: bytes, version: int, entry: Entry) -> None: ...
    async def load(self, table: str) -> Snapshot | None: ...
    async def log(self, table: str, start: int) -> list[Entry]: ...
    async def advance(
        self, table: str, expected: int, state: bytes, version: int, entry: Entry
    ) -> bool: ...
    async def save_record(self, table: str, record: str, data: bytes) -> bool: ...
    async def record(self, record: str) -> bytes | None: ...


def full(what: str) -> HostError:
    return HostError(
        UNAVAILABLE,
        "host_full",
        f"the host holds as many {what} as it may; try again later",
        retry_after=60,
    )


# ----- this process's memory -----


@dataclass
class MemoryTable:
    meta: TableMeta
    state: bytes
    version: int
    expires: float
    log: list[bytes] = field(default_factory=list)  # entries as stored (Entry.dumps)
    log_bytes: int = 0
    records: int = 0


class MemoryStore:
    """Tables and records in this process: at most `memory_tables` tables (and 16 records
    each), each forgotten once idle for the table TTL."""

    name = "memory"

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.changes = Changes()
        self.settings = settings
        self.clock = clock
        self.tables: dict[str, MemoryTable] = {}
        self.records: dict[str, tuple[bytes, float]] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def sweep(self) -> None:
        now = self.clock()
        for table in [t for t, held in self.tables.items() if held.expires <= now]:
            del self.tables[table]
        for record in [r for r, (_, until) in self.records.items() if until <= now]:
            del self.records[record]

    async def create(self, meta: TableMeta, state: bytes, version: int, entry: Entry) -> None:
        if len(self.tables) >= self.settings.memory_tables:
            self.sweep()
            if len(self.tables) >= self.settings.memory_tables:
                raise full("tables")
        held = MemoryTable(meta, state, version, self.clock() + self.settings.table_ttl_seconds)
        self.tables[meta.id] = held
        self.append(held, entry)

    def held(self, table: str) -> MemoryTable | None:
        held = self.tables.get(table)
        if held is not None and held.expires <= self.clock():
            del self.tables[table]
            return None
        return held

    async def load(self, table: str) -> Snapshot | None:
        held = self.held(table)
        if held is None:
            return None
        return Snapshot(held.meta, held.state, held.version, len(held.log), held.records)

    async def log(self, table: str, start: int) -> list[Entry]:
        held = self.held(table)
        return [] if held is None else [Entry.loads(data) for data in held.log[start:]]

    def append(self, held: MemoryTable, entry: Entry) -> None:
        data = entry.dumps()
        if held.log_bytes + len(data) > LOG_BYTES:
            data = entry.without_events().dumps()
        held.log.append(data)
        held.log_bytes += len(data)

    async def advance(
        self, table: str, expected: int, state: bytes, version: int, entry: Entry
    ) -> bool:
        held = self.held(table)
        if held is None or held.version != expected:
            return False
        held.state, held.version = state, version
        held.expires = self.clock() + self.settings.table_ttl_seconds
        self.append(held, entry)
        self.changes.wake(table)
        return True

    async def save_record(self, table: str, record: str, data: bytes) -> bool:
        held = self.held(table)
        if held is None or held.records >= RECORDS_PER_TABLE:
            return False
        if len(self.records) >= self.settings.memory_tables * RECORDS_PER_TABLE:
            self.sweep()
            if len(self.records) >= self.settings.memory_tables * RECORDS_PER_TABLE:
                raise full("records")
        held.records += 1
        self.records[record] = (data, self.clock() + self.settings.record_ttl_seconds)
        return True

    async def record(self, record: str) -> bytes | None:
        data, until = self.records.get(record, (b"", 0.0))
        return data if until > self.clock() else None


# ----- Redis -----

# The compare-and-set of `advance`: the new state, its version and the log entry (without its
# events once the table's log is full) written together, the TTLs renewed, the change
# announced; or nothing when the table is gone (-1) or at another version (0).
ADVANCE = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return -1 end
if version ~= ARGV[1] then return 0 end
local used = tonumber(redis.call('HGET', KEYS[1], 'log_bytes') or '0')
local entry = ARGV[4]
if used + #entry > tonumber(ARGV[6]) then entry = ARGV[5] end
redis.call('RPUSH', KEYS[2], entry)
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', ARGV[3], 'log_bytes', used + #entry)
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
redis.call('PUBLISH', ARGV[8], ARGV[9])
return 1
"""

# A record saved while its table lives and has saved fewer than the bound.
SAVE_RECORD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if tonumber(redis.call('HGET', KEYS[1], 'records') or '0') >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'records', 1)
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return 1
"""


def table_key(table: str) -> str:
    return f"{PREFIX}table:{table}"


def log_key(table: str) -> str:
    return f"{PREFIX}table:{table}:log"


def record_key(record: str) -> str:
    return f"{PREFIX}record:{record}"


@contextlib.asynccontextmanager
async def answered() -> AsyncIterator[None]:
    """A store that does not answer (or refuses) is 503 for the caller, never 500."""
    try:
        yield
    except RedisError as error:
        log.warning("the store failed: %s", error)
        raise HostError(
            UNAVAILABLE,
            "store_unavailable",
            "the host's store does not answer; try again",
            retry_after=1,
        ) from None


class RedisStore:
    """Tables and records in Redis: every host process pointed at the same store serves every
    table (moves are compare-and-set, changes announced on a channel). Keys expire: a table
    (and its log) once idle for the table TTL, a record after the record TTL."""

    name = "redis"

    def __init__(self, url: str, settings: Settings) -> None:
        self.changes = Changes()
        self.settings = settings
        self.client = aioredis.Redis.from_url(
            url,
            socket_timeout=STORE_SECONDS,
            socket_connect_timeout=STORE_SECONDS,
            retry=Retry(NoBackoff(), 1),
            max_connections=STORE_CONNECTIONS,
        )
        self.advance_script = self.client.register_script(ADVANCE)
        self.record_script = self.client.register_script(SAVE_RECORD)
        self.listener: asyncio.Task[None] | None = None

    @property
    def ttl_ms(self) -> int:
        return self.settings.table_ttl_seconds * 1000

    async def start(self) -> None:
        self.listener = asyncio.create_task(self.listen())

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.listener
        await self.client.aclose()

    async def listen(self) -> None:
        """Wake this process's streams of every table another process (or this one) moved."""
        while True:
            try:
                async with self.client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    while True:
                        message = await pubsub.get_message(timeout=STORE_SECONDS)
                        if message is not None:
                            self.changes.wake(message["data"].decode(errors="replace"))
            except (RedisError, OSError) as error:
                log.warning("the store's change channel failed: %s; again in 1 s", error)
                await asyncio.sleep(1)

    async def create(self, meta: TableMeta, state: bytes, version: int, entry: Entry) -> None:
        data = entry.dumps()
        async with answered(), self.client.pipeline(transaction=True) as pipe:
            pipe.hset(
                table_key(meta.id),
                mapping={
                    "meta": meta.dumps(),
                    "state": state,
                    "version": str(version),
                    "log_bytes": str(len(data)),
                    "records": "0",
                },
            )
            pipe.rpush(log_key(meta.id), data)
            pipe.pexpire(table_key(meta.id), self.ttl_ms)
            pipe.pexpire(log_key(meta.id), self.ttl_ms)
            await pipe.execute()

    async def load(self, table: str) -> Snapshot | None:
        async with answered(), self.client.pipeline(transaction=True) as pipe:
            pipe.hmget(table_key(table), ["meta", "state", "version", "records"])
            pipe.llen(log_key(table))
            (meta, state, version, records), entries = await pipe.execute()
        if meta is None or state is None or version is None:
            return None
        return Snapshot(TableMeta.loads(meta), state, int(version), entries, int(records or 0))

    async def log(self, table: str, start: int) -> list[Entry]:
        async with answered():
            raw = await self.client.lrange(log_key(table), start, -1)
        return [Entry.loads(data if isinstance(data, bytes) else data.encode()) for data in raw]

    async def advance(
        self, table: str, expected: int, state: bytes, version: int, entry: Entry
    ) -> bool:
        keys = [table_key(table), log_key(table)]
        args: list[bytes | str | int] = [
            str(expected),
            state,
            str(version),
            entry.dumps(),
            entry.without_events().dumps(),
            LOG_BYTES,
            self.ttl_ms,
            CHANNEL,
            table,
        ]
        async with answered():
            done = await self.advance_script(keys=keys, args=args)
        if done == 1:
            self.changes.wake(table)
        return bool(done == 1)

    async def save_record(self, table: str, record: str, data: bytes) -> bool:
        keys = [table_key(table), record_key(record)]
        ttl_ms = self.settings.record_ttl_seconds * 1000
        args: list[bytes | str | int] = [data, RECORDS_PER_TABLE, ttl_ms]
        async with answered():
            return bool(await self.record_script(keys=keys, args=args) == 1)

    async def record(self, record: str) -> bytes | None:
        async with answered():
            data = await self.client.get(record_key(record))
        return data if isinstance(data, bytes) else None


def open_store(url: str, settings: Settings) -> Store:
    """The Redis store at `url` (redis://, rediss://, unix://), or memory when `url` is empty."""
    return RedisStore(url, settings) if url else MemoryStore(settings)
