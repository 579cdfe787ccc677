"""A season that cannot be scored (R20) is refused naming the field and saying why, as the
ScoreCrabRageSeason call answers it (issue 14: the reasons, not only the fields)."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_rage.season import decode_games, games_from_outcomes, season_standings
from crabgames.v1 import crab_rage_pb2, game_pb2


def refusal(call, *args) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as refused:
        call(*args)
    violation = refused.value.violations[0]
    return violation.field, violation.description


def outcome_of(ranks: list[int], seats: list[int] | None = None, winners=None):
    outcome = game_pb2.Outcome()
    for seat, rank in zip(seats or range(len(ranks)), ranks, strict=True):
        outcome.players.add(player=seat, rank=rank)
    if winners is not None:
        outcome.winners.extend(winners)
    return outcome


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
