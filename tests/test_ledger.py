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
from crabgames.service.ledger import (
    MAX_UNMOVED_VAR,
    RATE_VAR,
    UNMOVED_KEY,
    UNMOVED_TTL_SECONDS,
    URL_VAR,
    Ledger,
    LedgerUnavailable,
)
from crabgames.service.peers import MAX_PEER_CHARS, MAX_PEERS, PeerRate, peer_address
from crabgames.service.sealing import ENV_VAR
from crabgames.service.server import serve
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server
from tests.fuzzing import CALL_TIMEOUT, CASES, sealer_for_tests
from tests.playthrough import encode, pick
from tests.test_sealing import environment, new_game, raw_keys, refused, sealed_server
from tests.test_server import details

KRABY = next(i for i, (game, _, _) in enumerate(CASES) if game == "kraby")
CRAB_RAGE = next(i for i, (game, _, _) in enumerate(CASES) if game == "crab_rage")
STALE = (grpc.StatusCode.ABORTED, "STALE_STATE")
PLAYER = game_pb2.DECIDER_KIND_PLAYER


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def free_on_both_loopbacks() -> int:
    """A port free on 127.0.0.1 and on ::1 alike. A server bound to "localhost:0" takes a port
    free on the first of them, and fails to bind the second where another process (the test's
    Redis) holds that port there: a client of 127.0.0.1 would then reach the other process."""
    for _ in range(100):
        port = free_port()
        try:
            with socket.socket(socket.AF_INET6) as probe:
                probe.bind(("::1", port))
        except OSError:
            continue
        return port
    raise RuntimeError("no port is free on both loopback addresses")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@contextlib.contextmanager
def redis_server(*options: str) -> Iterator[str]:
    """A real redis-server (Debian's) on a free loopback port, without persistence. Missing, the
    tests fail: the ledger is only shown working against the real store."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not shutil.which(binary):
        pytest.fail("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        + list(options),
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
def ledger_server(url: str, host: str = "127.0.0.1", **env: str) -> Iterator[int]:
    """An in-process sealing server whose ledger is at `url`; its port."""
    port = free_on_both_loopbacks() if host == "localhost" else 0
    with environment(**{ENV_VAR: seal_keys_text(), URL_VAR: url, **env}):
        running = serve(f"{host}:{port}", threads=2)
    try:
        yield running.port
    finally:
        running.stop(0)


@contextlib.contextmanager
def stub_to(address: str) -> Iterator[api_grpc.RulesServiceStub]:
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield api_grpc.RulesServiceStub(channel)


@contextlib.contextmanager
def ledger_stub(url: str, **env: str) -> Iterator[api_grpc.RulesServiceStub]:
    """A stub to an in-process sealing server whose ledger is at `url`."""
    with ledger_server(url, **env) as port, stub_to(f"127.0.0.1:{port}") as stub:
        yield stub


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
    # Not yet moved: the short TTL, and counted among the unmoved games.
    assert 0 < client.pttl(key) <= UNMOVED_TTL_SECONDS * 1000
    assert client.zscore(UNMOVED_KEY, key) is not None
    tokens = game.player_tokens
    moved = apply(first, game.state, moves_of(first, game.state, tokens)[0], tokens).state
    # Its first move gives it the full TTL and takes it out of the unmoved games.
    assert UNMOVED_TTL_SECONDS * 1000 < client.pttl(key) <= ledger_module.DEFAULT_TTL_SECONDS * 1000
    assert client.zscore(UNMOVED_KEY, key) is None
    client.delete(key)  # as when the TTL ran out: the game is over for good
    request = api.GetViewRequest(state=moved, spectator=True)
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


def states(count: int) -> list[game_pb2.GameState]:
    return [game_pb2.GameState(version=v, rules_version="r") for v in range(count)]


def test_games_not_yet_moved_beyond_the_bound_drop_the_oldest(redis_url):
    ledger = Ledger.connect(redis_url, max_unmoved=3)
    client = redis.Redis.from_url(redis_url)
    client.delete(UNMOVED_KEY)  # the other tests' games
    zero, one = states(2)
    in_play, *new = [bytes([n]) * 16 for n in range(8)]
    ledger.issue(in_play, zero)
    ledger.advance(in_play, zero, one)
    for instance in new:
        ledger.issue(instance, zero)
    assert client.zcard(UNMOVED_KEY) == 3
    for instance in new[:-3]:  # dropped: they end as if expired
        with pytest.raises(StaleState, match="dropped for newer games"):
            ledger.check(instance, zero)
    for instance in new[-3:]:
        ledger.check(instance, zero)
    ledger.check(in_play, one)  # moved before them: never counted, never dropped
    ledger.advance(new[-1], zero, one)  # moved now: no longer counted
    ledger.issue(bytes([99]) * 16, zero)
    ledger.check(new[-1], one)
    ledger.check(new[-2], zero)
    # An unmoved game whose TTL ran out leaves the count at the next new game.
    ledger.unmoved_ttl_ms = 200
    ledger.issue(bytes([100]) * 16, zero)
    time.sleep(0.3)
    ledger.issue(bytes([101]) * 16, zero)
    assert client.zcard(UNMOVED_KEY) == 1
    client.close()
    ledger.close()


# ----- a flood of new games (issue 27) -----

IN_PLAY = 2000  # games moved, besides those played through the server


def fill_with_games_in_play(url: str) -> list[bytes]:
    """IN_PLAY games that each moved once, recorded as a server records them."""
    ledger = Ledger.connect(url)
    zero, one = states(2)
    instances = [random.randbytes(16) for _ in range(IN_PLAY)]
    for instance in instances:
        ledger.issue(instance, zero)
        ledger.advance(instance, zero, one)
    ledger.close()
    return instances


def still_in_play(url: str, instances: list[bytes]) -> int:
    ledger = Ledger.connect(url)
    one = states(2)[1]
    kept = 0
    for instance in instances:
        with contextlib.suppress(StaleState):
            ledger.check(instance, one)
            kept += 1
    ledger.close()
    return kept


def flood(stub, count: int) -> list[game_pb2.GameState]:
    """`count` new games from one caller, none ever moved."""
    game_id, players, options = CASES[KRABY]
    request = api.NewGameRequest(num_players=players)
    getattr(request, game_id).CopyFrom(options)
    return [stub.NewGame(request, timeout=CALL_TIMEOUT).state for _ in range(count)]


@contextlib.contextmanager
def tiny_store() -> Iterator[tuple[str, redis.Redis]]:
    """A redis-server evicting by volatile-ttl (docs/security.md); its limit set by leave_room,
    once the games in play are in."""
    with redis_server("--maxmemory-policy", "volatile-ttl") as url:
        client = redis.Redis.from_url(url)
        try:
            yield url, client
        finally:
            client.close()


def leave_room(client: redis.Redis, room: int) -> None:
    """The store full once it holds `room` bytes more than now."""
    client.config_set("maxmemory", client.info("memory")["used_memory"] + room)


def evicted(client: redis.Redis) -> int:
    return int(client.info("stats")["evicted_keys"])


def play_one_move_each(stub, count: int) -> list[tuple[game_pb2.GameState, list[str]]]:
    games = []
    for seed in range(count):
        game = new_game(stub, KRABY, seed=seed)
        tokens = list(game.player_tokens)
        move = moves_of(stub, game.state, tokens)[0]
        games.append((apply(stub, game.state, move, tokens).state, tokens))
    return games


def go_on(stub, games) -> None:
    for state, tokens in games:
        move = moves_of(stub, state, tokens)[0]
        assert apply(stub, state, move, tokens).state.version > state.version


def test_a_flood_of_new_games_is_evicted_before_any_game_in_play():
    """Issue 27: one caller's flood of NewGame filled the store until Redis evicted games in
    play, which ended for good. Here the store is tiny, the rate limit is off and the bound on
    unmoved games is above what the store holds, so Redis must evict: with volatile-ttl it
    takes the new games (their TTL is the short one), never a game that moved."""
    env = {RATE_VAR: "0", MAX_UNMOVED_VAR: str(ledger_module.MAX_MAX_UNMOVED)}
    with tiny_store() as (url, client), ledger_stub(url, **env) as stub:
        played = play_one_move_each(stub, 3)
        in_play = fill_with_games_in_play(url)
        leave_room(client, 1_000_000)
        flooded = flood(stub, 4000)  # 4000 games of ~380 bytes need 1.5 MB
        assert evicted(client) > 500  # the store was full: Redis chose what to drop
        assert still_in_play(url, in_play) == IN_PLAY
        go_on(stub, played)
        # The newest of the flood are there still: its host can play them.
        view = api.GetViewRequest(state=flooded[-1], spectator=True)
        assert stub.GetView(view, timeout=CALL_TIMEOUT).view.spectator


def test_a_bound_on_unmoved_games_that_fits_the_store_means_nothing_is_evicted():
    """Sized so that the store holds the games in play plus the bound, a flood drops only the
    oldest games not yet moved, itself, and Redis evicts nothing."""
    bound = 500
    env = {RATE_VAR: "0", MAX_UNMOVED_VAR: str(bound)}
    with tiny_store() as (url, client), ledger_stub(url, **env) as stub:
        played = play_one_move_each(stub, 3)
        in_play = fill_with_games_in_play(url)
        leave_room(client, 400_000)  # the bound needs about 190 KB
        flooded = flood(stub, 3 * bound)
        assert evicted(client) == 0
        assert client.zcard(UNMOVED_KEY) == bound
        assert still_in_play(url, in_play) == IN_PLAY
        go_on(stub, played)
        view = api.GetViewRequest(state=flooded[-1], spectator=True)
        assert stub.GetView(view, timeout=CALL_TIMEOUT).view.spectator
        view = api.GetViewRequest(state=flooded[0], spectator=True)
        assert refused(stub.GetView, view) == STALE


# ----- new games per caller address -----


def test_new_games_are_limited_per_caller_address(redis_url):
    per_minute = 3
    with (
        ledger_server(redis_url, host="localhost", **{RATE_VAR: str(per_minute)}) as port,
        stub_to(f"127.0.0.1:{port}") as one,
        stub_to(f"[::1]:{port}") as other,
    ):
        games = [new_game(one, KRABY, seed=seed) for seed in range(per_minute)]
        game_id, players, options = CASES[KRABY]
        request = api.NewGameRequest(num_players=players)
        getattr(request, game_id).CopyFrom(options)
        with pytest.raises(grpc.RpcError) as caught:
            one.NewGame(request, timeout=CALL_TIMEOUT)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        info = details(caught.value)["ErrorInfo"]
        assert info.reason == "RATE_LIMITED"
        # The next token comes after 60 / per_minute seconds.
        assert 0 < int(info.metadata["retry_after_ms"]) <= 60_000 // per_minute
        replay = api.ReplayRequest(new_game=request)
        assert refused(one.Replay, replay) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
        # Another address is not limited by the first one's games...
        for seed in range(per_minute):
            assert new_game(other, KRABY, seed=seed).state.version == games[0].state.version
        # ... and the limited caller's games go on: only new games are counted.
        game = games[0]
        move = moves_of(one, game.state, game.player_tokens)[0]
        assert apply(one, game.state, move, game.player_tokens).state


def test_a_caller_address_is_its_ip_without_the_port_and_an_ipv6_one_its_64():
    v4 = "203.0.113.5"
    assert peer_address(f"ipv4:{v4}:5678") == v4
    assert peer_address(f"ipv4:{v4}") == v4  # no port
    assert peer_address(f"ipv6:[::ffff:{v4}]:5678") == v4  # IPv4 through a dual-stack socket
    net = "2001:db8::/64"
    for peer in (
        "ipv6:[2001:db8::1]:5678",  # gRPC
        "ipv6:%5B2001:db8::1%5D:5678",  # older gRPC
        "ipv6:2001:db8::1:5678",  # the HTTP side (browser.py)
        "ipv6:[2001:db8::ffff:ffff:ffff:ffff]:1",  # the same /64
    ):
        assert peer_address(peer) == net, peer
    assert peer_address("ipv6:[2001:db8:0:1::1]:1") == "2001:db8:0:1::/64"
    assert peer_address("unix:/run/crabgames.sock") == "unix:/run/crabgames.sock"
    assert len(peer_address("unix:" + "x" * 1000)) == MAX_PEER_CHARS


def test_each_address_gets_a_bucket_that_refills_and_the_table_stays_bounded():
    now = [0.0]
    rate = PeerRate(per_minute=2, clock=lambda: now[0])
    one, other = "ipv4:198.51.100.1:1", "ipv4:198.51.100.2:1"
    assert rate.take(one) == 0 and rate.take(one) == 0
    assert rate.take(one) == pytest.approx(30.0)  # one every 30 s
    assert rate.take(other) == 0
    now[0] += 15
    assert rate.take(one) == pytest.approx(15.0)  # a refused call takes no token
    now[0] += 15
    assert rate.take(one) == 0
    assert rate.take(one) == pytest.approx(30.0)
    now[0] += 3600
    assert rate.take(one) == 0 and rate.take(one) == 0  # a full bucket, no more
    assert rate.take(one) > 0
    for n in range(MAX_PEERS):
        rate.take(f"ipv4:10.{n >> 16}.{(n >> 8) & 255}.{n & 255}:1")
    assert len(rate.buckets) == MAX_PEERS
    assert peer_address(one) not in rate.buckets  # seen longest ago: forgotten first


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
    bad = {
        ledger_module.TTL_VAR: ("x", "10", str(400 * 86400)),
        MAX_UNMOVED_VAR: ("-1", "99", "1e6", str(ledger_module.MAX_MAX_UNMOVED + 1)),
        RATE_VAR: ("-1", "2.5", str(ledger_module.MAX_NEW_GAMES_PER_MINUTE + 1)),
    }
    for name, values in bad.items():
        for value in values:
            with pytest.raises(ValueError, match=name):
                Ledger.from_env(True, {URL_VAR: "redis://127.0.0.1:1/0", name: value})
    ledger = Ledger.from_env(True, {URL_VAR: "redis://:secret@127.0.0.1:1/0"})
    assert ledger is not None and ledger.ttl_ms == ledger_module.DEFAULT_TTL_SECONDS * 1000
    assert ledger.unmoved_ttl_ms == UNMOVED_TTL_SECONDS * 1000
    assert ledger.max_unmoved == ledger_module.DEFAULT_MAX_UNMOVED
    assert ledger.new_games is not None
    assert ledger.new_games.capacity == ledger_module.DEFAULT_NEW_GAMES_PER_MINUTE
    short = {URL_VAR: "redis://127.0.0.1:1/0", ledger_module.TTL_VAR: "600", RATE_VAR: "0"}
    configured = Ledger.from_env(True, {**short, MAX_UNMOVED_VAR: "100"})
    assert configured is not None and configured.new_games is None  # 0: no limit
    assert configured.unmoved_ttl_ms == 600_000  # never longer than the TTL
    assert configured.max_unmoved == 100
    configured.close()
    assert ledger_module.redacted("redis://:secret@h:1/0") == "redis://***@h:1/0"
    with pytest.raises(LedgerUnavailable):
        ledger.check(bytes(16), game_pb2.GameState())
