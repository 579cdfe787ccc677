"""Shared set-up for the property-based tests (test_fuzz.py, test_sealing.py): hypothesis
settings sized for CI or a large run, every served game's conformance cases, recorded games to
mutate, and the status codes a client may ever see."""

from __future__ import annotations

import base64
import collections
import contextlib
import functools
import importlib
import os
import resource
import signal
import subprocess
import threading
import traceback
from collections.abc import Iterator

import grpc
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from crabgames.core.engine import Engine
from crabgames.core.errors import RulesError
from crabgames.games import all_games
from crabgames.service.sealing import Sealer
from crabgames.v1 import rules_service_pb2 as api
from tests.playthrough import Record, play_random

SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]

# CRABGAMES_FUZZ=large (make fuzz-large) multiplies every example count by LARGE_SCALE and draws
# fresh examples each run; the default `ci` size is derandomized so CI is reproducible.
PROFILE = os.environ.get("CRABGAMES_FUZZ", "ci")
LARGE_SCALE = int(os.environ.get("CRABGAMES_FUZZ_SCALE", "25"))
SCALE = LARGE_SCALE if PROFILE == "large" else 1

# What a client may see. UNKNOWN, INTERNAL, DEADLINE_EXCEEDED (a hang), UNAVAILABLE (a dead
# server) are always bugs.
CLIENT_ERRORS = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.PERMISSION_DENIED,
}
# Any single call, whatever its input, must answer long before this (a hang detector, not a
# performance goal: those live in `make bench`).
CALL_TIMEOUT = 20.0
# An in-process engine call gets this long before it is reported as a crash (a runaway loop on
# a mutated count); the same bound as the server's hang detector.
ENGINE_SECONDS = CALL_TIMEOUT
# A fuzzed server process may map this much: a mutated count that makes the server allocate
# gigabytes then ends in MemoryError (a finding: INTERNAL) instead of taking the machine down.
SERVER_MEMORY_CAP = 2 * 1024**3

ENGINE = Engine(all_games())
SERVED = list(ENGINE.games)


def fuzz_settings(examples: int, large: int | None = None) -> settings:
    """`examples` at CI size; a large run takes `large` (when given) or `examples` * SCALE. A
    large count is also scaled by CRABGAMES_FUZZ_SCALE relative to its default of 25."""
    count = examples * SCALE if large is None or PROFILE != "large" else large * SCALE // 25
    return settings(
        max_examples=max(1, count),
        deadline=None,
        derandomize=PROFILE != "large",
        database=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )


def cases() -> list[tuple[str, int, object]]:
    found = []
    for game_id in SERVED:
        module = importlib.import_module(f"tests.cases.{game_id}")
        found.extend((game_id, players, options) for players, options in module.CASES)
    return found


CASES = cases()


@functools.cache
def recorded(case_index: int, seed: int) -> Record:
    game_id, players, options = CASES[case_index]
    return play_random(ENGINE, game_id, players, options, seed)


class Picked(tuple):
    """(record, index of a state in it), shown by hypothesis as its short key only."""

    def __repr__(self) -> str:
        record, index = self
        return f"<{record.game_id} {record.num_players}p seed {record.seed} state {index}>"


def case_indexes(game_id: str | None = None) -> list[int]:
    return [i for i, (game, _, _) in enumerate(CASES) if game_id in (None, game)]


@st.composite
def recorded_states(draw, seeds: int = 2, game_id: str | None = None):
    """A state some legal game (of `game_id`, or any game) reached: Picked(record, index)."""
    record = recorded(draw(st.sampled_from(case_indexes(game_id))), draw(st.integers(1, seeds)))
    return Picked((record, draw(st.integers(0, len(record.states) - 1))))


def viewers(num_players: int) -> list[int | None]:
    """The viewers worth trying for a state claiming `num_players`: the spectator, the seats at
    both ends and just outside them. Never a range over the count: it is a mutated value (a
    range over 134 million seats is what made `make fuzz-large` grow to 22 GB)."""
    edges = {-1, 0, 1, num_players - 1, num_players, num_players + 1, 2**31 - 1}
    return [None, *sorted(v for v in edges if -(2**31) <= v < 2**31)]


# Fuzzed inputs by (game, target), e.g. ("kraby", "server SampleState"): printed at the end of
# the session (tests/conftest.py), so a large run shows what it covered.
FUZZED: collections.Counter[tuple[str, str]] = collections.Counter()


def counted(game_id: str, target: str, inputs: int = 1) -> None:
    FUZZED[(game_id, target)] += inputs


def fuzz_summary() -> list[str]:
    """The FUZZED counts as lines of a table, one row per game, and the total per game."""
    if not FUZZED:
        return []
    targets = sorted({target for _, target in FUZZED})
    games = sorted({game for game, _ in FUZZED})
    width = max(len(t) for t in targets)
    lines = [f"{'fuzzed inputs':<{width}}  " + "  ".join(f"{g:>12}" for g in games)]
    for target in [*targets, "total"]:
        counts = [
            sum(n for (g, t), n in FUZZED.items() if g == game and target in (t, "total"))
            for game in games
        ]
        lines.append(f"{target:<{width}}  " + "  ".join(f"{n:>12,}" for n in counts))
    return lines


def raw_call(channel: grpc.Channel, method: str, data: bytes) -> grpc.StatusCode:
    """Send raw request bytes to a RulesService method; the status code it ends with."""
    call = channel.unary_unary(
        f"/{SERVICE.full_name}/{method}",
        request_serializer=lambda raw: raw,
        response_deserializer=lambda raw: raw,
    )
    try:
        call(data, timeout=CALL_TIMEOUT)
    except grpc.RpcError as error:
        return error.code()
    return grpc.StatusCode.OK


class TooSlow(Exception):
    """An engine call ran past ENGINE_SECONDS."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TooSlow in the code running after `seconds`. SIGALRM reaches only the main thread,
    where hypothesis runs the tests; elsewhere there is no limit."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum, frame):
        raise TooSlow(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def crash_report(call, *args) -> str | None:
    """None when the call returns or raises a client error; otherwise the traceback (also for
    a call that runs past ENGINE_SECONDS or runs out of memory)."""
    try:
        with time_limit(ENGINE_SECONDS):
            call(*args)
    except RulesError:
        return None
    except Exception:
        return traceback.format_exc()
    return None


def cap_memory(limit: int) -> None:
    """Lower this process's address-space limit to `limit` bytes (never raise it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > ceiling:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))


def start_capped_server(
    env: dict[str, str] | None = None, memory_cap: int = SERVER_MEMORY_CAP
) -> tuple[subprocess.Popen, str]:
    """`python -m crabgames.service` on a free loopback port, its address space capped at
    `memory_cap`, logging errors only. Returns the process and its address; the caller stops
    it (stop_server)."""
    from bench.attack import capped_server_command

    process = subprocess.Popen(
        capped_server_command(memory_cap, "127.0.0.1:0"),
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "ERROR", **(env or {})},
    )
    line = process.stdout.readline() if process.stdout else ""
    if "listening on" not in line:
        stop_server(process)
        raise AssertionError(f"the server did not start: {line!r}")
    return process, line.split()[-1]


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def sealer_for_tests(*ids: str) -> Sealer:
    """A key ring with fixed test keys (never use these anywhere else)."""
    keys = {i: base64.b64encode(bytes([n + 1]) * 32).decode() for n, i in enumerate("abcdefgh")}
    return Sealer.parse(",".join(f"key-{i}:{keys[i]}" for i in ids or ("a",)))
