"""`make bench`: the engine against the floor gRPC sets, on loopback, in one run.

For every served game, at a mid-game state and at the heaviest state found (the one whose legal
move list is largest), it measures LegalMoves and ApplyMove beside a no-op RPC that carries the
same state bytes through the same server (bench/noop.py); in-process random games per second; a
full game driven move by move over gRPC beside the same game played inside the server
(Playouts); a stream of moves beside unary calls; and throughput with 1 and 2 worker processes
(driven by h2load when it is installed).
Results: printed, and written to bench/results.md and bench/results.json.

python -m bench.bench [--quick]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import grpc

from bench import bulk
from bench.noop import NOOP
from crabclients.agents.backends import InProcess, OverGrpc
from crabclients.agents.pettingzoo_env import steps_per_second
from crabclients.client import RulesClient
from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.core.game import PLAYER
from crabgames.core.playouts import run_playouts
from crabgames.core.search import MAX_SIMULATIONS, Search
from crabgames.games import all_games
from crabgames.games.kraby import strategy as kraby_strategy
from crabgames.games.kraby.state import PLACE_TILE as KRABY_PLACE_TILE
from crabgames.games.kraby.state import KrabyState
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

HERE = Path(__file__).parent
GAME_OVER = game_pb2.DECIDER_KIND_NONE
CHANNEL_OPTIONS = [("grpc.use_local_subchannel_pool", 1)]


# ----- states -----


def options_for(game_id: str):
    return getattr(api.NewGameRequest(), game_id).__class__()


def random_game(engine: Engine, game_id: str, players: int, seed: int) -> list[game_pb2.GameState]:
    rng = random.Random(seed)
    state, _ = engine.new_game(game_id, options_for(game_id), players, seed)
    states = [state]
    while state.next.kind != GAME_OVER:
        moves, _ = engine.legal_moves(state)
        state, _, _ = engine.apply_move(state, rng.choice(moves))
        states.append(state)
    return states


def bench_states(engine: Engine, game_id: str) -> dict[str, game_pb2.GameState]:
    """A 3-player mid-game state, and the state with the most legal moves seen in a few games at
    the largest player count (the heaviest LegalMoves response)."""
    facts = engine.games[game_id].facts
    players = max(facts.min_players, min(3, facts.max_players))
    states = random_game(engine, game_id, players, seed=1)
    mid = states[len(states) // 2]
    candidates = []
    for seed in (1, 2, 3):
        candidates += random_game(engine, game_id, facts.max_players, seed)[:-1]
    heaviest = max(candidates, key=lambda s: len(engine.legal_moves(s)[0]) * 10_000 + s.ByteSize())
    return {f"mid-game {players}p": mid, f"heaviest {facts.max_players}p": heaviest}


# ----- measuring -----


@dataclass
class Timing:
    calls_per_second: float
    p50_us: float
    p99_us: float
    calls: int
    # CPU the server process spent per call (user + system), when its pid is known: steadier
    # than wall-clock rates on a shared machine.
    server_cpu_us: float = 0.0


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU of a process so far (Linux /proc), or 0 when unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(call, seconds: float, rounds: int = 3, server_pid: int | None = None) -> Timing:
    """Sequential calls for `seconds` per round; the best round's rate, every latency pooled,
    and the server's CPU per call over all rounds."""
    return interleaved([call], seconds, rounds, server_pid)[0]


def interleaved(
    calls: list, seconds: float, rounds: int = 3, server_pid: int | None = None
) -> list[Timing]:
    """`timed` for several calls whose rates are compared: their rounds alternate (a, b, a,
    b, ...), so a machine that speeds up or slows down during the run favours none of them."""
    latencies: list[list[int]] = [[] for _ in calls]
    best = [0.0 for _ in calls]
    cpu = [0.0 for _ in calls]
    for _ in range(rounds):
        for i, call in enumerate(calls):
            cpu_before = cpu_seconds(server_pid)
            start = time.perf_counter_ns()
            end = start + int(seconds * 1e9 / rounds)
            count = 0
            now = start
            while now < end or count < 20:
                call()
                after = time.perf_counter_ns()
                latencies[i].append(after - now)
                now = after
                count += 1
            best[i] = max(best[i], count / ((now - start) / 1e9))
            cpu[i] += cpu_seconds(server_pid) - cpu_before
    timings = []
    for i in range(len(calls)):
        pooled = sorted(latencies[i])
        timings.append(
            Timing(
                best[i],
                pooled[len(pooled) // 2] / 1e3,
                pooled[min(len(pooled) - 1, int(len(pooled) * 0.99))] / 1e3,
                len(pooled),
                cpu[i] * 1e6 / len(pooled),
            )
        )
    return timings


class BenchServer:
    """`python -m bench.server` in its own process group, stopped with SIGTERM."""

    def __init__(self, workers: int = 1) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.server", "--workers", str(workers)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=HERE.parent,
        )
        line = self.process.stdout.readline()
        if "listening on" not in line:
            self.process.kill()
            raise RuntimeError(f"bench server did not start: {line!r}")
        self.address = line.split()[-1]

    def channel(self) -> grpc.Channel:
        channel = grpc.insecure_channel(self.address, CHANNEL_OPTIONS)
        grpc.channel_ready_future(channel).result(timeout=20)
        return channel

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def noop_stub(channel: grpc.Channel):
    return channel.unary_unary(
        NOOP,
        request_serializer=lambda message: message.SerializeToString(),
        response_deserializer=api.ApplyMoveResponse.FromString,
    )


def rpc_rows(engine, channel, seconds: float, server_pid: int | None) -> list[dict]:
    stub, noop = api_grpc.RulesServiceStub(channel), noop_stub(channel)
    rows = []
    for game_id in engine.games:
        for label, state in bench_states(engine, game_id).items():
            moves, _ = engine.legal_moves(state)
            legal = api.LegalMovesRequest(state=state)
            apply = api.ApplyMoveRequest(state=state, move=random.Random(0).choice(moves))
            row = {
                "game": game_id,
                "state": label,
                "state_bytes": state.ByteSize(),
                "legal_moves": len(moves),
            }
            for name, call, floor in (
                ("LegalMoves", lambda r=legal: stub.LegalMoves(r), lambda r=legal: noop(r)),
                ("ApplyMove", lambda r=apply: stub.ApplyMove(r), lambda r=apply: noop(r)),
            ):
                floor_timing, timing = interleaved([floor, call], seconds, server_pid=server_pid)
                row[name] = asdict(timing)
                row[f"{name}_noop"] = asdict(floor_timing)
                row[f"{name}_ratio"] = timing.calls_per_second / floor_timing.calls_per_second
                if timing.server_cpu_us:  # the rate ratio if the server's core were the limit
                    row[f"{name}_cpu_ratio"] = floor_timing.server_cpu_us / timing.server_cpu_us
            rows.append(row)
            print_row(row)
    return rows


def selection_rows(engine, channel, seconds: float, server_pid: int | None) -> list[dict]:
    """ApplyMove answering every event list (the default) beside the same move asking only for
    the moving seat's (EventSelection), at each game's heaviest state: what a front end saves
    by asking for what it needs."""
    stub = api_grpc.RulesServiceStub(channel)
    rows = []
    for game_id in engine.games:
        state = bench_states(engine, game_id)[
            f"heaviest {engine.games[game_id].facts.max_players}p"
        ]
        moves, decision = engine.legal_moves(state)
        move = random.Random(0).choice(moves)
        every = api.ApplyMoveRequest(state=state, move=move)
        own = api.ApplyMoveRequest(
            state=state, move=move, events=api.EventSelection(seats=[decision.player])
        )
        timings = interleaved(
            [lambda r=every: stub.ApplyMove(r), lambda r=own: stub.ApplyMove(r)],
            seconds,
            server_pid=server_pid,
        )
        sizes = [stub.ApplyMove(r).ByteSize() for r in (every, own)]
        row = {
            "game": game_id,
            "players": state.num_players,
            "every_list": asdict(timings[0]),
            "own_seat": asdict(timings[1]),
            "every_list_bytes": sizes[0],
            "own_seat_bytes": sizes[1],
        }
        rows.append(row)
        print(
            f"{game_id:<12} {state.num_players}p  every list {timings[0].calls_per_second:6.0f}/s"
            f" {sizes[0]} B, server CPU {timings[0].server_cpu_us:.0f}us;  own seat only"
            f" {timings[1].calls_per_second:6.0f}/s {sizes[1]} B,"
            f" server CPU {timings[1].server_cpu_us:.0f}us",
            flush=True,
        )
    return rows


def print_row(row: dict) -> None:
    parts = [f"{row['game']:<12} {row['state']:<15}"]
    for name in ("LegalMoves", "ApplyMove"):
        t, f = row[name], row[f"{name}_noop"]
        parts.append(
            f"{name} {t['calls_per_second']:7.0f}/s"
            f" p50 {t['p50_us']:6.0f}us p99 {t['p99_us']:6.0f}us"
            f" (noop {f['calls_per_second']:6.0f}/s) ratio {row[f'{name}_ratio']:.2f};"
            f" server CPU {t['server_cpu_us']:.0f}us/call (noop {f['server_cpu_us']:.0f}us)"
            f" ratio {row.get(f'{name}_cpu_ratio', 0):.2f}"
        )
    print("  ".join(parts), flush=True)


# ----- whole games -----


def in_process_games(engine: Engine, game_id: str, seconds: float) -> dict:
    """Random full games per second on one core: native (what Playouts runs) and through the
    Engine's protobuf API (decode -> rules -> encode per move, no gRPC)."""
    facts = engine.games[game_id].facts
    players = max(facts.min_players, min(3, facts.max_players))
    state, _ = engine.new_game(game_id, options_for(game_id), players, seed=1)
    match = engine.decode(state)
    games, start, seed = 0, time.perf_counter(), 1
    while time.perf_counter() - start < seconds or games < 3:
        run_playouts(match, 1, seed, 1_000_000)
        games, seed = games + 1, seed + 1
    native = games / (time.perf_counter() - start)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or games < 2:
        random_game(engine, game_id, players, seed=games + 1)
        games += 1
    return {
        "native_games_per_second": native,
        "engine_api_games_per_second": games / (time.perf_counter() - start),
    }


def grpc_game(stub, game_id: str, players: int, seed: int) -> int:
    """One random full game driven move by move over gRPC (LegalMoves + ApplyMove per move)."""
    rng = random.Random(seed)
    request = api.NewGameRequest(num_players=players, seed=seed, **{game_id: options_for(game_id)})
    state = stub.NewGame(request).state
    moves = 0
    while state.next.kind != GAME_OVER:
        legal = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves
        state = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=rng.choice(legal))).state
        moves += 1
    return moves


def game_rows(engine, channel, seconds: float) -> list[dict]:
    stub = api_grpc.RulesServiceStub(channel)
    rows = []
    for game_id in engine.games:
        facts = engine.games[game_id].facts
        players = max(facts.min_players, min(3, facts.max_players))
        row = {"game": game_id, "players": players, **in_process_games(engine, game_id, seconds)}
        initial = stub.NewGame(
            api.NewGameRequest(num_players=players, seed=1, **{game_id: options_for(game_id)})
        ).state
        # Rounds alternate (games over gRPC, then one Playouts call of 100), so that a machine
        # whose speed drifts during the run favours neither side; totals over every round.
        games = moves = playout_games = 0
        grpc_seconds = playout_seconds = 0.0
        # Long calls run in a process the server starts at its first one (about a second):
        # started before the rounds, so that the first game measured does not pay for it.
        stub.Playouts(api.PlayoutsRequest(state=initial, count=1, seed=0))
        for round_number in range(3):
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / 3 or games < 2 * (round_number + 1):
                moves += grpc_game(stub, game_id, players, seed=games + 1)
                games += 1
            grpc_seconds += time.perf_counter() - start
            start = time.perf_counter()
            request = api.PlayoutsRequest(state=initial, count=100, seed=round_number + 1)
            playout_games += stub.Playouts(request).games
            playout_seconds += time.perf_counter() - start
        row["grpc_move_by_move_ms_per_game"] = grpc_seconds * 1e3 / games
        row["moves_per_game"] = moves / games
        row["playouts_ms_per_game"] = playout_seconds * 1e3 / playout_games
        row["playouts_speedup"] = row["grpc_move_by_move_ms_per_game"] / row["playouts_ms_per_game"]
        rows.append(row)
        print(
            f"{game_id:<12} native {row['native_games_per_second']:6.1f} games/s/core,"
            f" engine API {row['engine_api_games_per_second']:6.1f} games/s;"
            f" over gRPC {row['grpc_move_by_move_ms_per_game']:7.1f} ms/game"
            f" ({row['moves_per_game']:.0f} moves), Playouts {row['playouts_ms_per_game']:6.2f}"
            f" ms/game: {row['playouts_speedup']:.0f}x",
            flush=True,
        )
    return rows


# ----- learning agents and the search bot (docs/agents.md) -----


def search_position(engine: Engine, game_id: str, players: int, seed: int) -> Table:
    """A position a third of the way into a random game, with a real choice to make."""
    table = Table.new(engine, game_id, players, seed=seed)
    rng = random.Random(seed)
    length = len(random_game(engine, game_id, players, seed))
    while table.decision().kind == PLAYER and (
        len(table.legal_move_ids()) < 2 or table.match.version < length // 3
    ):
        table.play(rng.choice(table.legal_move_ids()))
    return table


def simulations_per_second(engine: Engine, game_id: str, players: int, seconds: float) -> float:
    """IS-MCTS simulations per second on one core (in process), over three positions."""
    done, spent = 0, 0.0
    for seed in (1, 2, 3):
        table = search_position(engine, game_id, players, seed)
        search = Search(table.game, table.match.state, table.decision().player, seed)
        ends = time.perf_counter() + seconds / 3
        start = time.perf_counter()
        done += search.run(
            MAX_SIMULATIONS, lambda ends=ends: time.perf_counter() >= ends
        ).simulations
        spent += time.perf_counter() - start
    return done / spent


def agent_rows(engine: Engine, address: str, seconds: float) -> list[dict]:
    """For each title at its smallest and largest table: PettingZoo steps per second in process
    and over gRPC (random masked moves, observations every step), and the search's simulations
    per second on one core, in process and as SuggestMove reports them for its 1 s default."""
    rows = []
    with RulesClient.connect(address) as client:
        tables = [
            (game_id, players)
            for game_id, game in engine.games.items()
            for players in sorted({game.facts.min_players, game.facts.max_players})
        ]
        for game_id, players in tables:
            table = search_position(engine, game_id, players, 4)
            suggested = client.suggest_move(table.view(table.decision().player), seed=1)
            row = {
                "game": game_id,
                "players": players,
                "env_steps_in_process": steps_per_second(game_id, players, InProcess(), seconds),
                "env_steps_over_grpc": steps_per_second(
                    game_id, players, OverGrpc(client), seconds
                ),
                "search_simulations_per_second": simulations_per_second(
                    engine, game_id, players, seconds
                ),
                "suggest_move_simulations_in_1s": suggested.simulations,
            }
            rows.append(row)
            print(
                f"{game_id:<12} {players}p env steps/s {row['env_steps_in_process']:6.0f} in"
                f" process, {row['env_steps_over_grpc']:5.0f} over gRPC; search"
                f" {row['search_simulations_per_second']:5.0f} simulations/s/core,"
                f" SuggestMove {row['suggest_move_simulations_in_1s']} in 1 s",
                flush=True,
            )
    return rows


def tile_decision(table: Table) -> KrabyState:
    """The table's Kraby state at the next decision on a tile (its widest kind)."""
    rng = random.Random(0)
    while table.match.state.step != KRABY_PLACE_TILE:
        table.play(rng.choice(table.legal_move_ids()))
    return table.match.state


def fisher_model_row(engine: Engine, seconds: float) -> dict:
    """Kraby's model of a fisher (games/kraby/strategy.py), the search's opponent model: the
    lead after every legal move, found from the board's groups (`leads_after`), beside playing
    each move on a copy and scoring the board anew, over the same three positions a third of
    the way into random four-fisher games; the same answers (tests/kraby/test_strategy.py)."""
    game = engine.games["kraby"]
    positions = [tile_decision(search_position(engine, "kraby", 4, seed)) for seed in (1, 2, 3)]

    def played() -> list[float]:
        leads = []
        for state in positions:
            for move in game.legal_moves(state):
                after = game.clone(state)
                game.apply_move(after, move)
                values = kraby_strategy.fisher_values(after)
                leads.append(kraby_strategy.lead(values, state.turn_player))
        return leads

    def from_groups() -> list[float]:
        return [
            lead
            for state in positions
            for lead in kraby_strategy.leads_after(state, game.legal_moves(state))
        ]

    slow, fast = interleaved([played, from_groups], seconds)
    moves = sum(len(game.legal_moves(state)) for state in positions) / len(positions)
    row = {
        "moves_per_decision": moves,
        "played_us_per_decision": 1e6 / slow.calls_per_second / len(positions),
        "from_groups_us_per_decision": 1e6 / fast.calls_per_second / len(positions),
    }
    print(
        f"kraby 4p fisher model: {moves:.0f} moves a decision, playing each"
        f" {row['played_us_per_decision']:.0f} us, from the groups"
        f" {row['from_groups_us_per_decision']:.0f} us",
        flush=True,
    )
    return row


def agent_markdown(rows: list[dict]) -> list[str]:
    out = [
        "",
        "| game | players | PettingZoo steps/s in process | over gRPC |"
        " IS-MCTS simulations/s/core | SuggestMove simulations in its 1 s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['game']} | {r['players']} | {r['env_steps_in_process']:.0f} |"
            f" {r['env_steps_over_grpc']:.0f} | {r['search_simulations_per_second']:.0f} |"
            f" {r['suggest_move_simulations_in_1s']} |"
        )
    return out


# ----- a stream of moves against unary calls -----


def stream_row(engine, channel, seconds: float, server_pid: int | None) -> dict:
    state = bench_states(engine, "kraby")["mid-game 3p"]
    moves, _ = engine.legal_moves(state)
    request = api.ApplyMoveRequest(state=state, move=moves[0])
    stub = api_grpc.RulesServiceStub(channel)
    unary = timed(lambda: stub.ApplyMove(request), seconds, server_pid=server_pid)
    outbox: queue.SimpleQueue = queue.SimpleQueue()

    def requests():
        while (item := outbox.get()) is not None:
            yield item

    responses = stub.ApplyMoves(requests())
    streamed_request = api.ApplyMovesRequest(request=request)

    def one():
        outbox.put(streamed_request)
        next(responses)

    streamed = timed(one, seconds, server_pid=server_pid)
    outbox.put(None)
    row = {"unary": asdict(unary), "stream": asdict(streamed)}
    row["stream_over_unary"] = streamed.calls_per_second / unary.calls_per_second
    print(
        f"ApplyMove kraby mid-game: unary {unary.calls_per_second:.0f}/s p50 {unary.p50_us:.0f}us,"
        f" ApplyMoves stream {streamed.calls_per_second:.0f}/s p50 {streamed.p50_us:.0f}us:"
        f" x{row['stream_over_unary']:.2f}; server CPU per move {unary.server_cpu_us:.0f}us"
        f" unary, {streamed.server_cpu_us:.0f}us streamed",
        flush=True,
    )
    return row


# ----- worker processes -----


def _load(address: str, kind: str, payload: bytes, seconds: float, results) -> None:
    """One load generator: sequential calls of pre-serialized request bytes, responses left as
    bytes (the server does all the protobuf work; the client spends as little CPU as it can,
    leaving the cores to the workers)."""
    channel = grpc.insecure_channel(address, CHANNEL_OPTIONS)
    grpc.channel_ready_future(channel).result(timeout=20)
    call = channel.unary_unary(f"/crabgames.v1.RulesService/{kind}")  # bytes in, bytes out
    call(payload)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        call(payload)
        count += 1
    results.put(count / (time.perf_counter() - start))
    channel.close()


# nghttp2's HTTP/2 load generator (Debian's nghttp2-client; `make bench` installs it when it
# can). A C client leaves the cores to the server: Python load processes need about as much CPU
# per call as a worker, so on a small machine they, not the workers, set the total.
H2LOAD = shutil.which("h2load")


def throughput(address: str, kind: str, payload: bytes, clients: int, seconds: float) -> float:
    """Total calls per second from `clients` connections, each with one call in flight: h2load's
    when it is installed, else one Python load process per connection."""
    if H2LOAD:
        return h2load_throughput(address, kind, payload, clients, seconds)
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    processes = [
        context.Process(target=_load, args=(address, kind, payload, seconds, results))
        for _ in range(clients)
    ]
    for process in processes:
        process.start()
    total = sum(results.get(timeout=seconds + 60) for _ in processes)
    for process in processes:
        process.join()
    return total


def h2load_throughput(
    address: str, kind: str, payload: bytes, connections: int, seconds: float
) -> float:
    """h2load's calls per second, each request the payload in gRPC's framing (an uncompressed
    flag byte and a 4-byte length). h2load sees HTTP statuses only, not gRPC's (in trailers), so
    the payload is checked with one real gRPC call first."""
    channel = grpc.insecure_channel(address, CHANNEL_OPTIONS)
    channel.unary_unary(f"/crabgames.v1.RulesService/{kind}")(payload, timeout=20)
    channel.close()
    with tempfile.NamedTemporaryFile(suffix=".grpc") as body:
        body.write(b"\x00" + len(payload).to_bytes(4, "big") + payload)
        body.flush()
        report = subprocess.run(
            [
                H2LOAD,
                *("--duration", str(max(1, round(seconds))), "--warm-up-time", "1"),
                *("--clients", str(connections), "--max-concurrent-streams", "1"),
                *("--data", body.name),
                *("--header", "content-type: application/grpc", "--header", "te: trailers"),
                f"http://{address}/crabgames.v1.RulesService/{kind}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    failed = re.search(r"requests: .* (\d+) failed", report)
    rate = re.search(r"finished in [^,]+, ([\d.]+) req/s", report)
    if not rate or not failed or failed.group(1) != "0":
        raise RuntimeError(f"h2load failed:\n{report}")
    return float(rate.group(1))


def load_description(clients: int) -> str:
    return f"h2load, {clients} connections" if H2LOAD else f"{clients} client processes"


def worker_rows(engine, seconds: float, clients: int) -> list[dict]:
    state = bench_states(engine, "kraby")["mid-game 3p"]
    moves, _ = engine.legal_moves(state)
    workloads = {
        "ApplyMove": api.ApplyMoveRequest(state=state, move=moves[0]).SerializeToString(),
        "Playouts": api.PlayoutsRequest(state=state, count=4, seed=1).SerializeToString(),
    }
    rows = []
    for kind, payload in workloads.items():
        row = {
            "workload": f"kraby {kind}" + (" (4 playouts)" if kind == "Playouts" else ""),
            "clients": clients,
            "load": load_description(clients),
        }
        for workers in (1, 2):
            server = BenchServer(workers)
            try:
                # a first second unmeasured: each worker starts its long-call process at its
                # first long call (about a second of CPU), and warms its caches
                throughput(server.address, kind, payload, clients, 1.0)
                row[f"workers_{workers}"] = throughput(
                    server.address, kind, payload, clients, seconds
                )
            finally:
                server.stop()
        row["speedup"] = row["workers_2"] / row["workers_1"]
        rows.append(row)
        print(
            f"{row['workload']:<26} {row['load']}: 1 worker {row['workers_1']:6.0f}/s,"
            f" 2 workers {row['workers_2']:6.0f}/s: x{row['speedup']:.2f}",
            flush=True,
        )
    return rows


# ----- report -----


# ----- browser protocols (issue 17): Connect and gRPC-Web beside gRPC -----


BROWSER_PROTOCOLS = ("connect-proto", "connect-json", "grpc-web")


def browser_rows(engine, seconds: float) -> list[dict]:
    """ApplyMove at the same states over native gRPC, Connect (binary and JSON) and gRPC-Web:
    the production server (`crabgames-server --http-address`) in its own process, one client
    connection each (grpcio's for gRPC, connectrpc's generated client for HTTP/1.1), sequential
    calls, rounds interleaved; the server's CPU per call beside the wall rates."""
    from connectrpc.compat import google_protobuf_codecs
    from connectrpc.protocol import ProtocolType

    from crabgames.v1.rules_service_connect import RulesServiceClientSync

    process = subprocess.Popen(
        [sys.executable, "-m", "crabgames.service", "--address", "127.0.0.1:0"]
        + ["--http-address", "127.0.0.1:0", "--log-level", "WARNING"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    )
    try:
        grpc_address = process.stdout.readline().split()[-1]
        http_url = process.stdout.readline().split()[-1]
        binary, json_codec = google_protobuf_codecs()
        clients = {
            "connect-proto": RulesServiceClientSync(http_url, codec=binary, send_compression=None),
            "connect-json": RulesServiceClientSync(
                http_url, codec=json_codec, send_compression=None
            ),
            "grpc-web": RulesServiceClientSync(
                http_url, codec=binary, protocol=ProtocolType.GRPC_WEB, send_compression=None
            ),
        }
        rows = []
        with grpc.insecure_channel(grpc_address, CHANNEL_OPTIONS) as channel:
            stub = api_grpc.RulesServiceStub(channel)
            for game_id in engine.games:
                for label, state in bench_states(engine, game_id).items():
                    moves, _ = engine.legal_moves(state)
                    request = api.ApplyMoveRequest(state=state, move=random.Random(0).choice(moves))
                    calls = [lambda r=request: stub.ApplyMove(r)] + [
                        lambda r=request, c=clients[p]: c.apply_move(r) for p in BROWSER_PROTOCOLS
                    ]
                    timings = interleaved(calls, seconds, server_pid=process.pid)
                    row = {"game": game_id, "state": label, "grpc": asdict(timings[0])}
                    for protocol, timing in zip(BROWSER_PROTOCOLS, timings[1:], strict=True):
                        row[protocol] = asdict(timing)
                        row[f"{protocol}_ratio"] = (
                            timing.calls_per_second / timings[0].calls_per_second
                        )
                        if timing.server_cpu_us:
                            row[f"{protocol}_cpu_ratio"] = (
                                timings[0].server_cpu_us / timing.server_cpu_us
                            )
                    rows.append(row)
                    print(
                        f"{game_id:12} {label:16} ApplyMove/s"
                        f" grpc {timings[0].calls_per_second:6.0f}"
                        + "".join(
                            f" {p} {row[p]['calls_per_second']:6.0f} ({row[p + '_ratio']:.2f})"
                            for p in BROWSER_PROTOCOLS
                        ),
                        flush=True,
                    )
        for client in clients.values():
            client.close()
        return rows
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def browser_markdown(rows: list[dict]) -> list[str]:
    out = [
        "",
        "ApplyMove over the browser protocols (HTTP/1.1, uvicorn) beside native gRPC, at the same"
        " states: calls/s (p50 µs), ratio to gRPC wall; CPU (server CPU per gRPC call / per call"
        " of the protocol). Goal: binary Connect and gRPC-Web at least 0.7 of gRPC.",
        "",
        "| game | state | gRPC /s (p50) | Connect binary | ratio | gRPC-Web | ratio |"
        " Connect JSON | ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        cells = [f"{r['grpc']['calls_per_second']:.0f} ({r['grpc']['p50_us']:.0f})"]
        for p in ("connect-proto", "grpc-web", "connect-json"):
            cells.append(f"{r[p]['calls_per_second']:.0f} ({r[p]['p50_us']:.0f})")
            cells.append(f"{r[p + '_ratio']:.2f}; {r.get(p + '_cpu_ratio', 0):.2f}")
        out.append(f"| {r['game']} | {r['state']} | " + " | ".join(cells) + " |")
    return out


# ----- the web page (clients/web): a click to the redrawn board, in Debian's chromium -----

WEB_GAMES = [("kraby", 2, 7), ("crab_bucket", 3, 12), ("crab_rage", 3, 13)]


def web_page_rows(quick: bool) -> list[dict]:
    """A scripted game of each title played through the page (tests/web_page.py: seat 0 a
    human clicking the board, bots in the other seats, sealing on), timed in the page from the
    click to the next frame after the board is redrawn: median and phases (ApplyMove, GetView,
    drawing, to the frame). Quick: Crab Bucket only."""
    import statistics

    from tests import web_page

    rows = []
    with web_page.browser() as launched, web_page.server(sealed=True) as server:
        for game, players, seed in WEB_GAMES[1:2] if quick else WEB_GAMES:
            page, _ = web_page.open_page(launched, server.http_url)
            seats = ["human"] + ["bot"] * (players - 1)
            played = web_page.play_game(page, server.stub, game, seats, seed)
            page.close()
            phases = {k: statistics.median(p[k] for p in played.phases) for k in played.phases[0]}
            rows.append(
                {"game": game, "clicks": len(played.click_ms), "median_ms": played.median_ms}
                | {f"{k}_ms": v for k, v in phases.items()}
            )
            print(
                f"{game:12} {len(played.click_ms)} clicks, click to redrawn board median"
                f" {played.median_ms:.1f} ms ("
                + ", ".join(f"{k} {v:.1f}" for k, v in phases.items())
                + ")",
                flush=True,
            )
    return rows


def web_page_markdown(rows: list[dict]) -> list[str]:
    out = [
        "",
        "The web page (clients/web) in headless chromium, a sealed game of each title with seat 0"
        " clicking the board: from the click to the next frame after the redrawn board, median ms"
        " (and its phases' medians). Goal: under 50 ms.",
        "",
        "| game | clicks | median | ApplyMove | GetView | draw | to the frame |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['game']} | {r['clicks']} | {r['median_ms']:.1f} | {r['apply_ms']:.1f} |"
            f" {r['view_ms']:.1f} | {r['draw_ms']:.1f} | {r['frame_ms']:.1f} |"
        )
    return out


# ----- end of the web page -----


def markdown(results: dict) -> str:
    out = [
        f"Measured {results['when']} on {results['machine']} ({results['cores']} cores),"
        f" Python {results['python']}, grpcio {results['grpcio']}; loopback, one client"
        " connection, sequential calls. Wall ratio = calls/s of the RPC / calls/s of the no-op"
        " RPC carrying the same request through the same server; CPU ratio = the server's CPU per"
        " no-op call / its CPU per call of the RPC (the wall ratio if the server's core were the"
        " limit; steadier on a shared machine). Goal: at least 0.8.",
        "",
        "| game | state | bytes | moves | LegalMoves /s (p50, p99 µs) | ratio wall; CPU |"
        " ApplyMove /s (p50, p99 µs) | ratio wall; CPU | no-op /s (server CPU µs/call) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results["rpc"]:
        lm, am, noop = r["LegalMoves"], r["ApplyMove"], r["ApplyMove_noop"]
        out.append(
            f"| {r['game']} | {r['state']} | {r['state_bytes']} | {r['legal_moves']} |"
            f" {lm['calls_per_second']:.0f} ({lm['p50_us']:.0f}, {lm['p99_us']:.0f}) |"
            f" {r['LegalMoves_ratio']:.2f}; {r.get('LegalMoves_cpu_ratio', 0):.2f} |"
            f" {am['calls_per_second']:.0f} ({am['p50_us']:.0f}, {am['p99_us']:.0f}) |"
            f" {r['ApplyMove_ratio']:.2f}; {r.get('ApplyMove_cpu_ratio', 0):.2f} |"
            f" {noop['calls_per_second']:.0f} ({noop['server_cpu_us']:.0f}) |"
        )
    out += [
        "",
        "| game | players | random games/s/core in-process (native; Engine API) |"
        " one game move by move over gRPC | one game inside the server (Playouts) | speed-up |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in results["games"]:
        out.append(
            f"| {r['game']} | {r['players']} | {r['native_games_per_second']:.1f};"
            f" {r['engine_api_games_per_second']:.1f} |"
            f" {r['grpc_move_by_move_ms_per_game']:.1f} ms ({r['moves_per_game']:.0f} moves) |"
            f" {r['playouts_ms_per_game']:.2f} ms | {r['playouts_speedup']:.0f}x |"
        )
    out += [
        "",
        "| game | players | ApplyMove, every event list: /s, answer bytes, server CPU µs |"
        " own seat's list only (EventSelection) | bytes saved |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in results.get("selection", []):
        every, own = r["every_list"], r["own_seat"]
        out.append(
            f"| {r['game']} | {r['players']} | {every['calls_per_second']:.0f},"
            f" {r['every_list_bytes']}, {every['server_cpu_us']:.0f} |"
            f" {own['calls_per_second']:.0f}, {r['own_seat_bytes']}, {own['server_cpu_us']:.0f} |"
            f" {1 - r['own_seat_bytes'] / r['every_list_bytes']:.0%} |"
        )
    s = results["stream"]
    out += [
        "",
        f"ApplyMoves (one bidirectional stream): {s['stream']['calls_per_second']:.0f} moves/s"
        f" against {s['unary']['calls_per_second']:.0f}/s unary (x{s['stream_over_unary']:.2f});"
        f" server CPU per move {s['stream']['server_cpu_us']:.0f} µs streamed,"
        f" {s['unary']['server_cpu_us']:.0f} µs unary.",
    ]
    if results["workers"]:
        out += [
            "",
            "| workload | load | 1 worker /s | 2 workers /s | speed-up |",
            "|---|---|---:|---:|---:|",
        ]
        for r in results["workers"]:
            out.append(
                f"| {r['workload']} | {r['load']} | {r['workers_1']:.0f} |"
                f" {r['workers_2']:.0f} | {r['speedup']:.2f}x |"
            )
    if results.get("agents"):
        out += agent_markdown(results["agents"])
    if results.get("bulk"):
        out += ["", "The rules for bulk callers, pure -> compiled (bench/bulk.py):", ""]
        out += bulk.markdown(results["bulk"])
    if results.get("fisher_model"):
        model = results["fisher_model"]
        out += [
            "",
            "| Kraby's fisher model, 4 fishers | moves a decision | playing each move |"
            " from the board's groups |",
            "|---|---:|---:|---:|",
            f"| the lead after every legal move | {model['moves_per_decision']:.0f} |"
            f" {model['played_us_per_decision']:.0f} us |"
            f" {model['from_groups_us_per_decision']:.0f} us |",
        ]
    if results.get("browser"):
        out += browser_markdown(results["browser"])
    if results.get("web_page"):  # the web page (clients/web)
        out += web_page_markdown(results["web_page"])
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short timings (a smoke run)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per measurement")
    parser.add_argument(
        "--clients",
        type=int,
        default=8 if H2LOAD else 4,
        help="connections (h2load) or load processes (without it) for the worker rows",
    )
    parser.add_argument("--out", default=str(HERE), help="where results.md/.json go")
    args = parser.parse_args()
    seconds = args.seconds or (0.3 if args.quick else 1.5)
    engine = Engine(all_games())
    results = {
        "when": time.strftime("%Y-%m-%d"),
        "machine": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "grpcio": grpc.__version__,
        "seconds": seconds,
    }
    server = BenchServer(1)
    try:
        channel = server.channel()
        print("== unary RPCs against the no-op floor", flush=True)
        results["rpc"] = rpc_rows(engine, channel, seconds, server.process.pid)
        print("== whole games", flush=True)
        results["games"] = game_rows(engine, channel, seconds)
        print("== asking only for one's own events", flush=True)
        results["selection"] = selection_rows(engine, channel, seconds, server.process.pid)
        print("== a stream of moves", flush=True)
        results["stream"] = stream_row(engine, channel, seconds, server.process.pid)
        channel.close()
        print("== learning agents and the search bot", flush=True)
        results["agents"] = agent_rows(engine, server.address, seconds)
        results["fisher_model"] = fisher_model_row(engine, seconds)
    finally:
        server.stop()
    print("== the rules for bulk callers, pure beside compiled", flush=True)  # bench/bulk.py
    results["bulk"] = bulk.side_by_side(seconds)
    print("== browser protocols: Connect and gRPC-Web beside gRPC", flush=True)
    results["browser"] = browser_rows(engine, seconds)
    print("== the web page: a click to the redrawn board", flush=True)  # clients/web
    results["web_page"] = web_page_rows(args.quick)
    print("== worker processes", flush=True)
    results["workers"] = worker_rows(engine, seconds * 2, args.clients)
    out = Path(args.out)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(markdown(results))
    print(f"\nwritten {out / 'results.md'} and {out / 'results.json'}")


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    main()
