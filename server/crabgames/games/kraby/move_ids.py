"""Kraby's move ids for learning agents: every move a fisher could ever make has a stable id."""

from __future__ import annotations

from crabgames.games.kraby.codec import EDGE_NAMES
from crabgames.games.kraby.data import COLORS, MULTIPLIERS, SIZE
from crabgames.games.kraby.rules import SKIP_FIGURE, PlaceFigure, PlaceTile

TILE_IDS = 4 * SIZE * len(COLORS)  # edge x lane x colour
FIGURE_IDS = len(COLORS) * len(MULTIPLIERS)


def move_id_of(move: object) -> int:
    """Tiles: (edge, lane, colour); then figures: (colour, multiplier); then "no figure"."""
    if isinstance(move, PlaceTile):
        return ((move.edge - 1) * SIZE + move.lane) * len(COLORS) + move.color - 1
    if isinstance(move, PlaceFigure):
        return TILE_IDS + (move.color - 1) * len(MULTIPLIERS) + move.multiplier - 1
    return TILE_IDS + FIGURE_IDS


# Every move's id, computed once (looked up for every legal move of every call).
MOVE_IDS = {
    move: move_id_of(move)
    for move in (
        *(
            PlaceTile(edge, lane, color)
            for edge in EDGE_NAMES
            for lane in range(SIZE)
            for color in COLORS
        ),
        *(PlaceFigure(color, m) for color in COLORS for m in MULTIPLIERS),
        SKIP_FIGURE,
    )
}
