"""K6: figures in the holds (docs/rules/kraby.md, "K6: figures in the holds"), the full test of the
rulebook's "Placing a Crab in the Ship's Hold": right after their tile a fisher may put one
figure into a free hold of their ship, provided their ship has no figure of that colour, no other
ship has that colour in that hold, a figure of that colour is still beside the board (3 a colour,
2 with four fishers) and, with four fishers, their ship holds fewer than two. Placing is
optional, and still possible after the very last tile."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import (
    BLUE,
    EMPTY,
    GREEN,
    NORTH,
    ORANGE,
    PINK,
    TILE_OFFSET,
    WEST,
    YELLOW,
)
from crabgames.games.kraby.events import ALL_TILES_PLACED, FigurePlaced, FigureSkipped, GameEnded
from crabgames.games.kraby.moves import SKIP_FIGURE, PlaceFigure, PlaceTile
from crabgames.games.kraby.state import GAME_OVER, PLACE_FIGURE, PLACE_TILE, KrabyState, counted
from tests.kraby.helpers import position, with_count


def after_tile(num_players: int = 3) -> KrabyState:
    state = position(num_players)
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    GAME.apply_chance(state, BLUE)  # draw back to six
    return state


def test_after_placing_a_tile_a_figure_may_go_in_any_free_hold_or_none():
    state = after_tile()
    moves = GAME.legal_moves(state)
    assert SKIP_FIGURE in moves
    assert len(moves) == 5 * 3 + 1
    GAME.apply_move(state, SKIP_FIGURE)
    assert state.turn_player == 1 and state.step == PLACE_TILE


def test_only_one_figure_of_a_colour_per_ship():
    state = after_tile()
    state.ships[0] = (PINK, 0, 0)
    state.figure_supply = counted(state.figure_supply, PINK, -1)
    assert PlaceFigure(PINK, 2) not in GAME.legal_moves(state)
    assert GAME.explain_illegal(state, PlaceFigure(PINK, 2)).rule == "K6"
    assert PlaceFigure(GREEN, 2) in GAME.legal_moves(state)


def test_a_colour_and_multiplier_pair_is_on_at_most_one_ship():
    # "If player A has a pink crab on space x3, then player B can place the pink crab figure only
    # on space x2 or x1."
    state = after_tile()
    state.ships[1] = (0, 0, PINK)
    state.figure_supply = counted(state.figure_supply, PINK, -1)
    moves = GAME.legal_moves(state)
    assert PlaceFigure(PINK, 3) not in moves
    assert PlaceFigure(PINK, 2) in moves and PlaceFigure(PINK, 1) in moves
    assert "x3" in GAME.explain_illegal(state, PlaceFigure(PINK, 3)).reason


def test_a_colour_and_multiplier_pair_is_on_at_most_one_ship_for_every_pair_of_seats():
    # K6: "a colour/multiplier pair (e.g. pink at x3) on at most one ship": whichever ship holds
    # green at x3, seated before or after the fisher placing, green at x3 is taken for them,
    # with 2, 3 and 4 fishers; green at x2 stays free.
    for num_players in (2, 3, 4):
        for owner in range(num_players):
            for player in (p for p in range(num_players) if p != owner):
                state = after_tile(num_players)
                state.ships[owner] = (0, 0, GREEN)
                state.figure_supply = counted(state.figure_supply, GREEN, -1)
                state.turn_player = player  # this fisher's figure decision
                seats = (num_players, owner, player)
                moves = GAME.legal_moves(state)
                assert PlaceFigure(GREEN, 3) not in moves, seats
                assert not GAME.is_legal(state, PlaceFigure(GREEN, 3)), seats
                assert GAME.explain_illegal(state, PlaceFigure(GREEN, 3)).rule == "K6", seats
                assert PlaceFigure(GREEN, 2) in moves, seats


def test_figures_come_only_from_the_supply():
    state = after_tile()
    state.ships[1] = (GREEN, 0, 0)
    state.ships[2] = (0, GREEN, 0)
    state.figure_supply = with_count(state.figure_supply, GREEN, 1)
    assert PlaceFigure(GREEN, 3) in GAME.legal_moves(state)
    state.figure_supply = with_count(state.figure_supply, GREEN, 0)
    assert not any(m != SKIP_FIGURE and m.color == GREEN for m in GAME.legal_moves(state))


def test_with_four_players_a_ship_holds_at_most_two_figures():
    state = after_tile(num_players=4)
    state.ships[0] = (ORANGE, GREEN, 0)
    state.figure_supply = counted(state.figure_supply, ORANGE, -1)
    state.figure_supply = counted(state.figure_supply, GREEN, -1)
    assert GAME.legal_moves(state) == [SKIP_FIGURE]
    assert GAME.explain_illegal(state, PlaceFigure(BLUE, 3)).rule == "K6"


def test_supply_per_player_count():
    assert after_tile(3).figure_supply == (3,) * 5
    assert after_tile(4).figure_supply == (2,) * 5
    assert after_tile(2).figure_supply == (3, 3, 3, 3, 0)  # K2: pink sits out by default


def one_free_cell_left() -> KrabyState:
    """Three fishers, every tile on the board but one, which fisher 0 holds: the only free cell
    is (0, 0), reached from the west along row 0 or from the north along column 0."""
    state = position()
    for seat in range(3):  # every hand back into the bag
        state.bag = tuple(b + h for b, h in zip(state.bag, state.hands[seat], strict=True))
        state.hands[seat] = (0,) * 5
    state.hands[0] = (0, 0, 0, 0, 1)  # the last tile, a pink one
    state.bag = counted(state.bag, PINK, -1)
    colors = (ORANGE, GREEN, BLUE, YELLOW, PINK)
    for cell_index in range(1, len(state.cells)):
        if state.cells[cell_index] == EMPTY:
            color = next(c for c in colors if state.bag[c - 1])
            state.cells[cell_index] = color + TILE_OFFSET
            state.bag = counted(state.bag, color, -1)
            state.turns_taken += 1
    state.rebuild_lines()
    assert sum(state.bag) == 0 and GAME.invariant_violations(state) == []
    return state


def test_a_figure_may_still_be_placed_after_the_very_last_tile():
    # "In a given turn a player may put only one crab on the ship, and he must do so at the
    # latest in his last move": the last tile leaves nothing to draw, and the figure comes next.
    state = one_free_cell_left()
    GAME.apply_move(state, PlaceTile(WEST, 0, PINK))
    assert state.step == PLACE_FIGURE and state.turn_player == 0
    assert PlaceFigure(PINK, 3) in GAME.legal_moves(state)
    events = GAME.apply_move(state, PlaceFigure(PINK, 3))
    assert events[0] == FigurePlaced(0, PINK, 3, 2)  # 3 pink figures with 3 fishers
    assert events[-1] == GameEnded(ALL_TILES_PLACED)
    assert state.ships[0] == (0, 0, PINK)
    outcome = GAME.outcome(state)
    pink = outcome.species[4].points
    assert outcome.fishers[0].contributions == ((PINK, 3, pink),)
    assert outcome.fishers[0].total == 3 * pink


def test_after_the_very_last_tile_the_figure_may_also_be_skipped_and_the_game_ends():
    state = one_free_cell_left()
    GAME.apply_move(state, PlaceTile(NORTH, 0, PINK))
    assert SKIP_FIGURE in GAME.legal_moves(state)
    assert GAME.apply_move(state, SKIP_FIGURE)[-1] == GameEnded(ALL_TILES_PLACED)
    assert state.step == GAME_OVER and state.ships[0] == (0, 0, 0)


def test_with_two_or_three_players_a_ship_holds_three_figures():
    # K6: the limit of two figures a ship is for four players only; with fewer, all three
    # holds may be filled.
    for num_players in (2, 3):
        state = after_tile(num_players)
        state.ships[0] = (ORANGE, GREEN, 0)
        state.figure_supply = counted(state.figure_supply, ORANGE, -1)
        state.figure_supply = counted(state.figure_supply, GREEN, -1)
        assert PlaceFigure(BLUE, 3) in GAME.legal_moves(state)
        GAME.apply_move(state, PlaceFigure(BLUE, 3))
        assert state.ships[0] == (ORANGE, GREEN, BLUE)


def test_a_placed_figure_leaves_the_supply_and_a_skipped_one_is_said_so():
    state = after_tile()
    supply = state.figure_supply
    events = GAME.apply_move(state, PlaceFigure(GREEN, 2))
    assert events[0] == FigurePlaced(0, GREEN, 2, 2)
    assert state.figure_supply == counted(supply, GREEN, -1)
    assert GAME.invariant_violations(state) == []
    # Fisher 1's turn: a tile (the second of the game), the draw, then no figure.
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    assert state.turns_taken == 2
    GAME.apply_chance(state, BLUE)
    assert GAME.apply_move(state, SKIP_FIGURE)[0] == FigureSkipped(1)
