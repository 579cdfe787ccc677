"""Property-based tests for every served game (hypothesis): random games keep their invariants
after every move; mutated and random states, moves and bytes never crash the engine nor the real
server (no UNKNOWN, no INTERNAL, no hang); views do not change when only hidden information
changes; a seeded game is byte-identical in separate processes.

Sized for CI by default; `make fuzz-large` (CRABGAMES_FUZZ=large) runs many more examples."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import random
import resource
import subprocess
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import given
from hypothesis import strategies as st

from crabgames.core.errors import RulesError
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.fuzzing import (
    CALL_TIMEOUT,
    CASES,
    CLIENT_ERRORS,
    ENGINE,
    SERVED,
    SERVICE,
    cap_memory,
    counted,
    crash_report,
    fuzz_settings,
    raw_call,
    recorded_states,
    start_capped_server,
    stop_server,
    viewers,
)
from tests.mutate import flipped_bytes, mutated
from tests.playthrough import GAME_OVER, encode, play_random

# Recorded games per case to mutate: a large run draws from more of them.
SEEDS = 6 if os.environ.get("CRABGAMES_FUZZ") == "large" else 2
# The test process's own address space may grow this much past its start: a mutated count that
# makes the engine allocate gigabytes raises MemoryError (reported as a crash) instead.
ENGINE_MEMORY_HEADROOM = 3 * 1024**3


@pytest.fixture(scope="module", autouse=True)
def engine_memory_cap():
    before = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/status") as status:
        mapped = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))
    cap_memory(mapped + ENGINE_MEMORY_HEADROOM)
    yield
    resource.setrlimit(resource.RLIMIT_AS, before)


@pytest.fixture(scope="module")
def fuzz_channel():
    """A channel to a real server process of its own, memory-capped (fuzzing.SERVER_MEMORY_CAP):
    what the fuzzing makes it allocate cannot take down the test process or the machine."""
    process, address = start_capped_server()
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=15)
            yield channel
    finally:
        stop_server(process)


def check_invariants(state: game_pb2.GameState) -> None:
    match = ENGINE.decode(state)
    assert match.game.invariant_violations(match.state) == []
    assert encode(ENGINE.encode(match)) == encode(state), "decode/encode is not lossless"


@fuzz_settings(6)
@given(
    case=st.integers(0, len(CASES) - 1),
    seed=st.integers(1, 2**63 - 1),
    mode=st.sampled_from([game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT]),
)
def test_random_games_keep_every_invariant_after_every_move(case, seed, mode):
    game_id, players, options = CASES[case]
    versions = []

    def after(state):
        check_invariants(state)
        versions.append(state.version)

    record = play_random(ENGINE, game_id, players, options, seed, mode, after_move=after)
    assert record.states[-1].next.kind == GAME_OVER
    assert versions == sorted(set(versions)), "every applied move increases the version"


def engine_calls(state: game_pb2.GameState, move: game_pb2.Move):
    """Every engine entry point a client reaches with this state and move, with its target name
    for the counts."""
    legal_moves = functools.partial(ENGINE.legal_moves_response_bytes, with_mask=True)
    yield "engine LegalMoves", legal_moves, state
    for viewer in viewers(state.num_players):
        yield "engine GetView", ENGINE.view, state, viewer
    yield "engine ApplyMove", ENGINE.apply_move, state, move
    yield "engine ApplyMove", ENGINE.apply_move, state, move, True


def first_legal(state: game_pb2.GameState) -> game_pb2.Move:
    moves, _ = ENGINE.legal_moves(state)
    return moves[0] if moves else game_pb2.Move()


@fuzz_settings(50, large=5000)
@pytest.mark.parametrize("game_id", SERVED)
@given(data=st.data())
def test_mutated_states_never_crash_the_engine(game_id, data):
    record, index = data.draw(recorded_states(SEEDS, game_id))
    state, changes = data.draw(mutated(record.states[index]))
    move = first_legal(record.states[index])
    with contextlib.suppress(RulesError):  # a state the engine accepts keeps every invariant
        match = ENGINE.decode(state)
        assert match.game.invariant_violations(match.state) == [], changes
    for target, call, *args in engine_calls(state, move):
        counted(game_id, target)
        crash = crash_report(call, *args)
        assert crash is None, f"{record.game_id} state {changes}: {call.__name__}\n{crash}"


@fuzz_settings(50, large=15000)
@pytest.mark.parametrize("game_id", SERVED)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_mutated_views_never_crash_sample_state(game_id, data, seed):
    record, index = data.draw(recorded_states(SEEDS, game_id))
    original = record.states[index]
    seat = data.draw(st.integers(0, record.num_players - 1))
    view, changes = data.draw(mutated(ENGINE.view(original, seat)))
    counted(game_id, "engine SampleState")
    sampled: list[game_pb2.GameState] = []
    crash = crash_report(lambda: sampled.append(ENGINE.sample_state(view, seed)))
    assert crash is None, f"{game_id} view of seat {seat} {changes}: sample_state\n{crash}"
    if not sampled:
        return  # refused with a client error
    state = sampled[0]
    # The server made this state: it decodes, keeps every invariant and plays like any other.
    check_invariants(state)
    for _target, call, *args in engine_calls(state, first_legal(state)):
        crash = crash_report(call, *args)
        assert crash is None, f"{game_id} state sampled from {changes}: {call.__name__}\n{crash}"


@fuzz_settings(30, large=6000)
@pytest.mark.parametrize("game_id", SERVED)
@given(data=st.data())
def test_mutated_moves_never_crash_the_engine(game_id, data):
    record, index = data.draw(recorded_states(SEEDS, game_id))
    state = record.states[index]
    move, changes = data.draw(mutated(first_legal(state)))
    counted(game_id, "engine ApplyMove (move)")
    crash = crash_report(ENGINE.apply_move, state, move)
    assert crash is None, f"{record.game_id} move {changes}\n{crash}"


@fuzz_settings(15, large=3000)
@pytest.mark.parametrize("game_id", SERVED)
@given(data=st.data())
def test_mutated_options_never_crash_new_game_or_replay(game_id, data):
    record, _ = data.draw(recorded_states(SEEDS, game_id))
    options, changes = data.draw(mutated(record.options))
    args = (record.game_id, options, record.num_players, record.seed, record.chance_mode)
    counted(game_id, "engine NewGame, Replay (options)", 2)
    crash = crash_report(ENGINE.new_game, *args)
    assert crash is None, f"{record.game_id} options {changes}\n{crash}"
    crash = crash_report(ENGINE.replay, *args, record.moves[:30])
    assert crash is None, f"{record.game_id} options {changes} (replay)\n{crash}"


def server_requests(record, index: int, data) -> tuple[dict[str, tuple[str, bytes]], str]:
    """Each target's mutated request to the server, from a recorded state: {target: (method,
    request bytes)}, and what was changed."""
    original = record.states[index]
    state, changes = data.draw(mutated(original))
    move, move_changes = data.draw(mutated(first_legal(original), max_changes=1))
    viewer = data.draw(st.sampled_from(viewers(record.num_players)[1:]))
    seat = data.draw(st.integers(0, record.num_players - 1))
    view, view_changes = data.draw(mutated(ENGINE.view(original, seat)))
    replay = api.ReplayRequest(
        new_game=api.NewGameRequest(num_players=record.num_players, seed=record.seed),
        moves=[*record.moves[:index], move],
    )
    getattr(replay.new_game, record.game_id).CopyFrom(record.options)
    requests = {
        "LegalMoves": ("LegalMoves", api.LegalMovesRequest(state=state)),
        "GetView": ("GetView", api.GetViewRequest(state=state, player=viewer)),
        "GetView (spectator)": ("GetView", api.GetViewRequest(state=state, spectator=True)),
        "ApplyMove": ("ApplyMove", api.ApplyMoveRequest(state=state, move=move)),
        "Replay": ("Replay", replay),
        "SampleState": ("SampleState", api.SampleStateRequest(view=view, seed=seat)),
        "SuggestMove (view)": (
            "SuggestMove",
            api.SuggestMoveRequest(view=view, max_simulations=3, seed=seat + 1),
        ),
        "SuggestMove (state)": (
            "SuggestMove",
            api.SuggestMoveRequest(state=state, max_simulations=3, seed=seat + 1),
        ),
    }
    described = f"state {changes} move {move_changes} view of seat {seat} {view_changes}"
    return {t: (m, r.SerializeToString()) for t, (m, r) in requests.items()}, described


@fuzz_settings(15, large=3000)
@pytest.mark.parametrize("game_id", SERVED)
@given(data=st.data())
def test_mutated_requests_through_the_real_server_get_only_client_errors(
    game_id, data, fuzz_channel
):
    record, index = data.draw(recorded_states(SEEDS, game_id))
    requests, changes = server_requests(record, index, data)
    for target, (method, request) in requests.items():
        counted(game_id, f"server {target}")
        code = raw_call(fuzz_channel, method, request)
        assert code in CLIENT_ERRORS, f"{target} {record.game_id} {changes}: {code}"
        flipped = data.draw(flipped_bytes(request))
        counted(game_id, f"server {target} (flipped bytes)")
        code = raw_call(fuzz_channel, method, flipped)
        assert code in CLIENT_ERRORS, f"{target} {record.game_id} flipped bytes: {code}"


@fuzz_settings(30)
@given(method=st.sampled_from([m.name for m in SERVICE.methods]), data=st.binary(max_size=300))
def test_random_bytes_to_any_method_get_only_client_errors(method, data, fuzz_channel):
    counted("any", "server, any method (random bytes)")
    assert raw_call(fuzz_channel, method, data) in CLIENT_ERRORS


def test_the_server_still_serves_after_the_fuzzing(fuzz_channel):
    channel = fuzz_channel
    stub = api_grpc.RulesServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=CALL_TIMEOUT)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    game_id, players, options = CASES[0]
    request = api.NewGameRequest(num_players=players, seed=5)
    getattr(request, game_id).CopyFrom(options)
    state = stub.NewGame(request, timeout=CALL_TIMEOUT).state
    assert stub.LegalMoves(api.LegalMovesRequest(state=state), timeout=CALL_TIMEOUT).moves


@fuzz_settings(40)
@given(picked=recorded_states(), viewer_pick=st.integers(-1, 5), rng_seed=st.integers(0, 2**32))
def test_a_view_never_changes_when_only_hidden_information_changes(picked, viewer_pick, rng_seed):
    record, index = picked
    state = record.states[index]
    viewer = None if viewer_pick < 0 else viewer_pick % record.num_players
    view = encode(ENGINE.view(state, viewer))
    match = ENGINE.decode(state)
    rng = random.Random(rng_seed)
    match.state = match.game.resample_hidden(match.state, viewer, rng)
    match.seed = match.prng.seed = rng.getrandbits(63) or 1
    match.prng.counter = rng.getrandbits(16)
    other = ENGINE.encode(match)
    check_invariants(other)
    assert encode(ENGINE.view(other, viewer)) == view


DIGEST_SCRIPT = """
import hashlib, json, sys
from tests.fuzzing import CASES, ENGINE
from tests.playthrough import encode, play_random
out = []
for case, seed in json.loads(sys.argv[1]):
    game_id, players, options = CASES[case]
    record = play_random(ENGINE, game_id, players, options, seed)
    digest = hashlib.sha256()
    for state in record.states:
        digest.update(encode(state))
    out.append(digest.hexdigest())
print(json.dumps(out))
"""


def digests_in_a_new_process(games: list[tuple[int, int]], hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", DIGEST_SCRIPT, json.dumps(games)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    return json.loads(done.stdout)


def test_a_seeded_game_is_byte_identical_in_separate_processes():
    rng = random.Random(2024)
    games = [(case, rng.randrange(1, 2**63)) for case in range(len(CASES))]
    here = []
    for case, seed in games:
        game_id, players, options = CASES[case]
        digest = hashlib.sha256()
        for state in play_random(ENGINE, game_id, players, options, seed).states:
            digest.update(encode(state))
        here.append(digest.hexdigest())
    # Different string hashing in each process: set and dict order must not leak into a game.
    assert digests_in_a_new_process(games, "1") == here
    assert digests_in_a_new_process(games, "4242") == here


@pytest.mark.parametrize("method", [m.name for m in SERVICE.methods])
def test_an_undecodable_request_is_invalid_argument(channel, method):
    assert raw_call(channel, method, b"\xff\xff\xff") == grpc.StatusCode.INVALID_ARGUMENT
