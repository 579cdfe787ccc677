"""The state's own serialization (Game.encode_state_bytes) is exactly protobuf's deterministic
serialization of the state message: the service sends these bytes and remembers the state by
them, so a client sending the state back must send these very bytes."""

from __future__ import annotations

import pytest

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, codec, rules
from crabgames.games.crab_bucket.data import CARD_KINDS
from crabgames.games.crab_bucket.rules import NO_MISSION, CrabBucketState
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES
from tests.playthrough import encode, play_random

CHANCE_MODES = (game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine([GAME])


def reference_message(state: CrabBucketState) -> pb.CrabBucketState:
    """The state message built field by field with protobuf's own API (not from the codec's
    byte parts)."""
    msg = pb.CrabBucketState(
        options=pb.CrabBucketOptions(
            mode=state.options.mode,
            first_player=state.options.first_player,
            first_mission_level=state.options.first_mission_level,
            missions=[codec.mission_msg(m) for m in state.options.missions],
        ),
        oxi_set_aside=state.oxi_set_aside,
        oxi_discarded=state.oxi_discarded,
        discarded_missions=state.discarded_missions,
        offered_missions=state.offered,
        step=state.step,
        turn_player=state.turn_player,
        dealt=state.dealt,
        ability_used=state.ability_used,
        plays_left=state.plays_left,
        played=state.played,
        draws_over=state.draws_over,
        passes=state.passes,
        end_reason=state.end_reason,
        talking_allowed=rules.talking_allowed(state),
    )
    for stack in state.piles:
        msg.piles.add().cards.extend([codec.card_msg(c) for c in stack])
    for hand in state.hands:
        msg.hands.add().cards.extend([codec.card_msg(c) for c in hand])
    for card in range(CARD_KINDS):
        msg.draw_pile.extend([codec.card_msg(card)] * state.draw_pile[card])
    msg.removed.extend([codec.card_msg(c) for c in state.removed])
    for pile in state.mission_piles:
        msg.mission_piles.add().missions.extend(pile)
    if state.current != NO_MISSION:
        msg.current_mission = state.current
    for mission, used in zip(state.completed, state.spent, strict=True):
        msg.completed.add(mission=mission, ability_used=used)
    for kind, level in state.pending:
        msg.pending.add(kind=kind, level=level)
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
        assert GAME.encode_state_bytes(native) == encode(expected)
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
