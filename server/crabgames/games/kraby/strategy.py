"""The search bot's estimate of a Kraby position (core/search.py): strategy, not rules.

Random tile slides wreck the groups a fisher builds, so random playouts to the end say little
about a position. The search values it instead by each fisher's score if the game ended now
(the rulebook's scoring: every figure's species points times its hold, K9) plus what their free
holds may still bring, turned into a chance of winning by the lead over the best rival: a
logistic curve, so a lead of SCALE points is worth e times the odds. Only the best rival counts,
as only beating every rival wins; with two fishers the chances add up to 1.
"""

from __future__ import annotations

import math

from crabgames.games.kraby.data import COLORS, FIGURES_PER_SHIP, MULTIPLIERS, NO_FIGURE, Color
from crabgames.games.kraby.rules import (
    color_on_ship,
    figure_beside_the_board,
    hold_is_free,
    score_fishers,
    score_species,
)
from crabgames.games.kraby.state import KrabyState

# Points of lead for e times the odds of winning: about one group of four crabs in a x2 hold.
SCALE = 4.0
# A free hold is worth this share of what the best species still to be had would bring there.
OPTION_DISCOUNT = 0.5


def estimated_chances(state: KrabyState) -> list[float]:
    """Each fisher's chance of winning if the values now stood at the end."""
    values = fisher_values(state)
    return [winning_chance(value, best_rival(values, seat)) for seat, value in enumerate(values)]


def fisher_values(state: KrabyState) -> list[float]:
    """Each fisher's score now plus what their free holds may still bring."""
    species = score_species(state.cells)
    points = {s.color: s.points for s in species}
    return [
        fisher.total + option_value(state, fisher.player, points)
        for fisher in score_fishers(state.ships, species)
    ]


def best_rival(values: list[float], seat: int) -> float:
    return max(value for other, value in enumerate(values) if other != seat)


def winning_chance(value: float, rival: float) -> float:
    return 1.0 / (1.0 + math.exp((rival - value) / SCALE))


def option_value(state: KrabyState, player: int, points: dict[Color, int]) -> float:
    """What the fisher's free holds may still bring: the best species with a figure beside the
    board and none on their ship yet, paired with their best free holds (K6), discounted."""
    ship = state.ships[player]
    room = FIGURES_PER_SHIP[state.num_players] - (len(ship) - ship.count(NO_FIGURE))
    if room <= 0:
        return 0.0
    candidates = sorted(
        (
            points[color]
            for color in COLORS
            if figure_beside_the_board(state, color)
            and not color_on_ship(ship, color)
            and points[color] > 0
        ),
        reverse=True,
    )
    free = sorted((m for m in MULTIPLIERS if hold_is_free(ship, m)), reverse=True)[:room]
    return OPTION_DISCOUNT * sum(m * p for m, p in zip(free, candidates, strict=False))
