"""Kraby's move ids for learning agents: every move a fisher could ever make has a stable id."""

from __future__ import annotations

from crabgames.games.kraby.data import COLORS, MULTIPLIERS, SIZE
from crabgames.games.kraby.rules import PlaceFigure, PlaceTile

TILE_IDS = 4 * SIZE * len(COLORS)  # edge x lane x colour
FIGURE_IDS = len(COLORS) * len(MULTIPLIERS)


def move_id_of(move: object) -> int:
    """Tiles: (edge, lane, colour), wherever they stop; then figures: (colour, multiplier); then
    "no figure"."""
    if isinstance(move, PlaceTile):
        return ((move.edge - 1) * SIZE + move.lane) * len(COLORS) + move.color - 1
    if isinstance(move, PlaceFigure):
        return TILE_IDS + (move.color - 1) * len(MULTIPLIERS) + move.multiplier - 1
    return TILE_IDS + FIGURE_IDS
