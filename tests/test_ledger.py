"""The freshness ledger (docs/security.md, service/ledger.py) on a real redis-server: an older
sealed state is refused (ABORTED, STALE_STATE) by every server of a deployment, so rollback no
longer shows or changes a sealed game's secrets; a store that does not answer makes calls
UNAVAILABLE, never INTERNAL."""

from __future__ import annotations

import base64
import contextlib
import random
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis

from crabgames.core.errors import StaleState
from crabgames.service import ledger as ledger_module
from crabgames.service.ledger import URL_VAR, Ledger, LedgerUnavailable
from crabgames.service.sealing import ENV_VAR
from crabgames.service.server import serve
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server
from tests.fuzzing import CALL_TIMEOUT, CASES, sealer_for_tests
from tests.playthrough import encode, pick
from tests.test_sealing import environment, new_game, raw_keys, refused, sealed_server

KRABY = next(i for i, (game, _, _) in enumerate(CASES) if game == "kraby")
CRAB_RAGE = next(i for i, (game, _, _) in enumerate(CASES) if game == "crab_rage")
STALE = (grpc.StatusCode.ABORTED, "STALE_STATE")
PLAYER = game_pb2.DECIDER_KIND_PLAYER


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A real redis-server (Debian's) on a free loopback port, without persistence. Missing, the
    tests fail: the ledger is only shown working against the real store."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not shutil.which(binary):
        pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def seal_keys_text() -> str:
    """The keys of tests.test_sealing's `sealed` server (a seals, b opens): every server here
    opens every other's states, as the servers of one deployment do."""
    return ",".join(f"{k}:{base64.b64encode(b).decode()}" for k, b in raw_keys("a", "b"))


@contextlib.contextmanager
def ledger_stub(url: str, **env: str) -> Iterator[api_grpc.RulesServiceStub]:
    """An in-process sealing server whose ledger is at `url`."""
    with environment(**{ENV_VAR: seal_keys_text(), URL_VAR: url, **env}):
        running = serve("127.0.0.1:0", threads=2)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
            yield api_grpc.RulesServiceStub(channel)
    finally:
        running.stop(0)


@pytest.fixture(scope="module")
def first(redis_url):
    """Server A of the deployment, in this process."""
    with ledger_stub(redis_url) as stub:
        yield stub


@pytest.fixture(scope="module")
def no_ledger():
    """A sealing server with the same keys and no ledger: what every sealing server was."""
    running, _ = sealed_server("a", "b")
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield api_grpc.RulesServiceStub(channel)
    running.stop(0)


@pytest.fixture(scope="module")
def second(redis_url):
    """Server B: another process (the command-line server), sharing A's keys and ledger."""
    process, address = start_server(env={ENV_VAR: seal_keys_text(), URL_VAR: redis_url})
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
            yield api_grpc.RulesServiceStub(channel)
    finally:
        process.terminate()
        process.wait(timeout=15)


def keys():
    return sealer_for_tests("a", "b")


def moves_of(stub, state, tokens) -> list[game_pb2.Move]:
    request = api.LegalMovesRequest(state=state, player_token=tokens[state.next.player])
    return list(stub.LegalMoves(request, timeout=CALL_TIMEOUT).moves)


def apply(stub, state, move, tokens, **fields) -> api.ApplyMoveResponse:
    request = api.ApplyMoveRequest(
        state=state, move=move, player_token=tokens[state.next.player], **fields
    )
    return stub.ApplyMove(request, timeout=CALL_TIMEOUT)


def seen_by_mover(response: api.ApplyMoveResponse) -> list[str]:
    return [event.text for seat in response.seat_events for event in seat.events]


# ----- the attacks of issue 13, item 6 -----


def test_kraby_trying_moves_from_one_state_to_see_the_next_draw_is_refused(
    first, second, no_ledger
):
    """A Kraby player who moved could send the state before the move again with another move,
    to see which tile each would draw, then keep the best. Another server refuses it."""
    game = new_game(first, KRABY)
    before, tokens = game.state, game.player_tokens
    tried, other = moves_of(first, before, tokens)[:2]
    played = apply(first, before, tried, tokens)
    assert any("draws" in text for text in seen_by_mover(played))  # the draw the move showed
    # Without the ledger the rollback works: another move from the same state, another draw.
    assert any("draws" in text for text in seen_by_mover(apply(no_ledger, before, other, tokens)))
    request = api.ApplyMoveRequest(
        state=before, move=other, player_token=tokens[before.next.player]
    )
    assert refused(second.ApplyMove, request) == STALE
    request.validate_only = True
    assert refused(second.ApplyMove, request) == STALE
    # Reads of the older state are refused too: they would show its secrets again.
    legal = api.LegalMovesRequest(state=before, player_token=tokens[before.next.player])
    assert refused(second.LegalMoves, legal) == STALE
    assert refused(second.GetView, api.GetViewRequest(state=before, spectator=True)) == STALE
    # The newest state goes on from any server.
    after = played.state
    assert moves_of(second, after, tokens)
    next_move = moves_of(second, after, tokens)[0]
    assert apply(second, after, next_move, tokens).state.version > after.version


def test_a_retried_move_whose_answer_was_lost_is_answered_again(first, second):
    """The same move from the same state gives the same state, already the newest: taking it
    again shows nothing new, and a host whose answer was lost can go on."""
    game = new_game(first, KRABY)
    before, tokens = game.state, game.player_tokens
    move = moves_of(first, before, tokens)[0]
    once = apply(first, before, move, tokens)
    again = apply(second, before, move, tokens)
    assert encode(keys().open(again.state).state) == encode(keys().open(once.state).state)
    assert list(again.seat_events) == list(once.seat_events)
    assert moves_of(second, again.state, tokens) == moves_of(first, once.state, tokens)


def test_crab_rage_changing_a_hardcore_fans_commitment_after_the_reveal_is_refused(
    first, second, no_ledger
):
    """The last player to commit hardcore fans commits 0, reads everyone's numbers in the
    reveal, then sends the state before the commitment again with a better number."""
    game = new_game(first, CRAB_RAGE, seed=13)
    state, tokens = game.state, game.player_tokens
    rng = random.Random(13)
    while state.next.kind == PLAYER:
        moves = moves_of(first, state, tokens)
        if state.next.decision != "commit_hardcore_fans":
            state = apply(first, state, pick(rng, moves), tokens).state
            continue
        nothing = min(moves, key=lambda m: m.crab_rage.amount)
        answer = apply(first, state, nothing, tokens)
        revealed = [e.crab_rage.amount for e in answer.public_events if "shouts out" in e.text]
        if revealed:  # this was the last commitment: everyone's numbers are out
            break
        state = answer.state
    else:
        pytest.fail("the game ended without a hardcore fans reveal")
    better = max(moves, key=lambda m: m.crab_rage.amount)
    assert better.crab_rage.amount > 0
    # Without the ledger the attack works: the older state takes the better number.
    retaken = apply(no_ledger, state, better, tokens)
    assert better.crab_rage.amount in [e.crab_rage.amount for e in retaken.public_events]
    request = api.ApplyMoveRequest(state=state, move=better, player_token=tokens[state.next.player])
    assert refused(second.ApplyMove, request) == STALE
    assert refused(first.ApplyMove, request) == STALE


def test_only_one_of_several_moves_from_one_state_at_once_is_taken(first, second):
    """The compare-and-set is atomic: racing moves from one state, through two servers, leave
    exactly one new newest state."""
    game = new_game(first, KRABY)
    before, tokens = game.state, game.player_tokens
    moves = moves_of(first, before, tokens)[:8]

    def attempt(index: int):
        stub = (first, second)[index % 2]
        try:
            return apply(stub, before, moves[index], tokens).state
        except grpc.RpcError as error:
            return error.code()

    with ThreadPoolExecutor(len(moves)) as pool:
        results = list(pool.map(attempt, range(len(moves))))
    taken = [r for r in results if isinstance(r, game_pb2.GameState)]
    assert len(taken) == 1, results
    assert results.count(grpc.StatusCode.ABORTED) == len(moves) - 1
    assert moves_of(second, taken[0], tokens)


def test_sampled_states_need_no_ledger_and_new_games_from_replay_are_recorded(first, second):
    game = new_game(first, KRABY, seed=4)
    view = first.GetView(
        api.GetViewRequest(state=game.state, player=0, player_token=game.player_tokens[0]),
        timeout=CALL_TIMEOUT,
    ).view
    sampled = second.SampleState(api.SampleStateRequest(view=view, seed=3), timeout=CALL_TIMEOUT)
    moves = first.LegalMoves(api.LegalMovesRequest(state=sampled.state), timeout=CALL_TIMEOUT)
    request = api.ApplyMoveRequest(state=sampled.state, move=moves.moves[0])
    assert first.ApplyMove(request, timeout=CALL_TIMEOUT).state.sample_tag
    assert second.ApplyMove(request, timeout=CALL_TIMEOUT).state.sample_tag  # no freshness
    game_id, players, options = CASES[KRABY]
    new = api.NewGameRequest(num_players=players, seed=4)
    getattr(new, game_id).CopyFrom(options)
    replayed = first.Replay(api.ReplayRequest(new_game=new), timeout=CALL_TIMEOUT).state
    view = second.GetView(api.GetViewRequest(state=replayed, spectator=True), timeout=CALL_TIMEOUT)
    assert view.view.spectator


# ----- the store itself -----


def test_each_game_is_one_bounded_key_that_expires(redis_url, first):
    client = redis.Redis.from_url(redis_url)
    game = new_game(first, KRABY)
    instance = keys().open(game.state).instance
    key = ledger_module.key(instance)
    assert len(key) == len(ledger_module.KEY_PREFIX) + 32
    assert instance.hex() not in key  # the store never holds the instance id
    record = client.get(key)
    assert record is not None and len(record) <= 21 + 32
    assert 0 < client.pttl(key) <= ledger_module.DEFAULT_TTL_SECONDS * 1000
    client.delete(key)  # as when the TTL ran out: the game is over for good
    request = api.GetViewRequest(state=game.state, spectator=True)
    assert refused(first.GetView, request) == STALE
    client.close()


def test_the_ledger_refuses_what_is_not_the_newest_state(redis_url):
    ledger = Ledger.connect(redis_url, ttl_seconds=60)
    instance = bytes(range(16))  # the ledger needs no key: the same record on every server
    zero = game_pb2.GameState(version=0, rules_version="r")
    one = game_pb2.GameState(version=1, rules_version="r")
    two = game_pb2.GameState(version=2, rules_version="r")
    with pytest.raises(StaleState, match="not in the freshness ledger"):
        ledger.check(instance, zero)
    ledger.issue(instance, zero)
    ledger.check(instance, zero)
    ledger.advance(instance, zero, one)
    ledger.advance(instance, zero, one)  # the same move again: its result is the newest
    with pytest.raises(StaleState, match="version 1"):
        ledger.advance(instance, zero, two)
    with pytest.raises(StaleState):
        ledger.check(instance, zero)
    forked = game_pb2.GameState(version=1, rules_version="other")
    with pytest.raises(StaleState):
        ledger.check(instance, forked)  # another state at the newest version is not it
    ledger.close()


# ----- an unreachable store: UNAVAILABLE, fail closed, bounded in time -----


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers, like a store that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


UNAVAILABLE = (grpc.StatusCode.UNAVAILABLE, "LEDGER_UNAVAILABLE")


def test_an_unreachable_ledger_makes_sealed_calls_unavailable(first):
    game = new_game(first, KRABY)  # issued while the store answered
    tokens = game.player_tokens
    for url in (f"redis://127.0.0.1:{free_port()}/0", None):
        with contextlib.ExitStack() as stack:
            if url is None:  # a store that accepts and never answers: the timeout ends it
                url = f"redis://127.0.0.1:{stack.enter_context(silent_port())}/0"
            stub = stack.enter_context(ledger_stub(url))
            started = time.monotonic()
            game_id, players, options = CASES[KRABY]
            request = api.NewGameRequest(num_players=players)
            getattr(request, game_id).CopyFrom(options)
            assert refused(stub.NewGame, request) == UNAVAILABLE
            view = api.GetViewRequest(state=game.state, spectator=True)
            assert refused(stub.GetView, view) == UNAVAILABLE
            move = moves_of(first, game.state, tokens)[0]
            moved = api.ApplyMoveRequest(
                state=game.state, move=move, player_token=tokens[game.state.next.player]
            )
            assert refused(stub.ApplyMove, moved) == UNAVAILABLE
            assert time.monotonic() - started < 3 * 2 * ledger_module.TIMEOUT_SECONDS + 2
            # Calls that hold no sealed game need no ledger.
            assert stub.ListGames(api.ListGamesRequest(), timeout=CALL_TIMEOUT).games
    # The game itself is untouched: it goes on where the store answers.
    assert apply(first, game.state, move, tokens).state.version > game.state.version


def test_ledger_settings():
    assert Ledger.from_env(True, {}) is None
    with pytest.raises(ValueError, match="needs sealing"):
        Ledger.from_env(False, {URL_VAR: "redis://127.0.0.1:1/0"})
    with pytest.raises(ValueError, match=URL_VAR):
        Ledger.from_env(True, {URL_VAR: "http://127.0.0.1:1/0"})
    for ttl in ("x", "10", str(400 * 86400)):
        with pytest.raises(ValueError, match="TTL"):
            Ledger.from_env(True, {URL_VAR: "redis://127.0.0.1:1/0", ledger_module.TTL_VAR: ttl})
    ledger = Ledger.from_env(True, {URL_VAR: "redis://:secret@127.0.0.1:1/0"})
    assert ledger is not None and ledger.ttl_ms == ledger_module.DEFAULT_TTL_SECONDS * 1000
    assert ledger_module.redacted("redis://:secret@h:1/0") == "redis://***@h:1/0"
    with pytest.raises(LedgerUnavailable):
        ledger.check(bytes(16), game_pb2.GameState())
