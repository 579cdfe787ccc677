"""The season (R20): five games, 5 points for the winner and one less for each next place."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_rage.season import (
    decode_games,
    encode_standing,
    game_points,
    places_from_outcome,
    season_standings,
)
from crabgames.v1 import crab_rage_pb2, game_pb2


def test_the_winner_scores_5_and_each_next_place_one_less():
    assert game_points([1, 2, 3, 4, 5]) == [5, 4, 3, 2, 1]


def test_shared_places_score_alike_and_the_next_distinct_place_scores_one_less():
    assert game_points([1, 1, 3, 4]) == [5, 5, 4, 3]


def test_the_highest_season_total_wins():
    standings = season_standings([[1, 2, 3], [2, 1, 3], [1, 3, 2], [3, 1, 2], [1, 2, 3]])
    assert [s.total for s in standings] == [22, 21, 17]
    assert [s.winner for s in standings] == [True, False, False]
    assert standings[0].game_scores == [5, 4, 5, 3, 5]


def test_equal_season_totals_share_the_victory():
    standings = season_standings([[1, 2, 3], [2, 1, 3], [1, 3, 2], [3, 1, 2]])
    assert [s.total for s in standings] == [17, 17, 14]
    assert [s.winner for s in standings] == [True, True, False]
    assert [s.rank for s in standings] == [1, 1, 3]


def test_a_season_has_one_to_five_games_with_the_same_managers():
    with pytest.raises(InvalidArgument):
        season_standings([[1, 2, 3]] * 6)
    with pytest.raises(InvalidArgument):
        season_standings([[1, 2, 3], [1, 2, 3, 4]])
    with pytest.raises(InvalidArgument):
        season_standings([[2, 2, 3]])


def test_places_come_from_a_game_outcome_and_standings_encode_to_the_proto():
    outcome = game_pb2.Outcome()
    for seat, rank in enumerate([2, 1, 3]):
        outcome.players.add(player=seat, rank=rank)
    assert places_from_outcome(outcome) == [2, 1, 3]
    games = decode_games([crab_rage_pb2.CrabRageSeasonGame(places=[2, 1, 3])])
    msg = crab_rage_pb2.CrabRageSeasonStanding()
    encode_standing(season_standings(games)[1], msg)
    assert (msg.manager, msg.total, msg.rank, msg.winner) == (1, 5, 1, True)
