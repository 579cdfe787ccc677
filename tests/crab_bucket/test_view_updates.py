"""Crab Bucket's events tell every change at the table (issue 16): for each seat and a spectator,
the previous view with that viewer's events applied by the reference reducer
(tests/conformance/view_updates/crab_bucket.py) is the next view, in random games of every
conformance case (both modes, 2 to 5 players, the easy deck that uses every ability), with
chance resolved by the engine and chance outcomes applied one by one."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES
from tests.conformance.view_updates import crab_bucket as reducer
from tests.playthrough import GAME_OVER, pick

ENGINE = Engine([GAME])
MODES = {"auto": game_pb2.CHANCE_MODE_AUTO, "explicit": game_pb2.CHANCE_MODE_EXPLICIT}


def table(view, derived: tuple[str, ...]):
    copy = type(view)()
    copy.CopyFrom(view)
    for name in derived:
        copy.ClearField(name)
    return copy


def check_game(num_players: int, options, seed: int, chance_mode: int) -> int:
    rng = random.Random(seed)
    state, _ = ENGINE.new_game("crab_bucket", options, num_players, seed, chance_mode)
    checked = 0
    while state.next.kind != GAME_OVER:
        moves, _ = ENGINE.legal_moves(state)
        move = pick(rng, moves)
        after, happened, _ = ENGINE.apply_move(state, move)
        for viewer in (None, *range(num_players)):
            seen = happened.public_events if viewer is None else happened.seat_events[viewer]
            rebuilt = table(ENGINE.view(state, viewer).crab_bucket, ())
            for event in seen:
                if event.WhichOneof("event") == "crab_bucket":
                    reducer.apply_event(rebuilt, event, viewer)
            want = table(ENGINE.view(after, viewer).crab_bucket, reducer.DERIVED_FIELDS)
            got = table(rebuilt, reducer.DERIVED_FIELDS)
            assert got == want, (
                f"viewer {viewer} after {move.label!r}: {json_format.MessageToDict(got)}"
                f" != {json_format.MessageToDict(want)}"
            )
            checked += 1
        state = after
    return checked


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(("num_players", "options"), CASES)
def test_each_viewers_events_rebuild_the_next_view(num_players, options, mode):
    assert sum(check_game(num_players, options, seed, MODES[mode]) for seed in (1, 2, 3)) > 0
