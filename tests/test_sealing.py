"""Sealed states and player tokens (docs/security.md): the secret part of every state is
encrypted and authenticated, any change to a sealed state is refused, keys rotate, and a
player's hand, moves and view need that seat's token."""

from __future__ import annotations

import base64
import contextlib
import os
import random
import signal
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import given
from hypothesis import strategies as st

from crabgames.core import wire
from crabgames.core.errors import InvalidArgument
from crabgames.service.sealing import (
    ENV_VAR,
    MAGIC,
    SECRET_FIELDS,
    Opened,
    PermissionDenied,
    Sealer,
    header,
)
from crabgames.service.server import serve
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server
from tests.fuzzing import (
    CALL_TIMEOUT,
    CASES,
    CLIENT_ERRORS,
    fuzz_settings,
    raw_call,
    recorded,
    recorded_states,
    sealer_for_tests,
)
from tests.mutate import flipped_bytes, mutated
from tests.playthrough import encode, pick
from tests.test_server import details

PLAYER = game_pb2.DECIDER_KIND_PLAYER
GAME_OVER = game_pb2.DECIDER_KIND_NONE


@contextlib.contextmanager
def environment(**values: str):
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def sealed_server(*key_ids: str):
    keys = sealer_for_tests(*key_ids)
    text = ",".join(f"{k}:{base64.b64encode(b).decode()}" for k, b in raw_keys(*key_ids))
    with environment(**{ENV_VAR: text}):
        running = serve("127.0.0.1:0", threads=4)
    return running, keys


def raw_keys(*key_ids: str):
    return [(f"key-{i}", bytes([n + 1]) * 32) for n, i in enumerate("abcdefgh") if i in key_ids]


@pytest.fixture(scope="module")
def sealed():
    """A stub to a server sealing with key a (and accepting key b), its Sealer, the channel."""
    running, keys = sealed_server("a", "b")
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield api_grpc.RulesServiceStub(channel), keys, channel
    running.stop(0)


def new_game(stub, case: int = 0, seed: int = 0) -> api.NewGameResponse:
    game_id, players, options = CASES[case]
    request = api.NewGameRequest(num_players=players, seed=seed)
    getattr(request, game_id).CopyFrom(options)
    return stub.NewGame(request, timeout=CALL_TIMEOUT)


def refused(call, request) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=CALL_TIMEOUT)
    return caught.value.code(), details(caught.value)["ErrorInfo"].reason


# ----- the seal itself -----

GAME = bytes(range(16))  # an instance id for states sealed by the tests themselves


def full_state(case: int = 0) -> game_pb2.GameState:
    return recorded(case, 1).states[3]


def test_a_sealed_state_shows_only_its_header_and_opens_to_the_full_state():
    sealer, state = sealer_for_tests("a"), full_state()
    sealed = sealer.seal(state, GAME)
    assert sealed.seed == 0 and not sealed.HasField("prng") and sealed.sealed
    which = state.WhichOneof("game")
    assert sealed.WhichOneof("game") == which and getattr(sealed, which).ByteSize() == 0
    assert (sealed.version, sealed.next, sealed.num_players) == (
        state.version,
        state.next,
        state.num_players,
    )
    assert encode(getattr(state, which)) not in sealed.sealed  # encrypted, not just wrapped
    assert encode(sealer.open(sealed).state) == encode(state)
    assert sealer.open(sealed).instance == GAME
    assert sealer.seal(state, GAME).sealed != sealed.sealed  # a fresh nonce every time


@pytest.mark.parametrize(
    "change",
    [
        lambda s: setattr(s, "version", s.version + 1),
        lambda s: setattr(s, "num_players", s.num_players + 1),
        lambda s: setattr(s, "chance_mode", game_pb2.CHANCE_MODE_EXPLICIT),
        lambda s: setattr(s.next, "player", s.next.player + 1),
        lambda s: setattr(s.next, "decision", "game_over"),
        lambda s: setattr(s, "rules_version", s.rules_version + "x"),
        lambda s: setattr(s, "sealed", s.sealed[:-1] + bytes([s.sealed[-1] ^ 1])),
        lambda s: setattr(s, "sealed", s.sealed[:40]),
        lambda s: setattr(s, "sealed", b""),
        lambda s: setattr(s, "seed", 7),
        lambda s: s.prng.SetInParent(),
    ],
    ids=[
        "version",
        "num_players",
        "chance_mode",
        "next.player",
        "next.decision",
        "rules_version",
        "a bit of the seal",
        "a cut seal",
        "no seal",
        "a seed beside the seal",
        "a prng beside the seal",
    ],
)
def test_any_change_to_a_sealed_state_is_refused_as_a_bad_seal(change):
    sealer = sealer_for_tests("a")
    sealed = sealer.seal(full_state(), GAME)
    change(sealed)
    with pytest.raises(InvalidArgument) as caught:
        sealer.open(sealed)
    assert caught.value.reason == "BAD_SEAL"
    assert caught.value.violations[0].field == "state.sealed"


def test_a_seal_cannot_be_moved_to_another_game():
    sealer = sealer_for_tests("a")
    kraby = sealer.seal(full_state(0), GAME)
    other_case = next(i for i, (g, _, _) in enumerate(CASES) if g != CASES[0][0])
    other = sealer.seal(full_state(other_case), GAME)
    other.sealed = kraby.sealed
    with pytest.raises(InvalidArgument):
        sealer.open(other)


def test_keys_rotate_by_key_id():
    old, state = sealer_for_tests("a"), full_state()
    sealed_with_old = old.seal(state, GAME)
    rotated = sealer_for_tests("b", "a")  # b seals now, a still opens
    assert encode(rotated.open(sealed_with_old).state) == encode(state)
    assert rotated.seal(state, GAME).sealed.startswith(MAGIC + b"\x05key-b")
    assert rotated.token(state, GAME, 1, rotated.keys["key-a"]) == old.token(state, GAME, 1)
    opened = Opened(state, GAME)
    rotated.check_token(opened, 1, old.token(state, GAME, 1), "a view")  # old tokens still work
    retired = sealer_for_tests("b")
    with pytest.raises(InvalidArgument, match="key 'key-a'"):
        retired.open(sealed_with_old)
    with pytest.raises(PermissionDenied):
        retired.check_token(opened, 1, old.token(state, GAME, 1), "a view")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("k1", "id:base64key"),
        ("k1:not base64!", "not base64"),
        ("k1:" + base64.b64encode(b"short").decode(), "16, 24 or 32 bytes"),
        ("bad id:" + base64.b64encode(bytes(32)).decode(), "key id"),
        ("k:{0},k:{0}".format(base64.b64encode(bytes(32)).decode()), "twice"),
    ],
)
def test_bad_key_settings_stop_the_server_from_starting(text, problem):
    with pytest.raises(ValueError, match=problem):
        Sealer.parse(text)


def test_sealing_is_off_without_keys():
    assert Sealer.from_env({}) is None and Sealer.from_env({ENV_VAR: " "}) is None


def test_tokens_differ_by_seat_game_and_key():
    a, b = sealer_for_tests("a"), sealer_for_tests("b")
    state = full_state()
    tokens = a.tokens(state, GAME)
    assert len(set(tokens)) == state.num_players
    assert b.tokens(state, GAME) != tokens
    other = game_pb2.GameState()
    other.CopyFrom(state)
    other.seed += 1
    assert a.tokens(other, GAME)[0] != tokens[0]
    assert a.tokens(state, bytes(16))[0] != tokens[0]  # same game, seed and seat: another game


# ----- through a sealing server -----


def test_new_game_gives_a_sealed_state_and_one_token_per_seat(sealed):
    stub = sealed[0]
    for case, (_, players, _) in enumerate(CASES):
        response = new_game(stub, case)
        assert len(set(response.player_tokens)) == players
        assert response.state.sealed and response.state.seed == 0


def test_legal_moves_need_the_deciding_players_token(sealed):
    stub = sealed[0]
    response = new_game(stub)
    state, tokens = response.state, response.player_tokens
    assert state.next.kind == PLAYER
    decider = state.next.player
    request = api.LegalMovesRequest(state=state)
    assert refused(stub.LegalMoves, request) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "BAD_PLAYER_TOKEN",
    )
    request.player_token = tokens[(decider + 1) % len(tokens)]
    assert refused(stub.LegalMoves, request)[0] == grpc.StatusCode.PERMISSION_DENIED
    request.player_token = tokens[decider]
    assert stub.LegalMoves(request, timeout=CALL_TIMEOUT).moves


def test_a_players_view_needs_that_players_token_and_a_spectators_none(sealed):
    stub = sealed[0]
    response = new_game(stub)
    state, tokens = response.state, response.player_tokens
    request = api.GetViewRequest(state=state, player=1, player_token=tokens[0])
    assert refused(stub.GetView, request)[0] == grpc.StatusCode.PERMISSION_DENIED
    request.player_token = ""
    assert refused(stub.GetView, request)[0] == grpc.StatusCode.PERMISSION_DENIED
    request.player_token = tokens[1]
    assert stub.GetView(request, timeout=CALL_TIMEOUT).view.player == 1
    spectator = stub.GetView(api.GetViewRequest(state=state, spectator=True), timeout=CALL_TIMEOUT)
    assert spectator.view.spectator


def test_a_move_needs_the_moving_players_token(sealed):
    stub = sealed[0]
    response = new_game(stub)
    state, tokens = response.state, response.player_tokens
    decider = state.next.player
    move = stub.LegalMoves(
        api.LegalMovesRequest(state=state, player_token=tokens[decider]), timeout=CALL_TIMEOUT
    ).moves[0]
    request = api.ApplyMoveRequest(state=state, move=move, player_token=tokens[decider - 1])
    assert refused(stub.ApplyMove, request)[0] == grpc.StatusCode.PERMISSION_DENIED
    request.player_token = tokens[decider]
    after = stub.ApplyMove(request, timeout=CALL_TIMEOUT)
    assert after.state.sealed and after.state.version > state.version
    assert not after.events  # events may show other players' draws: see the views instead


def test_an_unsealed_state_is_refused_by_a_sealing_server_and_the_other_way_round(sealed, stub):
    sealed_stub = sealed[0]
    plain = new_game(stub, seed=3).state
    assert refused(sealed_stub.GetView, api.GetViewRequest(state=plain, spectator=True)) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "BAD_SEAL",
    )
    closed = new_game(sealed_stub, seed=3).state
    code, _ = refused(stub.GetView, api.GetViewRequest(state=closed, spectator=True))
    assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_a_sealing_server_refuses_explicit_chance(sealed):
    stub = sealed[0]
    game_id, players, options = CASES[0]
    request = api.NewGameRequest(num_players=players, chance_mode=game_pb2.CHANCE_MODE_EXPLICIT)
    getattr(request, game_id).CopyFrom(options)
    assert refused(stub.NewGame, request)[0] == grpc.StatusCode.INVALID_ARGUMENT
    replay = api.ReplayRequest(new_game=request)
    assert refused(stub.Replay, replay)[0] == grpc.StatusCode.INVALID_ARGUMENT


def test_replay_returns_a_sealed_state_and_playouts_refuse_one(sealed):
    stub, keys, _ = sealed
    game_id, players, options = CASES[0]
    request = api.NewGameRequest(num_players=players, seed=5)
    getattr(request, game_id).CopyFrom(options)
    replayed = stub.Replay(api.ReplayRequest(new_game=request), timeout=CALL_TIMEOUT).state
    assert replayed.sealed and replayed.seed == 0
    fresh = stub.NewGame(request, timeout=CALL_TIMEOUT)
    assert encode(keys.open(replayed).state) == encode(keys.open(fresh.state).state)
    assert keys.open(replayed).instance != keys.open(fresh.state).instance
    playouts = api.PlayoutsRequest(state=fresh.state, count=1)
    assert refused(stub.Playouts, playouts) == (grpc.StatusCode.PERMISSION_DENIED, "SEALED_STATE")


def test_a_sampled_state_is_a_sandbox_for_bots_that_never_becomes_a_sealed_game(sealed):
    stub = sealed[0]
    response = new_game(stub, seed=8)
    view = stub.GetView(
        api.GetViewRequest(state=response.state, player=0, player_token=response.player_tokens[0]),
        timeout=CALL_TIMEOUT,
    ).view
    sampled = stub.SampleState(api.SampleStateRequest(view=view, seed=2), timeout=CALL_TIMEOUT)
    assert sampled.state.sampled and not sampled.state.sealed
    playouts = stub.Playouts(api.PlayoutsRequest(state=sampled.state, count=2), timeout=30)
    assert playouts.games == 2
    # A bot searches on it with no token: its hidden information is invented.
    moves = stub.LegalMoves(api.LegalMovesRequest(state=sampled.state), timeout=CALL_TIMEOUT)
    after = stub.ApplyMove(
        api.ApplyMoveRequest(state=sampled.state, move=moves.moves[0]), timeout=CALL_TIMEOUT
    ).state
    assert after.sampled and not after.sealed and after.version > sampled.state.version
    # Without the mark, the same unsealed state is refused: a real game is always sealed.
    forged = game_pb2.GameState()
    forged.CopyFrom(sampled.state)
    forged.sampled = False
    request = api.LegalMovesRequest(state=forged, player_token=response.player_tokens[0])
    assert refused(stub.LegalMoves, request) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAL")


def sampled_from_a_view(stub, seed: int = 8) -> game_pb2.GameState:
    response = new_game(stub, seed=seed)
    request = api.GetViewRequest(
        state=response.state, player=0, player_token=response.player_tokens[0]
    )
    view = stub.GetView(request, timeout=CALL_TIMEOUT).view
    return stub.SampleState(api.SampleStateRequest(view=view, seed=2), timeout=CALL_TIMEOUT).state


def test_a_sampled_state_is_one_the_server_drew_and_stays_so_as_it_is_played_on(sealed):
    stub = sealed[0]
    sampled = sampled_from_a_view(stub)
    assert sampled.sample_tag.startswith(b"CGT1\x05key-a")
    state = sampled
    for _ in range(3):  # every state played on from it keeps being tagged
        moves = stub.LegalMoves(api.LegalMovesRequest(state=state), timeout=CALL_TIMEOUT).moves
        request = api.ApplyMoveRequest(state=state, move=moves[0], validate_only=True)
        assert stub.ApplyMove(request, timeout=CALL_TIMEOUT).state == state
        request.validate_only = False
        after = stub.ApplyMove(request, timeout=CALL_TIMEOUT).state
        assert after.sampled and after.sample_tag and after.sample_tag != state.sample_tag
        state = after
    assert stub.Playouts(api.PlayoutsRequest(state=state, count=1), timeout=30).games == 1


def forged_full_states(stub) -> dict[str, game_pb2.GameState]:
    """Full states marked sampled that the server did not draw: issue 13, item 7."""
    sampled = sampled_from_a_view(stub)
    written = game_pb2.GameState()
    written.CopyFrom(recorded(0, 1).states[3])  # any full state a caller could write
    written.sampled = True
    changed = game_pb2.GameState()
    changed.CopyFrom(sampled)
    changed.kraby.hands[1].CopyFrom(changed.kraby.hands[0])  # a hand of its choosing
    moved = game_pb2.GameState()
    moved.CopyFrom(written)
    moved.sample_tag = sampled.sample_tag  # a real tag, from another state
    other_key = game_pb2.GameState()
    other_key.CopyFrom(sampled)
    other_key.sample_tag = sampled.sample_tag.replace(b"key-a", b"key-z")
    return {"no tag": written, "changed": changed, "moved tag": moved, "other key": other_key}


def test_a_full_state_written_by_a_caller_does_not_pass_as_sampled(sealed):
    stub = sealed[0]
    for name, forged in forged_full_states(stub).items():
        for call, request in (
            (stub.LegalMoves, api.LegalMovesRequest(state=forged)),
            (stub.GetView, api.GetViewRequest(state=forged, spectator=True)),
            (stub.Playouts, api.PlayoutsRequest(state=forged, count=1)),
        ):
            with pytest.raises(grpc.RpcError) as caught:
                call(request, timeout=CALL_TIMEOUT)
            found = details(caught.value)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, name
            assert found["ErrorInfo"].reason == "BAD_SEAL", name
            assert found["BadRequest"].field_violations[0].field == "state.sample_tag", name


def test_neither_a_seal_nor_a_token_moves_between_games_with_the_same_header(sealed):
    """Two games from the same seed have the same header and state: only the instance id in
    their seals tells them apart, and each game's tokens work in that game only (item 9)."""
    stub, keys, _ = sealed
    one, two = new_game(stub, seed=77), new_game(stub, seed=77)
    assert encode(keys.open(one.state).state) == encode(keys.open(two.state).state)
    seat = one.state.next.player
    moved = game_pb2.GameState()
    moved.CopyFrom(one.state)
    moved.sealed = two.state.sealed  # the other game's seal on this game's header
    for token in (one.player_tokens[seat], two.player_tokens[seat]):
        assert token not in (one.player_tokens[seat - 1], two.player_tokens[seat - 1])
    for call, request in (
        (stub.LegalMoves, api.LegalMovesRequest(state=moved, player_token=one.player_tokens[seat])),
        (
            stub.GetView,
            api.GetViewRequest(state=moved, player=seat, player_token=one.player_tokens[seat]),
        ),
        (
            stub.LegalMoves,
            api.LegalMovesRequest(state=one.state, player_token=two.player_tokens[seat]),
        ),
    ):
        assert refused(call, request) == (grpc.StatusCode.PERMISSION_DENIED, "BAD_PLAYER_TOKEN")
    request = api.LegalMovesRequest(state=moved, player_token=two.player_tokens[seat])
    assert stub.LegalMoves(request, timeout=CALL_TIMEOUT).moves  # it is game two's state


UNKNOWN = b"\xa8\x06\x05"  # field 101, varint 5: in no message of the contract


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (lambda s: s, "state"),
        (lambda s: s.next, "state.next"),
        (lambda s: s.kraby, "state.kraby"),
    ],
    ids=["top level", "in next", "in the empty game message"],
)
def test_an_unknown_field_beside_a_seal_is_refused_not_echoed(sealed, where, path):
    stub = sealed[0]
    response = new_game(stub)
    state, tokens = response.state, response.player_tokens
    seat = state.next.player
    move = stub.LegalMoves(
        api.LegalMovesRequest(state=state, player_token=tokens[seat]), timeout=CALL_TIMEOUT
    ).moves[0]
    padded = game_pb2.GameState()
    padded.CopyFrom(state)
    where(padded).MergeFromString(UNKNOWN)
    for call, request in (
        (stub.GetView, api.GetViewRequest(state=padded, spectator=True)),
        (
            stub.ApplyMove,
            api.ApplyMoveRequest(
                state=padded, move=move, player_token=tokens[seat], validate_only=True
            ),
        ),
        (stub.ApplyMove, api.ApplyMoveRequest(state=padded, move=move, player_token=tokens[seat])),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            call(request, timeout=CALL_TIMEOUT)
        found = details(caught.value)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert found["ErrorInfo"].reason == "MALFORMED_STATE"
        assert found["BadRequest"].field_violations[0].field == path
    sampled = sampled_from_a_view(stub)
    where(sampled).MergeFromString(UNKNOWN)
    request = api.GetViewRequest(state=sampled, spectator=True)
    assert refused(stub.GetView, request) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_STATE")


def test_a_seal_holding_anything_the_server_never_writes_is_refused():
    sealer, state = sealer_for_tests("a"), full_state()
    sealed = sealer.seal(state, GAME)
    key = sealer.primary
    for extra in (UNKNOWN, game_pb2.GameState(version=9).SerializeToString()):
        secret = game_pb2.GameState(seed=state.seed, prng=state.prng, kraby=state.kraby)
        nonce = os.urandom(12)
        plain = GAME + secret.SerializeToString() + extra
        body = key.aead.encrypt(nonce, plain, header(sealed, key.key_id))
        sealed.sealed = MAGIC + b"\x05key-a" + nonce + body
        with pytest.raises(InvalidArgument, match="never writes") as caught:
            sealer.open(sealed)
        assert caught.value.reason == "BAD_SEAL"
    tagged = sealer.seal(state, GAME)
    tagged.sample_tag = b"CGT1"
    with pytest.raises(InvalidArgument) as caught:
        sealer.open(tagged)
    assert caught.value.violations[0].field == "state.sample_tag"


FIRST_CASE_OF_EACH_GAME = sorted(
    {game_id: i for i, (game_id, _, _) in reversed(list(enumerate(CASES)))}.values()
)


@pytest.mark.parametrize("case", FIRST_CASE_OF_EACH_GAME)
def test_a_sealed_game_plays_to_the_end_exactly_like_an_unsealed_one(sealed, stub, case):
    """Same seed, same decisions: every seat's view is the same with sealing on or off."""
    sealed_stub = sealed[0]
    opened = new_game(sealed_stub, case, seed=40 + case)
    closed_state, tokens = opened.state, opened.player_tokens
    plain_state = new_game(stub, case, seed=40 + case).state
    rng = random.Random(case)
    while plain_state.next.kind != GAME_OVER:
        seat = plain_state.next.player
        moves = sealed_stub.LegalMoves(
            api.LegalMovesRequest(state=closed_state, player_token=tokens[seat]),
            timeout=CALL_TIMEOUT,
        ).moves
        assert list(moves) == list(stub.LegalMoves(api.LegalMovesRequest(state=plain_state)).moves)
        move = pick(rng, list(moves))
        closed_state = sealed_stub.ApplyMove(
            api.ApplyMoveRequest(state=closed_state, move=move, player_token=tokens[seat]),
            timeout=CALL_TIMEOUT,
        ).state
        plain_state = stub.ApplyMove(api.ApplyMoveRequest(state=plain_state, move=move)).state
    assert closed_state.next == plain_state.next and closed_state.version == plain_state.version
    for seat, token in enumerate(tokens):
        sealed_view = sealed_stub.GetView(
            api.GetViewRequest(state=closed_state, player=seat, player_token=token)
        ).view
        assert sealed_view == stub.GetView(api.GetViewRequest(state=plain_state, player=seat)).view


@fuzz_settings(25)
@given(picked=recorded_states(), data=st.data())
def test_an_altered_sealed_state_is_always_refused_and_never_crashes(sealed, picked, data):
    stub, keys, channel = sealed
    record, index = picked
    original = keys.seal(record.states[index], GAME)
    state, changes = data.draw(mutated(original))
    if encode(state) == encode(original):
        return
    tokens = keys.tokens(record.states[index], GAME)
    seat = max(0, original.next.player)
    for call, request in (
        (stub.GetView, api.GetViewRequest(state=state, player=seat, player_token=tokens[seat])),
        (stub.LegalMoves, api.LegalMovesRequest(state=state, player_token=tokens[seat])),
    ):
        code, reason = refused(call, request)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAL"), changes
    flipped = data.draw(flipped_bytes(original.SerializeToString()))
    request = wire.message_field(1, flipped) + b"\x18\x01"  # state, spectator
    code = raw_call(channel, "GetView", request)
    assert code in CLIENT_ERRORS
    try:
        parsed = game_pb2.GameState.FromString(flipped)
    except Exception:
        return
    parsed.DiscardUnknownFields()
    if encode(parsed) != encode(original):
        assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_the_command_line_server_seals_when_keys_are_in_the_environment():
    key = base64.b64encode(os.urandom(32)).decode()
    process, address = start_server(env={ENV_VAR: f"live:{key}"})
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
            response = new_game(api_grpc.RulesServiceStub(channel))
        assert response.state.sealed.startswith(MAGIC + b"\x04live") and response.player_tokens
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()


# ----- every field of GameState is inside the seal or bound to it (issue 27) -----
# Walked from the descriptor, so a field added to GameState (or NextDecision) later is changed
# here too: it must break the seal like every other, or this test fails.

F = FieldDescriptor
Change = Callable[[game_pb2.GameState], None]
NOT_BESIDE_A_SEAL = SECRET_FIELDS | {"sample_tag"}  # refused beside a seal, not merely bound
READABLE = [  # what a sealed state shows: any other field, today's or one added later
    f for f in game_pb2.GameState.DESCRIPTOR.fields if f.name not in NOT_BESIDE_A_SEAL | {"sealed"}
]
NUMBERS = {F.CPPTYPE_INT32, F.CPPTYPE_INT64, F.CPPTYPE_UINT32, F.CPPTYPE_UINT64, F.CPPTYPE_ENUM}


def at(state: Message, path: tuple[str, ...]) -> Message:
    for name in path:
        state = getattr(state, name)
    return state


def other_value(field: FieldDescriptor, old: Any) -> Any:
    if field.type == F.TYPE_BOOL:
        return not old
    if field.type == F.TYPE_STRING:
        return f"{old}x"
    if field.type == F.TYPE_BYTES:
        return bytes(old) + b"x"
    if field.cpp_type in NUMBERS:
        return old + 1
    raise AssertionError(f"{field.full_name}: say here how to change a field of its type")


def changed(path: tuple[str, ...], field: FieldDescriptor) -> Change:
    def change(state: game_pb2.GameState) -> None:
        parent = at(state, path)
        setattr(parent, field.name, other_value(field, getattr(parent, field.name)))

    return change


def set_or_cleared(path: tuple[str, ...], field: FieldDescriptor) -> Change:
    def change(state: game_pb2.GameState) -> None:
        parent = at(state, path)
        if parent.HasField(field.name):
            parent.ClearField(field.name)
        elif field.type == F.TYPE_MESSAGE:
            getattr(parent, field.name).SetInParent()
        else:
            setattr(parent, field.name, getattr(parent, field.name))  # its default, now set

    return change


def field_changes(field: FieldDescriptor, path: tuple[str, ...] = ()) -> list[tuple[str, Change]]:
    """Every way to change a readable field: its value (each of a message's fields, at any
    depth) and whether it is set."""
    name = ".".join((*path, field.name))
    if field.is_repeated:
        raise AssertionError(f"state.{name}: say here how to change a repeated field")
    found = [(f"{name} set or cleared", set_or_cleared(path, field))] if field.has_presence else []
    if field.type != F.TYPE_MESSAGE:
        return [(f"{name} changed", changed(path, field)), *found]
    for inner in field.message_type.fields:
        found += field_changes(inner, (*path, field.name))
    return found


def state_holding(field: FieldDescriptor) -> game_pb2.GameState:
    """A full state in which `field` is set (its game's state, for a game's own field)."""
    for case in FIRST_CASE_OF_EACH_GAME:
        state = full_state(case)
        if state.HasField(field.name) if field.has_presence else getattr(state, field.name):
            return state
    raise AssertionError(f"no recorded state sets {field.name}")


def beside_the_seal(field: FieldDescriptor) -> Change:
    def change(state: game_pb2.GameState) -> None:
        value = getattr(state_holding(field), field.name)
        if field.type == F.TYPE_MESSAGE:
            getattr(state, field.name).CopyFrom(value)
        else:
            setattr(state, field.name, value)

    return change


def flip_a_bit_of_the_seal(state: game_pb2.GameState) -> None:
    state.sealed = state.sealed[:-1] + bytes([state.sealed[-1] ^ 1])


def changes_of_a_sealed_state() -> list[tuple[str, Change]]:
    found: list[tuple[str, Change]] = []
    for field in game_pb2.GameState.DESCRIPTOR.fields:
        if field.name == "sealed":
            found.append(("sealed: a bit flipped", flip_a_bit_of_the_seal))
        elif field.name in SECRET_FIELDS:
            found.append((f"{field.name} beside the seal", beside_the_seal(field)))
            if field.has_presence:  # a game's empty message says which game: set another one
                found.append((f"{field.name} set or cleared", set_or_cleared((), field)))
        else:
            found += field_changes(field)
    return found


CHANGES = changes_of_a_sealed_state()


def every_readable_field_changed(state: game_pb2.GameState) -> game_pb2.GameState:
    """The state with a value other than its own in every readable field, at any depth: so that
    each change below is tried from both sides (a flag set and unset, a seat set and not)."""
    out = game_pb2.GameState()
    out.CopyFrom(state)
    for field in READABLE:
        for name, change in field_changes(field):
            if name.endswith(" changed"):
                change(out)
    return out


BASES = {
    "as played": full_state,
    "every readable field changed": lambda: every_readable_field_changed(full_state()),
}


@pytest.mark.parametrize("base", BASES)
def test_a_sealed_state_shows_every_readable_field_and_holds_every_other_in_the_seal(base):
    sealer, state = sealer_for_tests("a"), BASES[base]()
    sealed = sealer.seal(state, GAME)
    for field in READABLE:
        assert getattr(sealed, field.name) == getattr(state, field.name), field.name
        if field.has_presence:
            assert sealed.HasField(field.name) == state.HasField(field.name), field.name
    for name in NOT_BESIDE_A_SEAL:
        value = getattr(sealed, name)
        assert not (value.ByteSize() if isinstance(value, Message) else value), name
    assert encode(sealer.open(sealed).state) == encode(state)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("change", [c for _, c in CHANGES], ids=[n for n, _ in CHANGES])
def test_no_field_of_a_sealed_state_changes_without_breaking_the_seal(base, change):
    sealer = sealer_for_tests("a")
    sealed = sealer.seal(BASES[base](), GAME)
    altered = game_pb2.GameState()
    altered.CopyFrom(sealed)
    change(altered)
    assert encode(altered) != encode(sealed)  # a change indeed
    with pytest.raises(InvalidArgument) as caught:
        sealer.open(altered)
    assert caught.value.reason == "BAD_SEAL"


@pytest.mark.parametrize("ask", [False, True], ids=["not asking", "asking"])
def test_apply_move_refuses_a_sealed_state_with_any_field_changed(sealed, ask):
    """The finding of issue 27: ask_forced_decisions flipped on a sealed state was taken, and
    sealed into the next state. Now that, and any other change, is BAD_SEAL."""
    stub = sealed[0]
    game_id, players, options = CASES[0]
    request = api.NewGameRequest(num_players=players, ask_forced_decisions=ask)
    getattr(request, game_id).CopyFrom(options)
    response = stub.NewGame(request, timeout=CALL_TIMEOUT)
    state, tokens = response.state, response.player_tokens
    seat = state.next.player
    move = stub.LegalMoves(
        api.LegalMovesRequest(state=state, player_token=tokens[seat]), timeout=CALL_TIMEOUT
    ).moves[0]
    for name, change in CHANGES:
        altered = game_pb2.GameState()
        altered.CopyFrom(state)
        change(altered)
        request = api.ApplyMoveRequest(state=altered, move=move, player_token=tokens[seat])
        assert refused(stub.ApplyMove, request) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "BAD_SEAL",
        ), name
    request = api.ApplyMoveRequest(state=state, move=move, player_token=tokens[seat])
    moved = stub.ApplyMove(request, timeout=CALL_TIMEOUT).state
    assert moved.ask_forced_decisions == ask and moved.version > state.version
