"""LegalMoves and ApplyMove answer with wire bytes framed from encodings the engine holds
(core/wire.py): those bytes must parse to exactly the response the protobuf API would build."""

from __future__ import annotations

import importlib

import pytest

from crabgames.core import wire
from crabgames.core.engine import Engine, ForcedMoveEvent, redact
from crabgames.core.game import paths
from crabgames.core.wire import apply_move_response
from crabgames.games import all_games
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.playthrough import play_random

ENGINE = Engine(all_games())
GAMES = sorted(ENGINE.games)


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31 - 1, -1, -(2**31)])
def test_a_varint_field_is_what_protobuf_writes(value):
    expected = game_pb2.GameState(num_players=value).SerializeToString()
    assert wire.varint_field(game_pb2.GameState.NUM_PLAYERS_FIELD_NUMBER, value) == expected


def test_a_message_field_is_present_even_when_empty():
    holder = api.LegalMovesResponse.FromString(wire.message_field(2, b""))
    assert holder.HasField("next")


def sample_states(game_id: str) -> list[game_pb2.GameState]:
    num_players, options = importlib.import_module(f"tests.cases.{game_id}").CASES[-1]
    states = play_random(ENGINE, game_id, num_players, options, seed=4).states
    return states[:: max(1, len(states) // 12)] + [states[-1]]


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_moves_bytes_are_the_response_protobuf_would_build(game_id):
    for state in sample_states(game_id):
        moves, decision = ENGINE.legal_moves(state)
        count = ENGINE.games[game_id].move_id_count(state.num_players)
        mask = [False] * count
        for move in moves:
            if move.move_id >= 0:
                mask[move.move_id] = True
        for with_mask in (False, True):
            expected = api.LegalMovesResponse(moves=moves, next=decision, move_id_count=count)
            if with_mask:
                expected.legal_mask.extend(mask)
            got = api.LegalMovesResponse.FromString(
                ENGINE.legal_moves_response_bytes(state, with_mask)
            )
            assert got == expected


def seen_by(game, events, viewer="host") -> list:
    """Native events as `viewer` sees them (the host sees all)."""
    if viewer == "host":
        return list(events)
    return [seen for seen in (redact(game, e, viewer) for e in events) if seen is not None]


def event_msgs(game, events, viewer="host") -> list[game_pb2.Event]:
    """The events `viewer` sees, encoded through the protobuf API (`encode_event`)."""
    out = []
    for event in seen_by(game, events, viewer):
        if type(event) is ForcedMoveEvent:  # the engine's own event, not the game's
            out.append(game_pb2.Event.FromString(event.encoded()))
            continue
        msg = game_pb2.Event()
        game.codec.encode_event(event, msg)
        out.append(msg)
    return out


def moves_played(game_id: str):
    """(state, move, the native events it makes) along a random game."""
    for state in [s for s in sample_states(game_id) if s.next.kind != game_pb2.DECIDER_KIND_NONE]:
        moves, _ = ENGINE.legal_moves(state)
        move = moves[len(moves) // 2]
        yield state, move, ENGINE.decode(state).play(move)


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_move_bytes_are_the_response_protobuf_would_build(game_id):
    game = ENGINE.games[game_id]
    for state, move, events in moves_played(game_id):
        after, happened, outcome = ENGINE.apply_move(state, move)
        expected = api.ApplyMoveResponse(
            state=after,
            events=event_msgs(game, events),
            public_events=event_msgs(game, events, None),
            seat_events=[
                api.SeatEvents(player=p, events=event_msgs(game, events, p))
                for p in range(state.num_players)
            ],
            outcome=outcome,
        )
        got = apply_move_response(
            after.SerializeToString(),
            happened.sized_events,
            happened.sized_public,
            enumerate(happened.sized_seats),
            outcome,
        )
        assert api.ApplyMoveResponse.FromString(got) == expected
        assert got and (outcome is None) == (not expected.HasField("outcome"))


@pytest.mark.parametrize("game_id", GAMES)
def test_an_events_bytes_are_what_its_message_serializes_to(game_id):
    """A game's events are written by their message's shape (core/wire.py): they must be the
    message's, for every event a random game makes and every copy a viewer gets."""
    game = ENGINE.games[game_id]
    kinds = set()
    for state, _move, events in moves_played(game_id):
        for viewer in ("host", None, *range(state.num_players)):
            seen = [e for e in seen_by(game, events, viewer) if type(e) is not ForcedMoveEvent]
            for event, msg in zip(seen, event_msgs(game, seen), strict=True):
                assert paths(game).event_bytes(event) == msg.SerializeToString(deterministic=True)
                kinds.add(msg.WhichOneof("event"))
    assert kinds == {game_id}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_state_header_written_by_hand_is_what_protobuf_writes(game_id):
    from crabgames.core.engine import EXPLICIT, next_decision_msg, state_header_fields

    def state_header(match) -> game_pb2.GameState:
        """The same fields through the protobuf API."""
        return game_pb2.GameState(
            rules_version=match.game.facts.rules_version,
            num_players=match.num_players,
            seed=match.seed,
            prng=game_pb2.Prng(seed=match.prng.seed, counter=match.prng.counter),
            chance_mode=match.chance_mode,
            version=match.version,
            next=next_decision_msg(match.decision()),
            sampled=match.sampled,
        )

    for state in sample_states(game_id):
        match = ENGINE.decode(state)
        for sampled, mode, seed in [(False, None, None), (True, EXPLICIT, 2**63 + 5)]:
            match.sampled = sampled
            match.chance_mode = mode or match.chance_mode
            match.seed = match.prng.seed = seed or match.seed
            expected = state_header(match).SerializeToString(deterministic=True)
            assert b"".join(state_header_fields(match)) == expected


def test_a_leading_field_is_split_off_only_when_it_leads_whole():
    state = game_pb2.GameState(rules_version="kraby/1", num_players=3)
    data = state.SerializeToString()
    assert wire.leading_field(data, 1) == (b"kraby/1", data[9:])
    assert wire.leading_field(data, 2) is None  # not the first field
    assert wire.leading_field(data[:5], 1) is None  # cut short
    long = game_pb2.GameState(rules_version="x" * 300).SerializeToString()
    assert wire.leading_field(long, 1) == (b"x" * 300, b"")  # a two-byte length


@pytest.mark.parametrize("length", [0, 1, 127, 128, 300, 20_000])
def test_a_sized_payload_is_unsized_back_whole(length):
    payload = bytes(range(256)) * (length // 256) + bytes(length % 256)
    framed = wire.sized(payload)
    assert wire.unsized(framed) == payload
    with pytest.raises(ValueError):
        wire.unsized(framed[:-1])  # its payload cut short
