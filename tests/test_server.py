"""A real server on loopback: health, reflection, rich error details, full games, shutdown."""

from __future__ import annotations

import signal
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from crabclients.client import RulesClient, RulesServiceError
from crabclients.play_random import play
from crabgames.v1 import crab_rage_pb2, game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc
from tests.command_line import start_server


def details(error: grpc.RpcError) -> dict:
    found = {}
    for detail in rpc_status.from_call(error).details:
        for kind in (
            error_details_pb2.ErrorInfo,
            error_details_pb2.BadRequest,
            error_details_pb2.PreconditionFailure,
        ):
            if detail.Is(kind.DESCRIPTOR):
                message = kind()
                detail.Unpack(message)
                found[kind.__name__] = message
    return found


def new_state(stub, players=3, seed=11):
    request = api.NewGameRequest(num_players=players, seed=seed, kraby=kraby_pb2.KrabyOptions())
    return stub.NewGame(request).state


def test_health_reports_serving(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "crabgames.v1.RulesService"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service))
        assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_rules_service(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    response = next(stub.ServerReflectionInfo(iter([request])))
    names = {s.name for s in response.list_services_response.service}
    assert {"crabgames.v1.RulesService", "grpc.health.v1.Health"} <= names


def test_a_malformed_state_names_the_field_and_reason(stub):
    state = new_state(stub)
    state.kraby.hands[1].orange = 40
    with pytest.raises(grpc.RpcError) as caught:
        stub.LegalMoves(api.LegalMovesRequest(state=state))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = details(caught.value)
    assert found["ErrorInfo"].reason == "MALFORMED_STATE"
    violation = found["BadRequest"].field_violations[0]
    assert violation.field == "state.kraby.hands[1]" and "at most 6" in violation.description


def test_a_missing_game_is_invalid_argument(stub):
    with pytest.raises(grpc.RpcError) as caught:
        stub.LegalMoves(api.LegalMovesRequest())
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details(caught.value)["BadRequest"].field_violations[0].field == "state.game"


def test_an_illegal_move_says_which_rule_it_breaks(stub):
    state = new_state(stub)
    move = game_pb2.Move(player=0)
    move.kraby.place_tile.edge = kraby_pb2.KRABY_EDGE_WEST
    move.kraby.place_tile.lane = 3  # an empty row: nothing would stop the tile
    move.kraby.place_tile.color = next(
        c
        for c in (1, 2, 3, 4, 5)
        if getattr(state.kraby.hands[0], kraby_pb2.KrabyColor.Name(c)[12:].lower())
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(api.ApplyMoveRequest(state=state, move=move))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    found = details(caught.value)
    assert found["ErrorInfo"].reason == "ILLEGAL_MOVE"
    assert found["ErrorInfo"].metadata["rule"] == "K3"
    assert found["PreconditionFailure"].violations[0].subject == "K3"


def test_a_move_after_the_end_is_game_over(server_address):
    with RulesClient.connect(server_address) as client:
        state, outcome, _ = play(client, "kraby", 2, seed=3)
        move = game_pb2.Move(player=0)
        move.kraby.skip_figure.SetInParent()
        with pytest.raises(RulesServiceError) as caught:
            client.apply_move(state, move)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason == "GAME_OVER"


def test_a_three_player_game_plays_to_the_end_through_the_server(server_address):
    with RulesClient.connect(server_address) as client:
        state, outcome, moves = play(client, "kraby", 3, seed=21)
    assert state.next.kind == game_pb2.DECIDER_KIND_NONE
    assert len(outcome.players) == 3 and outcome.winners
    assert sum(1 for c in state.kraby.cells if c >= kraby_pb2.KRABY_CELL_ORANGE) <= 120
    assert moves >= 100


def test_the_server_starts_from_the_command_line_and_stops_gracefully_on_sigterm():
    process, address = start_server("--grace", "2")
    try:
        with RulesClient.connect(address, timeout=10) as client:
            assert {g.id for g in client.list_games()} >= {"kraby"}
        start = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
        assert time.monotonic() - start < 10
    finally:
        if process.poll() is None:
            process.kill()


def test_a_move_against_an_older_version_is_refused_as_stale(stub):
    state = new_state(stub)
    move = stub.LegalMoves(api.LegalMovesRequest(state=state)).moves[0]
    request = api.ApplyMoveRequest(state=state, move=move, expected_version=state.version - 1)
    with pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(request)
    assert caught.value.code() == grpc.StatusCode.ABORTED
    assert details(caught.value)["ErrorInfo"].reason == "STALE_STATE"
    request.expected_version = state.version
    assert stub.ApplyMove(request).state.version > state.version


def test_legal_moves_carry_ids_and_a_mask(stub):
    state = new_state(stub)
    plain = stub.LegalMoves(api.LegalMovesRequest(state=state))
    assert plain.move_id_count > 0 and not plain.legal_mask  # the mask only when asked for
    response = stub.LegalMoves(api.LegalMovesRequest(state=state, with_mask=True))
    assert response.move_id_count == len(response.legal_mask) > 0
    assert sorted(m.move_id for m in response.moves) == [
        i for i, legal in enumerate(response.legal_mask) if legal
    ]


def test_a_bot_samples_a_full_state_from_its_view(stub):
    state = new_state(stub)
    view = stub.GetView(api.GetViewRequest(state=state, player=1)).view
    sampled = stub.SampleState(api.SampleStateRequest(view=view, seed=4)).state
    assert sampled.kraby.hands[1] == state.kraby.hands[1]
    assert sampled.prng.seed != state.prng.seed
    again = stub.GetView(api.GetViewRequest(state=sampled, player=1)).view
    assert again == view


def test_a_crab_rage_season_is_scored_from_finishing_places(stub):
    games = [crab_rage_pb2.CrabRageSeasonGame(places=p) for p in ([1, 2, 3], [2, 1, 3], [1, 1, 3])]
    response = stub.ScoreCrabRageSeason(api.ScoreCrabRageSeasonRequest(games=games))
    # 5+4+5 = 14, 4+5+5 = 14, 3+3+4 = 10: the first two share the season.
    assert [s.total for s in response.standings] == [14, 14, 10]
    assert list(response.winners) == [0, 1]
    assert list(response.standings[2].game_scores) == [3, 3, 4]


def test_a_season_of_six_games_is_refused(stub):
    games = [crab_rage_pb2.CrabRageSeasonGame(places=[1, 2, 3])] * 6
    with pytest.raises(grpc.RpcError) as caught:
        stub.ScoreCrabRageSeason(api.ScoreCrabRageSeasonRequest(games=games))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details(caught.value)["BadRequest"].field_violations[0].field == "games"


def test_a_graceful_stop_lets_the_call_in_flight_finish_and_reports_not_serving():
    import asyncio
    import threading

    from crabgames.service.server import serve

    running = serve("127.0.0.1:0", threads=2)
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = api_grpc.RulesServiceStub(channel)
        state = new_state(stub, players=4)
        slow = stub.Playouts.future(api.PlayoutsRequest(state=state, count=10_000, seed=1))
        time.sleep(0.1)  # the playouts are running
        stopper = threading.Thread(target=running.stop, args=(10,))
        stopper.start()
        time.sleep(0.1)
        check = health_pb2.HealthCheckRequest(service="crabgames.v1.RulesService")
        # Asked of the servicer itself: a stopping server takes no new calls.
        checked = asyncio.run(running.health.Check(check, None))
        assert checked.status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert slow.result(timeout=30).games > 0  # finished, not cut off
        stopper.join(timeout=30)
