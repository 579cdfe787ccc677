"""Kraby's move ids for learning agents: every move a fisher could ever make has a stable id.
Tiles by (edge, lane, colour), wherever they stop; then figures by (colour, multiplier); then
"no figure"."""

from __future__ import annotations

from typing import Final

from crabgames.games.kraby.data import COLORS, MULTIPLIERS, SIZE
from crabgames.games.kraby.moves import Move, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import KrabyState

TILE_IDS: Final = 4 * SIZE * len(COLORS)  # edge x lane x colour
FIGURE_IDS: Final = len(COLORS) * len(MULTIPLIERS)
MOVE_IDS: Final = TILE_IDS + FIGURE_IDS + 1


def move_id(state: KrabyState, move: Move) -> int:
    """A move's id, wherever a tile stops (the state does not change it)."""
    if isinstance(move, PlaceTile):
        return ((move.edge - 1) * SIZE + move.lane) * len(COLORS) + move.color - 1
    if isinstance(move, PlaceFigure):
        return TILE_IDS + (move.color - 1) * len(MULTIPLIERS) + move.multiplier - 1
    return TILE_IDS + FIGURE_IDS
