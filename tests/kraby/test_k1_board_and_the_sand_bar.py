"""K1: the board and the sand bar (docs/rules/kraby.md, "K1: the board and the sand bar"): an 11
by 11 grid with the sand bar on its centre cell; three and four fishers play on all of it, two
on the central 9 by 9 and its 80 free cells, where a tile enters at the 9 by 9's edge and a lane
outside it is refused citing K1. (That rows and columns keep the whole board's numbers in every
label and field is checked with the views, in test_views.py.)"""

from __future__ import annotations

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    CELLS,
    EAST,
    EMPTY,
    GREEN,
    NORTH,
    OFF_BOARD,
    ORANGE,
    PINK,
    SIZE,
    SOUTH,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.moves import PlaceTile
from tests.kraby.helpers import cell, listed, position


def test_two_players_use_the_central_nine_by_nine_and_its_80_free_cells():
    # "The game is played on the light (central) part of the board" (K1: rows and columns 1..9).
    state = rules.initial_state(2, (PINK, 0))
    inside = {cell(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)}
    assert [i for i in range(CELLS) if state.cells[i] == OFF_BOARD] == sorted(
        set(range(CELLS)) - inside
    )
    assert state.cells.count(EMPTY) == 80 == len(inside) - 1  # the island is the 81st cell
    assert rules.initial_state(3, (PINK, 0)).cells.count(EMPTY) == 120
    assert rules.initial_state(4, (PINK, 0)).cells.count(OFF_BOARD) == 0


def test_with_two_players_a_tile_enters_at_the_edge_of_the_nine_by_nine():
    # A tile on row 3 at column 1, the first column of the central 9x9, takes the entry cell
    # from the west: with two players nothing may enter there (K3), while on the whole board
    # the tile slides in onto column 0 in front of it.
    tiles = {(3, 1): YELLOW, (1, 6): YELLOW}
    two, three = position(2, tiles), position(3, tiles)
    assert rules.where_the_tile_stops(two, WEST, 3) is None
    assert rules.where_the_tile_stops(three, WEST, 3) == cell(3, 0)
    assert PlaceTile(WEST, 3, ORANGE) not in listed(two)
    assert PlaceTile(WEST, 3, ORANGE, cell(3, 0)) in GAME.legal_moves(three)
    # From the north along column 6 the tile stops on row 0 with three, and cannot enter with
    # two (row 1 is the first row of the 9x9, and it is taken).
    assert rules.where_the_tile_stops(three, NORTH, 6) == cell(0, 6)
    assert rules.where_the_tile_stops(two, NORTH, 6) is None
    # From the other sides the tile slides up to the same tiles on either board.
    assert (
        rules.where_the_tile_stops(two, EAST, 3)
        == rules.where_the_tile_stops(three, EAST, 3)
        == cell(3, 2)
    )
    assert (
        rules.where_the_tile_stops(two, SOUTH, 6)
        == rules.where_the_tile_stops(three, SOUTH, 6)
        == cell(2, 6)
    )


def test_with_two_players_no_lane_outside_the_nine_by_nine_is_offered_or_accepted():
    # A tile on the 9x9's outer ring would stop a tile sliding along the outer lanes 0 and 10
    # of the whole board next to it; those lanes are off the board with two players (K1).
    state = position(2, {(1, 1): GREEN, (9, 9): GREEN})
    lanes = {entry.lane for entry in rules.entry_points(state)}
    assert lanes <= set(range(1, SIZE - 1))
    for edge in (NORTH, EAST, SOUTH, WEST):
        for lane in (0, SIZE - 1):
            move = PlaceTile(edge, lane, ORANGE)
            assert not GAME.is_legal(state, move)
            assert GAME.explain_illegal(state, move).rule == "K1"


def test_two_players_play_on_the_central_nine_by_nine():
    state = position(num_players=2)
    assert rules.where_the_tile_stops(state, WEST, 0) is None
    assert rules.where_the_tile_stops(state, WEST, 5) == cell(5, 4)
    lanes = {(entry.edge, entry.lane) for entry in rules.entry_points(state)}
    assert lanes == {(WEST, 5), (EAST, 5), (NORTH, 5), (SOUTH, 5)}
