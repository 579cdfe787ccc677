"""The crab move (K3, K5) and forbidden moves (K4): the rulebook's Figures 3 and 4."""

from __future__ import annotations

import random

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import BLUE, EAST, ISLAND, NORTH, PINK, SOUTH, WEST, YELLOW
from crabgames.games.kraby.moves import PlaceTile
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import cell, listed, position, where


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


def test_a_tile_cannot_enter_where_the_entry_cell_is_taken():
    state = position(tiles={(2, 0): YELLOW, (3, 0): YELLOW})
    assert rules.where_the_tile_stops(state, WEST, 2) is None
    # ... but it can enter and stop on the entry cell when the next cell is taken.
    assert rules.where_the_tile_stops(state, NORTH, 0) == cell(1, 0)


def test_a_move_that_leaves_a_place_no_crab_can_reach_is_forbidden():
    # Figure 4, place A: the last open side of a single free cell is closed.
    state = position(tiles={(2, 1): YELLOW, (1, 2): YELLOW, (3, 2): YELLOW, (3, 3): BLUE})
    move = PlaceTile(NORTH, 3, YELLOW)
    assert rules.where_the_tile_stops(state, NORTH, 3) == cell(2, 3)
    assert not GAME.is_legal(state, move)
    assert GAME.explain_illegal(state, move).rule == "K4"


def test_a_move_that_leaves_an_empty_hole_is_forbidden():
    # Figure 4, hole B: an empty area of two cells is sealed off.
    tiles = {(2, 1): BLUE, (1, 2): BLUE, (1, 3): BLUE, (3, 2): BLUE, (3, 3): BLUE, (3, 4): BLUE}
    state = position(tiles=tiles)
    move = PlaceTile(NORTH, 4, PINK)
    assert rules.where_the_tile_stops(state, NORTH, 4) == cell(2, 4)
    assert move not in listed(state)
    assert GAME.explain_illegal(state, move).rule == "K4"
    # A tile stopping elsewhere keeps the pocket open.
    assert rules.where_the_tile_stops(state, WEST, 2) == cell(2, 0)
    assert PlaceTile(WEST, 2, PINK, cell(2, 0)) in GAME.legal_moves(state)


def test_two_players_play_on_the_central_nine_by_nine():
    state = position(num_players=2)
    assert rules.where_the_tile_stops(state, WEST, 0) is None
    assert rules.where_the_tile_stops(state, WEST, 5) == cell(5, 4)
    lanes = {(entry.edge, entry.lane) for entry in rules.entry_points(state)}
    assert lanes == {(WEST, 5), (EAST, 5), (NORTH, 5), (SOUTH, 5)}


def test_legality_does_not_depend_on_the_colour():
    # K5: one entry, every colour in hand.
    state = position(hand=[BLUE, BLUE, YELLOW, PINK, PINK, PINK])
    moves = [m for m in GAME.legal_moves(state) if (m.edge, m.lane) == (WEST, 5)]
    assert sorted(m.color for m in moves) == [BLUE, YELLOW, PINK]


@pytest.mark.parametrize("num_players", (2, 3))
@pytest.mark.parametrize("seed", range(4))
def test_the_quick_hole_check_agrees_with_checking_every_cell(seed, num_players):
    rng = random.Random(seed)
    state = position(num_players)
    for _ in range(90):
        low, high = 0, 10
        allowed = []
        for edge in (NORTH, EAST, SOUTH, WEST):
            for lane in range(low, high + 1):
                stop = rules.where_the_tile_stops(state, edge, lane)
                if stop is None:
                    continue
                after = state.copy()
                after.cells[stop] = pb.KRABY_CELL_BLUE
                after.block(stop)
                quick = rules.may_enter(state, edge, lane)
                assert quick == (not rules.unfillable_cells(after))
                if quick:
                    allowed.append((edge, lane, stop))
        entries = rules.entry_points(state)
        assert where(entries) == allowed  # the generator finds the same, in the same order
        assert rules.has_entry_point(state) == bool(allowed)
        if not entries:
            break
        stop = rng.choice(entries).stop
        state.cells[stop] = pb.KRABY_CELL_GREEN
        state.block(stop)


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


def test_a_tile_stopping_on_an_empty_row_leaves_the_cells_of_that_row_their_line_to_the_edge():
    # K4: (3, 3) is free between two tiles of its column, so only its row gives it a line to
    # an edge. A tile sliding down column 6 stops at (3, 6), the first tile on row 3: (3, 3)
    # still sees the west edge along the row, so this is no hole and the move is legal.
    state = position(tiles={(2, 3): BLUE, (4, 3): BLUE, (4, 6): BLUE})
    assert rules.where_the_tile_stops(state, NORTH, 6) == cell(3, 6)
    assert rules.may_enter(state, NORTH, 6)
    assert PlaceTile(NORTH, 6, PINK, cell(3, 6)) in GAME.legal_moves(state)
    assert GAME.is_legal(state, PlaceTile(NORTH, 6, PINK))
    # The same turned: (3, 3) between two tiles of its row; a tile sliding along row 6 from
    # the west stops at (6, 3), the first tile of column 3, and (3, 3) still sees the north.
    state = position(tiles={(3, 2): BLUE, (3, 4): BLUE, (6, 4): BLUE})
    assert rules.where_the_tile_stops(state, WEST, 6) == cell(6, 3)
    assert rules.may_enter(state, WEST, 6)
    assert PlaceTile(WEST, 6, PINK, cell(6, 3)) in GAME.legal_moves(state)
