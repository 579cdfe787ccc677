"""Bounds before allocation (issue 13): every count, length and name a caller sends to a game is
checked against what the rules allow (or a documented limit) before anything is built from it,
and every answer a legal options set can produce fits far within the 4 MiB message limit.
Each bound is shown in-process (the `engine` fixture) and through a real server (`stub`)."""

from __future__ import annotations

import random
import sys
import time
import tracemalloc

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from crabgames.core import wire
from crabgames.core.errors import InvalidArgument
from crabgames.core.playouts import MAX_DECISIONS, run_playouts
from crabgames.games.crab_bucket import codec as cb_codec
from crabgames.games.crab_bucket.codec import MAX_MISSIONS, MAX_NAME, MAX_REQUIREMENTS
from crabgames.games.crab_rage import actions
from crabgames.games.crab_rage.codec import MAX_PENDING
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import Act
from crabgames.v1 import crab_bucket_pb2, crab_rage_pb2, game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api

MESSAGE_LIMIT = 4 << 20  # the server's limit each way (docs/security.md)
# Every answer of a game with the largest options must fit well within the limit.
ANSWER_BUDGET = MESSAGE_LIMIT // 16


def refused(engine_call) -> tuple[str, str]:
    """(field, description) of the InvalidArgument an in-process call raises."""
    with pytest.raises(InvalidArgument) as caught:
        engine_call()
    violation = caught.value.violations[0]
    return violation.field, violation.description


def bad_field(error: grpc.RpcError) -> str:
    """The first field violation's path of a refused call (google.rpc.BadRequest)."""
    for detail in rpc_status.from_call(error).details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return bad.field_violations[0].field
    raise AssertionError("no BadRequest detail")


def rpc_refused(call, request) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=30)
    return caught.value.code(), bad_field(caught.value)


def view_of(engine, game: str, options, players: int = 3, seed: int = 5) -> game_pb2.View:
    state, _ = engine.new_game(game, options, players, seed=seed)
    return engine.view(state, 0)


# ----- 1. SampleState: a view's counts -----


CRAB_BUCKET_VIEW_ATTACKS = {
    "piles[0].height": lambda v: setattr(v.piles[0], "height", 2 * 10**7),
    "piles[3].height": lambda v: setattr(v.piles[3], "height", -1),
    "piles[0].oxi_count": lambda v: setattr(v.piles[0], "oxi_count", 10**6),
    # B2: a pile's cards, many more than its height, refused before any is decoded
    "piles[0].cards": lambda v: v.piles[0].cards.extend([v.piles[0].top] * 10**5),
    "hand_sizes[1]": lambda v: v.hand_sizes.__setitem__(1, 2**31 - 1),
    "hand_sizes[2]": lambda v: v.hand_sizes.__setitem__(2, -(2**31)),
    "oxi_discarded": lambda v: setattr(v, "oxi_discarded", -1),
    "oxi_set_aside": lambda v: setattr(v, "oxi_set_aside", -(2**31)),
    "draw_pile_size": lambda v: setattr(v, "draw_pile_size", 2**31 - 1),
    "mission_pile_sizes[0]": lambda v: v.mission_pile_sizes.__setitem__(0, 10**9),
    "pending": lambda v: v.pending.extend([crab_bucket_pb2.CrabBucketPending()] * 1000),
}


@pytest.mark.parametrize("field", sorted(CRAB_BUCKET_VIEW_ATTACKS))
def test_crab_bucket_view_counts_are_bounded_before_sampling(engine, field):
    view = view_of(engine, "crab_bucket", crab_bucket_pb2.CrabBucketOptions())
    CRAB_BUCKET_VIEW_ATTACKS[field](view.crab_bucket)
    where, _ = refused(lambda: engine.sample_state(view))
    assert where == f"view.crab_bucket.{field}"


def test_crab_bucket_view_cards_must_add_up_to_the_deck(engine):
    view = view_of(engine, "crab_bucket", crab_bucket_pb2.CrabBucketOptions())
    view.crab_bucket.draw_pile_size += 1  # every count in range, one card too many in all
    where, description = refused(lambda: engine.sample_state(view))
    assert where == "view.crab_bucket"
    assert "35" in description  # 32 crab cards and 3 Oxi! (B1)


def test_a_view_with_a_pile_of_twenty_million_cards_is_refused_at_once(stub, engine):
    """Before: 13 s of CPU and a MemoryError (INTERNAL) in the server."""
    view = view_of(engine, "crab_bucket", crab_bucket_pb2.CrabBucketOptions())
    view.crab_bucket.piles[0].height = 2 * 10**7
    tracemalloc.start()
    started = time.monotonic()
    code, field = rpc_refused(stub.SampleState, api.SampleStateRequest(view=view))
    elapsed = time.monotonic() - started
    tracemalloc.stop()
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert field == "view.crab_bucket.piles[0].height"
    assert elapsed < 5


@pytest.mark.parametrize(("field", "value"), [("hand_sizes[1]", 2**31 - 1), ("oxi_discarded", -1)])
def test_crab_bucket_view_counts_are_refused_by_the_server(stub, engine, field, value):
    view = view_of(engine, "crab_bucket", crab_bucket_pb2.CrabBucketOptions())
    if field == "hand_sizes[1]":
        view.crab_bucket.hand_sizes[1] = value
    else:
        view.crab_bucket.oxi_discarded = value
    code, where = rpc_refused(stub.SampleState, api.SampleStateRequest(view=view))
    assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, f"view.crab_bucket.{field}")


KRABY_VIEW_ATTACKS = {
    "hand_sizes[1]": lambda v: v.hand_sizes.__setitem__(1, 2**31 - 1),
    "hand_sizes[2]": lambda v: v.hand_sizes.__setitem__(2, -6),
    "own_hand.orange": lambda v: setattr(v.own_hand, "orange", -(2**31)),
    "own_hand": lambda v: setattr(v.own_hand, "pink", v.own_hand.pink + 1),
    "bag_size": lambda v: setattr(v, "bag_size", -1),
    "cells": lambda v: v.cells.extend([0] * 10**5),
}


@pytest.mark.parametrize("field", sorted(KRABY_VIEW_ATTACKS))
def test_kraby_view_counts_are_bounded_before_sampling(engine, field):
    view = view_of(engine, "kraby", kraby_pb2.KrabyOptions())
    KRABY_VIEW_ATTACKS[field](view.kraby)
    where, _ = refused(lambda: engine.sample_state(view))
    assert where == f"view.kraby.{field}"


def test_kraby_view_hand_size_is_refused_by_the_server(stub, engine):
    view = view_of(engine, "kraby", kraby_pb2.KrabyOptions())
    view.kraby.hand_sizes[1] = 2**31 - 1
    code, where = rpc_refused(stub.SampleState, api.SampleStateRequest(view=view))
    assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, "view.kraby.hand_sizes[1]")


# ----- 2. States: every list of a CRAB RAGE! state bounded -----


def rage_state(engine, players: int = 3) -> game_pb2.GameState:
    state, _ = engine.new_game("crab_rage", crab_rage_pb2.CrabRageOptions(), players, seed=5)
    return state


def test_a_crab_rage_pending_stack_is_bounded(engine, stub):
    state = rage_state(engine)
    step = crab_rage_pb2.CrabRagePending(kind=state.crab_rage.pending[-1].kind)
    state.crab_rage.pending.extend([step] * (MAX_PENDING + 1))
    where, _ = refused(lambda: engine.decode(state))
    assert where == "state.crab_rage.pending"
    view = engine.view(rage_state(engine), 0)
    continuation = crab_rage_pb2.CrabRageState.FromString(view.crab_rage.continuation)
    continuation.pending.extend([step] * (MAX_PENDING + 1))
    view.crab_rage.continuation = continuation.SerializeToString()
    code, where = rpc_refused(stub.SampleState, api.SampleStateRequest(view=view))
    assert (code, where) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "view.crab_rage.continuation.pending",
    )


def test_a_crab_rage_step_names_at_most_the_crabs_in_the_game(engine):
    state = rage_state(engine)
    ref = crab_rage_pb2.CrabRageCrabRef(player=0, crab=0)
    state.crab_rage.pending[-1].crabs.extend([ref] * 13)  # 3 players x 4 crabs = 12
    where, _ = refused(lambda: engine.decode(state))
    assert where == f"state.crab_rage.pending[{len(state.crab_rage.pending) - 1}].crabs"


def test_smash_moves_at_any_rage_are_kept_not_built_per_decision(engine):
    """R3: rage has no upper limit, and neither has a Smash's X (R8). From a state with a lot of
    rage every decision listed up to 127 new moves per target (a Playouts call 20 times a normal
    one's cost): the moves up to X = KEPT_X are kept, the same objects on every call, and the
    larger X are listed lazily (actions.SmashRow), every one the player can pay."""
    state = rage_state(engine)
    for player in state.crab_rage.players:
        player.rage = 100_000
    match = engine.decode(state)
    game, native, rng = match.game, match.state, random.Random(2)
    for _ in range(2000):  # play until someone has a Smash with a large X
        moves = game.legal_moves(native)
        smashes = [m for m in moves if isinstance(m, Act) and m.action == Action.SMASH]
        if any(m.amount > actions.SMASH_TABLE_X for m in smashes):
            again = game.legal_moves(native)
            assert len(again) == len(moves)
            pairs = zip(moves, again, strict=True)
            assert all(
                a is b for a, b in pairs if not isinstance(a, Act) or a.amount <= actions.KEPT_X
            )
            rage = native.players[game.next_decision(native).player].rage
            assert max(m.amount for m in smashes) == rage - 1  # Smash costs 1 plus X
            return
        chance = game.next_decision(native).kind != game_pb2.DECIDER_KIND_PLAYER
        if chance:
            game.apply_chance(native, game.chance_outcomes(native)[0][0])
        else:
            game.apply_move(native, rng.choice(moves))
    raise AssertionError("no Smash came up")


def test_playouts_from_a_state_with_huge_rage_cost_about_a_normal_call(engine, stub):
    """Before: 5.5 s of server CPU per call (0.27 s normally); both calls stop at the same
    total of decisions, so they now cost about the same."""
    normal = rage_state(engine)
    raging = rage_state(engine)
    for player in raging.crab_rage.players:
        player.rage = 100_000
    timings = []
    for state in (normal, raging):
        started = time.monotonic()
        stub.Playouts(api.PlayoutsRequest(state=state, count=100, seed=3), timeout=60)
        timings.append(time.monotonic() - started)
    assert timings[1] < 4 * timings[0] + 1.0, timings
    stats = run_playouts(engine.decode(raging), 100, 3, MAX_DECISIONS)
    assert stats.decisions == MAX_DECISIONS  # the bound, not rage, ends the call


def test_crab_rage_options_with_more_teams_or_billboards_than_the_game_are_refused(stub):
    for options, field in (
        (crab_rage_pb2.CrabRageOptions(teams=[1, 2, 3, 1], signature_moves=[1, 2, 3]), "teams"),
        (crab_rage_pb2.CrabRageOptions(billboards=[1, 2, 3] * 1000), "billboards"),
    ):
        request = api.NewGameRequest(num_players=3, seed=1, crab_rage=options)
        code, where = rpc_refused(stub.NewGame, request)
        assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, f"options.crab_rage.{field}")


# ----- 3. Options: the largest legal Crab Bucket deck, and one beyond -----


def largest_deck(tag: str = "", **changes) -> crab_bucket_pb2.CrabBucketOptions:
    """MAX_MISSIONS missions, each named with MAX_NAME four-byte characters (the longest
    encoding) and MAX_REQUIREMENTS requirements; Wild Crab mode, whose events name missions."""
    requirement = crab_bucket_pb2.CrabBucketRequirement(
        gap=crab_bucket_pb2.CrabBucketGap(color=crab_bucket_pb2.CRAB_BUCKET_COLOR_YELLOW, between=0)
    )
    missions = [
        crab_bucket_pb2.CrabBucketMission(
            name=(f"{tag}{i}" + "\U0001f980" * MAX_NAME)[:MAX_NAME],
            level=1 + i % 3,
            ability=1 + i % 9,
            requirements=[requirement] * MAX_REQUIREMENTS,
        )
        for i in range(changes.pop("missions", MAX_MISSIONS))
    ]
    return crab_bucket_pb2.CrabBucketOptions(
        mode=crab_bucket_pb2.CRAB_BUCKET_MODE_WILD_CRAB, first_player=4, missions=missions
    )


def test_the_largest_deck_plays_with_every_answer_well_within_the_message_limit(stub):
    """The worst case of a game's answers: the largest options encode in about 70 KB, and each
    state, view, legal-move list and ApplyMove answer (all events, every seat's) stays under
    ANSWER_BUDGET (256 KiB), a sixteenth of the limit. Played to the end or 400 decisions."""
    options = largest_deck()
    assert options.ByteSize() < 96 * 1024
    answer = stub.NewGame(api.NewGameRequest(num_players=5, seed=9, crab_bucket=options))
    largest = answer.ByteSize()
    state, rng = answer.state, random.Random(4)
    for _ in range(400):
        if state.next.kind == game_pb2.DECIDER_KIND_NONE:
            break
        legal = stub.LegalMoves(api.LegalMovesRequest(state=state))
        view = stub.GetView(api.GetViewRequest(state=state, player=0))
        played = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=rng.choice(legal.moves)))
        largest = max(largest, legal.ByteSize(), view.ByteSize(), played.ByteSize())
        state = played.state
    print("largest answer", largest, "bytes")
    assert largest < ANSWER_BUDGET, largest


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (largest_deck(missions=MAX_MISSIONS + 1), "missions"),
        (largest_deck(), "missions[7].name"),
        (largest_deck(), "missions[3].requirements"),
    ],
)
def test_options_beyond_the_largest_deck_are_refused_at_new_game(stub, options, field):
    if field.endswith(".name"):
        options.missions[7].name += "x"
    if field.endswith(".requirements"):
        options.missions[3].requirements.append(options.missions[3].requirements[0])
    request = api.NewGameRequest(num_players=5, seed=1, crab_bucket=options)
    code, where = rpc_refused(stub.NewGame, request)
    assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, f"options.crab_bucket.{field}")


def test_a_state_whose_options_are_larger_than_any_valid_ones_is_refused(engine):
    state, _ = engine.new_game("crab_bucket", crab_bucket_pb2.CrabBucketOptions(), 3, seed=1)
    state.crab_bucket.options.missions.append(crab_bucket_pb2.CrabBucketMission())
    state.crab_bucket.options.missions[-1].MergeFromString(
        b"\xfa\x3f" + b"\x80\x80\x08" + bytes(1 << 17)
    )
    # The engine refuses unknown fields anywhere; the game itself never keeps such options.
    where, _ = refused(lambda: cb_codec.decode_state(state.crab_bucket, 3, "state.crab_bucket"))
    assert where == "state.crab_bucket.options"


def test_the_options_tables_are_bounded_in_bytes(engine):
    """Every distinct deck a caller sends is decoded and kept; the tables start over rather than
    pass OPTIONS_CACHE_BYTES, so memory stays bounded however many decks arrive."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(40):  # 40 largest decks: 14 MiB of Options if all were kept
        state, _ = engine.new_game("crab_bucket", largest_deck(f"{i}-"), 5, seed=1)
        engine.decode(state)
        for table in (cb_codec._DECODED_OPTIONS,):
            assert table.used <= cb_codec.OPTIONS_CACHE_BYTES
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 4 * cb_codec.OPTIONS_CACHE_BYTES


def test_a_remembered_table_is_bounded_in_bytes():
    table = wire.Remembered(lambda n: bytes(n))
    for n in range(2000):
        table[n * 10 + 1000]
        assert table.used <= wire.Remembered.BYTES
    assert sum(map(len, table.entries.values())) <= wire.Remembered.BYTES
    assert len(table) < 2000
    assert sys.getsizeof(0) < wire.Remembered.ENTRY_OVERHEAD


# ----- 4. ScoreCrabRageSeason -----


def outcome(seats: list[int], ranks: list[int]) -> game_pb2.Outcome:
    result = game_pb2.Outcome()
    for seat, rank in zip(seats, ranks, strict=True):
        result.players.add(player=seat, rank=rank)
    return result


@pytest.mark.parametrize(
    ("outcomes", "field"),
    [
        ([outcome([7, 7, 7], [1, 2, 3])], "outcomes[0].players[0].player"),
        ([outcome([0, 0, 2], [1, 2, 3])], "outcomes[0].players[1].player"),
        ([outcome([0, 1], [1, 2])], "outcomes[0].players"),
        (
            [outcome([0, 1, 2], [1, 2, 3]), outcome([0, 1, 2, 3], [1, 2, 3, 4])],
            "outcomes[1].players",
        ),
        ([outcome([0, 1, 2], [2, 2, 3])], "outcomes[0].players"),
        ([outcome([0, 1, 2], [1, 1, 2])], "outcomes[0].players"),
        ([outcome([0, 1, 2], [1, 2, 3])] * 6, "outcomes"),
    ],
)
def test_impossible_season_outcomes_are_refused(stub, outcomes, field):
    request = api.ScoreCrabRageSeasonRequest(outcomes=outcomes)
    code, where = rpc_refused(stub.ScoreCrabRageSeason, request)
    assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, field)


def test_season_winners_must_be_the_managers_placed_first(stub):
    game = outcome([2, 0, 1], [1, 2, 2])
    game.winners.append(0)
    request = api.ScoreCrabRageSeasonRequest(outcomes=[game])
    code, where = rpc_refused(stub.ScoreCrabRageSeason, request)
    assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, "outcomes[0].winners")


def test_a_real_season_of_outcomes_still_scores(stub):
    games = [outcome([2, 0, 1], [1, 2, 3]), outcome([0, 1, 2], [1, 1, 3])]
    games[0].winners.append(2)
    response = stub.ScoreCrabRageSeason(api.ScoreCrabRageSeasonRequest(outcomes=games))
    assert [s.total for s in response.standings] == [9, 8, 9]
    assert list(response.winners) == [0, 2]
