"""Placing a crab in the ship's hold (K6)."""

from __future__ import annotations

from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.rules import SKIP_FIGURE, PlaceFigure, PlaceTile
from tests.kraby.helpers import BLUE, GREEN, ORANGE, PINK, WEST, position, with_count


def after_tile(num_players: int = 3) -> rules.KrabyState:
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
    assert state.turn_player == 1 and state.step == rules.PLACE_TILE


def test_only_one_figure_of_a_colour_per_ship():
    state = after_tile()
    state.ships[0] = (PINK, 0, 0)
    state.figure_supply = rules.counted(state.figure_supply, PINK, -1)
    assert PlaceFigure(PINK, 2) not in GAME.legal_moves(state)
    assert GAME.explain_illegal(state, PlaceFigure(PINK, 2)).rule == "K6"
    assert PlaceFigure(GREEN, 2) in GAME.legal_moves(state)


def test_a_colour_and_multiplier_pair_is_on_at_most_one_ship():
    # "If player A has a pink crab on space x3, then player B can place the pink crab figure only
    # on space x2 or x1."
    state = after_tile()
    state.ships[1] = (0, 0, PINK)
    state.figure_supply = rules.counted(state.figure_supply, PINK, -1)
    moves = GAME.legal_moves(state)
    assert PlaceFigure(PINK, 3) not in moves
    assert PlaceFigure(PINK, 2) in moves and PlaceFigure(PINK, 1) in moves
    assert "x3" in GAME.explain_illegal(state, PlaceFigure(PINK, 3)).reason


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
    state.figure_supply = rules.counted(state.figure_supply, ORANGE, -1)
    state.figure_supply = rules.counted(state.figure_supply, GREEN, -1)
    assert GAME.legal_moves(state) == [SKIP_FIGURE]
    assert GAME.explain_illegal(state, PlaceFigure(BLUE, 3)).rule == "K6"


def test_when_no_figure_can_be_placed_the_turn_passes_on_by_itself():
    state = position(num_players=4)
    state.ships[0] = (ORANGE, GREEN, 0)
    state.figure_supply = rules.counted(state.figure_supply, ORANGE, -1)
    state.figure_supply = rules.counted(state.figure_supply, GREEN, -1)
    GAME.apply_move(state, PlaceTile(WEST, 5, ORANGE))
    GAME.apply_chance(state, BLUE)
    assert state.turn_player == 1 and state.step == rules.PLACE_TILE


def test_supply_per_player_count():
    assert after_tile(3).figure_supply == (3,) * 5
    assert after_tile(4).figure_supply == (2,) * 5
    assert after_tile(2).figure_supply == (3, 3, 3, 3, 0)  # K2: pink sits out by default
