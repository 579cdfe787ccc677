"""Load on loopback: many concurrent clients play full games of every game through a real server
process (sealing on, player tokens) for a bounded time, with zero errors and stable memory.

CI size by default; `make load-large` (CRABGAMES_LOAD=large) runs more clients for longer.
Numbers are printed (and are not goals: throughput goals live in `make bench`)."""

from __future__ import annotations

import base64
import os
import random
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field

import grpc
import pytest

from crabgames.service.sealing import ENV_VAR
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server
from tests.fuzzing import CALL_TIMEOUT, CASES
from tests.playthrough import pick

LARGE = os.environ.get("CRABGAMES_LOAD") == "large"
CLIENTS = int(os.environ.get("CRABGAMES_LOAD_CLIENTS", "64" if LARGE else "12"))
SECONDS = float(os.environ.get("CRABGAMES_LOAD_SECONDS", "60" if LARGE else "8"))
# Memory may grow while caches and allocator pools warm up, then must level off.
MAX_GROWTH_MIB = 40


@dataclass
class Tally:
    games: int = 0
    calls: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def play_games(address: str, client: int, stop_at: float, tally: Tally) -> None:
    rng = random.Random(client)
    with grpc.insecure_channel(address) as channel:
        stub = api_grpc.RulesServiceStub(channel)
        games = 0
        while time.monotonic() < stop_at:
            game_id, players, options = CASES[(client + games) % len(CASES)]
            try:
                played, calls = play_one(stub, game_id, players, options, rng, tally)
            except grpc.RpcError as error:
                with tally.lock:
                    tally.errors.append(f"{game_id}: {error.code()} {error.details()}")
                return
            games += 1
            with tally.lock:
                tally.games += played
                tally.calls += calls


def play_one(stub, game_id, players, options, rng, tally) -> tuple[int, int]:
    latencies = []

    def call(method, request):
        start = time.perf_counter()
        response = method(request, timeout=CALL_TIMEOUT)
        latencies.append(time.perf_counter() - start)
        return response

    request = api.NewGameRequest(num_players=players)
    getattr(request, game_id).CopyFrom(options)
    response = call(stub.NewGame, request)
    state, tokens = response.state, response.player_tokens
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        token = tokens[state.next.player]
        moves = call(stub.LegalMoves, api.LegalMovesRequest(state=state, player_token=token)).moves
        move = pick(rng, list(moves))
        state = call(
            stub.ApplyMove,
            api.ApplyMoveRequest(
                state=state, move=move, player_token=token, expected_version=state.version
            ),
        ).state
    seat = rng.randrange(players)
    view = call(
        stub.GetView, api.GetViewRequest(state=state, player=seat, player_token=tokens[seat])
    )
    assert view.view.HasField("outcome")
    with tally.lock:
        tally.latencies.extend(latencies)
    return 1, len(latencies)


@pytest.fixture(scope="module")
def server_process():
    key = base64.b64encode(os.urandom(32)).decode()
    process, address = start_server("--threads", "8", env={ENV_VAR: f"load:{key}"})
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=15)
        yield process, address
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def test_many_clients_play_full_games_with_no_error_and_stable_memory(server_process, summary):
    process, address = server_process
    tally = Tally()
    start = time.monotonic()
    stop_at = start + SECONDS
    threads = [
        threading.Thread(target=play_games, args=(address, client, stop_at, tally), daemon=True)
        for client in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    samples = []
    while any(t.is_alive() for t in threads):
        samples.append((time.monotonic() - start, rss_mib(process.pid)))
        time.sleep(0.25)
    for thread in threads:
        thread.join(timeout=CALL_TIMEOUT * 2)
    elapsed = time.monotonic() - start
    warm = [rss for at, rss in samples if at >= SECONDS * 0.3] or [samples[-1][1]]
    latencies = sorted(tally.latencies) or [0.0]
    report = (
        f"load: {CLIENTS} clients, {elapsed:.1f} s, {tally.games} games, {tally.calls} calls "
        f"({tally.calls / elapsed:.0f}/s), errors {len(tally.errors)}, latency p50 "
        f"{1000 * statistics.median(latencies):.1f} ms p99 "
        f"{1000 * latencies[int(len(latencies) * 0.99) - 1]:.1f} ms, server RSS "
        f"{samples[0][1]:.0f} -> {warm[0]:.0f} (30%) -> {samples[-1][1]:.0f} MiB"
    )
    summary(report)  # after the run, not among pytest's dots (tests/conftest.py)
    assert not tally.errors, tally.errors[:5]
    assert tally.games >= CLIENTS, report
    assert max(warm) - warm[0] < MAX_GROWTH_MIB, report
    assert process.poll() is None, "the server died"
