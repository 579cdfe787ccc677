"""The contract a front end builds on (issue 16), through a real server: a new-game form built
from ListGames alone, one rules-version format, asking only for the events one needs, and JSON
in which seat 0 and move id 0 are written and nothing says -1 for "none"."""

from __future__ import annotations

import json
import re

import grpc
import pytest
from google.protobuf import json_format
from grpc_status import rpc_status

from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

INT, BOOL = api.OPTION_TYPE_INT, api.OPTION_TYPE_BOOL
ENUM, ENUM_LIST = api.OPTION_TYPE_ENUM, api.OPTION_TYPE_ENUM_LIST


def form_values(option: api.GameOptionInfo, num_players: int) -> list:
    """What a new-game form offers for one option (JSON values), from its description only:
    each end of a range, each allowed value, a full list of per-seat values."""
    if option.type == BOOL:
        return [True, False]
    if option.type == INT:
        assert option.HasField("minimum") and option.HasField("maximum"), option.name
        return sorted({option.minimum, option.maximum})
    if option.type == ENUM:
        assert option.allowed_values, option.name
        return list(option.allowed_values)
    if option.type == ENUM_LIST:
        values = list(option.allowed_values)
        if option.per_seat:
            return [values[:num_players], values[-num_players:]]
        assert option.HasField("min_items"), f"{option.name}: how many entries?"
        return [values[: option.min_items]]
    return []  # a message: the form leaves it at its default, as the description allows


def new_game(stub, info: api.GameInfo, num_players: int, options: dict):
    body = {"numPlayers": num_players, "seed": "5", info.id: options}
    request = json_format.Parse(json.dumps(body), api.NewGameRequest())
    return stub.NewGame(request)


def test_a_new_game_request_is_built_from_list_games_alone(stub):
    """Every value the form offers starts a game, or is refused at that option's own field (an
    option that depends on another, such as Crab Bucket's first mission level in Quick mode),
    so the form can show the refusal beside the field."""
    games = stub.ListGames(api.ListGamesRequest()).games
    assert {g.id for g in games} == {"kraby", "crab_bucket", "crab_rage"}
    started = refused = 0
    for info in games:
        assert info.options, info.id
        for num_players in (info.min_players, info.max_players):
            assert new_game(stub, info, num_players, {}).state.WhichOneof("game") == info.id
            for option in info.options:
                assert option.type != api.OPTION_TYPE_UNSPECIFIED and option.description
                if option.HasField("min_players") and num_players < option.min_players:
                    continue  # the form offers it only with enough players
                if option.HasField("max_players") and num_players > option.max_players:
                    continue
                for value in form_values(option, num_players):
                    if option.seat and value >= num_players:
                        continue  # a seat beyond this table: the form offers 0..N-1
                    try:
                        response = new_game(stub, info, num_players, {option.name: value})
                    except grpc.RpcError as error:
                        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
                        field = f"options.{info.id}.{option.name}"
                        assert any(p.startswith(field) for p in field_paths(error)), (
                            field,
                            field_paths(error),
                        )
                        refused += 1
                        continue
                    assert response.state.WhichOneof("game") == info.id
                    started += 1
    assert started > 10 * refused, (started, refused)


def test_every_rules_version_is_spelled_game_slash_number(stub):
    for info in stub.ListGames(api.ListGamesRequest()).games:
        assert re.fullmatch(rf"{info.id}/\d+", info.rules_version), info.rules_version


def test_a_state_with_the_former_spelling_of_its_rules_version_is_still_read(stub):
    request = api.NewGameRequest(num_players=2, seed=3)
    request.kraby.SetInParent()
    state = stub.NewGame(request).state
    state.rules_version = "kraby-1"
    assert stub.LegalMoves(api.LegalMovesRequest(state=state)).moves
    state.rules_version = "kraby-2"
    with pytest.raises(grpc.RpcError) as error:
        stub.LegalMoves(api.LegalMovesRequest(state=state))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def crab_bucket_game(stub, selection=None):
    request = api.NewGameRequest(num_players=3, seed=11)
    request.crab_bucket.SetInParent()
    if selection is not None:
        request.events.CopyFrom(selection)
    return stub.NewGame(request)


def first_move(stub, state, selection=None):
    move = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves[0]
    request = api.ApplyMoveRequest(state=state, move=move)
    if selection is not None:
        request.events.CopyFrom(selection)
    return stub.ApplyMove(request)


def test_an_answer_carries_only_the_event_lists_asked_for(stub):
    full = crab_bucket_game(stub)
    assert full.events and full.public_events and len(full.seat_events) == 3
    only_seat_1 = crab_bucket_game(stub, api.EventSelection(seats=[1]))
    assert not only_seat_1.events and not only_seat_1.public_events
    assert [s.player for s in only_seat_1.seat_events] == [1]
    assert only_seat_1.seat_events[0] == full.seat_events[1]

    everything = first_move(stub, full.state)
    for selection, host, spectator, seats in [
        (api.EventSelection(host=True), True, False, []),
        (api.EventSelection(spectator=True, seats=[0, 2]), False, True, [0, 2]),
        (api.EventSelection(), False, False, []),
    ]:
        answer = first_move(stub, full.state, selection)
        assert answer.state == everything.state
        assert list(answer.events) == (list(everything.events) if host else [])
        assert list(answer.public_events) == (list(everything.public_events) if spectator else [])
        assert [s.player for s in answer.seat_events] == seats
        for seen in answer.seat_events:
            assert seen == everything.seat_events[seen.player]


@pytest.mark.parametrize(
    ("seats", "field"),
    [([0, 3], "events.seats"), ([1, 1], "events.seats[1]"), ([-1], "events.seats")],
)
def test_an_event_selection_naming_no_seat_of_the_game_is_refused_with_its_field(
    stub, seats, field
):
    state = crab_bucket_game(stub).state
    with pytest.raises(grpc.RpcError) as error:
        first_move(stub, state, api.EventSelection(seats=seats))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in field_paths(error.value)


def field_paths(error: grpc.RpcError) -> list[str]:
    from google.rpc import error_details_pb2

    status = rpc_status.from_call(error)
    paths = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            paths += [v.field for v in bad.field_violations]
    return paths


def test_json_writes_seat_zero_and_move_id_zero_and_leaves_none_out(stub):
    request = api.NewGameRequest(num_players=2, seed=2, chance_mode=game_pb2.CHANCE_MODE_EXPLICIT)
    request.kraby.SetInParent()
    state = stub.NewGame(request).state  # waits for the deal: a chance node
    chance = json_format.MessageToDict(stub.LegalMoves(api.LegalMovesRequest(state=state)))
    assert "player" not in chance["next"]  # chance names no seat
    assert all("moveId" not in m and "player" not in m for m in chance["moves"])
    request.chance_mode = game_pb2.CHANCE_MODE_AUTO
    answer = stub.NewGame(request)
    as_json = json_format.MessageToDict(answer)
    seats = [s["player"] for s in as_json["seatEvents"]]
    assert seats == [0, 1]
    next_player = answer.state.next.player
    assert as_json["state"]["next"]["player"] == next_player
    moves = json_format.MessageToDict(stub.LegalMoves(api.LegalMovesRequest(state=answer.state)))
    assert all(m["player"] == next_player for m in moves["moves"])
    assert all("moveId" in m for m in moves["moves"])
    assert "-1" not in json.dumps(moves) and "-1" not in json.dumps(as_json["state"]["next"])
    spectator = stub.GetView(api.GetViewRequest(state=answer.state, spectator=True)).view
    seat0 = stub.GetView(api.GetViewRequest(state=answer.state, player=0)).view
    assert not spectator.HasField("player") and seat0.HasField("player")
    assert json_format.MessageToDict(seat0)["player"] == 0
