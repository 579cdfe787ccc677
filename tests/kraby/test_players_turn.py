"""The rulebook's "A Player's Turn" (docs/rules/kraby.md, "A Player's Turn"): a turn is a tile
first, always, then at most one figure: a figure is legal only right after the tile, and a second
tile is not."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import (
    BLUE,
    EAST,
    ORANGE,
    PINK,
    WEST,
)
from crabgames.games.kraby.moves import SKIP_FIGURE, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import PLACE_FIGURE
from tests.kraby.helpers import assert_checked_alone_as_listed, position


def test_a_figure_is_legal_only_right_after_a_tile_and_a_tile_only_before():
    state = position()
    assert_checked_alone_as_listed(state)  # placing a tile: no figure yet
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    GAME.apply_chance(state, BLUE)
    assert state.step == PLACE_FIGURE
    assert_checked_alone_as_listed(state)  # the figure: no second tile
    assert not GAME.is_legal(state, PlaceTile(EAST, 5, ORANGE))
    assert GAME.is_legal(state, PlaceFigure(PINK, 3)) and GAME.is_legal(state, SKIP_FIGURE)
