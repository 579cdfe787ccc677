"""The state's bytes as the accelerator writes them (fast.state_bytes) are exactly protobuf's
deterministic serialization of the state message the readable codec builds field by field: the
service sends these bytes and remembers the state by them, so a client sending the state back
must send these very bytes."""

from __future__ import annotations

import pytest

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, fast
from crabgames.games.crab_bucket.state import CrabBucketState
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES
from tests.playthrough import encode, play_random

CHANCE_MODES = (game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine([GAME])


def reference_message(state: CrabBucketState) -> pb.CrabBucketState:
    """The state message built field by field with protobuf's own API (the readable codec)."""
    msg = pb.CrabBucketState()
    GAME.codec.encode_state(state, msg)
    return msg


def played_states(engine: Engine):
    """Every state of random games: each case (both modes, every player count, the default and
    an easy deck that completes missions) with chance resolved automatically and by choice
    (which stops at each card of the deal)."""
    for case, (num_players, options) in enumerate(CASES):
        for seed, chance_mode in enumerate(CHANCE_MODES):
            record = play_random(
                engine, "crab_bucket", num_players, options, case * 7 + seed, chance_mode
            )
            yield from record.states


def test_state_bytes_equal_protobufs_deterministic_serialization(engine):
    fields_seen: set[str] = set()
    for state in played_states(engine):
        native = engine.decode(state).state
        expected = reference_message(native)
        assert fast.state_bytes(native) == encode(expected)
        assert GAME.codec.state_bytes(native) == encode(expected)
        fields_seen.update(field.name for field, _ in expected.ListFields())
    # Every field was set in some state, so each one's place and encoding was checked.
    assert fields_seen == {field.name for field in pb.CrabBucketState.DESCRIPTOR.fields}


def test_the_engine_encodes_the_message_the_bytes_serialize(engine):
    for state in played_states(engine):
        match = engine.decode(state)
        assert engine.encode(match).crab_bucket == reference_message(match.state)


@pytest.mark.parametrize("case", range(0, len(CASES), 3))
def test_apply_move_sends_the_bytes_a_client_sends_back(engine, case):
    num_players, options = CASES[case]
    record = play_random(engine, "crab_bucket", num_players, options, seed=case)
    for state, move in zip(record.states, record.moves, strict=False):
        data, _, _ = engine.apply_move_serialized(state, move)
        assert encode(game_pb2.GameState.FromString(data)) == data
        assert data in engine.decoded.entries
