"""B9: talking (docs/rules/crab_bucket.md, "B9: talking"): the state and every view say whether
talking is allowed: in Quick mode until the first mission is completed, in Wild Crab mode never."""

from __future__ import annotations

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import (
    WILD_CRAB,
    card,
    simple,
)


def test_talking_is_allowed_in_quick_mode_during_the_first_mission_only():
    state = simple({0: ["red 2", "blue 1", "blue 2"]})
    assert rules.talking_allowed(state)
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert not rules.talking_allowed(state)
    assert not rules.talking_allowed(simple({}, mode=WILD_CRAB))


def test_the_talking_flag_is_in_the_state_and_in_every_view():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 3, seed=5)
    assert state.crab_bucket.talking_allowed
    assert engine.view(state, 1).crab_bucket.talking_allowed
    wild = pb.CrabBucketOptions(mode=WILD_CRAB)
    state, _ = engine.new_game("crab_bucket", wild, 3, seed=5)
    assert not engine.view(state, None).crab_bucket.talking_allowed
