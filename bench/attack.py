"""`make attack`: an adversarial campaign against a real server process on loopback (issues 13
and 27), each attack beside a well-behaved gRPC client and a well-behaved Connect client.

Every attack is a named run (`--only NAME`; `make attack` runs them all, one server each):

- issue-13, issue-13-sealed: the campaign of issue 13, all at once: idle `ApplyMoves` streams,
  unary calls whose body never comes, maximum-cost `Playouts`, padded states, oversized
  requests and fuzzed views for `SampleState`; without sealing, then with it.
- endless-url, endless-header, endless-256: one connection to the HTTP port sending a request
  line (or a header value) 64 KiB at a time without end; 256 connections doing either.
- json-replay: a 4 MiB Connect JSON `Replay` of 1.4 million `{}` moves, 2 callers in a loop.
- free-calls: 11 connections x 100 `ApplyMoves` streams of HEADERS only, unary calls whose body
  never comes (raw HTTP/2), and Connect calls over HTTP whose body never comes.
- gzip-held, gzip-loop: a gRPC message of 4 MiB of `0a 00`, gzip-compressed (about 4 KB), for
  `Replay` and `ScoreCrabRageSeason`: 24 calls never half-closed; 6 callers sending it in a loop.
- slow-headers: 2,100 connections to the HTTP port trickling a header byte every 2-4 s.
- long-calls: 24 callers of `SuggestMove` (5 s), `Playouts` (10,000 at the highest rage) and
  `SampleState` with no deadline.
- idle-metrics: 350 idle connections to the metrics port, then `SuggestMove` and `Replay`.
- ledger-flood: one caller making `NewGame` as fast as it can, sealing and the freshness ledger
  on (a real redis-server with 2 MB of maxmemory, volatile-ttl); games lost from the ledger
  are counted.
- compressed-unannounced: a compressed gRPC-Web message without grpc-encoding (and a Connect
  stream's without Connect-Content-Encoding).

Attackers connect from 127.0.K.P, the well-behaved clients from 127.0.0.1: a server limiting
each peer tells them apart. For each run it reports the server's peak RSS (its process tree),
the clients' calls, failures and latency, and every status code; prints a markdown table,
writes JSON (--out) and exits non-zero when a goal is missed: the server alive, peak RSS under
256 MiB, no failed call of either well-behaved client, the gRPC client's p99 under 50 ms (250 ms
beside long calls), no UNKNOWN or INTERNAL anywhere. Every loop is bounded in count and time
(CRABGAMES_ATTACK_SECONDS, default 60 s a run); all traffic is to 127.0.0.0/8.

    .venv/bin/python -m bench.attack [--seconds 60] [--scale 1.0] [--only NAME,...] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import queue
import random
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bench import attack_kinds as kinds
from bench.attack_connect import connect_client_process
from bench.attack_kinds import BOUND, Context, Tally, asdict_tally, closed_loop
from bench.attack_server import (  # capped_server_command: tests/fuzzing.py's too
    MemoryWatch,
    Server,
    capped_server_command,
    ledger_store,
    start_server,
    stop_server,
    tree_cpu_seconds,
    tree_kib,
)
from bench.attack_wire import (
    HOST,
    SERVICE,
    Relay,
    attacker_address,
    grpc_code_name,
    raise_open_files,
)

CLIENT_DEADLINE = 2.0
GOAL_RSS_MIB = 256.0
GOAL_P99_MS = 50.0  # the well-behaved gRPC client beside the slow attacks
GOAL_P99_LONG_MS = 250.0  # ... and beside long calls
BAD_CODES = ("UNKNOWN", "INTERNAL", "HTTP 500")
PAD_FIELD = 2**29 - 1  # the largest protobuf field number: unknown to every message
PEERS = 8  # source addresses the connections of one attack are spread over
LEDGER_LOST = "ABORTED not in the freshness ledger"

# Attackers of each kind of issue 13's campaign at --scale 1.
ATTACKERS = {
    "idle streams": 64,
    "withheld bodies": 8,
    "max-cost playouts": 8,
    "padded states": 2,
    "oversized": 1,
    "fuzzed views": 2,
}


# ---------------------------------------------------------------------------------------------
# Wire helpers: requests are built as bytes so padding and oversized fields need no schema.


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field_bytes(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def varint_field(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def padded(message: bytes, size: int, marker: int) -> bytes:
    """`message` with an unknown field of `size` bytes, distinct per `marker` so no two padded
    states are the same bytes (a cache keyed by bytes sees each as new)."""
    head = marker.to_bytes(8, "little")
    return message + field_bytes(PAD_FIELD, head + bytes(max(0, size - len(head))))


# ---------------------------------------------------------------------------------------------
# Payloads: built in the attacker process from real games (in-process engine and the server).


@dataclass
class Payloads:
    states: dict[str, bytes]  # game id -> a mid-game state the server issued
    views: list[bytes]  # players' views to mutate for SampleState
    bombs: list[bytes]  # SampleState requests with huge or negative counts (issue 13 item 1)
    playouts: list[tuple[str, bytes]]  # the costliest Playouts requests found (count 10000)
    oversized: list[tuple[str, bytes]]  # (method, request) with oversized fields


def build_payloads(stub, sealed: bool) -> Payloads:
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api
    from tests.fuzzing import CASES, ENGINE, recorded

    states: dict[str, bytes] = {}
    views: list[bytes] = []
    for index, (game_id, players, _) in enumerate(CASES):
        record = recorded(index, 1)
        middle = record.states[len(record.states) // 2]
        views.extend(ENGINE.view(middle, seat).SerializeToString() for seat in range(players))
        if game_id not in states:
            states[game_id] = server_state(stub, api, game_id, record, sealed)
    bombs = view_bombs(ENGINE, CASES, recorded, api)
    playouts = costliest_playouts(stub, api, game_pb2, ENGINE, CASES, recorded)
    oversized = oversized_requests(api, states, CASES)
    return Payloads(states, views, bombs, playouts, oversized)


def server_state(stub, api, game_id: str, record, sealed: bool) -> bytes:
    """A state of `game_id` as the server issues it (sealed on a sealing server): a new game
    played a few moves on by the server."""
    from crabgames.v1 import game_pb2

    request = api.NewGameRequest(num_players=record.num_players)
    getattr(request, game_id).CopyFrom(record.options)
    response = stub.NewGame(request, timeout=10)
    state, tokens = response.state, response.player_tokens
    rng = random.Random(7)
    for _ in range(6):
        if state.next.kind != game_pb2.DECIDER_KIND_PLAYER:
            break
        token = tokens[state.next.player] if sealed and tokens else ""
        moves = stub.LegalMoves(api.LegalMovesRequest(state=state, player_token=token), timeout=10)
        move = rng.choice(list(moves.moves))
        state = stub.ApplyMove(
            api.ApplyMoveRequest(state=state, move=move, player_token=token), timeout=10
        ).state
    return state.SerializeToString()


def view_bombs(engine, cases, recorded, api) -> list[bytes]:
    """SampleState requests whose views claim huge or negative counts (issue 13 item 1)."""
    index = next(i for i, case in enumerate(cases) if case[0] == "crab_bucket")
    record = recorded(index, 1)
    base = engine.view(record.states[len(record.states) // 2], 0)
    bombs = []
    for path, value in [
        ("piles.0.height", 2 * 10**7),
        ("piles.0.height", 2**31 - 1),
        ("hand_sizes.1", 2**31 - 1),
        ("oxi_discarded", -(2**31)),
        ("oxi_set_aside", -5),
        ("draw_pile_size", 2**31 - 1),
        ("mission_pile_sizes.0", 2**31 - 1),
    ]:
        view = type(base)()
        view.CopyFrom(base)
        set_path(view.crab_bucket, path, value)
        bombs.append(api.SampleStateRequest(view=view, seed=1).SerializeToString())
    return bombs


def set_path(message, path: str, value: int) -> None:
    *parents, last = path.split(".")
    for part in parents:
        message = message[int(part)] if part.isdigit() else getattr(message, part)
    if last.isdigit():
        message[int(last)] = value
    else:
        setattr(message, last, value)


def costliest_playouts(stub, api, game_pb2, engine, cases, recorded) -> list[tuple[str, bytes]]:
    """Playouts of 10000 games from the costliest states this server accepts: CRAB RAGE! with
    every manager's rage as high as the engine takes (rage re-rolls), and each game's first
    state. On a sealing server a state reaches Playouts only as sampled by the server, so each
    goes through SampleState from a view first; the full state is also sent as it is."""
    found = []
    for index, (game_id, players, _) in enumerate(cases):
        if game_id != "crab_rage" or players != 5:
            continue
        record = recorded(index, 1)
        for number, state in enumerate(record.states[1:40:8]):
            raged = highest_rage(engine, state)
            rage = raged.crab_rage.players[0].rage
            found.append((f"crab_rage state {1 + 8 * number}, rage {rage}", raged))
        break
    seen_games = set()
    for index, (game_id, _, _) in enumerate(cases):
        if game_id not in seen_games:
            seen_games.add(game_id)
            found.append((f"{game_id} first state", recorded(index, 1).states[0]))
    requests = []
    for label, state in found:
        request = api.PlayoutsRequest(state=state, count=10000, seed=1).SerializeToString()
        requests.append((f"Playouts: {label}", request))
        # A seat that does not decide now: the decider's view lists its moves, refused when
        # there are too many (a Smash at the highest rage offers every X).
        deciding = state.next.player if state.next.kind == game_pb2.DECIDER_KIND_PLAYER else -1
        seat = (deciding + 1) % state.num_players
        try:
            view = engine.view(state, seat)
            sampled = stub.SampleState(api.SampleStateRequest(view=view, seed=3), timeout=10)
        except Exception:  # noqa: BLE001 (a refused view: the full state is still tried)
            continue
        request = api.PlayoutsRequest(state=sampled.state, count=10000, seed=1)
        requests.append((f"Playouts: {label}, sampled", request.SerializeToString()))
    return requests


def highest_rage(engine, state):
    """`state` with every manager's rage at the largest value the engine accepts."""
    from crabgames.core.errors import RulesError

    def with_rage(rage: int):
        copy = type(state)()
        copy.CopyFrom(state)
        for player in copy.crab_rage.players:
            player.rage = rage
        return copy

    low, high = 0, 2**31 - 1
    while low < high:  # the largest accepted rage, by bisection (31 decodes)
        middle = (low + high + 1) // 2
        try:
            engine.decode(with_rage(middle))
            low = middle
        except RulesError:
            high = middle - 1
    return with_rage(low)


def oversized_requests(api, states: dict[str, bytes], cases) -> list[tuple[str, bytes]]:
    """Requests with a field at or past a limit: near and over the 4 MiB message limit, long
    rules versions (echoed in errors, issue 13 item 8), a version at 2^64-1 (item 5), options
    with huge decks and lists (item 8)."""
    from crabgames.v1 import crab_bucket_pb2, crab_rage_pb2, game_pb2

    kraby = states["kraby"]
    out = [
        (
            "GetView: state padded to just under 4 MiB",
            field_bytes(1, padded(kraby, 4 * 1024**2 - 4096, 1)) + varint_field(3, 1),
        ),
        (
            "GetView: state padded to 5 MiB",
            field_bytes(1, padded(kraby, 5 * 1024**2, 2)) + varint_field(3, 1),
        ),
    ]
    for length in (6000, 3_500_000):
        state = game_pb2.GameState.FromString(kraby)
        state.rules_version = "v" * length
        request = api.GetViewRequest(state=state, spectator=True).SerializeToString()
        out.append((f"GetView: rules_version of {length} characters", request))
    state = game_pb2.GameState.FromString(kraby)
    state.version = 2**64 - 1
    request = api.GetViewRequest(state=state, spectator=True).SerializeToString()
    out.append(("GetView: version 2^64-1", request))
    out.append(
        (
            "LegalMoves: version 2^64-1",
            api.LegalMovesRequest(state=state).SerializeToString(),
        )
    )
    mission = next(o for g, _, o in cases if g == "crab_bucket" and o.missions).missions[0]
    for name_length, copies in [(50_000, 18), (200_000, 18), (1000, 3000)]:
        options = crab_bucket_pb2.CrabBucketOptions()
        for i in range(copies):
            options.missions.add().CopyFrom(mission)
            options.missions[-1].name = f"{i}" + "m" * name_length
        request = api.NewGameRequest(num_players=5, crab_bucket=options)
        label = f"NewGame: {copies} Crab Bucket missions, names of {name_length}"
        out.append((label, request.SerializeToString()))
    rage = crab_rage_pb2.CrabRageOptions(teams=[1] * 100_000, signature_moves=[1] * 100_000)
    card = rage.fanbase_cards.add()
    card.rewards.add(rage=2**31 - 1, fans=2**31 - 1)
    request = api.NewGameRequest(num_players=5, crab_rage=rage).SerializeToString()
    out.append(("NewGame: CRAB RAGE! options with 100000 teams and moves", request))
    return out


def padded_request(states: dict[str, bytes], marker: int) -> tuple[str, bytes]:
    """Each game's issued state with a 1 MB unknown field, for calls that need no token: a
    spectator's GetView, and LegalMoves (refused without a token on a sealing server)."""
    games = sorted(states)
    body = padded(states[games[marker % len(games)]], 1024**2, marker)
    if marker // len(games) % 2:
        return f"LegalMoves: {games[marker % len(games)]}", field_bytes(1, body)
    return f"GetView: {games[marker % len(games)]}", field_bytes(1, body) + varint_field(3, 1)


# ---------------------------------------------------------------------------------------------
# The attacker process: every attack at once, on one asyncio loop (grpc.aio and raw HTTP/2).
async def idle_stream(channel, stop_at: float, tally: Tally, max_calls: int) -> None:
    """An ApplyMoves stream that never sends a message; reopened when the server ends it."""
    import grpc

    method = channel.stream_stream(
        SERVICE + "ApplyMoves", request_serializer=bytes, response_deserializer=bytes
    )
    for _ in range(max_calls):
        if time.monotonic() >= stop_at:
            return
        call = method()  # no request iterator: nothing is ever written
        start = time.monotonic()
        try:
            message = await asyncio.wait_for(
                call.read(), timeout=max(0.01, stop_at - time.monotonic())
            )
            if message is grpc.aio.EOF:
                tally.saw((await call.code()).name, time.monotonic() - start)
            else:
                tally.saw("a message on an idle stream", time.monotonic() - start)
        except TimeoutError:
            call.cancel()
            tally.saw("still open at the end")
            return
        except grpc.aio.AioRpcError as error:
            tally.saw(error.code().name, time.monotonic() - start)
        if call.done():
            continue
        call.cancel()


async def withheld_body(
    port: int, source: str, stop_at: float, tally: Tally, max_calls: int
) -> None:
    """Unary calls on a raw HTTP/2 connection from `source`: the request's headers, and never
    its body."""
    import h2.config
    import h2.connection
    import h2.events

    methods = ["NewGame", "LegalMoves", "ApplyMove", "Playouts", "SampleState", "GetView"]
    for attempt in range(max_calls):
        if time.monotonic() >= stop_at:
            return
        start = time.monotonic()
        reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        stream = conn.get_next_available_stream_id()
        headers = [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", SERVICE + methods[attempt % len(methods)]),
            (":authority", f"{HOST}:{port}"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
        ]
        conn.send_headers(stream, headers, end_stream=False)
        writer.write(conn.data_to_send())
        outcome = await h2_outcome(reader, writer, conn, stop_at)
        writer.close()
        tally.saw(outcome, None if outcome == "still open at the end" else time.monotonic() - start)
        if outcome == "still open at the end":
            return


async def h2_outcome(reader, writer, conn, stop_at: float) -> str:
    """How the server ended the withheld call: a grpc-status, RST_STREAM, GOAWAY or a close."""
    import h2.events

    while True:
        left = stop_at - time.monotonic()
        if left <= 0:
            return "still open at the end"
        try:
            data = await asyncio.wait_for(reader.read(65536), timeout=left)
        except TimeoutError:
            return "still open at the end"
        except ConnectionError:
            return "connection reset"
        if not data:
            return "connection closed"
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived | h2.events.TrailersReceived):
                status = dict(event.headers).get(b"grpc-status")
                if status is not None:
                    return grpc_code_name(int(status))
            elif isinstance(event, h2.events.StreamReset):
                return f"RST_STREAM {event.error_code!s}"
            elif isinstance(event, h2.events.ConnectionTerminated):
                return f"GOAWAY {event.error_code!s}"
        writer.write(conn.data_to_send())  # settings and ping acknowledgements


def fuzzed_view(views: list[bytes], bombs: list[bytes], rng: random.Random) -> tuple[str, bytes]:
    """A SampleState request: one of the bombs now and then, else a view with a few random
    mutations (tests/mutate.py's edge values, drawn with a plain PRNG: cheap on the client)."""
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api

    if rng.random() < 0.1:
        return "SampleState: huge count", rng.choice(bombs)
    view = game_pb2.View.FromString(rng.choice(views))
    for _ in range(rng.randint(1, 3)):
        mutate_randomly(view, rng)
    return "SampleState: mutated view", api.SampleStateRequest(
        view=view, seed=rng.getrandbits(64)
    ).SerializeToString()


def mutate_randomly(message, rng: random.Random) -> None:
    from google.protobuf.descriptor import FieldDescriptor as F

    from tests.mutate import LIMITS, SMALL, slots

    slot = rng.choice(slots(message))
    parent, fd = slot.parent, slot.field
    if fd.type == F.TYPE_MESSAGE:
        if fd.is_repeated:
            values = getattr(parent, fd.name)
            if values and rng.random() < 0.5:
                del values[rng.randrange(len(values))]
            elif not fd.message_type.GetOptions().map_entry:
                values.add()
        elif parent.HasField(fd.name):
            parent.ClearField(fd.name)
        return
    value: Any
    if fd.type == F.TYPE_BOOL:
        value = rng.random() < 0.5
    elif fd.type == F.TYPE_STRING:
        value = rng.choice(["", "x", "é" * 300])
    elif fd.type == F.TYPE_BYTES:
        value = rng.randbytes(rng.randint(0, 40))
    elif fd.type in (F.TYPE_DOUBLE, F.TYPE_FLOAT):
        value = rng.choice([0.0, -1.0, float("inf"), float("nan")])
    elif fd.type == F.TYPE_ENUM:
        value = rng.randint(-3, 40)
    else:
        low, high = next(limits for kinds, limits in LIMITS.items() if fd.type in kinds)
        value = rng.choice([rng.randint(low, high), low, high, *[v for v in SMALL if v >= low]])
    if fd.is_repeated:
        values = getattr(parent, fd.name)
        if values and rng.random() < 0.6:
            values[rng.randrange(len(values))] = value
        else:
            values.extend([value] * rng.choice([1, 1, 2, 100]))
    else:
        setattr(parent, fd.name, value)


async def launch_issue13(ctx: Context) -> list[Awaitable[None]]:
    """Issue 13's campaign: every kind at once, on 8 connections (8 addresses)."""
    counts = {kind: ctx.count(n) for kind, n in ATTACKERS.items()}
    tally = {kind: ctx.tally(kind, n) for kind, n in counts.items()}
    channels = [await ctx.channel(i) for i in range(8)]
    p, stop_at = ctx.payloads, ctx.stop_at
    rng = random.Random(13)
    marker = iter(range(BOUND * 10))
    tasks: list[Awaitable[None]] = [
        idle_stream(channels[i % 8], stop_at, tally["idle streams"], BOUND)
        for i in range(counts["idle streams"])
    ]
    tasks += [
        withheld_body(ctx.grpc_port, ctx.address(i), stop_at, tally["withheld bodies"], BOUND)
        for i in range(counts["withheld bodies"])
    ]
    for i in range(counts["max-cost playouts"]):
        # Half give up after 1 s (the work they leave must stop), half wait 30 s.
        requests = lambda n, i=i: p.playouts[(n + i) % len(p.playouts)]  # noqa: E731
        timeout = 1.0 if i % 2 else 30.0
        tasks.append(
            closed_loop(
                channels[i % 8], requests, stop_at, tally["max-cost playouts"], BOUND, timeout
            )
        )
    loops: list[tuple[str, Callable[[int], tuple[str, bytes]]]] = [
        ("padded states", lambda n: padded_request(p.states, next(marker))),
        ("oversized", lambda n: p.oversized[n % len(p.oversized)]),
        ("fuzzed views", lambda n: fuzzed_view(p.views, p.bombs, rng)),
    ]
    for kind, requests in loops:
        tasks += [
            closed_loop(channels[i % 8], requests, stop_at, tally[kind], BOUND, 30.0)
            for i in range(counts[kind])
        ]
    return tasks


async def launch_nothing(ctx: Context) -> list[Awaitable[None]]:
    """The baseline: the well-behaved clients alone, for their calls and latency unattacked."""
    return []


# ---------------------------------------------------------------------------------------------
# Every attack, by name: what it needs of the server, and the good client's p99 goal beside it.


@dataclass(frozen=True)
class Attack:
    name: str  # --only NAME
    launch: Callable[[Context], Awaitable[list[Awaitable[None]]]]
    long_calls: bool = False  # the good gRPC client's p99 goal is GOAL_P99_LONG_MS beside it
    payloads: bool = False  # needs states, views and requests built from real games first
    sealed: bool = False  # the server seals states (CRABGAMES_SEAL_KEYS)
    ledger: bool = False  # ... and keeps the freshness ledger in a real redis-server
    metrics: bool = False  # the server serves metrics (--metrics-address)


ATTACKS = {
    attack.name: attack
    for attack in [
        Attack("baseline", launch_nothing),
        Attack("issue-13", launch_issue13, long_calls=True, payloads=True),
        Attack("issue-13-sealed", launch_issue13, long_calls=True, payloads=True, sealed=True),
        Attack("endless-url", kinds.endless_launcher(header=False, connections=1)),
        Attack("endless-header", kinds.endless_launcher(header=True, connections=1)),
        Attack("endless-256", kinds.endless_launcher(header=False, connections=256)),
        Attack("json-replay", kinds.launch_json_replay),
        Attack("free-calls", kinds.launch_free_calls),
        Attack("gzip-held", kinds.gzip_launcher(held=True)),
        Attack("gzip-loop", kinds.gzip_launcher(held=False)),
        Attack("slow-headers", kinds.launch_slow_headers),
        Attack("long-calls", kinds.launch_long_calls, long_calls=True, payloads=True),
        Attack("idle-metrics", kinds.launch_idle_metrics, payloads=True, metrics=True),
        Attack("ledger-flood", kinds.launch_ledger_flood, sealed=True, ledger=True),
        Attack("compressed-unannounced", kinds.launch_compressed_unannounced),
    ]
}


# ---------------------------------------------------------------------------------------------
# The attacker process: the chosen attacks at once, on one asyncio loop.


async def attack(
    target: dict, names: list[str], seconds: float, scale: float, peers: int, go, results
) -> None:
    raise_open_files()
    chosen = [ATTACKS[name] for name in names]
    payloads = None
    if any(a.payloads for a in chosen):
        payloads = await payloads_through_relay(target["grpc_port"], target["sealed"])
    results.put(("ready", None))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    cpu_at_start = time.process_time()
    stop_at = time.monotonic() + seconds
    numbers = list(ATTACKS)  # an attack's number gives its addresses: the same in every run
    contexts = [
        Context(
            target["grpc_port"],
            target["http_port"],
            target["metrics_port"],
            stop_at,
            scale,
            peers,
            numbers.index(a.name),
            payloads,
        )
        for a in chosen
    ]
    tasks = [task for a, ctx in zip(chosen, contexts, strict=True) for task in await a.launch(ctx)]
    stuck = await run_bounded(tasks, seconds + 45, results)
    summary: dict[str, Any] = {}
    for ctx in contexts:
        await ctx.close()
        summary.update({name: tally_summary(t) for name, t in ctx.tallies.items()})
    if stuck:
        summary["attackers stuck past the bound"] = tally_summary(Tally(attackers=stuck))
    results.put(("attacks", summary))
    results.put(("attacker_cpu_seconds", round(time.process_time() - cpu_at_start, 1)))


async def run_bounded(tasks: list[Awaitable[None]], seconds: float, results) -> int:
    """Run the attackers; every one stops by itself, and this bounds a call stuck past its own
    deadline too. How many had to be cancelled; the first attacker's error is reported."""
    running = [asyncio.ensure_future(task) for task in tasks]
    stuck: set[asyncio.Future] = set()
    if running:
        _, stuck = await asyncio.wait(running, timeout=seconds)
    for task in stuck:
        task.cancel()
    for task in running:
        if task.done() and not task.cancelled() and task.exception():
            results.put(("attacks-error", repr(task.exception())))
            break
    return len(stuck)


async def payloads_through_relay(port: int, sealed: bool) -> Payloads:
    """Payloads built from the server's own games, asked from an attacker's address."""
    import grpc

    from crabgames.v1 import rules_service_pb2_grpc as api_grpc

    relay = Relay(port, attacker_address(0, 252))
    relay_port = await relay.start()

    def build() -> Payloads:
        with grpc.insecure_channel(f"{HOST}:{relay_port}") as channel:
            return build_payloads(api_grpc.RulesServiceStub(channel), sealed)

    try:
        return await asyncio.get_running_loop().run_in_executor(None, build)
    finally:
        relay.close()


def attacker_process(target, names, seconds, scale, peers, go, results) -> None:
    try:
        asyncio.run(attack(target, names, seconds, scale, peers, go, results))
    except BaseException as error:  # noqa: BLE001 (reported, so the campaign is not silent)
        results.put(("attacks-error", repr(error)))


# ---------------------------------------------------------------------------------------------
# The well-behaved client process: full games of every title, every call with a 2 s deadline.


def client_process(port: int, seconds: float, go, results) -> None:
    try:
        tally = play_well(port, seconds, go, results)
        results.put(("client", asdict_tally(tally)))
        results.put(("client_cpu_seconds", round(time.process_time() - tally.cpu_at_start, 1)))
    except BaseException as error:  # noqa: BLE001
        results.put(("client-error", repr(error)))


def play_well(port: int, seconds: float, go, results) -> Tally:
    """Every title at once, one game after another on a thread each (one connection), so each
    title gets full games even when the server is slowed down; the tallies merged."""
    import grpc

    from tests.fuzzing import CASES

    tallies = {title: Tally() for title in sorted({case[0] for case in CASES})}
    with grpc.insecure_channel(f"{HOST}:{port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=15)
        results.put(("ready", None))
        go.wait()
        cpu_at_start = time.process_time()
        stop_at = time.monotonic() + seconds
        threads = [
            threading.Thread(target=play_title, args=(channel, title, CASES, stop_at, tally))
            for title, tally in tallies.items()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + 60)
    merged = Tally(cpu_at_start=cpu_at_start)
    for tally in tallies.values():
        merged.calls += tally.calls
        merged.codes.update(tally.codes)
        merged.latencies += tally.latencies
        merged.failures += tally.failures
        merged.games.update(tally.games)
    return merged


def play_title(channel, title: str, cases, stop_at: float, tally: Tally) -> None:
    """Games of `title` (each of its cases in turn) until stop_at, a health check before each."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from crabgames.v1 import rules_service_pb2_grpc as api_grpc

    stub = api_grpc.RulesServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    rng = random.Random(title)
    title_cases = [case for case in cases if case[0] == title]
    for number in range(100_000):  # bounded: a game is at least a few calls
        if time.monotonic() >= stop_at:
            return
        timed(tally, "Health.Check", health.Check, health_pb2.HealthCheckRequest())
        _, players, options = title_cases[number % len(title_cases)]
        if play_game(stub, tally, rng, title, players, options, stop_at):
            tally.games[title] += 1


def timed(tally: Tally, name: str, method, request):
    """One well-behaved call with the 2 s deadline; None (and a recorded failure) if it fails."""
    import grpc

    start = time.perf_counter()
    try:
        response = method(request, timeout=CLIENT_DEADLINE)
    except grpc.RpcError as error:
        tally.saw(error.code().name, time.perf_counter() - start)
        if "not in the freshness ledger" in (error.details() or ""):
            tally.detail[LEDGER_LOST] += 1
        if len(tally.failures) < 20:
            tally.failures.append(f"{name}: {error.code().name} {error.details()}"[:300])
        return None
    tally.saw("OK", time.perf_counter() - start)
    return response


def play_game(stub, tally: Tally, rng, game_id: str, players: int, options, stop_at) -> bool:
    """Play one game to its end (or to stop_at); whether it ended, every call answered."""
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api
    from tests.playthrough import pick

    request = api.NewGameRequest(num_players=players)
    getattr(request, game_id).CopyFrom(options)
    response = timed(tally, "NewGame", stub.NewGame, request)
    if response is None:
        return False
    state, tokens = response.state, list(response.player_tokens)
    moves = 0
    while state.next.kind != game_pb2.DECIDER_KIND_NONE and time.monotonic() < stop_at:
        token = tokens[state.next.player] if tokens else ""
        moves += 1
        if moves == 5:  # a bot's search step: its own view, and a state sampled from it
            view = timed(
                tally,
                "GetView",
                stub.GetView,
                api.GetViewRequest(state=state, player=state.next.player, player_token=token),
            )
            if view is None:
                return False
            timed(tally, "SampleState", stub.SampleState, api.SampleStateRequest(view=view.view))
        legal = timed(
            tally,
            "LegalMoves",
            stub.LegalMoves,
            api.LegalMovesRequest(state=state, player_token=token),
        )
        if legal is None:
            return False
        applied = timed(
            tally,
            "ApplyMove",
            stub.ApplyMove,
            api.ApplyMoveRequest(
                state=state,
                move=pick(rng, list(legal.moves)),
                player_token=token,
                expected_version=state.version,
            ),
        )
        if applied is None:
            return False
        state = applied.state
    if state.next.kind != game_pb2.DECIDER_KIND_NONE:
        return False  # the campaign ended first
    seat = rng.randrange(players)
    final = timed(
        tally,
        "GetView",
        stub.GetView,
        api.GetViewRequest(state=state, player=seat, player_token=tokens[seat] if tokens else ""),
    )
    return final is not None


# ---------------------------------------------------------------------------------------------
# The orchestrator: one server per run, its memory watched, both processes started together.


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def tally_summary(tally: Tally) -> dict:
    return {
        "attackers": tally.attackers,
        "calls": tally.calls,
        "codes": dict(tally.codes.most_common()),
        "p50_ms": round(1000 * percentile(tally.latencies, 0.5), 1),
        "max_ms": round(1000 * max(tally.latencies, default=0.0), 1),
        "by_payload": dict(sorted(tally.detail.items())),
        "good": tally.good,
        "p99_ms": round(1000 * percentile(tally.latencies, 0.99), 1),
        "failures": tally.failures[:5],
    }


# ---------------------------------------------------------------------------------------------
# The orchestrator: one server per run, its memory watched, the three processes started together.

WANTED = (
    "attacks",
    "attacker_cpu_seconds",
    "client",
    "client_cpu_seconds",
    "connect",
    "connect_cpu_seconds",
)
ERRORS = ("attacks-error", "client-error", "connect-error")
__all__ = ["ATTACKS", "capped_server_command", "main", "markdown", "run_attacks"]


def run_attacks(names: list[str], seconds: float, scale: float, peers: int = PEERS) -> dict:
    """The named attacks at once against a new server (sealing, ledger and metrics on when one
    of them needs it), beside both well-behaved clients; the run's summary and goals."""
    chosen = [ATTACKS[name] for name in names]
    ledger = any(a.ledger for a in chosen)
    sealed = ledger or any(a.sealed for a in chosen)
    with ledger_store(ledger) as redis:
        env = {}
        if sealed:
            env["CRABGAMES_SEAL_KEYS"] = "k1:" + base64.b64encode(os.urandom(32)).decode()
        if redis is not None:
            env["CRABGAMES_LEDGER_URL"] = redis.url
        metrics = any(a.metrics for a in chosen)
        measured = attack_server(env, metrics, names, seconds, scale, peers, sealed)
        measured["ledger"] = redis.stats() if redis is not None else None
    limit = GOAL_P99_LONG_MS if any(a.long_calls for a in chosen) else GOAL_P99_MS
    return summarize(names, sealed, seconds, scale, limit, measured)


def attack_server(env, metrics: bool, names, seconds, scale, peers, sealed) -> dict:
    """Start the server, attack it, stop it: what was measured, its exit code, and its last
    lines of standard error when it died or failed to stop cleanly."""
    server = start_server(env, metrics)
    try:
        measured = drive(server, names, seconds, scale, peers, sealed)
    finally:
        exit_code = stop_server(server.process)
        stderr = server.stderr_tail()
        os.unlink(server.stderr_path)
    measured["server_exit_code"] = exit_code
    if not measured["alive"] or exit_code not in (0, None):
        measured["server_stderr"] = [line for line in stderr if line]
    return measured


def drive(server: Server, names, seconds: float, scale: float, peers: int, sealed: bool) -> dict:
    context = multiprocessing.get_context("spawn")  # no fork of a process holding gRPC state
    go, results = context.Event(), context.Queue()
    target = {
        "grpc_port": server.grpc_port,
        "http_port": server.http_port,
        "metrics_port": server.metrics_port,
        "sealed": sealed,
    }
    workers = [
        context.Process(
            target=attacker_process, args=(target, names, seconds, scale, peers, go, results)
        ),
        context.Process(target=client_process, args=(server.grpc_port, seconds, go, results)),
        context.Process(
            target=connect_client_process, args=(server.http_port, seconds, go, results)
        ),
    ]
    for worker in workers:
        worker.start()
    got = wait_ready(results, len(workers))
    pid = server.process.pid
    rss_before, cpu_before = tree_kib(pid), tree_cpu_seconds(pid)
    watch = MemoryWatch(pid)
    watch.start()
    go.set()
    started = time.monotonic()
    collect(results, got, workers, started + seconds + 90)
    elapsed = time.monotonic() - started
    watch.stop()
    got["server_cpu_seconds"] = round(tree_cpu_seconds(pid) - cpu_before, 1)
    alive = server.process.poll() is None
    for worker in workers:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
    return {
        "got": got,
        "elapsed": elapsed,
        "rss_before_kib": rss_before,
        "peak_kib": watch.peak_kib(),
        "peak_pss_kib": watch.peak_pss,
        "alive": alive,
    }


def wait_ready(results, workers: int) -> dict[str, Any]:
    """Until every process is ready (payloads built, server answering), or one failed."""
    got: dict[str, Any] = {}
    ready = 0
    deadline = time.monotonic() + 300  # building payloads and games: well under this
    while ready < workers and time.monotonic() < deadline and not got:
        try:
            kind, value = results.get(timeout=1)
        except queue.Empty:
            continue
        ready += kind == "ready"
        if kind != "ready":
            got[kind] = value
    return got


def collect(results, got: dict[str, Any], workers, deadline: float) -> None:
    while not set(WANTED) <= got.keys() and time.monotonic() < deadline:
        if set(ERRORS) & got.keys() and not all(w.is_alive() for w in workers):
            break
        try:
            kind, value = results.get(timeout=1)
        except queue.Empty:
            continue
        got.setdefault(kind, value)


def client_summary(client: dict) -> dict:
    latencies = client["latencies"]
    return {
        "calls": client["calls"],
        "failed": client["calls"] - client["codes"].get("OK", 0),
        "codes": client["codes"],
        "p50_ms": round(1000 * percentile(latencies, 0.5), 1),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "max_ms": round(1000 * max(latencies, default=0.0), 1),
        "failures": client["failures"],
        "games": client.get("games", {}),
        "lost_from_ledger": client.get("detail", {}).get(LEDGER_LOST, 0),
    }


def summarize(names, sealed, seconds, scale, p99_goal, measured) -> dict:
    got = measured["got"]
    empty = {"calls": 0, "codes": {}, "latencies": [], "failures": []}
    client = client_summary(got.get("client") or empty)
    connect = client_summary(got.get("connect") or empty)
    attacks = got.get("attacks") or {}
    seen = [*attacks.items(), ("gRPC client", client), ("Connect client", connect)]
    bad = {kind: {c: n for c, n in r["codes"].items() if c in BAD_CODES} for kind, r in seen}
    bad = {kind: codes for kind, codes in bad.items() if codes}
    peak_mib = measured["peak_kib"] / 1024
    errors = [got[k] for k in ERRORS if k in got]
    goals = {
        "server alive to the end": measured["alive"],
        f"peak RSS under {GOAL_RSS_MIB:.0f} MiB": peak_mib < GOAL_RSS_MIB,
        "gRPC client: no failed call": client["failed"] == 0 and client["calls"] > 0,
        f"gRPC client: p99 under {p99_goal:.0f} ms": client["p99_ms"] < p99_goal,
        "Connect client: no failed call": connect["failed"] == 0 and connect["calls"] > 0,
        "no UNKNOWN or INTERNAL": not bad,
        "campaign ran": "attacks" in got and "client" in got and "connect" in got and not errors,
    }
    good = [r for r in attacks.values() if r.get("good")]
    if good:  # well-behaved parties beside an attack (the players who think between moves)
        failed = sum(r["calls"] - r["codes"].get("OK", 0) for r in good)
        goals["players thinking between moves: no failed call"] = failed == 0
    return {
        "run": "+".join(names),
        "sealed": sealed,
        "attack_seconds": seconds,
        "scale": scale,
        "elapsed_seconds": round(measured["elapsed"], 1),
        "server_rss_mib_at_start": round(measured["rss_before_kib"] / 1024, 1),
        "server_peak_rss_mib": round(peak_mib, 1),
        "server_peak_pss_mib": round(measured["peak_pss_kib"] / 1024, 1),
        # Who used the 2 cores: the attackers' own CPU competes with the server's.
        "cpu_seconds": {
            "server": got.get("server_cpu_seconds"),
            "attackers": got.get("attacker_cpu_seconds"),
            "gRPC client": got.get("client_cpu_seconds"),
            "Connect client": got.get("connect_cpu_seconds"),
        },
        "server_exit_code": measured.get("server_exit_code"),
        "server_stderr": measured.get("server_stderr", []),
        "ledger": measured.get("ledger"),
        "client": client,
        "connect": connect,
        "attacks": attacks,
        "unknown_or_internal": bad,
        "errors": errors,
        "goals": goals,
        "passed": all(goals.values()),
    }


# ---------------------------------------------------------------------------------------------
# The report.


def markdown(runs: list[dict]) -> str:
    lines = [
        "| run | server | peak RSS (PSS) | gRPC calls | failed | p99 | Connect calls | failed "
        "| p99 | UNKNOWN/INTERNAL | goals missed |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        c, h = run["client"], run["connect"]
        missed = [goal for goal, ok in run["goals"].items() if not ok]
        bad = sum(sum(codes.values()) for codes in run["unknown_or_internal"].values())
        alive = "alive" if run["goals"]["server alive to the end"] else "**died**"
        lines.append(
            f"| {run['run']} | {alive} | {run['server_peak_rss_mib']:.0f} MiB "
            f"({run['server_peak_pss_mib']:.0f}) "
            f"| {c['calls']} | {c['failed']} | {c['p99_ms']:.0f} ms "
            f"| {h['calls']} | {h['failed']} | {h['p99_ms']:.0f} ms | {bad} "
            f"| {', '.join(missed) if missed else 'none'} |"
        )
    for run in runs:
        lines += ["", *run_details(run)]
    return "\n".join(lines)


def run_details(run: dict) -> list[str]:
    cpu = ", ".join(f"{who} {s}" for who, s in run["cpu_seconds"].items())
    lines = [
        f"Status codes, {run['run']} ({'sealing' if run['sealed'] else 'no sealing'}; "
        f"CPU s: {cpu}):",
        "",
        "| who | attackers | calls | p50 | max | codes |",
        "|---|---|---|---|---|---|",
    ]
    for kind, result in run["attacks"].items():
        codes = ", ".join(f"{code} {n}" for code, n in result["codes"].items())
        lines.append(
            f"| {kind} | {result['attackers']} | {result['calls']} | {result['p50_ms']} ms "
            f"| {result['max_ms']} ms | {codes} |"
        )
    for who in ("client", "connect"):
        c = run[who]
        codes = ", ".join(f"{code} {n}" for code, n in c["codes"].items())
        games = ", ".join(f"{g} {n}" for g, n in sorted(c["games"].items()))
        name = "gRPC client" if who == "client" else "Connect client"
        lines.append(
            f"| {name} (games: {games}) | 1 | {c['calls']} | {c['p50_ms']} ms "
            f"| {c['max_ms']} ms | {codes} |"
        )
    if run["ledger"] is not None:
        lost = run["client"]["lost_from_ledger"] + run["connect"]["lost_from_ledger"]
        lost += sum(r["by_payload"].get(LEDGER_LOST, 0) for r in run["attacks"].values())
        lines.append(f"\n- ledger: {run['ledger']}; games lost from it (well-behaved): {lost}")
    for who in ("client", "connect"):
        for failure in run[who]["failures"][:3]:
            lines.append(f"\n- {who} failure: `{failure}`")
    for kind, result in run["attacks"].items():
        for failure in result.get("failures", [])[:3] if result.get("good") else []:
            lines.append(f"\n- {kind} failure: `{failure}`")
    for error in run["errors"]:
        lines.append(f"\n- campaign error: `{error[:500]}`")
    if run["server_stderr"]:
        lines.append(f"\n- server exit code {run['server_exit_code']}; its last lines:")
        lines += [f"    {line}" for line in run["server_stderr"]]
    elif run["server_exit_code"] not in (0, None):
        lines.append(f"\n- server exit code {run['server_exit_code']}, nothing on stderr")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=float(os.environ.get("CRABGAMES_ATTACK_SECONDS", "60")),
        help="attack time per run (env CRABGAMES_ATTACK_SECONDS; default 60)",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="attackers of each kind, times this"
    )
    parser.add_argument(
        "--peers",
        type=int,
        default=PEERS,
        help=f"source addresses the connections of one attack come from (default {PEERS})",
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated attacks to run (default: every one): " + ", ".join(ATTACKS),
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="run the chosen attacks at once against one server, not one after another",
    )
    parser.add_argument("--out", help="directory for attack.json (default: a new temp dir)")
    args = parser.parse_args(argv)
    args.names = [n.strip() for n in args.only.split(",") if n.strip()] or list(ATTACKS)
    unknown = [n for n in args.names if n not in ATTACKS]
    if unknown:
        parser.error(f"unknown attack {', '.join(unknown)}: choose from {', '.join(ATTACKS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = args.out or tempfile.mkdtemp(prefix="crabgames-attack-")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "attack.json")
    groups = [args.names] if args.together else [[name] for name in args.names]
    runs = []
    for names in groups:
        print(f"attack: {'+'.join(names)} for {args.seconds:.0f} s", flush=True)
        runs.append(run_attacks(names, args.seconds, args.scale, args.peers))
        missed = [goal for goal, ok in runs[-1]["goals"].items() if not ok]
        print(f"  {'met every goal' if not missed else 'missed: ' + ', '.join(missed)}", flush=True)
        with open(path, "w") as file:  # after every run: a long campaign's results are kept
            json.dump(runs, file, indent=2)
    print(markdown(runs))
    print(f"\nJSON: {path}")
    passed = all(run["passed"] for run in runs)
    print("attack: every goal met" if passed else "attack: goals missed (see the table)")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
