"""Hostile callers cannot hurt the service (issue 13, docs/security.md), each tried against a
real server on loopback: idle and withheld calls hold no worker, long work stops at its budget
and at the caller's deadline, a unary call carries exactly one request, numbers at their limits
and padded states are refused with their field, and errors never echo a caller's string whole.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from crabgames.core.engine import MAX_VERSION
from crabgames.service import edge
from crabgames.service.admission import Waiting
from crabgames.service.calls import Aborted
from crabgames.service.edge import SWEEP_SECONDS
from crabgames.service.server import serve
from crabgames.v1 import crab_rage_pb2, game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.test_sealing import environment
from tests.test_server import details, new_state

RULES = "/crabgames.v1.RulesService"


@contextlib.contextmanager
def server(**limits: float) -> Iterator[tuple[grpc.Channel, object]]:
    """A server of its own with some of edge.py's limits lowered for the test."""
    saved = {name: getattr(edge, name) for name in limits}
    for name, value in limits.items():
        setattr(edge, name, value)
    running = serve("127.0.0.1:0")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield channel, running
    finally:
        running.stop(0)
        for name, value in saved.items():
            setattr(edge, name, value)


def settled(condition, seconds: float = 3.0) -> bool:
    """Whether `condition` holds within `seconds` (the server finishes a call just after its
    caller has the status)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def withheld(release: threading.Event) -> Iterator[bytes]:
    """A request stream that sends nothing until released, then ends: a body that never comes."""
    release.wait(30)
    return
    yield b""  # a generator


def healthy(channel: grpc.Channel) -> bool:
    check = health_pb2_grpc.HealthStub(channel).Check
    answer = check(health_pb2.HealthCheckRequest(service="crabgames.v1.RulesService"), timeout=2)
    return answer.status == health_pb2.HealthCheckResponse.SERVING


def test_idle_streams_and_withheld_bodies_hold_no_worker():
    with server() as (channel, _):
        release = threading.Event()
        raw_unary = channel.stream_unary(f"{RULES}/ListGames")
        raw_stream = channel.stream_stream(f"{RULES}/ApplyMoves")
        idle = [raw_stream(withheld(release)) for _ in range(64)]
        bodiless = [raw_unary.future(withheld(release)) for _ in range(16)]
        try:
            time.sleep(0.5)  # every idle call has reached the server
            stub = api_grpc.RulesServiceStub(channel)
            started = time.monotonic()
            for _ in range(20):
                assert stub.ListGames(api.ListGamesRequest(), timeout=2).games
                assert healthy(channel)
            assert new_state(stub).kraby
            assert time.monotonic() - started < 10
        finally:
            release.set()
            for call in idle:
                call.cancel()
            for call in bodiless:
                call.cancel()


def test_a_body_that_never_comes_and_an_idle_stream_time_out():
    with server(REQUEST_SECONDS=0.5, STREAM_IDLE_SECONDS=0.5) as (channel, running):
        release = threading.Event()
        try:
            unary = channel.stream_unary(f"{RULES}/NewGame").future(withheld(release))
            stream = channel.stream_stream(f"{RULES}/ApplyMoves")(withheld(release))
            with pytest.raises(grpc.RpcError) as caught:
                unary.result(timeout=10)
            assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert "did not arrive within 0.5 s" in caught.value.details()
            with pytest.raises(grpc.RpcError) as caught:
                list(stream)
            assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        finally:
            release.set()
        assert settled(lambda: running.edge.calls == 0)  # nothing left behind


def request_messages(count: int) -> Iterator[bytes]:
    for _ in range(count):
        yield api.ListGamesRequest().SerializeToString()


def test_a_unary_call_without_a_request_is_invalid_argument(channel):
    call = channel.stream_unary(f"{RULES}/ListGames")
    with pytest.raises(grpc.RpcError) as caught:
        call(request_messages(0), timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details(caught.value)["BadRequest"].field_violations[0].field == "request"
    assert call(request_messages(1), timeout=10)  # and one is answered


@pytest.mark.parametrize("count", [2, 3])
def test_a_unary_call_is_answered_from_its_first_request_as_grpcs_own_are(channel, count):
    """The answer comes once the first message is read; what follows it is never read (gRPC's
    own unary calls answer a stream of several the same way)."""
    call = channel.stream_unary(
        f"{RULES}/ListGames", response_deserializer=api.ListGamesResponse.FromString
    )
    assert call(request_messages(count), timeout=10).games


def raging_state(stub, rage: int) -> game_pb2.GameState:
    """A CRAB RAGE! state whose players hold `rage` (Smash and re-rolls get costly)."""
    options = crab_rage_pb2.CrabRageOptions()
    request = api.NewGameRequest(num_players=5, seed=3, crab_rage=options)
    state = stub.NewGame(request, timeout=10).state
    for player in state.crab_rage.players:
        player.rage = rage
    return state


def test_long_work_stops_at_its_time_budget():
    with server(WORK_SECONDS=0.5) as (channel, _):
        stub = api_grpc.RulesServiceStub(channel)
        state = raging_state(stub, 100_000)
        started = time.monotonic()
        answer = stub.Playouts(api.PlayoutsRequest(state=state, count=10_000, seed=1), timeout=30)
        assert time.monotonic() - started < 3
        assert answer.truncated and answer.games < 10_000


def test_a_search_stops_at_the_work_bound_whatever_its_budget_asks():
    """SuggestMove with 5 s of budget on a server whose long calls may work 0.5 s, from a state
    where every manager holds a rage no real game reaches: the answer still comes in time."""
    with server(WORK_SECONDS=0.5) as (channel, _):
        stub = api_grpc.RulesServiceStub(channel)
        state = raging_state(stub, 100_000)
        started = time.monotonic()
        request = api.SuggestMoveRequest(state=state, max_milliseconds=5000, seed=1)
        answer = stub.SuggestMove(request, timeout=30)
        assert time.monotonic() - started < 3
        assert answer.stopped_by_time and len(answer.moves) <= 256
        moved = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=answer.move), timeout=30)
        assert moved.state.version > state.version


def test_work_whose_caller_gave_up_stops_and_frees_the_server():
    with server(WORK_SECONDS=60) as (channel, running):
        stub = api_grpc.RulesServiceStub(channel)
        state = raging_state(stub, 100_000)
        request = api.PlayoutsRequest(state=state, count=10_000, seed=1)
        for _ in range(4):
            started = time.monotonic()
            try:  # the server stops at the deadline: the caller gets nothing, or what it did
                assert stub.Playouts(request, timeout=0.02).truncated
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert time.monotonic() - started < 0.5
        # The abandoned work stopped within a few checks.
        assert settled(lambda: running.edge.long_calls == 0)
        started = time.monotonic()
        assert stub.ListGames(api.ListGamesRequest(), timeout=2).games
        assert time.monotonic() - started < 1


def test_the_health_service_answers_while_long_calls_fill_the_server():
    with server() as (channel, _):
        stub = api_grpc.RulesServiceStub(channel)
        request = api.PlayoutsRequest(state=raging_state(stub, 1000), count=10_000, seed=1)
        heavy = [stub.Playouts.future(request, timeout=20) for _ in range(16)]
        try:
            time.sleep(0.3)
            for _ in range(5):
                assert healthy(channel)
            codes = set()
            for call in heavy:
                try:
                    call.result()
                    codes.add(grpc.StatusCode.OK)
                except grpc.RpcError as error:
                    codes.add(error.code())
            # Beyond the pool and its queue, long calls are refused at once, never queued.
            assert codes <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
            assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
        finally:
            for call in heavy:
                call.cancel()


def refused(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=10)
    return caught.value


@pytest.fixture(params=["plain", "sealed"])
def any_server(request) -> Iterator[tuple[api_grpc.RulesServiceStub, bool]]:
    sealed = request.param == "sealed"
    keys = "key-a:" + base64.b64encode(bytes(range(32))).decode() if sealed else ""
    with environment(CRABGAMES_SEAL_KEYS=keys):
        running = serve("127.0.0.1:0")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield api_grpc.RulesServiceStub(channel), sealed
    finally:
        running.stop(0)


def test_a_version_at_the_64_bit_limit_is_refused_with_its_field(stub):
    state = new_state(stub)
    for version in (2**64 - 1, MAX_VERSION + 1):
        state.version = version
        error = refused(stub.GetView, api.GetViewRequest(state=state, spectator=True))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert details(error)["BadRequest"].field_violations[0].field == "state.version"


def padded(state: game_pb2.GameState, size: int) -> bytes:
    """A state's bytes with an unknown field (number 1000) of `size` bytes after them."""
    return state.SerializeToString() + b"\xc2\x3e" + _varint(size) + b"x" * size


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def test_a_padded_state_is_refused_and_not_kept(channel, stub):
    state = new_state(stub)
    for method, field in (("GetView", 2), ("LegalMoves", None), ("ApplyMove", None)):
        pad = padded(state, 100 * 1024)  # within the method's bound: parsed, then refused
        request = b"\x0a" + _varint(len(pad)) + pad
        if field:
            request += b"\x18\x01"  # spectator = true
        with pytest.raises(grpc.RpcError) as caught:
            channel.unary_unary(f"{RULES}/{method}")(request, timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method
        violation = details(caught.value)["BadRequest"].field_violations[0]
        assert violation.field == "state" and "unknown field 1000" in violation.description


def test_a_caller_string_is_never_echoed_whole(any_server):
    stub, sealed = any_server
    options = crab_rage_pb2.CrabRageOptions()
    state = stub.NewGame(api.NewGameRequest(num_players=3, crab_rage=options), timeout=10).state
    state.rules_version = "v" * 150_000  # within GetView's bound (160 KiB): parsed
    error = refused(stub.GetView, api.GetViewRequest(state=state, spectator=True))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(error.details()) < 2000
    assert sum(len(value) for _, value in error.trailing_metadata()) < 8000


def huge_smash_state(engine) -> game_pb2.GameState:
    """CRAB RAGE! with Blue to act at 100,000 rage: a Smash offers every X up to 99,999."""
    from crabgames.core.engine import AUTO, Match
    from crabgames.core.prng import Prng
    from crabgames.games.crab_rage import GAME
    from tests.crab_rage.helpers import smashing

    match = Match(GAME, 4, 7, Prng(7), AUTO, 0, smashing(100_000))
    return engine.encode(match)


def test_a_decision_with_too_many_moves_to_list_is_refused_before_encoding(engine, stub):
    from crabgames.core.engine import MAX_LISTED_MOVES

    state = huge_smash_state(engine)
    started = time.monotonic()
    error = refused(stub.LegalMoves, api.LegalMovesRequest(state=state))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details(error)["ErrorInfo"].reason == "TOO_MANY_MOVES"
    assert f"at most {MAX_LISTED_MOVES}" in error.details()
    assert time.monotonic() - started < 2  # refused before encoding 100,000 moves
    # The moves stay legal: the player sends one.
    move = game_pb2.Move(player=state.next.player)
    move.crab_rage.CopyFrom(smash_message(state))
    assert stub.ApplyMove(api.ApplyMoveRequest(state=state, move=move), timeout=10).state.version


def smash_message(state: game_pb2.GameState):
    """Blue's Smash with X = 50,000 on Yellow's crab 3, as a move message."""
    from crabgames.games.crab_rage import GAME
    from crabgames.v1 import crab_rage_pb2 as pb
    from tests.crab_rage.helpers import smash

    message = pb.CrabRageMove()
    GAME.codec.encode_move(smash(50_000), message)
    return message


def test_waits_for_a_request_are_swept_in_time_and_the_sweeps_stop_when_none_waits():
    """Waiting (admission.py) times every wait for a request with one sweep: a short wait is
    refused once its time is up while a longer one still waits, a message that comes in time is
    answered, a wait cancelled by its transport stays cancelled, and an idle server is not
    swept."""
    waiting = Waiting(SWEEP_SECONDS)

    async def never() -> object:
        await asyncio.Event().wait()

    async def soon() -> object:
        await asyncio.sleep(0.05)
        return "message"

    async def waits() -> None:
        short = asyncio.create_task(waiting.next_message(never, 0.2, "the short one"))
        long = asyncio.create_task(waiting.next_message(never, 30.0, "the long one"))
        answered = asyncio.create_task(waiting.next_message(soon, 0.2, "the answered one"))
        assert await answered == "message"
        with pytest.raises(Aborted) as refused:
            await asyncio.wait_for(short, 2)
        assert refused.value.status.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "the short one did not arrive within 0.2 s" in refused.value.status.details
        assert not long.done() and waiting.sweeping
        long.cancel()  # as a transport does when its caller goes away
        with pytest.raises(asyncio.CancelledError):
            await long
        await asyncio.sleep(2 * SWEEP_SECONDS)
        assert not waiting.sweeping and not any(waiting.by_length.values())
        assert not waiting.late

    asyncio.run(waits())
