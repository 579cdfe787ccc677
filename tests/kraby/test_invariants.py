"""What holds after every move, each checked by breaking it: every tile of the game is on the
board, in a hand or in the bag (Setup, K2: 24 a colour, 20 with two fishers, none of the colour
sitting out); the sand bar stays (K1); no free cell is a hole (K4); no hand holds more than the
six tiles behind the screen (drawing back to six). The invariants name what is broken, so that
a fuzzer or a decoded state says which rule a position breaks."""

from __future__ import annotations

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import BLUE, EMPTY, GREEN, ISLAND, ORANGE, PINK, YELLOW
from crabgames.games.kraby.state import counted
from tests.kraby.helpers import cell, position

# A free cell at (1, 1) shut in by four tiles: no line to an edge along its row or its column.
WALLED_IN = {(0, 1): ORANGE, (1, 0): GREEN, (1, 2): BLUE, (2, 1): YELLOW}
HOLE = (
    f"cells[{cell(1, 1)}]: is a free cell no tile could ever reach (K4); no legal play leads here"
)


def test_a_position_of_legal_play_breaks_no_invariant():
    state = position(3, {(0, 0): ORANGE, (5, 4): PINK}, hand=[ORANGE] * 6)
    assert GAME.invariant_violations(state) == []
    assert GAME.invariant_violations(position(2, {(1, 1): BLUE})) == []


def test_every_tile_is_counted_on_the_board_in_the_hands_and_in_the_bag():
    state = position(3, {(0, 0): ORANGE, (0, 1): ORANGE})
    # A tile gone from the bag, from the board, or from a hand is missing all the same.
    state.bag = counted(state.bag, GREEN, -1)
    assert GAME.invariant_violations(state) == [
        "bag.green: 23 green tiles in all (board, hands, bag); the game has 24"
    ]
    state = position(3, {(0, 0): ORANGE, (0, 1): ORANGE})
    state.cells[cell(0, 1)] = EMPTY
    state.rebuild_lines()
    assert GAME.invariant_violations(state) == [
        "bag.orange: 23 orange tiles in all (board, hands, bag); the game has 24"
    ]
    state = position(3, hand=[ORANGE] * 5)
    state.hands[0] = counted(state.hands[0], YELLOW, 1)  # a sixth tile, from nowhere
    assert GAME.invariant_violations(state) == [
        "bag.yellow: 25 yellow tiles in all (board, hands, bag); the game has 24"
    ]


def test_with_two_fishers_each_colour_has_20_tiles_and_the_one_sitting_out_none():
    state = position(2)
    state.bag = counted(state.bag, BLUE, 1)
    assert GAME.invariant_violations(state) == [
        "bag.blue: 21 blue tiles in all (board, hands, bag); the game has 20"
    ]
    state = rules.initial_state(2, (PINK, 0))
    state.bag = counted(state.bag, PINK, 1)
    assert GAME.invariant_violations(state) == [
        "bag.pink: 1 pink tiles in all (board, hands, bag); the game has 0"
    ]


def test_the_sand_bar_stays_on_the_centre_cell():
    state = position(3)
    state.cells[ISLAND] = EMPTY
    assert GAME.invariant_violations(state) == [f"cells[{ISLAND}]: must be the island (K1)"]


def test_a_free_cell_with_no_line_to_an_edge_is_named_as_a_hole_k4():
    state = position(3, WALLED_IN)
    assert rules.unfillable_cells(state) == [cell(1, 1)]
    assert GAME.invariant_violations(state) == [HOLE]


def test_a_hand_holds_at_most_six_tiles():
    state = position(3)
    assert sum(state.hands[2]) == 6 and GAME.invariant_violations(state) == []
    state.bag = counted(state.bag, BLUE, -1)
    state.hands[2] = counted(state.hands[2], BLUE, 1)  # drawn once too often
    assert GAME.invariant_violations(state) == ["hands[2]: holds 7 tiles; at most 6"]


def test_every_broken_invariant_is_named_in_order():
    state = position(3, WALLED_IN)
    state.cells[ISLAND] = EMPTY
    state.hands[0] = counted(state.hands[0], ORANGE, 1)
    assert GAME.invariant_violations(state) == [
        "hands[0]: holds 7 tiles; at most 6",
        "bag.orange: 25 orange tiles in all (board, hands, bag); the game has 24",
        f"cells[{ISLAND}]: must be the island (K1)",
        HOLE,
    ]
