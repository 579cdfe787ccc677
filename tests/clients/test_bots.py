"""Bots play through the service from their own views; the look-ahead bot beats the random bot."""

from __future__ import annotations

import pytest

from crabclients.bots import LookaheadBot, RandomBot, play_game
from crabclients.heuristics import kraby_species_points, outcome_value, rage_arena_glory
from crabgames.v1 import game_pb2, kraby_pb2

from .conftest import GAMES, PLAYERS, require_sampling, require_served

# Seeded Kraby games, look-ahead bot against random bots; it must win at least this many.
MATCH_GAMES = 10
MATCH_WINS_NEEDED = 8


class RecordingClient:
    """Wraps a client and remembers which states the bot was shown by the service."""

    def __init__(self, client) -> None:
        self.client = client
        self.sampled: list[game_pb2.GameState] = []

    def sample_state(self, view, seed=0):
        state = self.client.sample_state(view, seed)
        self.sampled.append(state)
        return state

    def __getattr__(self, name):
        return getattr(self.client, name)


@pytest.mark.parametrize("game", GAMES)
def test_random_bots_play_a_full_game_through_the_service(client, game_infos, game):
    require_served(game_infos, game)
    bots = [RandomBot(seed) for seed in range(PLAYERS[game])]
    record = play_game(client, game, bots, seed=8)
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE
    assert len(record.outcome.players) == PLAYERS[game] and record.moves


@pytest.mark.parametrize("game", GAMES)
def test_the_lookahead_bot_plays_a_full_game_of_every_game_it_can_sample(client, game_infos, game):
    require_served(game_infos, game)
    require_sampling(client, game)
    lookahead = LookaheadBot(seed=1, samples=1, max_candidates=4)
    bots = [lookahead] + [RandomBot(seed) for seed in range(1, PLAYERS[game])]
    record = play_game(client, game, bots, seed=12)
    assert record.state.next.kind == game_pb2.DECIDER_KIND_NONE
    assert lookahead.fallbacks == 0


def test_the_lookahead_bot_decides_from_the_view_not_from_the_real_secrets(client):
    """Two real states that look the same to seat 0 (different hidden hands and bag) get the
    same decision, and the states the bot searched were sampled, not the real one."""
    state = client.new_game("kraby", 3, seed=31).state
    for _ in range(6):  # a few turns in, so there is something to hide
        state = client.apply_move(state, client.legal_moves(state)[0]).state
    seat = state.next.player
    view = client.view(state, seat)
    twin = client.sample_state(view, seed=99)
    assert twin.kraby.hands != state.kraby.hands or twin.kraby.bag != state.kraby.bag
    assert client.view(twin, seat) == view
    spying = RecordingClient(client)
    first = LookaheadBot(seed=5).choose(spying, client.view(state, seat))
    second = LookaheadBot(seed=5).choose(client, client.view(twin, seat))
    assert first == second
    assert spying.sampled and all(s.kraby.hands != state.kraby.hands for s in spying.sampled)


def test_the_lookahead_bot_beats_random_bots_in_most_seeded_kraby_games(client):
    wins = 0
    for game in range(MATCH_GAMES):
        seat = game % 2
        bots = [RandomBot(100 + game), RandomBot(200 + game)]
        bots[seat] = LookaheadBot(seed=game, samples=1)
        record = play_game(client, "kraby", bots, seed=1000 + game)
        wins += seat in record.outcome.winners
    assert wins >= MATCH_WINS_NEEDED, f"{wins} wins in {MATCH_GAMES}"


def test_kraby_species_points_follow_the_group_table():
    cells = [kraby_pb2.KRABY_CELL_EMPTY] * 121
    orange, green = kraby_pb2.KRABY_CELL_ORANGE, kraby_pb2.KRABY_CELL_GREEN
    for cell in (0, 1, 2, 3):  # a group of four oranges: 3 points
        cells[cell] = orange
    cells[22] = orange  # a lone orange: -1
    cells[11 + 5] = green  # green touching only by a corner: two lone greens, -1 each
    cells[22 + 6] = green
    points = kraby_species_points(cells)
    assert points[1] == 3 - 1 and points[2] == -2 and points[3] == 0


def test_crab_rage_provisional_glory_shares_ties_and_gives_none_without_fans():
    # The rulebook's four-player example: 8, 6, 6, 4 fans -> 4, 3, 3, 2 glory.
    assert rage_arena_glory([8, 6, 6, 4]) == [4, 3, 3, 2]
    assert rage_arena_glory([0, 2, 2]) == [0, 3, 3]


def test_a_won_game_is_worth_more_than_any_margin():
    outcome = game_pb2.Outcome(winners=[1])
    for seat, score in enumerate((50, 10)):
        outcome.players.add(player=seat, score=score, winner=seat == 1)
    assert outcome_value(outcome, 1) > outcome_value(outcome, 0)
