"""The crab move (K3) across the whole playing area: a tile slid in moves along its row or
column over every free cell, up to the far edge, and stops before the first obstacle there."""

from __future__ import annotations

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import BLUE, EAST, NORTH, PINK, SOUTH, WEST
from crabgames.games.kraby.moves import PlaceTile
from tests.kraby.helpers import cell, listed, position


@pytest.mark.parametrize("num_players", (2, 3))
def test_a_tile_slides_across_the_board_to_a_crab_on_the_far_edge(num_players):
    # K3: rows 2 and 3 and columns 7 and 8 are empty but for one crab on the far edge of the
    # playing area (the 9x9 with two players, K1): the tile crosses the whole lane and stops
    # on the cell next to it, from every side.
    low, high = (1, 9) if num_players == 2 else (0, 10)
    tiles = {(2, high): BLUE, (3, low): BLUE, (high, 7): BLUE, (low, 8): BLUE}
    state = position(num_players, tiles)
    assert rules.where_the_tile_stops(state, WEST, 2) == cell(2, high - 1)
    assert rules.where_the_tile_stops(state, EAST, 3) == cell(3, low + 1)
    assert rules.where_the_tile_stops(state, NORTH, 7) == cell(high - 1, 7)
    assert rules.where_the_tile_stops(state, SOUTH, 8) == cell(low + 1, 8)
    for move in (
        PlaceTile(WEST, 2, PINK),
        PlaceTile(EAST, 3, PINK),
        PlaceTile(NORTH, 7, PINK),
        PlaceTile(SOUTH, 8, PINK),
    ):
        assert GAME.is_legal(state, move)
        assert move in listed(state)
