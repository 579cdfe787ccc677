"""The Python client: connecting with a timeout, every RPC, and refusals as readable, typed
exceptions carrying the rich error details."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from crabclients.client import (
    GameOverError,
    IllegalMoveError,
    MalformedError,
    RulesClient,
    ServiceUnavailableError,
    StaleStateError,
    new_game_request,
)
from crabgames.v1 import game_pb2, kraby_pb2

from .conftest import GAMES, random_game, require_served

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connect_gives_up_after_its_timeout_when_nothing_listens():
    start = time.monotonic()
    with pytest.raises(ServiceUnavailableError) as caught:
        RulesClient.connect(f"127.0.0.1:{free_port()}", timeout=0.5)
    assert time.monotonic() - start < 5
    assert "no rules server" in str(caught.value)


def test_list_games_names_every_game_with_its_facts(client):
    games = {info.id: info for info in client.list_games()}
    assert "kraby" in games
    assert games["kraby"].title and games["kraby"].min_players == 2
    assert games["kraby"].move_id_count > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_game_recorded_through_the_client_replays_to_the_same_state(client, game_infos, game):
    require_served(game_infos, game)
    record = random_game(client, game, seed=17)
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE
    replayed = client.replay(record.request, record.moves)
    assert replayed.ok and replayed.moves_applied == len(record.moves)
    assert replayed.state == record.state
    assert replayed.outcome == record.outcome


def test_a_view_for_a_seat_shows_only_that_seats_hand(client):
    state = client.new_game("kraby", 3, seed=4).state
    for seat in range(3):
        view = client.view(state, seat)
        assert view.player == seat and not view.spectator
        hand = view.kraby.own_hand
        real = state.kraby.hands[seat]
        assert (hand.orange, hand.green, hand.blue, hand.yellow, hand.pink) == (
            real.orange,
            real.green,
            real.blue,
            real.yellow,
            real.pink,
        )
    assert client.view(state).spectator


def test_a_malformed_state_is_a_malformed_error_naming_the_field(client):
    state = client.new_game("kraby", 3, seed=11).state
    state.kraby.hands[1].orange = 40
    with pytest.raises(MalformedError) as caught:
        client.legal_moves(state)
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "MALFORMED_STATE"
    assert error.field_violations[0][0] == "state.kraby.hands[1]"
    assert "state.kraby.hands[1]" in str(error)


def test_an_illegal_move_is_an_illegal_move_error_naming_the_rule(client):
    state = client.new_game("kraby", 2, seed=11).state
    move = game_pb2.Move(player=state.next.player)
    move.kraby.place_tile.CopyFrom(
        kraby_pb2.KrabyPlaceTile(edge=kraby_pb2.KRABY_EDGE_NORTH, lane=0, color=5)
    )
    with pytest.raises(IllegalMoveError) as caught:
        client.apply_move(state, move)
    error = caught.value
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION and error.rule
    assert f"(rule {error.rule})" in str(error)


def test_a_move_after_the_end_is_a_game_over_error(client):
    record = random_game(client, "kraby", seed=3)
    move = game_pb2.Move(player=0)
    move.kraby.skip_figure.SetInParent()
    with pytest.raises(GameOverError):
        client.apply_move(record.state, move)


def test_a_move_decided_on_an_older_state_is_a_stale_state_error(client):
    state = client.new_game("kraby", 2, seed=9).state
    move = client.legal_moves(state)[0]
    assert client.apply_move(state, move, expected_version=state.version).state.version > (
        state.version
    )
    with pytest.raises(StaleStateError):
        client.apply_move(state, move, expected_version=state.version - 1)


def test_an_unknown_game_is_refused_before_any_call():
    with pytest.raises(ValueError, match="unknown game"):
        new_game_request("chess", 2)


def test_mypy_checks_client_code_against_the_message_stubs(tmp_path):
    """The generated .pyi stubs let mypy catch a misspelt field and a wrongly typed value,
    and the clients themselves type-check."""
    script = tmp_path / "misuse.py"
    script.write_text(
        "from crabgames.v1 import game_pb2\n"
        "move = game_pb2.Move(player=0)\n"
        'move.kraby.place_tile.lane = "north"\n'
        "move.kraby.place_tile.colour = 1\n"
    )
    mypy = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "clients" / "mypy.ini")]
    cache = ["--cache-dir", str(tmp_path / "cache")]
    bad = subprocess.run([*mypy, *cache, str(script)], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert 'has no attribute "colour"' in bad.stdout
    assert 'expression has type "str", variable has type "int"' in bad.stdout
    good = subprocess.run(
        [*mypy, *cache, "-p", "crabclients"], cwd=ROOT, capture_output=True, text=True
    )
    assert good.returncode == 0, good.stdout + good.stderr
