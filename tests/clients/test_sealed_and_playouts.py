"""The clients against a sealing server (player tokens), and the look-ahead bot's playouts with
and without the server's Playouts RPC."""

from __future__ import annotations

import grpc
import pytest

from crabclients.bots import LookaheadBot, RandomBot, play_game
from crabclients.client import RulesClient, RulesServiceError
from crabgames.v1 import game_pb2

from .conftest import PLAYERS, require_served


@pytest.fixture(scope="module")
def sealed_client(sealed_address):
    with RulesClient.connect(sealed_address) as client:
        yield client


def test_the_terminal_player_finishes_a_sealed_game_with_its_seats_token(sealed_address):
    """The end screen is the human seat's view: with sealing it needs that seat's token."""
    from rich.console import Console

    from crabclients.terminal import parse_args, play

    console = Console(record=True, width=100, color_system=None)
    args = parse_args(
        ["--game", "kraby", "--players", "2", "--seed", "3", "--bots", "random", "--no-color"]
        + ["--address", sealed_address]
    )
    assert play(args, read=lambda prompt: "1", console=console) == 0
    text = console.export_text()
    assert "Game over." in text and "moves played:" in text


def test_bots_play_a_sealed_game_with_each_seats_token(sealed_client):
    lookahead = LookaheadBot(seed=3, samples=1)
    record = play_game(sealed_client, "kraby", [lookahead, RandomBot(4)], seed=0)
    assert record.state.sealed and not record.state.kraby.cells  # only the header is readable
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE and record.outcome.winners
    # The bot searches on states sampled from its view, which a sealing server takes unsealed.
    assert lookahead.fallbacks == 0 and lookahead.last_refusal is None


class NoPlayoutsClient:
    """A client for a server without the Playouts RPC."""

    def __init__(self, client) -> None:
        self.client = client
        self.applied = 0

    def playouts(self, state, count, seed=0):
        raise RulesServiceError(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")

    def apply_move(self, *args, **kwargs):
        self.applied += 1
        return self.client.apply_move(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.client, name)


def test_the_lookahead_bot_plays_out_by_move_loops_when_the_server_has_no_playouts(
    client, game_infos
):
    require_served(game_infos, "crab_bucket")  # no evaluation: it values moves by playouts
    state = client.new_game("crab_bucket", PLAYERS["crab_bucket"], seed=21).state
    view = client.view(state, state.next.player)
    assert len(view.legal_moves) > 1
    old_server = NoPlayoutsClient(client)
    bot = LookaheadBot(seed=2, samples=1, playouts=1, max_candidates=3)
    move = bot.choose(old_server, view)
    assert move in list(view.legal_moves) and bot.fallbacks == 0
    assert not bot.server_playouts
    assert old_server.applied > 3, "played out with ApplyMove loops"
