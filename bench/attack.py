"""`make attack`: an adversarial campaign against a real server process on loopback (issue 13).

For CRABGAMES_ATTACK_SECONDS (default 60) it runs, all at once: idle `ApplyMoves` streams that
never send a message, unary calls whose body never comes (raw HTTP/2: headers, then nothing),
maximum-cost `Playouts`, padded states (a valid state with a 1 MB unknown field), oversized
states, options and strings, and fuzzed views for `SampleState`, while a well-behaved client
plays full games of every title with a 2 s deadline on each call. It does so twice: without
sealing, then with CRABGAMES_SEAL_KEYS set.

It reports the server's peak RSS, the well-behaved client's calls, failures and latency, and
every status code each attack kind got; prints a markdown table, writes JSON (--out) and exits
non-zero when a goal is missed: peak RSS under 256 MiB, no failed well-behaved call, no UNKNOWN
or INTERNAL anywhere. Every loop is bounded in count and time; all traffic is to 127.0.0.1.

    .venv/bin/python -m bench.attack [--seconds 60] [--scale 1.0] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import json
import multiprocessing
import os
import queue
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

HOST = "127.0.0.1"  # loopback only: the campaign never sends anything elsewhere
CLIENT_DEADLINE = 2.0
GOAL_RSS_MIB = 256.0
# The attacked server may map at most this much: a campaign that makes it allocate gigabytes
# gets MemoryError (INTERNAL, a finding) instead of taking down this shared machine.
SERVER_MEMORY_CAP = 4 * 1024**3
BAD_CODES = ("UNKNOWN", "INTERNAL")
PAD_FIELD = 2**29 - 1  # the largest protobuf field number: unknown to every message
SERVICE = "/crabgames.v1.RulesService/"

# Attackers of each kind at --scale 1 (the campaign).
ATTACKERS = {
    "idle streams": 64,
    "withheld bodies": 8,
    "max-cost playouts": 8,
    "padded states": 2,
    "oversized": 1,
    "fuzzed views": 2,
}


@dataclass
class Tally:
    """What one kind of attack (or the well-behaved client) did and got."""

    calls: int = 0
    codes: collections.Counter = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    detail: collections.Counter = field(default_factory=collections.Counter)  # by payload
    cpu_at_start: float = 0.0
    games: collections.Counter = field(default_factory=collections.Counter)  # finished, by title

    def saw(self, code: str, seconds: float | None = None) -> None:
        self.calls += 1
        self.codes[code] += 1
        if seconds is not None:
            self.latencies.append(seconds)


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


async def withheld_body(port: int, stop_at: float, tally: Tally, max_calls: int) -> None:
    """Unary calls on a raw HTTP/2 connection: the request's headers, and never its body."""
    import h2.config
    import h2.connection
    import h2.events

    methods = ["NewGame", "LegalMoves", "ApplyMove", "Playouts", "SampleState", "GetView"]
    for attempt in range(max_calls):
        if time.monotonic() >= stop_at:
            return
        start = time.monotonic()
        reader, writer = await asyncio.open_connection(HOST, port)
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


def grpc_code_name(value: int) -> str:
    import grpc

    return next((c.name for c in grpc.StatusCode if c.value[0] == value), f"status {value}")


async def closed_loop(
    channel, requests, stop_at: float, tally: Tally, max_calls: int, timeout
) -> None:
    """Send `requests()` (method, bytes) one after another until stop_at or max_calls."""
    for number in range(max_calls):
        if time.monotonic() >= stop_at:
            return
        label, data = requests(number)
        deadline = timeout(number) if callable(timeout) else timeout
        start = time.monotonic()
        code = await timed_unary(channel, label.split(":")[0], data, deadline)
        tally.saw(code, time.monotonic() - start)
        tally.detail[f"{label}: {code}"] += 1


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


async def attack(port: int, seconds: float, scale: float, sealed: bool, go, results) -> None:
    import grpc

    from crabgames.v1 import rules_service_pb2_grpc as api_grpc

    address = f"{HOST}:{port}"
    with grpc.insecure_channel(address) as sync_channel:
        payloads = build_payloads(api_grpc.RulesServiceStub(sync_channel), sealed)
    counts = {kind: max(1, round(n * scale)) for kind, n in ATTACKERS.items()}
    tallies = {kind: Tally() for kind in counts}
    # Separate connections (a local subchannel pool each), as many attackers would have.
    channels = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(8)
    ]
    results.put(("ready", None))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    cpu_at_start = cpu_seconds()
    stop_at = time.monotonic() + seconds
    rng = random.Random(13)
    bound = 1_000_000  # every loop also stops after this many calls
    marker = iter(range(bound * 10))
    tasks = []
    for i in range(counts["idle streams"]):
        channel = channels[i % len(channels)]
        tasks.append(idle_stream(channel, stop_at, tallies["idle streams"], bound))
    for _ in range(counts["withheld bodies"]):
        tasks.append(withheld_body(port, stop_at, tallies["withheld bodies"], bound))
    for i in range(counts["max-cost playouts"]):
        requests = payloads.playouts
        # Half give up after 1 s (the work they leave must stop), half wait 30 s.
        tasks.append(
            closed_loop(
                channels[i % len(channels)],
                lambda n, r=requests, i=i: r[(n + i) % len(r)],
                stop_at,
                tallies["max-cost playouts"],
                bound,
                1.0 if i % 2 else 30.0,
            )
        )
    for i in range(counts["padded states"]):
        tasks.append(
            closed_loop(
                channels[i % len(channels)],
                lambda n: padded_request(payloads.states, next(marker)),
                stop_at,
                tallies["padded states"],
                bound,
                30.0,
            )
        )
    for i in range(counts["oversized"]):
        requests = payloads.oversized
        tasks.append(
            closed_loop(
                channels[i % len(channels)],
                lambda n, r=requests: r[n % len(r)],
                stop_at,
                tallies["oversized"],
                bound,
                30.0,
            )
        )
    for i in range(counts["fuzzed views"]):
        tasks.append(
            closed_loop(
                channels[i % len(channels)],
                lambda n: fuzzed_view(payloads.views, payloads.bombs, rng),
                stop_at,
                tallies["fuzzed views"],
                bound,
                30.0,
            )
        )
    # Every attacker stops by itself; this bounds a call stuck past its own deadline too.
    running = [asyncio.ensure_future(task) for task in tasks]
    _, stuck = await asyncio.wait(running, timeout=seconds + 45)
    for task in stuck:
        task.cancel()
    for task in running:
        if task.done() and not task.cancelled() and task.exception():
            results.put(("attacks-error", repr(task.exception())))
            break
    for channel in channels:
        await channel.close()
    summary = {k: tally_summary(t, counts[k]) for k, t in tallies.items()}
    if stuck:
        summary["attackers stuck past the bound"] = {
            "attackers": len(stuck),
            "calls": 0,
            "codes": {},
            "p50_ms": 0,
            "max_ms": 0,
        }
    results.put(("attacks", summary))
    results.put(("attacker_cpu_seconds", round(cpu_seconds() - cpu_at_start, 1)))


def attacker_process(port, seconds, scale, sealed, go, results) -> None:
    try:
        asyncio.run(attack(port, seconds, scale, sealed, go, results))
    except BaseException as error:  # noqa: BLE001 (reported, so the campaign is not silent)
        results.put(("attacks-error", repr(error)))


# ---------------------------------------------------------------------------------------------
# The well-behaved client process: full games of every title, every call with a 2 s deadline.


def client_process(port: int, seconds: float, go, results) -> None:
    try:
        tally = play_well(port, seconds, go, results)
        results.put(("client", asdict_tally(tally)))
        results.put(("client_cpu_seconds", round(cpu_seconds() - tally.cpu_at_start, 1)))
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
        cpu_at_start = cpu_seconds()
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


def tally_summary(tally: Tally, attackers: int) -> dict:
    return {
        "attackers": attackers,
        "calls": tally.calls,
        "codes": dict(tally.codes.most_common()),
        "p50_ms": round(1000 * percentile(tally.latencies, 0.5), 1),
        "max_ms": round(1000 * max(tally.latencies, default=0.0), 1),
        "by_payload": dict(sorted(tally.detail.items())),
    }


def asdict_tally(tally: Tally) -> dict:
    data = asdict(tally)
    data["codes"] = dict(tally.codes)
    data["detail"] = dict(tally.detail)
    data["games"] = dict(tally.games)
    return data


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) of this process, or of process `pid` from /proc."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return round(usage.ru_utime + usage.ru_stime, 1)
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)


def status_kib(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def watch_memory(pid: int, stop: threading.Event, samples: list[int]) -> None:
    while not stop.is_set():
        samples.append(status_kib(pid, "VmRSS"))
        stop.wait(0.05)


def capped_server_command(memory_cap: int, address: str) -> list[str]:
    """`python -m crabgames.service --address ADDRESS` with its address space capped at
    `memory_cap` bytes, set by the new process itself: a preexec_fn would run Python in a child
    forked from a process whose gRPC threads are running, which can die before it starts."""
    program = (
        "import resource, runpy, sys\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
        f"cap = {memory_cap} if hard == resource.RLIM_INFINITY else min({memory_cap}, hard)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (cap, hard))\n"
        f"sys.argv = ['crabgames.service', '--address', {address!r}]\n"
        "runpy.run_module('crabgames.service', run_name='__main__', alter_sys=True)\n"
    )
    return [sys.executable, "-c", program]


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    """`python -m crabgames.service --address 127.0.0.1:0`, memory-capped; (process, port)."""
    process = subprocess.Popen(
        capped_server_command(SERVER_MEMORY_CAP, f"{HOST}:0"),
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "ERROR", **env},
    )
    line = process.stdout.readline() if process.stdout else ""
    if "listening on" not in line:
        process.kill()
        process.wait()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, int(line.split()[-1].rsplit(":", 1)[1])


def stop_server(process: subprocess.Popen) -> int | None:
    """Stop the server; its exit code, or None if it had to be killed."""
    if process.poll() is not None:
        return process.returncode
    process.terminate()
    try:
        return process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def run_campaign(sealed: bool, seconds: float, scale: float) -> dict:
    env = {}
    if sealed:
        env["CRABGAMES_SEAL_KEYS"] = "k1:" + base64.b64encode(os.urandom(32)).decode()
    process, port = start_server(env)
    context = multiprocessing.get_context("spawn")  # no fork of a process holding gRPC state
    go, results = context.Event(), context.Queue()
    workers = [
        context.Process(target=attacker_process, args=(port, seconds, scale, sealed, go, results)),
        context.Process(target=client_process, args=(port, seconds, go, results)),
    ]
    for worker in workers:
        worker.start()
    got: dict[str, Any] = {}
    ready = 0
    deadline = time.monotonic() + 300  # building payloads and games: well under this
    while ready < 2 and time.monotonic() < deadline and not got:
        try:
            kind, value = results.get(timeout=1)
        except queue.Empty:
            continue
        ready += kind == "ready"
        if kind != "ready":
            got[kind] = value
    rss_before = status_kib(process.pid, "VmRSS")
    cpu_before = cpu_seconds(process.pid)
    samples: list[int] = []
    stop = threading.Event()
    watcher = threading.Thread(target=watch_memory, args=(process.pid, stop, samples))
    watcher.start()
    go.set()
    started = time.monotonic()
    wanted = {"attacks", "client", "attacker_cpu_seconds", "client_cpu_seconds"}
    while not wanted <= got.keys() and time.monotonic() < started + seconds + 90:
        if {"attacks-error", "client-error"} & got.keys() and not all(
            w.is_alive() for w in workers
        ):
            break
        try:
            kind, value = results.get(timeout=1)
        except queue.Empty:
            continue
        got.setdefault(kind, value)
    elapsed = time.monotonic() - started
    stop.set()
    watcher.join()
    peak_kib = max([status_kib(process.pid, "VmHWM"), *samples])
    got["server_cpu_seconds"] = round(cpu_seconds(process.pid) - cpu_before, 1)
    alive = process.poll() is None
    exit_code = stop_server(process)
    for worker in workers:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
    return summarize(sealed, seconds, elapsed, rss_before, peak_kib, alive, exit_code, got)


def summarize(sealed, seconds, elapsed, rss_before, peak_kib, alive, exit_code, got) -> dict:
    client = got.get("client") or {"calls": 0, "codes": {}, "latencies": [], "failures": []}
    attacks = got.get("attacks") or {}
    failed = client["calls"] - client["codes"].get("OK", 0)
    bad = {
        kind: {c: n for c, n in result["codes"].items() if c in BAD_CODES}
        for kind, result in [*attacks.items(), ("well-behaved client", client)]
    }
    bad = {kind: codes for kind, codes in bad.items() if codes}
    peak_mib = peak_kib / 1024
    errors = [got[k] for k in ("attacks-error", "client-error") if k in got]
    goals = {
        "peak RSS under 256 MiB": peak_mib < GOAL_RSS_MIB,
        "no failed well-behaved call": failed == 0 and client["calls"] > 0,
        "no UNKNOWN or INTERNAL": not bad,
        "server alive to the end": alive,
        "campaign ran": bool(attacks) and "client" in got and not errors,
    }
    return {
        "sealed": sealed,
        "attack_seconds": seconds,
        "elapsed_seconds": round(elapsed, 1),
        "server_rss_mib_at_start": round(rss_before / 1024, 1),
        "server_peak_rss_mib": round(peak_mib, 1),
        # Who used the 2 cores: the attackers' own CPU competes with the server's.
        "cpu_seconds": {
            "server": got.get("server_cpu_seconds"),
            "attackers": got.get("attacker_cpu_seconds"),
            "well-behaved client": got.get("client_cpu_seconds"),
        },
        "server_exit_code": exit_code,
        "client": {
            "calls": client["calls"],
            "failed": failed,
            "codes": client["codes"],
            "p50_ms": round(1000 * percentile(client["latencies"], 0.5), 1),
            "p99_ms": round(1000 * percentile(client["latencies"], 0.99), 1),
            "max_ms": round(1000 * max(client["latencies"], default=0.0), 1),
            "failures": client["failures"],
            "games": client.get("games", {}),
        },
        "attacks": attacks,
        "unknown_or_internal": bad,
        "errors": errors,
        "goals": goals,
        "passed": all(goals.values()),
    }


def markdown(runs: list[dict]) -> str:
    lines = [
        "| run | server peak RSS | well-behaved calls | failed | p50 | p99 | max "
        "| UNKNOWN/INTERNAL | CPU s: server, attackers, client | goals |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        c = run["client"]
        missed = [goal for goal, ok in run["goals"].items() if not ok]
        bad = sum(sum(codes.values()) for codes in run["unknown_or_internal"].values())
        cpu = ", ".join(str(v) for v in run["cpu_seconds"].values())
        lines.append(
            f"| {'sealing' if run['sealed'] else 'no sealing'} "
            f"| {run['server_peak_rss_mib']:.0f} MiB "
            f"(start {run['server_rss_mib_at_start']:.0f}) "
            f"| {c['calls']} | {c['failed']} | {c['p50_ms']:.1f} ms | {c['p99_ms']:.1f} ms "
            f"| {c['max_ms']:.0f} ms | {bad} | {cpu} "
            f"| {'met' if not missed else 'missed: ' + ', '.join(missed)} |"
        )
    for run in runs:
        lines += [
            "",
            f"Status codes by attack, {'sealing' if run['sealed'] else 'no sealing'}:",
            "",
            "| attack | attackers | calls | p50 | max | codes |",
            "|---|---|---|---|---|---|",
        ]
        for kind, result in run["attacks"].items():
            codes = ", ".join(f"{code} {n}" for code, n in result["codes"].items())
            lines.append(
                f"| {kind} | {result['attackers']} | {result['calls']} | {result['p50_ms']} ms "
                f"| {result['max_ms']} ms | {codes} |"
            )
        codes = ", ".join(f"{code} {n}" for code, n in run["client"]["codes"].items())
        games = ", ".join(f"{g} {n}" for g, n in sorted(run["client"]["games"].items()))
        lines.append(
            f"| well-behaved client (games: {games}) | 1 | {run['client']['calls']} | | | {codes} |"
        )
        for failure in run["client"]["failures"][:5]:
            lines.append(f"\n- client failure: `{failure}`")
        for error in run["errors"]:
            lines.append(f"\n- campaign error: `{error}`")
    return "\n".join(lines)


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
    parser.add_argument("--out", help="directory for attack.json (default: a new temp dir)")
    parser.add_argument(
        "--runs",
        choices=["both", "plain", "sealed"],
        default="both",
        help="without sealing, with it, or both (default)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    runs = []
    for sealed in {"both": (False, True), "plain": (False,), "sealed": (True,)}[args.runs]:
        print(f"attack: {args.seconds:.0f} s {'with' if sealed else 'without'} sealing", flush=True)
        runs.append(run_campaign(sealed, args.seconds, args.scale))
    out = args.out or tempfile.mkdtemp(prefix="crabgames-attack-")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "attack.json")
    with open(path, "w") as file:
        json.dump(runs, file, indent=2)
    print(markdown(runs))
    print(f"\nJSON: {path}")
    passed = all(run["passed"] for run in runs)
    print("attack: every goal met" if passed else "attack: goals missed (see the table)")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
