"""The search bot's view of a Kraby position (core/search.py): strategy, not rules.

Random tile slides wreck the groups a fisher builds, so random playouts to the end say little
about a position. The search values it instead by each fisher's score if the game ended now
(the rulebook's scoring: every figure's species points times its hold, K9) plus what their free
holds may still bring, turned into a chance of winning by the lead over the best rival: a
logistic curve, so a lead of SCALE points is worth e times the odds. Only the best rival counts,
as only beating every rival wins; with two fishers the chances add up to 1.

The same values model the other fishers: each is expected to play the move that leaves them
the best lead (`greedy_move`). That move is found without playing every legal move: a tile
changes the points of its own species only, by the groups it joins (`leads_after`), and
tests/kraby/test_strategy.py checks it against playing each move and scoring the board anew.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from crabgames.core.prng import Prng
from crabgames.games.kraby.data import COLORS, MULTIPLIERS, Color
from crabgames.games.kraby.moves import Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.rules import (
    Groups,
    color_on_ship,
    figure_beside_the_board,
    figure_placements,
    figure_points,
    find_groups,
    group_points,
    hold_is_free,
    room_on_ship,
    species_points,
    where_the_tile_stops,
    with_figure,
)
from crabgames.games.kraby.state import (
    DRAW,
    GAME_OVER,
    PLACE_FIGURE,
    KrabyState,
    Ship,
    counted,
)

# Points of lead for e times the odds of winning: about one group of four crabs in a x2 hold.
SCALE: Final = 4.0
# A free hold is worth this share of what the best species still to be had would bring there.
OPTION_DISCOUNT: Final = 0.5


@dataclass(frozen=True, slots=True)
class Standing:
    """What the fishers' values are made of."""

    points: dict[Color, int]  # each species' points if the game ended now
    ships: list[Ship]
    figure_supply: tuple[int, ...]  # figures beside the board, indexed by colour - 1
    chances: list[int]  # the figure decisions each fisher has left


def estimated_chances(state: KrabyState) -> list[float]:
    """Each fisher's chance of winning if the values now stood at the end."""
    values = fisher_values(state)
    return [winning_chance(value, best_rival(values, seat)) for seat, value in enumerate(values)]


def fisher_values(state: KrabyState) -> list[float]:
    """Each fisher's score now plus what their free holds may still bring."""
    return values_of(standing_of(state))


def standing_of(state: KrabyState) -> Standing:
    points = points_now(find_groups(state.cells))
    chances = [figure_chances_left(state, seat) for seat in range(state.num_players)]
    return Standing(points, state.ships, state.figure_supply, chances)


def points_now(groups: Groups) -> dict[Color, int]:
    """Each species' points if the game ended now."""
    return {color: species_points(groups, color) for color in COLORS}


def values_of(standing: Standing) -> list[float]:
    return [
        sum(figure_points(ship, standing.points)) + option_value(standing, seat)
        for seat, ship in enumerate(standing.ships)
    ]


def best_rival(values: Sequence[float], seat: int) -> float:
    return max(value for other, value in enumerate(values) if other != seat)


def lead(values: Sequence[float], seat: int) -> float:
    return values[seat] - best_rival(values, seat)


def winning_chance(value: float, rival: float) -> float:
    return 1.0 / (1.0 + math.exp((rival - value) / SCALE))


def option_value(standing: Standing, seat: int) -> float:
    """What the fisher's free holds may still bring: the best species with a figure beside the
    board and none on their ship yet, paired with their best free holds (K6), discounted; only
    as many holds as the fisher has turns left to fill, one figure a turn."""
    ship, points = standing.ships[seat], standing.points
    room = min(room_on_ship(ship, len(standing.ships)), standing.chances[seat])
    if room <= 0:
        return 0.0
    candidates = sorted(
        (
            points[color]
            for color in COLORS
            if figure_beside_the_board(standing.figure_supply, color)
            and not color_on_ship(ship, color)
            and points[color] > 0
        ),
        reverse=True,
    )
    free = sorted((m for m in MULTIPLIERS if hold_is_free(ship, m)), reverse=True)[:room]
    return OPTION_DISCOUNT * sum(m * p for m, p in zip(free, candidates, strict=False))


def figure_chances_left(state: KrabyState, seat: int) -> int:
    """How many more figure decisions the fisher gets: one after each tile they still place
    (K6), and the one of the turn under way if its tile is down already."""
    if state.step == GAME_OVER:
        return 0
    under_way = state.step in (DRAW, PLACE_FIGURE) and state.turn_player == seat
    return under_way + tiles_still_to_place(state, seat)


def tiles_still_to_place(state: KrabyState, seat: int) -> int:
    """Once the bag is empty, a fisher places the tiles in their hand. Until then every fisher
    holds six and no one passes, so the tiles not yet on the board go down one a turn,
    clockwise from the first fisher: tile k (counting from 0) is placed by seat
    (first_player + k) mod players. (Every tile is placed: with three or four fishers, and on
    two fishers' 9x9, the tiles fill the board exactly, K8.)"""
    if not sum(state.bag):
        return sum(state.hands[seat])
    left = sum(state.bag) + sum(map(sum, state.hands))
    players = state.num_players
    wait = (seat - state.first_player - state.turns_taken) % players  # tiles before theirs
    return (left - wait - 1) // players + 1 if left > wait else 0


# ----- the model of the other fishers -----


def greedy_move(state: KrabyState, moves: Sequence[Move], rng: Prng) -> Move:
    """The move that leaves the fisher to play the best lead over their best rival (one of
    the best, at random)."""
    leads = leads_after(state, moves)
    best = max(leads)
    ties = [index for index, value in enumerate(leads) if value == best]
    return moves[ties[rng.below(len(ties))]]


def leads_after(state: KrabyState, moves: Sequence[Move]) -> list[float]:
    """The lead of the fisher to play after each of their legal moves, as `fisher_values` of the
    position after it would give it, computed from this position's groups."""
    groups = find_groups(state.cells)
    points = points_now(groups)
    player = state.turn_player
    if any(isinstance(move, PlaceTile) for move in moves):
        return tile_leads(state, groups, points, moves, player)
    return [lead(values_of(after_figure(state, points, move)), player) for move in moves]


def tile_leads(
    state: KrabyState,
    groups: Groups,
    points: dict[Color, int],
    moves: Sequence[Move],
    player: int,
) -> list[float]:
    """After a tile, only its species' points change (`points_change`). Each lead is worked out
    once: tiles that change the same species by the same points leave the same lead."""
    standing = after_tile(state, points)
    known: dict[tuple[Color, int], float] = {}
    leads = []
    for move in moves:
        assert isinstance(move, PlaceTile)
        stop = move.stop
        if stop is None:  # a move as a fisher sends it
            stop = where_the_tile_stops(state, move.edge, move.lane)
        assert stop is not None  # the move is legal
        change = points_change(groups, stop, move.color)
        lead_after = known.get((move.color, change))
        if lead_after is None:
            standing.points[move.color] = points[move.color] + change
            lead_after = known[move.color, change] = lead(values_of(standing), player)
            standing.points[move.color] = points[move.color]
        leads.append(lead_after)
    return leads


def points_change(groups: Groups, stop: int, color: Color) -> int:
    """How a tile of `color` stopping at `stop` changes its species' points: the groups it
    touches become one with it."""
    joined = [groups.sizes[g] for g in groups.beside(stop, color)]
    return group_points(1 + sum(joined)) - sum(group_points(size) for size in joined)


def after_tile(state: KrabyState, points: dict[Color, int]) -> Standing:
    """The standing after the fisher to play places a tile, but for its points: one tile fewer
    is left to place, theirs, and their turn's figure decision is still to come (after the
    draw while the bag has tiles; once it is empty, only if they have a figure to place)."""
    player = state.turn_player
    chances = [
        tiles_still_to_place(state, seat) - (seat == player) for seat in range(state.num_players)
    ]
    chances[player] += 1 if sum(state.bag) else bool(figure_placements(state))
    return Standing(dict(points), state.ships, state.figure_supply, chances)


def after_figure(state: KrabyState, points: dict[Color, int], move: Move) -> Standing:
    """The standing after the fisher's figure decision: their turn is over."""
    ships: list[Ship] = list(state.ships)
    supply = state.figure_supply
    if isinstance(move, PlaceFigure):
        ships[state.turn_player] = with_figure(ships[state.turn_player], move)
        supply = counted(supply, move.color, -1)
    chances = [tiles_still_to_place(state, seat) for seat in range(state.num_players)]
    return Standing(points, ships, supply, chances)
