"""The CRAB RAGE! season (R20): a stateless computation over up to five games.

    season_standings(games) -> list[Standing]

`games` is a sequence of 1 to 5 games; each game lists every manager's finishing place (1 = the
winner; shared places repeat, e.g. [1, 1, 3]) with the managers in the same order in every game.
A game's outcome converts with `places_from_outcome` (PlayerResult.rank by seat). Per game the
winner scores 5 and each next distinct place one less, shared places alike; the highest season
total wins, and equal totals share the season victory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from crabgames.core.errors import bad_request

SEASON_GAMES = 5
WINNER_POINTS = 5


class Standing(NamedTuple):
    manager: int
    game_scores: list[int]
    total: int
    rank: int
    winner: bool


def game_points(places: Sequence[int]) -> list[int]:
    """R20: 5 for the winner, one less for each next distinct place."""
    distinct = sorted(set(places))
    return [WINNER_POINTS - distinct.index(place) for place in places]


def season_standings(games: Sequence[Sequence[int]], path: str = "games") -> list[Standing]:
    check_games(games, path)
    scores = [game_points(places) for places in games]
    managers = len(games[0])
    totals = [sum(game[m] for game in scores) for m in range(managers)]
    ranks = [1 + sum(other > total for other in totals) for total in totals]
    return [
        Standing(m, [game[m] for game in scores], totals[m], ranks[m], ranks[m] == 1)
        for m in range(managers)
    ]


def check_games(games: Sequence[Sequence[int]], path: str) -> None:
    if not 1 <= len(games) <= SEASON_GAMES:
        raise bad_request(path, f"a season is 1 to {SEASON_GAMES} games, not {len(games)}")
    managers = len(games[0])
    for index, places in enumerate(games):
        where = f"{path}[{index}].places"
        if len(places) != managers or not 3 <= managers <= 5:
            raise bad_request(where, f"every game lists the same 3 to 5 managers ({managers})")
        if any(not 1 <= p <= managers for p in places) or 1 not in places:
            raise bad_request(where, f"places run from 1 (the winner) to {managers}")


def places_from_outcome(outcome: Any) -> list[int]:
    """Finishing places by seat from a game's Outcome message (PlayerResult.rank)."""
    by_seat = sorted(outcome.players, key=lambda r: r.player)
    return [r.rank for r in by_seat]


def decode_games(messages: Sequence[Any], path: str = "games") -> list[list[int]]:
    """From CrabRageSeasonGame messages."""
    return [list(m.places) for m in messages]


def encode_standing(standing: Standing, msg: Any) -> None:
    """Into a CrabRageSeasonStanding message."""
    msg.manager, msg.total, msg.rank, msg.winner = (
        standing.manager,
        standing.total,
        standing.rank,
        standing.winner,
    )
    msg.game_scores.extend(standing.game_scores)
