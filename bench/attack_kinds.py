"""The attacks of issue 27 for bench/attack.py, each a named kind: what it sends, from which
loopback addresses, how many at --scale 1, and the status codes it gets (a Tally per attacker
kind). Every loop stops at the attack's end (stop_at) or after BOUND rounds, whichever first.

Each launcher takes a Context (the server's ports, the end time, the scale, this attack's
addresses) and returns the coroutines to run; the attacker process runs them all at once.
"""

from __future__ import annotations

import asyncio
import collections
import gzip
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import h2.exceptions

from bench.attack_wire import (
    SERVICE,
    H2Connection,
    Relay,
    attacker_address,
    close,
    connect,
    grpc_frame,
    gzip_bomb,
    http_request,
    read_answer,
    time_left,
)

BOUND = 1_000_000  # every attacker's loop also stops after this many rounds
CHUNK = b"a" * 65536  # an endless request line or header, 64 KiB at a time
BOMB_BYTES = 4_000_000  # a gzip bomb once inflated: 2 million `0a 00` (just under 4 MiB)
REPLAY_JSON_BYTES = 4 * 1024**2  # a Connect JSON Replay body of `{}` moves
CONNECT_HEADERS = {"Connect-Protocol-Version": "1"}


@dataclass
class Tally:
    """What one kind of attack (or a well-behaved client) did and got."""

    calls: int = 0
    codes: collections.Counter = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    detail: collections.Counter = field(default_factory=collections.Counter)  # by payload
    cpu_at_start: float = 0.0
    games: collections.Counter = field(default_factory=collections.Counter)  # finished, by title
    attackers: int = 0
    good: bool = False  # a well-behaved party's calls (must not fail), not an attacker's

    def saw(self, code: str, seconds: float | None = None) -> None:
        self.calls += 1
        self.codes[code] += 1
        if seconds is not None:
            self.latencies.append(seconds)


def asdict_tally(tally: Tally) -> dict:
    data = asdict(tally)
    data["codes"] = dict(tally.codes)
    data["detail"] = dict(tally.detail)
    data["games"] = dict(tally.games)
    return data


@dataclass
class Context:
    """One attack's view of the run: where the server listens, when to stop, its addresses."""

    grpc_port: int
    http_port: int
    metrics_port: int | None
    stop_at: float
    scale: float
    peers: int  # source addresses an attack of many connections spreads them over
    number: int  # this attack's number: its addresses are 127.0.<number + 1>.<peer + 2>
    payloads: Any  # bench.attack.Payloads, built from real games when the attack needs them
    tallies: dict[str, Tally] = field(default_factory=dict)
    relays: list[Relay] = field(default_factory=list)
    channels: list[Any] = field(default_factory=list)

    def count(self, attackers: int) -> int:
        return max(1, round(attackers * self.scale))

    def address(self, index: int) -> str:
        """The source address of attacker connection `index`: one of `peers` addresses."""
        return attacker_address(self.number, index % self.peers)

    def tally(self, name: str, attackers: int) -> Tally:
        tally = self.tallies.setdefault(name, Tally())
        tally.attackers += attackers
        return tally

    async def channel(self, index: int) -> Any:
        """A grpc.aio channel (its own connection) reaching the server from address `index`."""
        import grpc

        relay = Relay(self.grpc_port, self.address(index))
        self.relays.append(relay)
        port = await relay.start()
        channel = grpc.aio.insecure_channel(
            f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]
        )
        self.channels.append(channel)
        return channel

    def direct_channel(self) -> Any:
        """A grpc.aio channel from 127.0.0.1, where the well-behaved clients are."""
        import grpc

        channel = grpc.aio.insecure_channel(
            f"127.0.0.1:{self.grpc_port}", options=[("grpc.use_local_subchannel_pool", 1)]
        )
        self.channels.append(channel)
        return channel

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close()
        for relay in self.relays:
            relay.close()


Launcher = Callable[[Context], Awaitable[list[Awaitable[None]]]]


# ----- gRPC calls through a relay -----


def code_name(error: Exception) -> str:
    code = getattr(error, "code", None)
    return code().name if callable(code) else type(error).__name__


async def timed_unary(channel, method: str, data: bytes, timeout: float | None) -> str:
    call = channel.unary_unary(
        SERVICE + method, request_serializer=bytes, response_deserializer=bytes
    )
    try:
        await call(data, timeout=timeout)
    except Exception as error:  # noqa: BLE001 (every outcome is a status to report)
        return code_name(error)
    return "OK"


async def closed_loop(
    channel, requests, stop_at: float, tally: Tally, max_calls: int, timeout
) -> None:
    """Send `requests(n)` (label "Method: what", bytes) one after another until stop_at or
    max_calls; `timeout` a number of seconds, None, or a function of n."""
    for number in range(max_calls):
        if time.monotonic() >= stop_at:
            return
        label, data = requests(number)
        deadline = timeout(number) if callable(timeout) else timeout
        start = time.monotonic()
        code = await timed_unary(channel, label.split(":")[0], data, deadline)
        tally.saw(code, time.monotonic() - start)
        tally.detail[f"{label}: {code}"] += 1


# ----- 1. an endless request line or header on the HTTP port -----


async def endless(ctx: Context, tally: Tally, index: int, header: bool) -> None:
    """One connection sending a URL (or a header value) 64 KiB at a time without end; again
    when the server answers or closes it."""
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        start = time.monotonic()
        outcome, sent = await endless_once(ctx, index, header)
        tally.detail["MiB sent"] += sent // 2**20
        if outcome == "still sending at the end":
            tally.saw(outcome)
            return
        tally.saw(outcome, time.monotonic() - start)


async def endless_once(ctx: Context, index: int, header: bool) -> tuple[str, int]:
    try:
        reader, writer = await connect(ctx.http_port, ctx.address(index))
    except (OSError, TimeoutError) as error:
        await asyncio.sleep(0.1)
        return f"connect failed: {type(error).__name__}", 0
    path = SERVICE + ("NewGame" if header else "")
    writer.write(f"POST {path}".encode() if not header else http_head(path)[:-2] + b"X-Endless: ")
    answer = asyncio.ensure_future(read_answer(reader, time_left(ctx.stop_at)))
    sent = 0
    try:
        while not answer.done() and time_left(ctx.stop_at):
            writer.write(CHUNK)
            sent += len(CHUNK)
            await asyncio.wait_for(writer.drain(), time_left(ctx.stop_at) or 0.001)
    except TimeoutError:
        pass
    except OSError:  # the server closed it: its answer, if any, is read below
        pass
    done, _ = await asyncio.wait({answer}, timeout=min(1.0, time_left(ctx.stop_at)))
    close(writer)
    if not done or answer.result() == "no answer in time":
        answer.cancel()
        return "still sending at the end", sent
    result = answer.result()
    return (result if isinstance(result, str) else f"HTTP {result.status}"), sent


def http_head(path: str, headers: dict[str, str] | None = None) -> bytes:
    """The head of a POST without its length: headers follow, the body never does."""
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def endless_launcher(header: bool, connections: int) -> Launcher:
    async def launch(ctx: Context) -> list[Awaitable[None]]:
        count = connections if connections == 1 else ctx.count(connections)
        what = "header value" if header else "request line"
        if connections > 1:
            what = "request line or header value"
        name = f"endless {what}, {count} connection{'s' if count > 1 else ''}"
        tally = ctx.tally(name, count)
        return [
            endless(ctx, tally, i, header if connections == 1 else bool(i % 2))
            for i in range(count)
        ]

    return launch


# ----- 2. a Connect JSON Replay of 1.4 million `{}` moves -----


def replay_json(size: int) -> bytes:
    head = b'{"newGame":{"numPlayers":3,"kraby":{}},"moves":['
    moves = (size - len(head) - 2) // 3
    return head + b"{}," * (moves - 1) + b"{}]}"


async def http_calls(
    ctx: Context, tally: Tally, index: int, request: Callable[[int], tuple[str, bytes]], wait=30.0
) -> None:
    """HTTP/1.1 calls one after another on a kept-alive connection (a new one when the server
    closes it): `request(n)` gives (label, the request's bytes)."""
    reader = writer = None
    for number in range(BOUND):
        if not time_left(ctx.stop_at):
            break
        if writer is None or reader is None or reader.at_eof():
            try:
                reader, writer = await connect(ctx.http_port, ctx.address(index))
            except (OSError, TimeoutError) as error:
                tally.saw(f"connect failed: {type(error).__name__}")
                await asyncio.sleep(0.5)
                continue
        label, data = request(number)
        start = time.monotonic()
        code, keep = await http_call(reader, writer, data, time_left(ctx.stop_at) + wait)
        tally.saw(code, time.monotonic() - start)
        tally.detail[f"{label}: {code}"] += 1
        if not keep:
            close(writer)
            writer = None
    if writer is not None:
        close(writer)


async def http_call(reader, writer, data: bytes, timeout: float) -> tuple[str, bool]:
    """The call's status, and whether the connection can carry another call."""
    try:
        writer.write(data)
        await asyncio.wait_for(writer.drain(), timeout)
    except (OSError, TimeoutError) as error:
        return f"sending failed: {type(error).__name__}", False
    answer = await read_answer(reader, timeout)
    if isinstance(answer, str):
        return answer, False
    return answer.code(), answer.headers.get("connection", "").lower() != "close"


async def launch_json_replay(ctx: Context) -> list[Awaitable[None]]:
    body = replay_json(REPLAY_JSON_BYTES)
    headers = {"Content-Type": "application/json", **CONNECT_HEADERS}
    data = http_request("POST", SERVICE + "Replay", headers, body)
    count = ctx.count(2)
    tally = ctx.tally(f"Connect JSON Replay of {len(body) // 3:,} moves, 4 MiB", count)
    return [http_calls(ctx, tally, i, lambda n: ("Replay", data)) for i in range(count)]


# ----- 3. calls that cost nothing: headers, and never a body -----


async def held_calls(
    ctx: Context,
    tally: Tally,
    index: int,
    streams: int,
    methods: list[str],
    extra: list[tuple[str, str]] | None = None,
    body: bytes = b"",
    end: bool = False,
) -> None:
    """`streams` calls at a time on one raw HTTP/2 connection from address `index`: headers,
    then `body` (if any), half-closed only when `end`; each opened again when it ends; a new
    connection when the server closes this one."""
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        try:
            conn = await H2Connection.open(ctx.grpc_port, ctx.address(index))
        except (OSError, TimeoutError) as error:
            tally.saw(f"connect failed: {type(error).__name__}")
            await asyncio.sleep(0.5)
            continue
        held = [
            held_stream(ctx, tally, conn, methods[i % len(methods)], extra or [], body, end)
            for i in range(streams)
        ]
        await asyncio.gather(*held)
        conn.close()
        await asyncio.sleep(0.05)  # a server that closes every connection at once: no spin


async def held_stream(ctx, tally: Tally, conn: H2Connection, method, extra, body, end) -> None:
    for _ in range(BOUND):
        if conn.closed is not None or not time_left(ctx.stop_at):
            return
        if not conn.has_room():
            tally.detail["waited for the server's max_concurrent_streams"] += 1
            conn.changed.clear()
            await asyncio.wait({asyncio.ensure_future(conn.changed.wait())}, timeout=1.0)
            continue
        start = time.monotonic()
        try:
            stream = conn.start(method, extra, body, end)
        except h2.exceptions.H2Error as error:
            tally.saw(f"refused by h2: {type(error).__name__}")
            await asyncio.sleep(0.1)
            continue
        outcome = await conn.outcome(stream, ctx.stop_at)
        if outcome == "still open at the end":
            tally.saw(outcome)
            return
        tally.saw(outcome, time.monotonic() - start)


async def withheld_http(ctx: Context, tally: Tally, index: int, head: bytes) -> None:
    """HTTP/1.1 calls whose body never comes: the head, then nothing; again when answered."""
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        try:
            reader, writer = await connect(ctx.http_port, ctx.address(index))
        except (OSError, TimeoutError) as error:
            tally.saw(f"connect failed: {type(error).__name__}")
            await asyncio.sleep(0.5)
            continue
        start = time.monotonic()
        writer.write(head)
        answer = await read_answer(reader, time_left(ctx.stop_at))
        close(writer)
        if answer == "no answer in time":
            tally.saw("still open at the end")
            return
        tally.saw(answer if isinstance(answer, str) else answer.code(), time.monotonic() - start)


UNARY = ["NewGame", "LegalMoves", "ApplyMove", "Playouts", "SampleState", "GetView", "Replay"]


async def launch_free_calls(ctx: Context) -> list[Awaitable[None]]:
    streams, unary = ctx.count(11), ctx.count(2)
    connect_streams, connect_unary = ctx.count(100), ctx.count(100)
    stream_head = http_head(
        SERVICE + "ApplyMoves",
        {"Content-Type": "application/connect+proto", "Transfer-Encoding": "chunked"},
    )
    unary_head = http_head(
        SERVICE + "NewGame",
        {"Content-Type": "application/proto", "Content-Length": "100", **CONNECT_HEADERS},
    )
    a = ctx.tally("gRPC ApplyMoves, headers only (100 a connection)", streams * 100)
    b = ctx.tally("gRPC unary, headers only (100 a connection)", unary * 100)
    c = ctx.tally("Connect ApplyMoves over HTTP, no body", connect_streams)
    d = ctx.tally("Connect unary over HTTP, no body", connect_unary)
    return [
        *(held_calls(ctx, a, i, 100, ["ApplyMoves"]) for i in range(streams)),
        *(held_calls(ctx, b, streams + i, 100, UNARY) for i in range(unary)),
        *(withheld_http(ctx, c, i, stream_head) for i in range(connect_streams)),
        *(withheld_http(ctx, d, i, unary_head) for i in range(connect_unary)),
    ]


# ----- 4. a 4 KB gzip bomb of 4 MiB, held open or sent in a loop -----


def bomb_call(method_bytes: bytes) -> tuple[list[tuple[str, str]], bytes]:
    extra = [("grpc-encoding", "gzip"), ("grpc-accept-encoding", "gzip")]
    return extra, grpc_frame(method_bytes, compressed=True)


def gzip_launcher(held: bool) -> Launcher:
    async def launch(ctx: Context) -> list[Awaitable[None]]:
        extra, body = bomb_call(gzip_bomb(BOMB_BYTES))
        size = f"{len(body) / 1024:.1f} KiB on the wire"
        if held:
            replays, scores = ctx.count(8), ctx.count(16)
            a = ctx.tally(f"gzip bomb Replay, never half-closed ({size})", replays)
            b = ctx.tally(f"gzip bomb ScoreCrabRageSeason, never half-closed ({size})", scores)
            return [
                *(held_calls(ctx, a, i, 1, ["Replay"], extra, body) for i in range(replays)),
                *(
                    held_calls(ctx, b, replays + i, 1, ["ScoreCrabRageSeason"], extra, body)
                    for i in range(scores)
                ),
            ]
        callers = ctx.count(6)
        tally = ctx.tally(f"gzip bomb Replay and ScoreCrabRageSeason in a loop ({size})", callers)
        methods = ["Replay", "ScoreCrabRageSeason"]
        return [
            held_calls(ctx, tally, i, 1, [methods[i % 2]], extra, body, end=True)
            for i in range(callers)
        ]

    return launch


async def paced_connect(opening: asyncio.Semaphore, port: int, source: str, settle=0.0):
    """A connection opened while holding `opening` (a flood opens a few at a time), then
    `settle` seconds for the server to accept it; the streams, or why it failed."""
    async with opening:
        try:
            streams = await connect(port, source)
        except (OSError, TimeoutError) as error:
            return f"connect failed: {type(error).__name__}"
        await asyncio.sleep(settle)
        return streams


# ----- 5. slow headers: thousands of connections trickling a byte every few seconds -----

SLOW_HEAD = b"POST /crabgames.v1.RulesService/NewGame HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


async def slow_headers(ctx: Context, tally: Tally, index: int, opening: asyncio.Semaphore) -> None:
    rng = random.Random(index)
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        opened = await paced_connect(opening, ctx.http_port, ctx.address(index))
        if isinstance(opened, str):
            tally.saw(opened)
            await asyncio.sleep(min(1.0, time_left(ctx.stop_at)))
            continue
        reader, writer = opened
        start = time.monotonic()
        writer.write(SLOW_HEAD)
        answer = asyncio.ensure_future(read_answer(reader, time_left(ctx.stop_at)))
        while not answer.done() and time_left(ctx.stop_at):
            await asyncio.wait({answer}, timeout=min(time_left(ctx.stop_at), rng.uniform(2, 4)))
            if not answer.done() and not writer.is_closing():
                writer.write(b"a")
        close(writer)
        if not answer.done():
            answer.cancel()
            tally.saw("still open at the end")
            return
        result = answer.result()
        if result == "no answer in time":
            tally.saw("still open at the end")
            return
        tally.saw(
            result if isinstance(result, str) else f"HTTP {result.status}", time.monotonic() - start
        )


async def launch_slow_headers(ctx: Context) -> list[Awaitable[None]]:
    count = ctx.count(2100)
    tally = ctx.tally("slow headers, a byte every 2-4 s", count)
    opening = asyncio.Semaphore(64)
    return [slow_headers(ctx, tally, i, opening) for i in range(count)]


# ----- 6. the long-call mix: SuggestMove (5 s), Playouts (10,000), SampleState, no deadline -----


def suggest_request(state: bytes, milliseconds: int) -> bytes:
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api

    request = api.SuggestMoveRequest(
        state=game_pb2.GameState.FromString(state), max_milliseconds=milliseconds, seed=1
    )
    return request.SerializeToString()


def sample_request(view: bytes, seed: int) -> bytes:
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api

    view_message = game_pb2.View.FromString(view)
    return api.SampleStateRequest(view=view_message, seed=seed).SerializeToString()


async def launch_long_calls(ctx: Context) -> list[Awaitable[None]]:
    p = ctx.payloads
    suggest = suggest_request(p.states["kraby"], 5000)
    each = ctx.count(8)
    kinds: list[tuple[str, Callable[[int], tuple[str, bytes]]]] = [
        ("SuggestMove, 5000 ms", lambda n: ("SuggestMove: Kraby, 5000 ms", suggest)),
        ("Playouts of 10,000 at the highest rage", lambda n: p.playouts[n % len(p.playouts)]),
        (
            "SampleState",
            lambda n: ("SampleState: a view", sample_request(p.views[n % len(p.views)], n + 1)),
        ),
    ]
    tasks = []
    for number, (name, requests) in enumerate(kinds):
        tally = ctx.tally(f"{name}, no deadline", each)
        for i in range(each):
            channel = await ctx.channel(number * each + i)
            tasks.append(closed_loop(channel, requests, ctx.stop_at, tally, BOUND, None))
    return tasks


# ----- 7. idle connections to the metrics port, then SuggestMove and Replay -----

# A thread each on a server whose metrics port starts one per connection: about 380 exhaust a
# 4 GiB address space (8 MiB of stack each); 350 left a few threads to spare on some runs.
IDLE_METRICS = 400


async def idle_metrics(ctx: Context, tally: Tally, index: int, opening: asyncio.Semaphore) -> None:
    assert ctx.metrics_port is not None
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        # One at a time, a little apart: the server's backlog may be 5.
        opened = await paced_connect(opening, ctx.metrics_port, ctx.address(index), 0.002)
        if isinstance(opened, str):
            tally.saw(opened)
            await asyncio.sleep(min(1.0, time_left(ctx.stop_at)))
            continue
        reader, writer = opened
        start = time.monotonic()
        answer = await read_answer(reader, time_left(ctx.stop_at))
        close(writer)
        if answer == "no answer in time":
            tally.saw("still open at the end")
            return
        tally.saw(
            answer if isinstance(answer, str) else f"HTTP {answer.status}", time.monotonic() - start
        )
        await asyncio.sleep(0.1)  # closed at once: open it again, without spinning


async def scrape_metrics(ctx: Context, tally: Tally, index: int) -> None:
    """Prometheus' scrape, once a second: does the metrics port still answer?"""
    head = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    for _ in range(BOUND):
        if not time_left(ctx.stop_at):
            return
        start = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    "127.0.0.1", ctx.metrics_port, local_addr=(ctx.address(index), 0)
                ),
                5,
            )
            writer.write(head)
            answer = await read_answer(reader, 5.0)
            close(writer)
            code = answer if isinstance(answer, str) else f"HTTP {answer.status}"
        except (OSError, TimeoutError) as error:
            code = f"connect failed: {type(error).__name__}"
        tally.saw(code, time.monotonic() - start)
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - start)))


def replay_request(case_index: int) -> bytes:
    """A whole recorded game as a ReplayRequest: its new game and every move."""
    from crabgames.v1 import rules_service_pb2 as api
    from tests.fuzzing import recorded

    record = recorded(case_index, 1)
    new_game = api.NewGameRequest(
        num_players=record.num_players, seed=record.seed, chance_mode=record.chance_mode
    )
    getattr(new_game, record.game_id).CopyFrom(record.options)
    return api.ReplayRequest(new_game=new_game, moves=record.moves).SerializeToString()


async def launch_idle_metrics(ctx: Context) -> list[Awaitable[None]]:
    from tests.fuzzing import CASES

    count = ctx.count(IDLE_METRICS)
    idle = ctx.tally("idle connections to the metrics port", count)
    opening = asyncio.Semaphore(1)  # one at a time, as a backlog of 5 can take them
    replay = replay_request(next(i for i, c in enumerate(CASES) if c[:2] == ("kraby", 3)))
    suggest = suggest_request(ctx.payloads.states["kraby"], 100)
    calls = ctx.tally("SuggestMove (100 ms) and Replay beside them", 4)
    requests = [lambda n: ("SuggestMove: 100 ms", suggest), lambda n: ("Replay: Kraby", replay)]
    channels = [await ctx.channel(count + i) for i in range(4)]
    # The calls start once the idle connections have had time to be accepted (a server busy
    # starting a thread for each takes seconds): a pool's threads started before then exist.
    later = time_left(ctx.stop_at) / 4

    async def calls_later(i: int) -> None:
        await asyncio.sleep(later)
        await closed_loop(channels[i], requests[i % 2], ctx.stop_at, calls, BOUND, 10.0)

    scrapes = ctx.tally("metrics scrapes, one a second", 1)
    return [
        *(idle_metrics(ctx, idle, i, opening) for i in range(count)),
        *(calls_later(i) for i in range(4)),
        scrape_metrics(ctx, scrapes, count + 4),
    ]


# ----- 8. one caller making NewGame as fast as it can, with the ledger on -----


async def launch_ledger_flood(ctx: Context) -> list[Awaitable[None]]:
    from crabgames.v1 import kraby_pb2
    from crabgames.v1 import rules_service_pb2 as api

    request = api.NewGameRequest(num_players=3, kraby=kraby_pb2.KrabyOptions())
    data = request.SerializeToString()
    channel = await ctx.channel(0)  # one caller: one address, one connection
    in_flight = 4
    tally = ctx.tally(f"NewGame as fast as one caller can ({in_flight} at a time)", 1)
    players = ctx.count(10)
    thinking = ctx.tally(f"well-behaved players thinking {THINKING[0]}-{THINKING[-1]} s", players)
    thinking.good = True
    good_channel = ctx.direct_channel()
    return [
        *(
            closed_loop(channel, lambda n: ("NewGame: Kraby", data), ctx.stop_at, tally, BOUND, 10)
            for _ in range(in_flight)
        ),
        *(
            thinking_player(ctx, thinking, good_channel, THINKING[i % len(THINKING)])
            for i in range(players)
        ),
    ]


# Seconds a human player of a sealed game may think before moving: the good client moves at
# once, so only players like these show whether a flood of new games pushes games in play out.
THINKING = (2, 5, 10, 20, 30)


async def thinking_player(ctx: Context, tally: Tally, channel, think: float) -> None:
    """Sealed 3-player Kraby games from 127.0.0.1, each move `think` seconds after the last."""
    from crabgames.v1 import game_pb2, kraby_pb2
    from crabgames.v1 import rules_service_pb2 as api
    from crabgames.v1 import rules_service_pb2_grpc as api_grpc
    from tests.playthrough import pick

    stub = api_grpc.RulesServiceStub(channel)
    rng = random.Random(think)
    request = api.NewGameRequest(num_players=3, kraby=kraby_pb2.KrabyOptions())
    for _ in range(BOUND):
        started = await good_call(tally, "NewGame", stub.NewGame, request, ctx.stop_at)
        if started is None:
            return
        state, tokens = started.state, list(started.player_tokens)
        while state.next.kind != game_pb2.DECIDER_KIND_NONE:
            await asyncio.sleep(min(think, time_left(ctx.stop_at)))
            token = tokens[state.next.player] if tokens else ""
            asked = api.LegalMovesRequest(state=state, player_token=token)
            legal = await good_call(tally, "LegalMoves", stub.LegalMoves, asked, ctx.stop_at)
            if legal is None:
                break
            move = api.ApplyMoveRequest(
                state=state, move=pick(rng, list(legal.moves)), player_token=token
            )
            applied = await good_call(tally, "ApplyMove", stub.ApplyMove, move, ctx.stop_at)
            if applied is None:
                break
            state = applied.state
        if not time_left(ctx.stop_at):
            return


async def good_call(tally: Tally, name: str, method, request, stop_at: float):
    """A well-behaved call (2 s deadline) before stop_at: its answer, or None."""
    import grpc

    if not time_left(stop_at):
        return None
    start = time.monotonic()
    try:
        answer = await method(request, timeout=2.0)
    except grpc.aio.AioRpcError as error:
        tally.saw(error.code().name, time.monotonic() - start)
        if "not in the freshness ledger" in (error.details() or ""):
            tally.detail["ABORTED not in the freshness ledger"] += 1
        if len(tally.failures) < 20:
            tally.failures.append(f"{name}: {error.code().name} {error.details()}"[:300])
        return None
    tally.saw("OK", time.monotonic() - start)
    return answer


# ----- 9. a compressed message without its encoding (gRPC-Web, Connect streaming) -----


async def launch_compressed_unannounced(ctx: Context) -> list[Awaitable[None]]:
    from crabgames.v1 import kraby_pb2
    from crabgames.v1 import rules_service_pb2 as api

    new_game = api.NewGameRequest(num_players=3, kraby=kraby_pb2.KrabyOptions())
    packed = grpc_frame(gzip.compress(new_game.SerializeToString()), compressed=True)
    web = http_request(
        "POST",
        SERVICE + "NewGame",
        {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"},
        packed,
    )
    stream = http_request(
        "POST", SERVICE + "ApplyMoves", {"Content-Type": "application/connect+proto"}, packed
    )
    a = ctx.tally("gRPC-Web, compressed flag, no grpc-encoding", 1)
    b = ctx.tally("Connect stream, compressed flag, no Connect-Content-Encoding", 1)
    return [
        http_calls(ctx, a, 0, lambda n: ("NewGame", web), wait=10.0),
        http_calls(ctx, b, 1, lambda n: ("ApplyMoves", stream), wait=10.0),
    ]
