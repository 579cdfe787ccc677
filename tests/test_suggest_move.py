"""SuggestMove, the server's search bot (core/search.py), on a real server: a legal move from the
deciding seat's view only, reproducible, bounded by its budget and the caller's deadline,
refused with a field path when asked wrongly, and usable on a sealing server."""

from __future__ import annotations

import random
import time

import grpc
import pytest

from crabclients.bots import RandomBot, SearchBot, play_game
from crabclients.client import RulesClient
from crabgames.core.agents import Table
from crabgames.core.search import MAX_SIMULATIONS, Search, suggest_move
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.test_sealing import sealed  # noqa: F401 (a fixture: a sealing server)
from tests.test_server import details

PLAYER = game_pb2.DECIDER_KIND_PLAYER
GAMES = [("kraby", 2), ("crab_bucket", 3), ("crab_rage", 4)]
TIMEOUT = 20.0


def a_position(stub, game_id: str, players: int, seed: int, moves: int = 6):
    """A state a few random moves into a game, with a player to decide, and their view."""
    request = api.NewGameRequest(num_players=players, seed=seed)
    getattr(request, game_id).SetInParent()
    state = stub.NewGame(request, timeout=TIMEOUT).state
    rng = random.Random(seed)
    for _ in range(moves):
        legal = stub.LegalMoves(api.LegalMovesRequest(state=state), timeout=TIMEOUT).moves
        state = stub.ApplyMove(
            api.ApplyMoveRequest(state=state, move=rng.choice(legal)), timeout=TIMEOUT
        ).state
    assert state.next.kind == PLAYER
    view = stub.GetView(
        api.GetViewRequest(state=state, player=state.next.player), timeout=TIMEOUT
    ).view
    return state, view


def refusal(call, request) -> tuple[grpc.StatusCode, list[str]]:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=TIMEOUT)
    found = details(caught.value)
    paths = [v.field for v in found["BadRequest"].field_violations] if "BadRequest" in found else []
    return caught.value.code(), paths


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_suggestion_is_a_legal_move_that_apply_move_takes(stub, game_id, players):
    state, view = a_position(stub, game_id, players, seed=21)
    answer = stub.SuggestMove(
        api.SuggestMoveRequest(view=view, max_simulations=60, seed=5), timeout=TIMEOUT
    )
    assert answer.move in list(view.legal_moves)
    assert answer.simulations == 60 and not answer.stopped_by_time
    assert sum(m.visits for m in answer.moves) == 60
    assert answer.moves[0].move_id == answer.move.move_id  # the most visited
    assert all(0.0 <= m.mean_return <= 1.0 for m in answer.moves)
    assert {m.label for m in answer.moves} <= {m.label for m in view.legal_moves}
    stub.ApplyMove(api.ApplyMoveRequest(state=state, move=answer.move), timeout=TIMEOUT)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_same_seed_and_simulation_budget_give_the_same_answer(stub, game_id, players):
    _, view = a_position(stub, game_id, players, seed=22)
    request = api.SuggestMoveRequest(view=view, max_simulations=50, seed=77)
    first = stub.SuggestMove(request, timeout=TIMEOUT)
    again = stub.SuggestMove(request, timeout=TIMEOUT)
    assert first == again
    other = stub.SuggestMove(
        api.SuggestMoveRequest(view=view, max_simulations=50, seed=78), timeout=TIMEOUT
    )
    assert other.seed == 78 and first.seed == 77


@pytest.mark.parametrize(("game_id", "players"), GAMES[:2])
def test_the_search_reads_only_the_view_never_the_hidden_state(stub, game_id, players):
    """Two real states that the deciding seat cannot tell apart (the second drawn from its view
    by SampleState, so the others' hidden hands differ) get the same answer."""
    state, view = a_position(stub, game_id, players, seed=23)
    other = stub.SampleState(api.SampleStateRequest(view=view, seed=4), timeout=TIMEOUT).state
    assert getattr(other, game_id) != getattr(state, game_id)  # the secrets differ
    seat = state.next.player
    other_view = stub.GetView(api.GetViewRequest(state=other, player=seat), timeout=TIMEOUT).view
    assert other_view.WhichOneof("game") == view.WhichOneof("game")
    assert getattr(other_view, game_id) == getattr(view, game_id)
    answers = [
        stub.SuggestMove(
            api.SuggestMoveRequest(state=position, max_simulations=40, seed=9), timeout=TIMEOUT
        )
        for position in (state, other)
    ]
    assert answers[0] == answers[1]
    from_view = stub.SuggestMove(
        api.SuggestMoveRequest(view=view, max_simulations=40, seed=9), timeout=TIMEOUT
    )
    assert from_view == answers[0]


def test_a_time_budget_stops_the_search(stub):
    _, view = a_position(stub, "crab_rage", 4, seed=24)
    started = time.monotonic()
    answer = stub.SuggestMove(
        api.SuggestMoveRequest(view=view, max_milliseconds=150, seed=3), timeout=TIMEOUT
    )
    took = time.monotonic() - started
    assert answer.stopped_by_time and 0 < answer.simulations < MAX_SIMULATIONS
    assert took < 5.0  # far below the unlimited simulations' time (about a minute)
    assert answer.move in list(view.legal_moves)


def test_the_callers_deadline_stops_the_search_in_time_to_answer(stub):
    _, view = a_position(stub, "crab_rage", 4, seed=25)
    request = api.SuggestMoveRequest(view=view, max_milliseconds=5000, seed=3)
    answer = stub.SuggestMove(request, timeout=0.4)  # would be DEADLINE_EXCEEDED if late
    assert answer.stopped_by_time and answer.move in list(view.legal_moves)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda r: setattr(r, "max_simulations", MAX_SIMULATIONS + 1), "max_simulations"),
        (lambda r: setattr(r, "max_simulations", -1), "max_simulations"),
        (lambda r: setattr(r, "max_milliseconds", 5001), "max_milliseconds"),
        (lambda r: setattr(r, "max_milliseconds", -5), "max_milliseconds"),
        (
            lambda r: setattr(r.view, "player", (r.view.player + 1) % r.view.num_players),
            "view.next",
        ),
        (lambda r: r.view.ClearField("player"), "view.next"),
        (lambda r: setattr(r.view, "rules_version", "kraby/0"), "view.rules_version"),
        (lambda r: r.view.kraby.cells.append(0), None),  # a view that cannot be
    ],
)
def test_a_bad_request_is_refused_with_its_field_path(stub, change, path):
    _, view = a_position(stub, "kraby", 2, seed=26)
    request = api.SuggestMoveRequest(view=view, max_simulations=10)
    change(request)
    code, paths = refusal(stub.SuggestMove, request)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    if path is not None:
        assert paths and paths[0] == path, paths
    else:
        assert paths and paths[0].startswith("view.kraby"), paths


def test_no_suggestion_once_the_game_is_over(stub, server_address):
    with RulesClient.connect(server_address) as client:
        record = play_game(client, "kraby", [RandomBot(1), RandomBot(2)], seed=3)
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE
    code, paths = refusal(stub.SuggestMove, api.SuggestMoveRequest(state=record.state))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and paths == ["state.next"]


def test_on_a_sealing_server_a_state_needs_the_deciding_seats_token(sealed):  # noqa: F811
    stub = sealed[0]
    request = api.NewGameRequest(num_players=2, seed=5)
    request.kraby.SetInParent()
    started = stub.NewGame(request, timeout=TIMEOUT)
    state, tokens = started.state, started.player_tokens
    seat = state.next.player
    code, _ = refusal(stub.SuggestMove, api.SuggestMoveRequest(state=state, max_simulations=5))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    wrong = tokens[1 - seat]
    code, _ = refusal(
        stub.SuggestMove,
        api.SuggestMoveRequest(state=state, player_token=wrong, max_simulations=5),
    )
    assert code == grpc.StatusCode.PERMISSION_DENIED
    answer = stub.SuggestMove(
        api.SuggestMoveRequest(state=state, player_token=tokens[seat], max_simulations=20),
        timeout=TIMEOUT,
    )
    moved = stub.ApplyMove(
        api.ApplyMoveRequest(state=state, move=answer.move, player_token=tokens[seat]),
        timeout=TIMEOUT,
    )
    assert moved.state.version > state.version
    # The seat's view (GetView with its token) is enough too: it holds no other secret.
    view = stub.GetView(
        api.GetViewRequest(state=state, player=seat, player_token=tokens[seat]), timeout=TIMEOUT
    ).view
    from_view = stub.SuggestMove(
        api.SuggestMoveRequest(view=view, max_simulations=20, seed=answer.seed), timeout=TIMEOUT
    )
    again = stub.SuggestMove(
        api.SuggestMoveRequest(
            state=state, player_token=tokens[seat], max_simulations=20, seed=answer.seed
        ),
        timeout=TIMEOUT,
    )
    assert from_view == again


def test_the_search_bot_plays_whole_games_through_the_service(server_address):
    with RulesClient.connect(server_address) as client:
        bots = [SearchBot(seed=1, simulations=30), RandomBot(seed=2)]
        record = play_game(client, "kraby", bots, seed=8)
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE
    assert bots[0].last is not None and bots[0].last.simulations == 30


# ----- the search itself, in process -----


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_simulation_counts_once_at_the_root(engine, game_id, players):
    table = Table.new(engine, game_id, players, seed=31)
    rng = random.Random(31)
    while len(table.legal_move_ids()) < 2:
        table.play(rng.choice(table.legal_move_ids()))
    seat = table.decision().player
    search = Search(table.game, table.match.state, seat, seed=2)
    result = search.run(80)
    assert result.simulations == 80
    assert sum(m.visits for m in result.moves) == 80
    assert len(search.nodes) <= 80 + 1  # at most one node a simulation, and the root
    assert result.move_id in table.legal_move_ids()


def test_with_a_seat_model_the_search_keeps_nodes_for_its_own_decisions_only(engine):
    """Kraby models its fishers (Game.seat_model): the search plays the other seats by the
    model, and values each move of its own once they have replied."""
    table = Table.new(engine, "kraby", 4, seed=41)
    rng = random.Random(41)
    for _ in range(30):
        table.play(rng.choice(table.legal_move_ids()))
    seat = table.decision().player
    deciders: list[int] = []
    modelled: list[int] = []

    class Recorded(Search):
        def node_at(self, state, decider):
            deciders.append(decider)
            return super().node_at(state, decider)

    search = Recorded(table.game, table.match.state, seat, seed=3)
    model = search.model
    assert model is not None

    def recorded_model(state, moves, prng):
        modelled.append(state.turn_player)
        return model(state, moves, prng)

    search.model = recorded_model
    result = search.run(60)
    assert result.simulations == 60 and set(deciders) == {seat}
    assert set(modelled) - {seat} == set(range(4)) - {seat}


def test_a_forced_decision_needs_no_search(engine):
    table = Table.new(engine, "kraby", 2, seed=3, ask_forced=True)
    rng = random.Random(3)
    for _ in range(400):
        if table.is_over() or len(table.legal_move_ids()) == 1:
            break
        table.play(rng.choice(table.legal_move_ids()))
    if len(table.legal_move_ids()) != 1:
        pytest.fail("no forced decision in this seeded game: pick another seed")
    result = Search(table.game, table.match.state, table.decision().player, 1).run(100)
    assert result.simulations == 0 and result.move_id == table.legal_move_ids()[0]


def test_the_search_beats_random_play(engine):
    """CRAB RAGE!, three seats, a small budget: the search bot wins all of four seeded games with
    seats rotated, where a random player wins a third of them."""
    wins = 0
    for game in range(4):
        table = Table.new(engine, "crab_rage", 3, seed=400 + game)
        seat, rng = game % 3, random.Random(game)
        while not table.is_over():
            decider = table.decision().player
            if decider == seat:
                suggestion = suggest_move(engine, table.view(decider), 40, seed=game + 1)
                table.play(suggestion.move.move_id)
            else:
                table.play(rng.choice(table.legal_move_ids()))
        wins += table.returns()[seat] == 1.0
    assert wins == 4
