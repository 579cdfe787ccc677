"""The servicer through grpcio-testing: requests in, responses out, no network."""

from __future__ import annotations

import grpc
import grpc_testing
import pytest

from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.service.servicer import RulesServicer
from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api

SERVICE = api.DESCRIPTOR.services_by_name["RulesService"]


@pytest.fixture(scope="module")
def test_server():
    servicer = RulesServicer(Engine(all_games()))
    return grpc_testing.server_from_dictionary({SERVICE: servicer}, grpc_testing.strict_real_time())


def call(test_server, method: str, request):
    rpc = test_server.invoke_unary_unary(SERVICE.methods_by_name[method], (), request, None)
    response, _, code, details = rpc.termination()
    assert code == grpc.StatusCode.OK, details
    if isinstance(response, bytes):  # LegalMoves and ApplyMove answer with the wire bytes
        response = getattr(api, SERVICE.methods_by_name[method].output_type.name).FromString(
            response
        )
    return response


def test_list_games_describes_kraby(test_server):
    games = {g.id: g for g in call(test_server, "ListGames", api.ListGamesRequest()).games}
    kraby = games["kraby"]
    assert (kraby.title, kraby.min_players, kraby.max_players) == ("Kraby", 2, 4)
    assert kraby.has_chance and kraby.has_hidden_information and not kraby.has_simultaneous_choices
    assert {o.name for o in kraby.options} == {"excluded_color", "first_player"}
    assert kraby.rules_version


def test_new_game_deals_six_tiles_each_and_keeps_the_chosen_seed(test_server):
    request = api.NewGameRequest(num_players=3, seed=0, kraby=kraby_pb2.KrabyOptions())
    response = call(test_server, "NewGame", request)
    state = response.state
    assert state.seed != 0 and state.prng.seed == state.seed
    assert [sum(getattr(h, c) for c in ("orange", "green", "blue", "yellow", "pink"))
            for h in state.kraby.hands] == [6, 6, 6]  # fmt: skip
    assert sum(1 for e in response.events if e.kraby.HasField("tile_dealt")) == 18
    assert state.next == game_pb2.NextDecision(
        kind=game_pb2.DECIDER_KIND_PLAYER, player=0, decision="place_tile"
    )


def test_a_listed_move_is_applied_verbatim(test_server):
    state = call(test_server, "NewGame", api.NewGameRequest(num_players=2, seed=5, kraby={})).state
    moves = call(test_server, "LegalMoves", api.LegalMovesRequest(state=state)).moves
    assert moves and all(m.label for m in moves)
    response = call(test_server, "ApplyMove", api.ApplyMoveRequest(state=state, move=moves[0]))
    assert response.state.version > state.version
    assert response.events[0].kraby.HasField("tile_placed")
    assert not response.HasField("outcome")


def test_a_view_shows_the_own_hand_and_only_counts_of_others(test_server):
    state = call(test_server, "NewGame", api.NewGameRequest(num_players=3, seed=5, kraby={})).state
    view = call(test_server, "GetView", api.GetViewRequest(state=state, player=1)).view
    assert view.kraby.own_hand == state.kraby.hands[1]
    assert list(view.kraby.hand_sizes) == [6, 6, 6]
    assert not view.legal_moves  # player 0 decides
    own = call(test_server, "GetView", api.GetViewRequest(state=state, player=0)).view
    assert len(own.legal_moves) > 0
    spectator = call(test_server, "GetView", api.GetViewRequest(state=state, spectator=True)).view
    assert spectator.spectator and not spectator.kraby.HasField("own_hand")


def test_replay_of_an_empty_record_returns_the_new_game(test_server):
    new_game = api.NewGameRequest(num_players=2, seed=9, kraby={})
    replay = call(test_server, "Replay", api.ReplayRequest(new_game=new_game))
    fresh = call(test_server, "NewGame", new_game).state
    assert replay.ok and replay.state == fresh and replay.moves_applied == 0
