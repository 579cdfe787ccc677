"""K3: sliding a tile in (docs/rules/kraby.md, "K3: sliding a tile in"), the slide of the rulebook's
"Crab Move" and its Figure 3: a tile comes in from an edge of the playing area straight along a
row or column and stops on the free cell in front of the first tile or the sand bar in its way;
with nothing on its line to stop it, or its entry cell taken, it cannot enter there (refused
citing K3); with the next cell taken it stops on its entry cell (the engine's reading, same
file); once placed it stops every later tile on its row and column."""

from __future__ import annotations

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    EAST,
    ISLAND,
    NORTH,
    PINK,
    SOUTH,
    TILE_OFFSET,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.events import TilePlaced
from crabgames.games.kraby.moves import PlaceTile
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import cell, listed, position


def test_a_tile_slides_until_it_stops_at_the_island():
    # Figure 3a/3b: the pink crab walks along the island's row and stops before the island.
    state = position()
    assert rules.where_the_tile_stops(state, WEST, 5) == ISLAND - 1
    assert rules.where_the_tile_stops(state, EAST, 5) == ISLAND + 1
    assert rules.where_the_tile_stops(state, NORTH, 5) == ISLAND - 11
    assert rules.where_the_tile_stops(state, SOUTH, 5) == ISLAND + 11
    assert PlaceTile(WEST, 5, PINK, ISLAND - 1) in GAME.legal_moves(state)  # listed with its stop


def test_a_tile_that_nothing_would_stop_cannot_enter():
    # Figure 3: the blue crab cannot be slid onto the board, it has nowhere to stop.
    state = position()
    assert rules.where_the_tile_stops(state, WEST, 3) is None
    move = PlaceTile(WEST, 3, BLUE)
    assert not GAME.is_legal(state, move)
    assert move not in listed(state)
    assert GAME.explain_illegal(state, move).rule == "K3"


def test_a_tile_stops_at_another_crab():
    # Figure 3e/3f: the pink crab moves forward and stops at the yellow crab.
    state = position(tiles={(2, 7): YELLOW})
    assert rules.where_the_tile_stops(state, WEST, 2) == cell(2, 6)
    assert rules.where_the_tile_stops(state, EAST, 2) == cell(2, 8)
    assert rules.where_the_tile_stops(state, NORTH, 7) == cell(1, 7)
    state = GAME.clone(state)
    GAME.apply_move(state, PlaceTile(WEST, 2, PINK))
    assert state.cells[cell(2, 6)] == pb.KRABY_CELL_PINK


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


def test_a_tile_cannot_enter_where_the_entry_cell_is_taken():
    state = position(tiles={(2, 0): YELLOW, (3, 0): YELLOW})
    assert rules.where_the_tile_stops(state, WEST, 2) is None
    # ... but it can enter and stop on the entry cell when the next cell is taken.
    assert rules.where_the_tile_stops(state, NORTH, 0) == cell(1, 0)


@pytest.mark.parametrize("num_players", (2, 3))
def test_a_tile_may_stop_on_its_entry_cell_from_every_side(num_players):
    # K3: a tile right behind the entry cell stops the entering tile on the entry cell itself,
    # on each side of the playing area (the 9x9 with two players, K1).
    low, high = (1, 9) if num_players == 2 else (0, 10)
    tiles = {(2, low + 1): BLUE, (3, high - 1): BLUE, (low + 1, 7): BLUE, (high - 1, 8): BLUE}
    state = position(num_players, tiles)
    assert rules.where_the_tile_stops(state, WEST, 2) == cell(2, low)
    assert rules.where_the_tile_stops(state, EAST, 3) == cell(3, high)
    assert rules.where_the_tile_stops(state, NORTH, 7) == cell(low, 7)
    assert rules.where_the_tile_stops(state, SOUTH, 8) == cell(high, 8)
    for move in (PlaceTile(WEST, 2, PINK), PlaceTile(EAST, 3, PINK), PlaceTile(SOUTH, 8, PINK)):
        assert move in listed(state)


def test_a_placed_tile_stops_every_later_tile_on_its_row_and_column():
    # K3: the pink crab stops at the island (Figure 3a/3b); the next crab on that row stops
    # at the pink one, and a crab down that column stops on top of it.
    state = position()
    events = GAME.apply_move(state, PlaceTile(WEST, 5, PINK))
    assert events[0] == TilePlaced(0, WEST, 5, PINK, cell(5, 4), 5)
    assert state.cells[cell(5, 4)] == PINK + TILE_OFFSET
    assert state.turns_taken == 1
    assert rules.where_the_tile_stops(state, WEST, 5) == cell(5, 3)
    assert rules.where_the_tile_stops(state, NORTH, 4) == cell(4, 4)
    assert rules.where_the_tile_stops(state, SOUTH, 4) == cell(6, 4)
    fresh = state.copy()
    fresh.rebuild_lines()  # the lines of sight from the cells alone
    assert (state.row_blocked, state.col_blocked) == (fresh.row_blocked, fresh.col_blocked)
