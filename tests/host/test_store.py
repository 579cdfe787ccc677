"""What the host keeps is bounded: idle tables expire (a TTL in Redis, a deadline in memory)
and their streams say so, the in-process store holds a bounded number of tables, a table's log
of events is bounded in bytes (its moves are always kept, so its record still replays)."""

from __future__ import annotations

import asyncio
import random

import pytest
import redis

from crabclients.host import store as store_module
from crabclients.host.limits import Settings
from crabclients.host.store import Entry, MemoryStore, TableMeta, log_key, record_key, table_key
from tests.host.conftest import running_host
from tests.host.web import Stream, call, human_keys, new_table, ok, play_one, refused


def test_an_idle_table_expires_from_memory():
    now = [1000.0]
    store = MemoryStore(Settings(table_ttl_seconds=60), clock=lambda: now[0])
    meta = TableMeta("t", "kraby", 2, b"", ("", ""), ("", ""), ("a", "b"), ())

    async def run() -> None:
        await store.create(meta, b"state", 1, Entry(1, None, b"", b""))
        now[0] += 59
        assert await store.advance("t", 1, b"state2", 2, Entry(2, 0, b"m", b""))
        now[0] += 59  # a move renewed the deadline
        assert (await store.load("t")).version == 2
        now[0] += 2
        assert await store.load("t") is None and await store.log("t", 0) == []
        assert not await store.advance("t", 2, b"state3", 3, Entry(3, 0, b"m", b""))

    asyncio.run(run())


def test_idle_tables_and_records_expire_in_redis(server_address, redis_url):
    with running_host(
        server_address, redis_url, table_ttl_seconds=600, record_ttl_seconds=3600
    ) as host:
        created = new_table(host.port, "kraby", 2)
        table = created["table"]
        client = redis.Redis.from_url(redis_url)
        for key in (table_key(table), log_key(table)):
            assert 590_000 < client.pttl(key) <= 600_000
        client.pexpire(table_key(table), 100_000)
        play_one(host.port, human_keys(created), random.Random(1))
        assert client.pttl(table_key(table)) > 590_000  # a move renews it
        saved = ok(call(host.port, "POST", f"/api/tables/{table}/records"), 201)
        assert 3_590_000 < client.pttl(record_key(saved["record"])) <= 3_600_000
        keys = client.keys(f"{store_module.PREFIX}*")
        assert all(client.pttl(key) > 0 for key in keys)  # nothing kept for ever
        client.close()


def test_a_stream_is_told_when_its_table_expires(server_address):
    with running_host(server_address) as host:
        created = new_table(host.port, "kraby", 2)
        table = created["table"]
        stream = Stream(host.port, f"/api/tables/{table}/events")
        assert stream.next().kind == "table"
        store = host.serving.store
        store.tables[table].expires = 0.0
        host.loop.call_soon_threadsafe(store.changes.wake, table)
        gone = stream.next()
        assert gone.kind == "gone" and gone.data["code"] == "no_table"
        with pytest.raises(EOFError):
            stream.next()
        stream.close()
        refused(call(host.port, "GET", f"/api/tables/{table}"), 404, "no_table")


def test_the_in_process_store_holds_a_bounded_number_of_tables(server_address):
    with running_host(server_address, memory_tables=2) as host:
        for _ in range(2):
            new_table(host.port, "kraby", 2)
        answer = refused(
            call(host.port, "POST", "/api/tables", {"game": "kraby", "players": 2}),
            503,
            "host_full",
        )
        assert answer["field"] == "" and answer


def test_a_full_log_keeps_the_moves_not_their_events(host, server_address, monkeypatch):
    monkeypatch.setattr(store_module, "LOG_BYTES", 3000)
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    rng = random.Random(9)
    for _ in range(12):
        play_one(host.port, keys, rng)
    log = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))["events"]
    assert len(log) == 13 and log[0]["events"] and not log[-1]["events"]
    while play_one(host.port, keys, rng) is not None:
        pass
    saved = ok(call(host.port, "POST", f"/api/tables/{created['table']}/records"), 201)
    steps = ok(call(host.port, "GET", f"/api/records/{saved['record']}/steps"))["steps"]
    final = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))
    assert steps[-1]["view"] == final["view"] and final["status"] == "finished"
