"""The CRAB RAGE! season (R20): a stateless computation over up to five games.

    season_standings(games) -> list[Standing]

`games` is a sequence of 1 to 5 games; each game lists every manager's finishing place (1 = the
winner; shared places repeat and the next place skips them, e.g. [1, 1, 3], as a game's outcome
ranks) with the managers in the same order in every game.
A game's outcome converts with `places_from_outcome` (PlayerResult.rank by seat). Per game the
winner scores 5 and each next distinct place one less, shared places alike; the highest season
total wins, and equal totals share the season victory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from crabgames.core.errors import bad_request
from crabgames.games.crab_rage.data import SETUP
from crabgames.games.crab_rage.endgame import ranks_of

SEASON_GAMES = 5
WINNER_POINTS = 5
MIN_MANAGERS, MAX_MANAGERS = min(SETUP), max(SETUP)  # R1: 3 to 5 players
MANAGERS = f"{MIN_MANAGERS} to {MAX_MANAGERS}"


@mypyc_attr(native_class=False)  # a list, as every game's places (mypyc compiles no subclass of it)
class OutcomePlaces(list[int]):
    """A game's places by seat, with the Outcome they came from: `check_games` checks its seats
    and winners too, with the outcome's own field paths."""

    outcome: Any


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
    ranks = ranks_of(totals)
    return [
        Standing(m, [game[m] for game in scores], totals[m], ranks[m], ranks[m] == 1)
        for m in range(managers)
    ]


def check_games(games: Sequence[Sequence[int]], path: str) -> None:
    check_count(len(games), path)
    managers = len(games[0])
    for index, places in enumerate(games):
        if isinstance(places, OutcomePlaces):
            check_outcome(places.outcome, f"{path}[{index}]")
            where = f"{path}[{index}].players"
        else:
            where = f"{path}[{index}].places"
        if len(places) != managers or not MIN_MANAGERS <= managers <= MAX_MANAGERS:
            raise bad_request(where, f"every game lists the same {MANAGERS} managers ({managers})")
        if not plausible_places(places):
            raise bad_request(
                where, "places run from 1 (the winner); a shared place skips the next (R20)"
            )


def plausible_places(places: Sequence[int]) -> bool:
    """Each place is 1 plus the managers placed better, as a game ranks (1, 1, 3): the places
    are their own ranks (`ranks_of`), a lower place counting as a higher score."""
    return list(places) == ranks_of([-place for place in places])


def check_outcome(outcome: Any, path: str) -> None:
    """An outcome lists every seat 0..n-1 once (3 to 5), and its winners are those placed 1."""
    players = outcome.players
    if not MIN_MANAGERS <= len(players) <= MAX_MANAGERS:
        raise bad_request(f"{path}.players", f"a CRAB RAGE! game has {MANAGERS} managers (R1)")
    seen: set[int] = set()
    for j, result in enumerate(players):
        if not 0 <= result.player < len(players) or result.player in seen:
            raise bad_request(
                f"{path}.players[{j}].player", f"every seat 0 to {len(players) - 1} exactly once"
            )
        seen.add(result.player)
    first = sorted(r.player for r in players if r.rank == 1)
    if list(outcome.winners) and sorted(outcome.winners) != first:
        raise bad_request(f"{path}.winners", "the winners are the managers placed 1")


def places_from_outcome(outcome: Any) -> list[int]:
    """Finishing places by seat from a game's Outcome message (PlayerResult.rank), checked with
    the outcome by `check_games`."""
    by_seat = sorted(outcome.players, key=lambda r: r.player)
    places = OutcomePlaces(r.rank for r in by_seat)
    places.outcome = outcome
    return places


def games_from_outcomes(outcomes: Sequence[Any], path: str = "outcomes") -> list[list[int]]:
    """`places_from_outcome` for each game, the count checked before any is built."""
    check_count(len(outcomes), path)
    return [places_from_outcome(o) for o in outcomes]


def decode_games(messages: Sequence[Any], path: str = "games") -> list[list[int]]:
    """From CrabRageSeasonGame messages, the count checked before any is built."""
    check_count(len(messages), path)
    return [list(m.places) for m in messages]


def check_count(games: int, path: str) -> None:
    if not 1 <= games <= SEASON_GAMES:
        raise bad_request(path, f"a season is 1 to {SEASON_GAMES} games, not {games}")


def encode_standing(standing: Standing, msg: Any) -> None:
    """Into a CrabRageSeasonStanding message."""
    msg.manager, msg.total, msg.rank, msg.winner = (
        standing.manager,
        standing.total,
        standing.rank,
        standing.winner,
    )
    msg.game_scores.extend(standing.game_scores)
