"""K4: no unreachable cells (docs/rules/kraby.md, "K4: no unreachable cells"), the one test behind
the rulebook's "Forbidden Moves" (Figure 4's place A and hole B): a placement is illegal (refused
citing K4) if, once the tile has stopped, some free cell has no straight line of free cells to
an edge of the playing area. The engine's quick check and its entry points agree with looking
along every line of every free cell."""

from __future__ import annotations

import random

import pytest

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    EAST,
    EDGES,
    EMPTY,
    NORTH,
    PINK,
    PLAYING_AREA,
    SIZE,
    SOUTH,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.moves import PlaceTile
from crabgames.games.kraby.state import KrabyState
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import cell, listed, position, where


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


def sees_an_edge(state: KrabyState, row: int, col: int) -> bool:
    """Whether the free cell has a straight line of free cells to the playing area's edge."""
    low, high = PLAYING_AREA[state.num_players]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        while low <= r <= high and low <= c <= high and state.cells[r * SIZE + c] == EMPTY:
            r, c = r + dr, c + dc
        if not (low <= r <= high and low <= c <= high):
            return True
    return False


def holes_by_looking(state: KrabyState) -> list[int]:
    return [
        i
        for i, v in enumerate(state.cells)
        if v == EMPTY and not sees_an_edge(state, *divmod(i, SIZE))
    ]


@pytest.mark.parametrize("num_players", (2, 3))
@pytest.mark.parametrize("seed", range(12))
def test_the_hole_rule_agrees_with_looking_along_every_line(seed, num_players):
    # K4: an entry is legal when, afterwards, every free cell still sees an edge. Tiles go in
    # at random legal entries, some games choosing entries near the walls first.
    rng = random.Random(seed * 7 + num_players)
    state = position(num_players)
    while True:
        assert rules.unfillable_cells(state) == holes_by_looking(state) == []
        legal_entries = []
        for edge in EDGES:
            for lane in range(SIZE):
                stop = rules.where_the_tile_stops(state, edge, lane)
                if stop is None:
                    continue
                after = state.copy()
                after.cells[stop] = pb.KRABY_CELL_BLUE
                after.block(stop)
                looked = holes_by_looking(after)
                assert rules.unfillable_cells(after) == looked, (edge, lane)
                assert rules.may_enter(state, edge, lane) == (not looked)
                if not looked:
                    legal_entries.append((edge, lane, stop))
        assert where(rules.entry_points(state)) == legal_entries
        assert rules.has_entry_point(state) == bool(legal_entries)
        if not legal_entries:
            break
        _, _, stop = rng.choice(legal_entries[: 3 if seed % 3 == 0 else None])
        state.cells[stop] = pb.KRABY_CELL_GREEN
        state.block(stop)
