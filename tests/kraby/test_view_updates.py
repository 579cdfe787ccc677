"""The events tell every change at the table (issue 16): for each seat and a spectator, the
view before a call with that viewer's events applied (tests/conformance/view_updates/kraby.py,
from the events' data alone) is the view after it, at every player count, with chance
resolved by the server or chosen by the caller, from the empty table before the deal on."""

from __future__ import annotations

import random

import pytest

from crabgames.core.engine import Happened
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb
from tests.cases.kraby import CASES
from tests.conformance.common import ENGINE
from tests.conformance.view_updates import kraby as reducer

AUTO, EXPLICIT = game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT


def table(view: pb.KrabyView) -> pb.KrabyView:
    copy = pb.KrabyView()
    copy.CopyFrom(view)
    for name in reducer.DERIVED_FIELDS:
        copy.ClearField(name)
    return copy


def assert_events_rebuild(
    before: game_pb2.GameState, after: game_pb2.GameState, happened: Happened, label: str
) -> None:
    for viewer in [None, *range(before.num_players)]:
        rebuilt = ENGINE.view(before, viewer).kraby
        seen = happened.public_events if viewer is None else happened.seat_events[viewer]
        for event in seen:
            reducer.apply_event(rebuilt, event, viewer)
        want = ENGINE.view(after, viewer).kraby
        assert table(rebuilt) == table(want), f"viewer {viewer} after {label!r}"


def play_and_check(num_players: int, options: pb.KrabyOptions, seed: int, mode: int) -> int:
    """One random game, every call checked; the number of calls."""
    rng = random.Random(seed)
    # The table before the deal: in explicit mode the game waits there for the first tile.
    empty, _ = ENGINE.new_game("kraby", options, num_players, seed, EXPLICIT)
    state, happened = ENGINE.new_game("kraby", options, num_players, seed, mode)
    assert_events_rebuild(empty, state, happened, "NewGame")
    calls = 1
    while state.next.kind != game_pb2.DECIDER_KIND_NONE:
        moves, _ = ENGINE.legal_moves(state)
        move = rng.choice(moves)
        after, happened, _ = ENGINE.apply_move(state, move)
        assert_events_rebuild(state, after, happened, move.label)
        state, calls = after, calls + 1
    return calls


@pytest.mark.parametrize(("num_players", "options"), CASES)
@pytest.mark.parametrize("seed", (1, 5, 9))
def test_each_viewers_events_rebuild_the_next_view_with_chance_by_the_server(
    num_players, options, seed
):
    assert play_and_check(num_players, options, seed, AUTO) > 20


@pytest.mark.parametrize(("num_players", "options"), CASES)
def test_each_viewers_events_rebuild_the_next_view_with_chance_chosen_by_the_caller(
    num_players, options
):
    # Every deal and draw is its own call: the views between a placement and its draw too.
    assert play_and_check(num_players, options, 3, EXPLICIT) > 6 * num_players


def test_the_reducer_never_reads_the_text():
    state, happened = ENGINE.new_game("kraby", pb.KrabyOptions(), 3, 4, AUTO)
    moves, _ = ENGINE.legal_moves(state)
    after, happened, _ = ENGINE.apply_move(state, moves[0])
    rebuilt = ENGINE.view(state, 1).kraby
    for event in happened.seat_events[1]:
        event.text, event.template = "", ""
        event.args.clear()
        reducer.apply_event(rebuilt, event, 1)
    assert table(rebuilt) == table(ENGINE.view(after, 1).kraby)
