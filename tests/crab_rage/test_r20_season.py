"""R20: the season (docs/rules/crab_rage.md, "### R20: the season", the rulebook's "### Crab Rage
Season" and rules note 15): five games, 5 points for the winner and one less for each next
distinct place, the best season total wins and equal totals share the victory. A season that
cannot be scored is refused naming the field and saying why, as the ScoreCrabRageSeason call
answers it."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_rage.season import (
    decode_games,
    encode_standing,
    game_points,
    games_from_outcomes,
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


def refused_at(call, *args) -> str:
    """The field a refused season names."""
    with pytest.raises(InvalidArgument) as refused:
        call(*args)
    return refused.value.violations[0].field


def outcome_of(ranks: list[int], seats: list[int] | None = None, winners=None):
    outcome = game_pb2.Outcome()
    for seat, rank in zip(seats or range(len(ranks)), ranks, strict=True):
        outcome.players.add(player=seat, rank=rank)
    if winners is not None:
        outcome.winners.extend(winners)
    return outcome


def test_a_season_is_one_to_five_games_counted_before_any_is_read():
    assert len(season_standings([[1, 2, 3]] * 5)) == 3
    assert len(season_standings([[1, 2, 3]])) == 3
    assert refused_at(season_standings, [[1, 2, 3]] * 6) == "games"
    assert refused_at(decode_games, []) == "games"
    six = [crab_rage_pb2.CrabRageSeasonGame(places=[1, 2, 3])] * 6
    assert refused_at(decode_games, six, "games") == "games"
    assert refused_at(games_from_outcomes, [outcome_of([1, 2, 3])] * 6) == "outcomes"
    assert refused_at(games_from_outcomes, []) == "outcomes"


def test_every_game_of_a_season_lists_the_same_three_to_five_managers():
    assert len(season_standings([[1, 2, 3, 4, 5]] * 2)) == 5
    assert refused_at(season_standings, [[1, 2]]) == "games[0].places"
    assert refused_at(season_standings, [[1, 2, 3, 4, 5, 6]]) == "games[0].places"
    assert refused_at(season_standings, [[1, 2, 3], [1, 2, 3], [1, 2, 3, 4]]) == "games[2].places"


def test_places_run_from_the_winner_and_a_shared_place_skips_the_next():
    assert [s.total for s in season_standings([[1, 1, 3]])] == [5, 5, 4]
    assert [s.total for s in season_standings([[1, 2, 2]])] == [5, 4, 4]
    for places in ([2, 2, 3], [1, 3, 3], [1, 2, 4], [0, 1, 2]):
        assert refused_at(season_standings, [[1, 2, 3], places]) == "games[1].places"


def test_a_season_from_outcomes_checks_each_outcome_where_it_stands():
    good = outcome_of([1, 2, 3], winners=[0])
    games = games_from_outcomes([good, outcome_of([2, 1, 3])])
    assert [s.total for s in season_standings(games, "outcomes")] == [9, 9, 6]
    cases = [
        (outcome_of([1, 2]), "outcomes[1].players"),  # two managers
        (outcome_of([1, 2, 3, 4, 5, 6]), "outcomes[1].players"),
        (outcome_of([1, 2, 3], seats=[0, 0, 2]), "outcomes[1].players[1].player"),
        (outcome_of([1, 2, 3], seats=[0, 1, 3]), "outcomes[1].players[2].player"),
        (outcome_of([1, 2, 3], seats=[-1, 1, 2]), "outcomes[1].players[0].player"),
        (outcome_of([1, 2, 3], winners=[1]), "outcomes[1].winners"),
        (outcome_of([1, 1, 3], winners=[0]), "outcomes[1].winners"),
        (outcome_of([2, 2, 3]), "outcomes[1].players"),  # nobody placed first
    ]
    for bad, field in cases:
        games = games_from_outcomes([good, bad])
        assert refused_at(season_standings, games, "outcomes") == field, field
    both = outcome_of([1, 1, 3], winners=[1, 0])  # the winners in any order
    assert len(season_standings(games_from_outcomes([both]), "outcomes")) == 3


def test_an_outcomes_places_are_its_ranks_by_seat_whatever_the_order_listed():
    outcome = outcome_of([3, 1, 2], seats=[2, 0, 1])
    assert places_from_outcome(outcome) == [1, 2, 3]


def refusal(call, *args) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as refused:
        call(*args)
    violation = refused.value.violations[0]
    return violation.field, violation.description


def test_a_season_of_more_than_five_games_or_none_is_refused_saying_so():
    assert refusal(season_standings, [[1, 2, 3]] * 6) == (
        "games",
        "a season is 1 to 5 games, not 6",
    )
    six = [crab_rage_pb2.CrabRageSeasonGame(places=[1, 2, 3])] * 6
    assert refusal(decode_games, six) == ("games", "a season is 1 to 5 games, not 6")
    assert refusal(games_from_outcomes, []) == ("outcomes", "a season is 1 to 5 games, not 0")


def test_games_with_other_managers_or_implausible_places_are_refused_saying_so():
    assert refusal(season_standings, [[1, 2, 3], [1, 2, 3, 4]]) == (
        "games[1].places",
        "every game lists the same 3 to 5 managers (3)",
    )
    assert refusal(season_standings, [[1, 2]]) == (
        "games[0].places",
        "every game lists the same 3 to 5 managers (2)",
    )
    assert refusal(season_standings, [[1, 2, 3], [2, 2, 3]]) == (
        "games[1].places",
        "places run from 1 (the winner); a shared place skips the next (R20)",
    )


def test_an_outcome_that_is_no_crab_rage_game_result_is_refused_saying_so():
    good = outcome_of([1, 2, 3], winners=[0])
    cases = [
        (outcome_of([1, 2]), "outcomes[1].players", "a CRAB RAGE! game has 3 to 5 managers (R1)"),
        (
            outcome_of([1, 2, 3], seats=[0, 0, 2]),
            "outcomes[1].players[1].player",
            "every seat 0 to 2 exactly once",
        ),
        (
            outcome_of([1, 2, 3, 4], seats=[0, 1, 2, 4]),
            "outcomes[1].players[3].player",
            "every seat 0 to 3 exactly once",
        ),
        (
            outcome_of([1, 2, 3], winners=[1]),
            "outcomes[1].winners",
            "the winners are the managers placed 1",
        ),
        (
            outcome_of([2, 2, 3]),
            "outcomes[1].players",
            "places run from 1 (the winner); a shared place skips the next (R20)",
        ),
    ]
    for bad, field, why in cases:
        games = games_from_outcomes([good, bad])
        assert refusal(season_standings, games, "outcomes") == (field, why)


def test_outcomes_of_three_four_and_five_managers_are_all_scored():
    for ranks in ([1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]):
        games = games_from_outcomes([outcome_of(ranks, winners=[0])] * 2)
        standings = season_standings(games, "outcomes")
        assert [s.total for s in standings] == [10 - 2 * i for i in range(len(ranks))]
