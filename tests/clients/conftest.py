"""A RulesClient connected to the session's real server on loopback, and which games offer the
engine hooks the clients use (move ids, state sampling)."""

from __future__ import annotations

import base64
import os

import pytest

from crabclients.bots import RandomBot, play_game
from crabclients.client import RulesClient, RulesServiceError
from crabgames.service.sealing import ENV_VAR
from crabgames.service.server import serve
from crabgames.v1 import rules_service_pb2 as api

GAMES = ("kraby", "crab_bucket", "crab_rage")
PLAYERS = {"kraby": 3, "crab_bucket": 3, "crab_rage": 3}


@pytest.fixture(scope="session")
def client(server_address):
    with RulesClient.connect(server_address, timeout=10) as connected:
        yield connected


@pytest.fixture(scope="module")
def sealed_address():
    """A server of the module's own with sealing on (one key), on loopback."""
    saved = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = "clients:" + base64.b64encode(bytes(range(32))).decode()
    try:
        running = serve("127.0.0.1:0", threads=4)
    finally:
        if saved is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = saved
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


@pytest.fixture(scope="session")
def game_infos(client) -> dict[str, api.GameInfo]:
    return {info.id: info for info in client.list_games()}


def require_served(game_infos, game: str) -> None:
    if game not in game_infos:
        pytest.skip(f"{game} is not registered on this server yet")


def require_move_ids(game_infos, game: str) -> None:
    require_served(game_infos, game)
    if game_infos[game].move_id_count == 0:
        pytest.skip(f"{game} does not implement the move_id_count/move_id hooks yet")


def require_sampling(client, game: str) -> None:
    """Skip when the engine cannot sample states of `game` yet (state_from_view missing)."""
    state = client.new_game(game, PLAYERS[game], seed=5).state
    view = client.view(state, state.next.player if state.next.player >= 0 else 0)
    try:
        client.sample_state(view, seed=1)
    except RulesServiceError as error:
        if error.reason in ("MALFORMED_REQUEST",):
            raise
        pytest.skip(f"{game} cannot sample a state from a view yet: {error}")


def random_game(client, game: str, seed: int):
    return play_game(client, game, [RandomBot(seed + s) for s in range(PLAYERS[game])], seed)
