"""Shared set-up for the property-based tests (test_fuzz.py, test_sealing.py): hypothesis
settings sized for CI or a large run, every served game's conformance cases, recorded games to
mutate, and the status codes a client may ever see."""

from __future__ import annotations

import base64
import functools
import importlib
import os
import traceback

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

ENGINE = Engine(all_games())
SERVED = list(ENGINE.games)


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
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


@st.composite
def recorded_states(draw, seeds: int = 2):
    """A state some legal game reached: Picked(record, index)."""
    record = recorded(draw(st.integers(0, len(CASES) - 1)), draw(st.integers(1, seeds)))
    return Picked((record, draw(st.integers(0, len(record.states) - 1))))


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


def crash_report(call, *args) -> str | None:
    """None when the call returns or raises a client error; otherwise the traceback."""
    try:
        call(*args)
    except RulesError:
        return None
    except Exception:
        return traceback.format_exc()
    return None


def sealer_for_tests(*ids: str) -> Sealer:
    """A key ring with fixed test keys (never use these anywhere else)."""
    keys = {i: base64.b64encode(bytes([n + 1]) * 32).decode() for n, i in enumerate("abcdefgh")}
    return Sealer.parse(",".join(f"key-{i}:{keys[i]}" for i in ids or ("a",)))
