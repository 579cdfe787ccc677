"""Kraby's moves (A Player's Turn): a tile slid in, then a figure placed in a hold or none.

Each kind ends with its `kind`, the name of its field in KrabyMove, so that moves of two kinds
never compare equal."""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from crabgames.games.kraby.data import Color, Edge


class PlaceTile(NamedTuple):
    """Crab Move: a tile of `color` from the hand, slid in from `edge` along `lane` (a row or a
    column, numbered on the whole board)."""

    edge: Edge
    lane: int
    color: Color
    # Where the tile stops (K3), on a move `legal_moves` lists; a move as a fisher sends it has
    # none (the board decides it).
    stop: int | None = None
    kind: Literal["place_tile"] = "place_tile"


class PlaceFigure(NamedTuple):
    """Placing a Crab in the Ship's Hold: a figure of `color` into hold x`multiplier` (K6)."""

    color: Color
    multiplier: int
    kind: Literal["place_figure"] = "place_figure"


class SkipFigure(NamedTuple):
    """The figure is optional: none this turn."""

    kind: Literal["skip_figure"] = "skip_figure"


SKIP_FIGURE: Final = SkipFigure()

Move = PlaceTile | PlaceFigure | SkipFigure
