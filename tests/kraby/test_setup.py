"""Setup by number of fishers: the playing area (K1), the tiles and figures in play (K2, K6), and
the option choosing which colour sits out with two players (K2). The rulebook's "Setup"."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
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
    TILE_OFFSET,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.moves import PlaceTile
from crabgames.games.kraby.state import DEAL, DRAW, GAME_OVER
from crabgames.v1 import kraby_pb2
from crabgames.v1 import kraby_pb2 as pb
from tests.kraby.helpers import cell, listed, position

COLOR_FIELDS = ("orange", "green", "blue", "yellow", "pink")


def tiles_in_game(state) -> dict[str, int]:
    """Every tile of a fresh game by colour: the bag and all the hands (none on the board yet)."""
    kraby = state.kraby
    return {
        name: getattr(kraby.bag, name) + sum(getattr(hand, name) for hand in kraby.hands)
        for name in COLOR_FIELDS
    }


def new_game(engine, num_players: int, **options):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(**options), num_players, seed=4)
    return state


# ----- the playing area (K1) -----


def test_two_players_use_the_central_nine_by_nine_and_its_80_free_cells():
    # "The game is played on the light (central) part of the board" (K1: rows and columns 1..9).
    state = rules.set_up(2, PINK, 0)
    inside = {cell(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)}
    assert [i for i in range(CELLS) if state.cells[i] == OFF_BOARD] == sorted(
        set(range(CELLS)) - inside
    )
    assert state.cells.count(EMPTY) == 80 == len(inside) - 1  # the island is the 81st cell
    assert rules.set_up(3, PINK, 0).cells.count(EMPTY) == 120
    assert rules.set_up(4, PINK, 0).cells.count(OFF_BOARD) == 0


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


# ----- tiles and figures in play (K2, K6) -----


def test_two_players_use_80_tiles_20_per_colour():
    # "With two players, put 80 crab tiles (20 in each of 4 colors) into the bag."
    state = rules.set_up(2, PINK, 0)
    assert state.bag == (20, 20, 20, 20, 0)
    assert sum(state.bag) == 80


@pytest.mark.parametrize("num_players", (3, 4))
def test_three_and_four_players_use_all_120_tiles(num_players):
    # "With three players, put all the crab tiles (120) into the bag" (and with four).
    assert rules.set_up(num_players, PINK, 0).bag == (24,) * 5


def test_a_new_two_player_game_holds_80_tiles_dealt_six_to_each_fisher(engine):
    state = new_game(engine, 2)
    assert tiles_in_game(state) == {
        "orange": 20,
        "green": 20,
        "blue": 20,
        "yellow": 20,
        "pink": 0,
    }
    assert [sum(getattr(h, c) for c in COLOR_FIELDS) for h in state.kraby.hands] == [6, 6]
    assert sum(getattr(state.kraby.bag, c) for c in COLOR_FIELDS) == 80 - 12


def test_a_two_player_state_with_a_24th_tile_of_a_colour_is_refused(engine):
    state = new_game(engine, 2)
    state.kraby.bag.orange += 1
    with pytest.raises(InvalidArgument) as caught:
        engine.decode(state)
    violation = caught.value.violations[0]
    assert (
        violation.field == "state.kraby.bag.orange" and "the game has 20" in violation.description
    )


@pytest.mark.parametrize(
    ("num_players", "figures"),
    [(2, (3, 3, 3, 3, 0)), (3, (3, 3, 3, 3, 3)), (4, (2, 2, 2, 2, 2))],
)
def test_figures_next_to_the_board_by_number_of_fishers(num_players, figures):
    # Two players: 12 figures, 3 in each colour in the bag; three: all 15; four: 10, 2 each.
    assert rules.set_up(num_players, PINK, 0).figure_supply == figures


# ----- which colour sits out with two players (K2) -----


@pytest.mark.parametrize(
    ("excluded", "name"),
    [(ORANGE, "orange"), (GREEN, "green"), (BLUE, "blue"), (YELLOW, "yellow"), (PINK, "pink")],
)
def test_the_option_chooses_which_colour_sits_out_with_two_players(engine, excluded, name):
    state = new_game(engine, 2, excluded_color=excluded)
    counts = tiles_in_game(state)
    assert counts == {c: (0 if c == name else 20) for c in COLOR_FIELDS}
    supply = state.kraby.figure_supply
    assert {c: getattr(supply, c) for c in COLOR_FIELDS} == {
        c: (0 if c == name else 3) for c in COLOR_FIELDS
    }


def test_the_colour_that_sits_out_is_pink_by_default():
    # K2: default pink, as in the option's description.
    assert [o.default for o in GAME.facts.options if o.name == "excluded_color"] == ["pink"]
    assert rules.set_up(2, PINK, 0).bag == (20, 20, 20, 20, 0)


def test_the_colour_that_sits_out_is_pink_when_the_option_is_not_set(engine):
    counts = tiles_in_game(new_game(engine, 2))
    assert counts["pink"] == 0 and counts["blue"] == 20


@pytest.mark.parametrize("num_players", (3, 4))
def test_with_three_or_four_players_no_colour_sits_out_whatever_the_option(engine, num_players):
    state = new_game(engine, num_players, excluded_color=BLUE)
    assert tiles_in_game(state) == dict.fromkeys(COLOR_FIELDS, 24)
    assert rules.set_up(num_players, BLUE, 0).bag == (24,) * 5


def test_the_colour_that_sits_out_never_enters_a_two_player_game(engine):
    # Played to the end with blue sitting out: no blue tile is ever dealt, drawn or placed.
    state = rules.set_up(2, BLUE, 0)
    moves = 0
    while state.step != GAME_OVER:
        if state.step in (DEAL, DRAW):
            outcomes = GAME.chance_outcomes(state)
            assert BLUE not in [c for c, _ in outcomes]
            GAME.apply_chance(state, outcomes[moves % len(outcomes)][0])
        else:
            legal = GAME.legal_moves(state)
            assert not any(getattr(m, "color", None) == BLUE for m in legal)
            GAME.apply_move(state, legal[moves % len(legal)])
        moves += 1
    assert pb.KRABY_CELL_BLUE not in state.cells
    assert sum(state.cells.count(c + TILE_OFFSET) for c in (ORANGE, GREEN, YELLOW, PINK))


def test_a_new_two_player_state_keeps_the_colour_that_sits_out():
    state = rules.set_up(2, BLUE, 1)
    assert (state.excluded_color, state.first_player) == (BLUE, 1)
    assert GAME.invariant_violations(state) == []
    assert GAME.invariant_violations(rules.set_up(2, PINK, 0)) == []
