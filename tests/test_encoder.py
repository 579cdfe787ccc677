"""The generic encoder (core/wire.py `Encoder`): a message's bytes written from a native value
are exactly protobuf's deterministic serialization of the message filled from it, for every
kind of field the contract uses, and for the states, events and views of every game that
declares its messages' shapes (replacing a byte-equality suite per game)."""

from __future__ import annotations

import importlib
import random
from types import SimpleNamespace

import pytest

from crabgames.core import wire
from crabgames.core.engine import Engine
from crabgames.core.game import Seat
from crabgames.games import all_games
from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.playthrough import play_random

ENGINE = Engine(all_games())
DECLARED = sorted(ENGINE.games)  # every game declares its messages


def protobufs(message: object) -> bytes:
    return message.SerializeToString(deterministic=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31 - 1, -1, -(2**31)])
def test_a_varint_is_written_as_protobuf_writes_it_zero_left_out(value):
    encoder = wire.Encoder(game_pb2.PlayerResult, remember=False)
    native = SimpleNamespace(player=3, score=value, rank=value & 0xFF, winner=bool(value % 2))
    expected = encoder.message(player=3, score=value, rank=value & 0xFF, winner=bool(value % 2))
    assert encoder(native) == protobufs(expected)


def test_optional_fields_are_written_when_set_even_to_zero_and_left_out_when_none():
    encoder = wire.Encoder(api.GameOptionInfo, remember=False)
    base = {
        f.name: [] if f.is_repeated else "" if f.type == f.TYPE_STRING else None
        for f in api.GameOptionInfo.DESCRIPTOR.fields
    }
    base["name"] = "n"
    for minimum in (None, 0, -5, 2**40):
        native = SimpleNamespace(**(base | {"minimum": minimum}))
        message = api.GameOptionInfo(name="n")
        if minimum is not None:
            message.minimum = minimum
        got = encoder(native)
        assert got == protobufs(message)
        assert api.GameOptionInfo.FromString(got).HasField("minimum") == (minimum is not None)


def test_strings_maps_oneofs_repeated_messages_and_doubles():
    rng = random.Random(7)
    move = wire.Encoder(
        game_pb2.Move,
        {"move": lambda m: ("chance", m.chance)},
        remember=False,
    )
    for _ in range(200):
        value, probability = rng.randrange(-(2**40), 2**40), rng.random()
        native = SimpleNamespace(
            player=rng.randrange(6),
            label=rng.choice(["", "roll a 6", "déjà vu ✓"]),
            move_id=rng.choice([-1, 0, 5, 300]),
            chance=(value, probability),  # a plain tuple: the fields in declared order
        )
        message = game_pb2.Move(
            player=native.player,
            label=native.label,
            move_id=native.move_id,
            chance=game_pb2.ChanceOutcome(value=value, probability=probability),
        )
        assert move(native) == protobufs(message)
    event = wire.Encoder(game_pb2.Event, {"event": lambda _e: None}, remember=False)
    args = {"b": "2", "a": "1", "ü": ""}
    native = SimpleNamespace(text="t", template="{a}{b}", args=args)
    assert event(native) == protobufs(game_pb2.Event(text="t", template="{a}{b}", args=args))


def test_packed_ints_bools_and_floats_and_repeated_strings():
    legal = wire.Encoder(api.LegalMovesResponse, remember=False)
    for mask in ([], [True], [False, True, True], [True] * 300):
        native = SimpleNamespace(moves=[], next=None, move_id_count=len(mask), legal_mask=mask)
        message = api.LegalMovesResponse(move_id_count=len(mask), legal_mask=mask)
        assert legal(native) == protobufs(message)
    unset = SimpleNamespace(moves=None, next=None, move_id_count=0, legal_mask=None)
    assert legal(unset) == b""  # a repeated field that is None is left out, as an empty one
    tokens = wire.Encoder(api.NewGameResponse, remember=False)
    native = SimpleNamespace(
        state=None,
        events=[],
        public_events=[],
        seat_events=[],
        player_tokens=["a", "", "ccc"],
        outcome=None,
    )
    message = api.NewGameResponse(player_tokens=["a", "", "ccc"])
    assert tokens(native) == protobufs(message)


def test_a_board_of_small_values_is_its_own_packed_varints_and_a_large_one_is_not():
    area = wire.Encoder(kraby_pb2.KrabyView, {"decision": lambda v: None}, remember=False)
    for board in (bytearray([1, 2, 127]), bytearray([1, 200, 3]), b"", bytes(range(256))):
        native = SimpleNamespace(
            options=None,
            cells=board,
            own_hand=None,
            hand_sizes=[],
            bag_size=0,
            ships=[],
            figure_supply=None,
            step=0,
            turn_player=None,
            turns_taken=0,
            playing_area=None,
        )
        message = kraby_pb2.KrabyView(cells=list(board))
        assert area(native) == protobufs(message)


def sample_states(game_id: str) -> list:
    """Native states along random games of every case of the game."""
    cases = importlib.import_module(f"tests.cases.{game_id}").CASES
    states = []
    for seed, (num_players, options) in enumerate(cases):
        for state in play_random(ENGINE, game_id, num_players, options, seed=seed).states:
            states.append(ENGINE.decode(state).state)
    return states


@pytest.mark.parametrize("game_id", DECLARED)
def test_every_states_bytes_are_protobufs_and_decode_to_the_same_state(game_id):
    """The property replacing the per-game byte-equality suites: for every state of random
    games, the encoder's bytes are protobuf's own serialization of the message they parse to,
    and that message decodes (validated) to a state written to the same bytes."""
    codec = ENGINE.games[game_id].codec
    for native in sample_states(game_id):
        data = codec.state_bytes(native)
        message = codec.messages.state_message.FromString(data)
        assert protobufs(message) == data
        again = codec.decode_state(message, native.num_players, "state")
        assert codec.state_bytes(again) == data


@pytest.mark.parametrize("game_id", DECLARED)
def test_every_view_and_event_is_protobufs_own_bytes(game_id):
    game = ENGINE.games[game_id]
    codec = game.codec
    for native in sample_states(game_id)[::5]:
        for player in (None, *range(native.num_players)):
            data = codec.messages.view(Seat(native, player))
            view = type(getattr(game_pb2.View(), game_id)).FromString(data)
            assert protobufs(view) == data
        state = game.clone(native)
        if game.next_decision(state).kind == game_pb2.DECIDER_KIND_PLAYER:
            for event in game.apply_move(state, game.legal_moves(state)[0]):
                for viewer in (None, *range(native.num_players)):
                    seen = game.redact_event(event, viewer)
                    if seen is not None:
                        data = codec.event_bytes(seen)
                        assert protobufs(game_pb2.Event.FromString(data)) == data
